/**
 * Where one request of a pool goes: a pure choice among the pool's servers, from what Atelier
 * knows of each (its own requests in flight there, the server's own queue, how fast it has been,
 * whether it is down, and which models and node classes it has). No network, no clock: the pool
 * keeps that knowledge up to date (state.ts) and asks here once per request, so a fan-out of 64
 * asks 64 times and each answer must be cheap (bench/pool.bench.ts: at most 0.1 ms with 16 servers).
 */

/** What a request needs a server to have; empty lists need nothing. Names as the server spells them. */
export interface PlacementNeeds {
  checkpoints: readonly string[];
  loras: readonly string[];
  controlnets: readonly string[];
  /** ComfyUI node classes of the prompt graph (`KSampler`, `ControlNetApplyAdvanced`). */
  nodeClasses: readonly string[];
}

/** The kinds of name a server can lack, as a person reads them. */
export type NeedKind = keyof PlacementNeeds;

/**
 * What a server has. A list left out is not known (the server did not say, or has not been
 * asked yet): it excludes nothing, and the server's own answer tells the person what is missing.
 */
export type ServerHoldings = Partial<Record<NeedKind, ReadonlySet<string>>>;

/** One server of the pool as placement sees it. */
export interface ServerView {
  /** Stable within the pool (its position in the settings' list). */
  id: number;
  /** As the person named it ("desk GPU"); never its address. */
  label: string;
  down: boolean;
  /** Atelier's own requests sent there and not finished. */
  inFlight: number;
  /** The server's own queue as last read (ComfyUI `GET /queue`, AUTOMATIC1111 busy = 1); 0 when not known. */
  queued: number;
  /** Recent milliseconds per image; undefined until it has made one. */
  msPerImage?: number;
  holds: ServerHoldings;
}

/** A name one server lacks. */
export interface Missing {
  server: string;
  kind: NeedKind;
  name: string;
}

/** The chosen server, or why none can take the request (said before anything is sent). */
export type Placement =
  | { ok: true; server: ServerView }
  | { ok: false; reason: string; missing: Missing[]; down: string[] };

const KIND_WORD: Record<NeedKind, string> = {
  checkpoints: 'checkpoint',
  loras: 'LoRA',
  controlnets: 'ControlNet model',
  nodeClasses: 'node class',
};
const KINDS = Object.keys(KIND_WORD) as NeedKind[];

/** Needs nothing: a request with no model named (the pool's configured checkpoint is assumed everywhere). */
export const NO_NEEDS: PlacementNeeds = { checkpoints: [], loras: [], controlnets: [], nodeClasses: [] };

/** The names `server` lacks for `needs`; empty when it can take the request. */
export function missingOn(server: ServerView, needs: PlacementNeeds): Missing[] {
  let missing: Missing[] | undefined;
  for (const kind of KINDS) {
    const held = server.holds[kind];
    if (held === undefined) continue;
    for (const name of needs[kind]) {
      if (!held.has(name)) (missing ??= []).push({ server: server.label, kind, name });
    }
  }
  return missing ?? [];
}

/**
 * Whether `a` will start a new request sooner than `b`: fewer of Atelier's requests in flight,
 * then a shorter queue of the server's own, then a faster recent time per image (a server with no
 * time yet counts as fast, so a new server is tried). Ties keep the settings' order.
 */
function sooner(a: ServerView, b: ServerView): boolean {
  if (a.inFlight !== b.inFlight) return a.inFlight < b.inFlight;
  if (a.queued !== b.queued) return a.queued < b.queued;
  const ta = a.msPerImage ?? 0;
  const tb = b.msPerImage ?? 0;
  if (ta !== tb) return ta < tb;
  return a.id < b.id;
}

/**
 * The server that will start the request soonest among those that are up and hold everything it
 * needs; or, when there is none, a reason naming what is missing where and which servers are down.
 */
export function place(servers: readonly ServerView[], needs: PlacementNeeds = NO_NEEDS): Placement {
  let best: ServerView | undefined;
  for (const server of servers) {
    if (server.down || (best !== undefined && !sooner(server, best))) continue;
    if (missingOn(server, needs).length === 0) best = server;
  }
  if (best) return { ok: true, server: best };
  return refusal(servers, needs);
}

function refusal(servers: readonly ServerView[], needs: PlacementNeeds): Placement {
  const missing: Missing[] = [];
  const down: string[] = [];
  const able: string[] = [];
  for (const server of servers) {
    const lacks = missingOn(server, needs);
    missing.push(...lacks);
    if (lacks.length === 0) able.push(server.label);
    if (server.down) down.push(server.label);
  }
  if (servers.length === 0) return { ok: false, reason: 'the pool has no servers', missing, down };
  const parts: string[] = [];
  if (missing.length > 0) {
    const lines = servers
      .map((s) => [s.label, missing.filter((m) => m.server === s.label)] as const)
      .filter(([, lacks]) => lacks.length > 0)
      .map(([label, lacks]) => `${label} lacks ${lacks.map((m) => `${KIND_WORD[m.kind]} '${m.name}'`).join(', ')}`);
    parts.push(lines.join('; '));
  }
  if (able.length > 0) parts.push(`${able.join(', ')} ${able.length === 1 ? 'has' : 'have'} everything but ${able.length === 1 ? 'is' : 'are'} down`);
  else if (down.length > 0) parts.push(`down: ${down.join(', ')}`);
  return { ok: false, reason: `no server can take this request: ${parts.join('; ')}`, missing, down };
}

/** The placement needs of a backend's list of needed names (checkpoints, LoRAs, ControlNets; the rest no server lacks alone). */
export function needsOf(names: readonly { list: string; name: string }[], nodeClasses: readonly string[] = []): PlacementNeeds {
  const pick = (list: string) => names.filter((n) => n.list === list).map((n) => n.name);
  return { checkpoints: pick('checkpoints'), loras: pick('loras'), controlnets: pick('controlnets'), nodeClasses };
}
