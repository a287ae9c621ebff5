/**
 * The servers of a pool in Settings → Image backend (ComfyUI, AUTOMATIC1111): the first is the
 * Base URL above with its credential; "Add server" adds more, each with a label (what the run
 * panel and every image's record name it by, never its address), a URL and its own optional
 * credential. Requests of a run then go to whichever server will start them soonest.
 */
import type { BackendFields, ServerRow } from './backend-types';
import { newRowId, serverLabel } from './backend-pool';
import { CommitInput } from './CommitInput';
import { Field } from './Field';
import { urlError } from './url-error';

export interface PoolServersProps {
  /** The backend's name ("ComfyUI"). */
  label: string;
  fields: BackendFields;
  /** The credential's name ("Password"), when the backend takes one. */
  credentialLabel?: string;
  credentialOf(rowId: string): string;
  onFields(change: Partial<BackendFields>): void;
  onCredential(rowId: string, value: string): void;
}

export function PoolServers({ label, fields, credentialLabel, credentialOf, onFields, onCredential }: PoolServersProps) {
  const rows = fields.servers ?? [];
  const set = (i: number, change: Partial<ServerRow>) => onFields({ servers: rows.map((row, j) => (j === i ? { ...row, ...change } : row)) });
  const remove = (i: number) => {
    const row = rows[i];
    if (row !== undefined) onCredential(row.id, '');
    const rest = rows.filter((_, j) => j !== i);
    onFields(rest.length === 0 ? { servers: [], label: '' } : { servers: rest });
  };
  return (
    <fieldset className="backend-pool">
      <legend>Servers</legend>
      <p className="field-hint">
        More {label} servers share a run: each request goes to the one that will start it soonest, never to one that lacks its model. The
        first is the Base URL above.
      </p>
      {rows.length > 0 && (
        <Field label="Label of server 1" hint="How the run panel and each image's record name it (never its address).">
          {(id, describedBy) => <CommitInput id={id} className="input" value={fields.label ?? ''} placeholder={serverLabel({ ...fields, label: '' }, 0)} maxLength={60} aria-describedby={describedBy} onCommit={(v) => onFields({ label: v })} />}
        </Field>
      )}
      {rows.map((row, i) => {
        const n = i + 2;
        const urlProblem = row.url.trim() === '' ? `Server ${n} needs a URL` : urlError(row.url);
        return (
          <div key={row.id} className="backend-pool-row" role="group" aria-label={`Server ${n}`}>
            <CommitInput className="input" aria-label={`Label of server ${n}`} value={row.label} placeholder={`server ${n}`} maxLength={60} onCommit={(v) => set(i, { label: v })} />
            <CommitInput className="input" type="url" aria-label={`URL of server ${n}`} value={row.url} placeholder="http://192.168.1.20:8188" spellCheck={false}
              aria-invalid={urlProblem !== undefined} onCommit={(v) => set(i, { url: v })} />
            {credentialLabel !== undefined && (
              <CommitInput className="input" type="password" autoComplete="off" aria-label={`${credentialLabel} of server ${n}`} value={credentialOf(row.id)} placeholder="(none)"
                onCommit={(v) => onCredential(row.id, v)} />
            )}
            <button type="button" className="button icon" aria-label={`Remove server ${n}`} onClick={() => remove(i)}>×</button>
            {urlProblem !== undefined && <p className="field-issue">{urlProblem}</p>}
          </div>
        );
      })}
      <button type="button" className="button" onClick={() => onFields({ servers: [...rows, { id: newRowId(rows), label: '', url: '' }] })}>Add server</button>
    </fieldset>
  );
}
