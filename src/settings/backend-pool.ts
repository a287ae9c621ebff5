/**
 * A pool in the Image backend settings: a backend whose description sets `pool` (ComfyUI,
 * AUTOMATIC1111) may list more servers after the one at its base URL, each with a label, an
 * address and its own optional credential. The first server is the base URL and its credential
 * field, so one server is exactly the backend as it always was. Credentials are stored with the
 * others (for the session unless remembered), under the row's own id, never in the row.
 */
import type { PoolServer } from '../../api/backends/config';
import { defaultServerLabel } from '../../api/backends/pool/servers';
import { BACKEND_DESCRIPTION } from '../../api/backends/registry';
import { checkBaseUrl } from './base-url';
import type { BackendCredentials, BackendFields, RemoteKind, ServerRow } from './backend-types';

/** Where a pool server's own credential is stored: after its slot's key, by the row's id. */
export const serverCredentialKey = (slotKey: string, rowId: string): string => `${slotKey}@${rowId}`;

/** Whether `kind` takes a list of servers. */
export const takesPool = (kind: RemoteKind): boolean => BACKEND_DESCRIPTION[kind].pool === true;

const ROW_ID = /^[a-z0-9]{1,16}$/;

/** A new row's id, unique among `rows`. */
export function newRowId(rows: readonly ServerRow[], random: () => number = Math.random): string {
  for (;;) {
    const id = Math.floor(random() * 36 ** 8).toString(36);
    if (ROW_ID.test(id) && !rows.some((row) => row.id === id)) return id;
  }
}

/** The rows storage holds, anything of the wrong shape dropped. */
export function readServerRows(raw: unknown, text: (v: unknown) => string): ServerRow[] {
  if (!Array.isArray(raw)) return [];
  const rows: ServerRow[] = [];
  for (const item of raw.slice(0, 31)) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, label, url } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !ROW_ID.test(id) || rows.some((row) => row.id === id)) continue;
    rows.push({ id, label: text(label).slice(0, 60), url: text(url) });
  }
  return rows;
}

/** The label server `position` (0 for the base URL's) goes by. */
export function serverLabel(fields: BackendFields, position: number): string {
  const typed = position === 0 ? fields.label : fields.servers?.[position - 1]?.label;
  return typed?.trim() || defaultServerLabel(position);
}

export interface ResolvedPool {
  /** Every server, the first at `firstUrl`; undefined when the fields hold no more than one. */
  servers?: PoolServer[];
  /** Each server's credential, by position (the first's is the slot's own). */
  credentials: (string | undefined)[];
  problems: string[];
}

/**
 * The servers of a pool's fields, their credentials and what stops a run (a row without a usable
 * URL, two rows of one label), each naming the server and where to fix it.
 */
export function resolvePool(kind: RemoteKind, fields: BackendFields, firstUrl: string, slotKey: string, credentials: BackendCredentials, where: string): ResolvedPool {
  const rows = fields.servers ?? [];
  const first = credentials[slotKey];
  if (!takesPool(kind) || rows.length === 0) return { credentials: [first], problems: [] };
  const { label } = BACKEND_DESCRIPTION[kind];
  const problems: string[] = [];
  const servers: PoolServer[] = [{ label: serverLabel(fields, 0), url: firstUrl }];
  const own: (string | undefined)[] = [first];
  rows.forEach((row, i) => {
    const name = serverLabel(fields, i + 1);
    const url = row.url.trim() === '' ? { ok: false as const, reason: 'is empty' } : checkBaseUrl(row.url);
    if (!url.ok) problems.push(`the URL of ${label} server ${i + 2} (${name}) ${url.reason}: correct it or remove the server ${where}`);
    else {
      servers.push({ label: name, url: url.url });
      own.push(credentials[serverCredentialKey(slotKey, row.id)]);
    }
  });
  const seen = new Set<string>();
  for (const server of [serverLabel(fields, 0), ...rows.map((_, i) => serverLabel(fields, i + 1))]) {
    if (seen.has(server)) problems.push(`two ${label} servers are labelled '${server}': give each its own label ${where}`);
    seen.add(server);
  }
  return { servers, credentials: own, problems };
}
