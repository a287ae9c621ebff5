/**
 * One backend's settings in the Image backend section: its base URL, its credential, what it
 * needs to be reached from this browser, and the backend-side names (checkpoints, refiner, asset
 * files, or OpenAI's model) with suggestions from the backend itself.
 */
import { useId, type ReactNode } from 'react';
import { DEFAULT_BASE_URL } from '../../api/backends/defaults';
import { BACKEND_LABEL } from '../../api/backends/types';
import { corsFlag } from '../../api/backends/unanswered';
import { ENGINE_LABEL, PUBLIC_CONTROLNETS, type EngineId } from '../../api/catalog';
import { urlError } from './url-error';
import { assetFiles, describeNames, useBackendNames } from './backend-names';
import { TAKES_FILES, backendUrl, type AssetRow, type BackendFields, type RemoteKind } from './backend-settings';
import { CommitInput } from './CommitInput';
import { Field } from './Field';

const CREDENTIAL: Record<RemoteKind, { label: string; hint: string }> = {
  comfyui: { label: 'Proxy token (optional)', hint: 'ComfyUI has no accounts: set this only for a proxy in front of it. Sent as Authorization: Bearer to this base URL only.' },
  a1111: { label: 'User:password (optional)', hint: 'Only when it was started with --api-auth user:password. Sent as HTTP basic authentication to this base URL only.' },
  openai: { label: 'API key', hint: 'Sent as Authorization: Bearer to this base URL only.' },
  google: { label: 'API key', hint: 'A Gemini API key from Google AI Studio (aistudio.google.com/apikey). Sent in the x-goog-api-key header to this base URL only, never in a URL.' },
};

/** What the backend must allow before this page can call it, with this page's origin filled in (the flag its errors name too). */
function directUse(kind: RemoteKind, origin: string): ReactNode {
  switch (kind) {
    case 'comfyui':
      return <>From this browser, ComfyUI must allow this page: start it with <code>{corsFlag(kind, origin)}</code>, or it answers 403.</>;
    case 'a1111':
      return <>Start it with <code>--api</code>, and for this browser <code>{corsFlag(kind, origin)}</code>.</>;
    case 'openai':
      return (
        <>The key is kept in this browser, where anyone using this browser profile can read it: prefer the route through this server
          (<code>ATELIER_IMAGE_BACKEND=openai</code>, <code>ATELIER_BACKEND_TOKEN</code>), or use a project key with a spending limit.
          A compatible server (LocalAI) must allow this page: <code>{corsFlag(kind, origin)}</code>.</>
      );
    case 'google':
      return (
        <>The Gemini API answers browsers from any page, but the key is then kept in this browser, where anyone using this browser
          profile (or an extension) can read it: prefer the route through this server (<code>ATELIER_IMAGE_BACKEND=google</code>,
          {' '}<code>ATELIER_BACKEND_TOKEN</code>), or use a key whose project has a spending cap.</>
      );
  }
}

export interface FieldsEditorProps {
  kind: RemoteKind;
  fields: BackendFields;
  credential: string;
  /** The engines whose checkpoint is set here: every engine for "all engines", else its own. */
  engines: readonly EngineId[];
  onFields(change: Partial<BackendFields>): void;
  onCredential(value: string): void;
}

export function BackendFieldsEditor({ kind, fields, credential, engines, onFields, onCredential }: FieldsEditorProps) {
  const label = BACKEND_LABEL[kind];
  const url = backendUrl(kind, fields);
  const names = useBackendNames(kind, url.ok ? url.url : undefined, credential);
  const listed = names.state?.status === 'known' ? names.state.names : {};
  const ids = { checkpoints: useId(), files: useId(), assets: useId(), models: useId() };
  const ask = () => names.ask();
  const suggest = (list: string, id: string, options: readonly string[] | undefined) => (
    <datalist id={id} data-list={list}>{(options ?? []).map((o) => <option key={o} value={o} />)}</datalist>
  );

  return (
    <>
      <Field label="Base URL" hint={`Empty: ${DEFAULT_BASE_URL[kind]}`} error={urlError(fields.baseUrl)}>
        {(id, describedBy) => <CommitInput id={id} className="input" type="url" value={fields.baseUrl} placeholder={DEFAULT_BASE_URL[kind]} spellCheck={false} aria-describedby={describedBy} onCommit={(v) => onFields({ baseUrl: v })} />}
      </Field>
      <Field label={CREDENTIAL[kind].label} hint={CREDENTIAL[kind].hint}>
        {(id, describedBy) => <CommitInput id={id} className="input" type="password" autoComplete="off" value={credential} aria-describedby={describedBy} onCommit={onCredential} />}
      </Field>
      <p className={kind === 'openai' || kind === 'google' ? 'field-issue' : 'field-hint'}>{directUse(kind, window.location.origin)}</p>

      {TAKES_FILES[kind] ? (
        <>
          {engines.map((engine) => (
            <Field key={engine} label={`Checkpoint for ${ENGINE_LABEL[engine]}`}>
              {(id, describedBy) => (
                <CommitInput id={id} className="input" list={ids.checkpoints} spellCheck={false} aria-describedby={describedBy} value={fields.checkpoints[engine] ?? ''} onFocus={ask}
                  onCommit={(v) => onFields({ checkpoints: { ...fields.checkpoints, [engine]: v } })} />
              )}
            </Field>
          ))}
          <Field label="Refiner checkpoint" hint="For SDXL's Use refiner.">
            {(id, describedBy) => <CommitInput id={id} className="input" list={ids.checkpoints} spellCheck={false} aria-describedby={describedBy} value={fields.refiner} onFocus={ask} onCommit={(v) => onFields({ refiner: v })} />}
          </Field>
          <AssetRows label={label} rows={fields.assets} nameList={ids.assets} fileList={ids.files} onFocus={ask} onChange={(assets) => onFields({ assets })} />
          {suggest('checkpoints', ids.checkpoints, listed.checkpoints)}
          {suggest('files', ids.files, assetFiles(listed))}
          {suggest('assets', ids.assets, PUBLIC_CONTROLNETS)}
        </>
      ) : (
        <Field label="Model" hint="gpt-image-1 when empty; a compatible server's own model names work too.">
          {(id, describedBy) => (
            <>
              <CommitInput id={id} className="input" list={ids.models} spellCheck={false} placeholder="gpt-image-1" aria-describedby={describedBy} value={fields.model} onFocus={ask} onCommit={(v) => onFields({ model: v })} />
              {suggest('models', ids.models, listed.models)}
            </>
          )}
        </Field>
      )}

      <div className="backend-names" aria-live="polite">
        {names.state?.status === 'asking' && <p className="muted">Asking {label}…</p>}
        {names.state?.status === 'known' && <p className="ok-text">{label} lists {describeNames(names.state.names)}: they are suggested in the fields above.</p>}
        {names.state?.status === 'failed' && <p className="field-issue">Could not ask {label}: {names.state.reason}</p>}
        <button type="button" className="button" disabled={!url.ok || names.state?.status === 'asking'} onClick={() => names.ask(true)}>
          Ask {label} what it has
        </button>
      </div>
    </>
  );
}

function AssetRows({ label, rows, nameList, fileList, onFocus, onChange }: { label: string; rows: AssetRow[]; nameList: string; fileList: string; onFocus(): void; onChange(rows: AssetRow[]): void }) {
  const set = (i: number, change: Partial<AssetRow>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <fieldset className="backend-assets">
      <legend>Asset files</legend>
      <p className="field-hint">Which {label} file each asset name in a workflow stands for (svc:canny_sdxl → diffusers_xl_canny_full.safetensors). A name not listed is sent as it is, without svc:.</p>
      {rows.map((row, i) => (
        <div key={i} className="backend-asset-row">
          <CommitInput className="input" aria-label={`Asset name ${i + 1}`} list={nameList} spellCheck={false} placeholder="svc:canny_sdxl" value={row.name} onCommit={(v) => set(i, { name: v })} />
          <span aria-hidden="true">→</span>
          <CommitInput className="input" aria-label={`File for asset ${i + 1}`} list={fileList} spellCheck={false} value={row.file} onFocus={onFocus} onCommit={(v) => set(i, { file: v })} />
          <button type="button" className="button icon" aria-label={`Remove asset ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>×</button>
        </div>
      ))}
      <button type="button" className="button" onClick={() => onChange([...rows, { name: '', file: '' }])}>Add asset file</button>
    </fieldset>
  );
}
