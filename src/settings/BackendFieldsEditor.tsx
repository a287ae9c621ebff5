/**
 * One backend's settings in the Image backend section: its base URL, its credential, what it
 * needs to be reached from this browser, and the backend-side names its description lists
 * (checkpoints, refiner, asset files, a model) with suggestions from the backend itself.
 */
import { Fragment, lazy, Suspense, useId } from 'react';
import { nameDefault, type NameField } from '../../api/backends/describe';
import { BACKEND_DESCRIPTION } from '../../api/backends/registry';
import type { BackendNames } from '../../api/backends/types';
import { ENGINE_LABEL, PUBLIC_CONTROLNETS, type EngineId } from '../../api/catalog';
import { suggestion } from '../../api/backends/known-names';
import { urlError } from './url-error';
import { describeNames, useBackendNames } from './backend-names';
import { codeParts } from './backend-choices';
import { backendUrl, nameChange, nameValue, type AssetRow, type BackendFields, type RemoteKind, type TextNameField } from './backend-settings';
import { CommitInput } from './CommitInput';
import { Field } from './Field';

// A pool's server rows load when a backend that takes several servers is first shown.
const PoolServers = lazy(() => import('./PoolServers').then((m) => ({ default: m.PoolServers })));

/** Words with `code` in backticks, shown with the code as code. */
function Words({ text }: { text: string }) {
  return <>{codeParts(text).map((part, i) => (part.code ? <code key={i}>{part.text}</code> : part.text))}</>;
}

/** What the backend must allow before this page can call it, with this page's origin filled in. */
function DirectUse({ kind }: { kind: RemoteKind }) {
  const { browser } = BACKEND_DESCRIPTION[kind];
  if (!browser.direct) return <p className="field-issue">Not from this browser: <Words text={browser.why} /></p>;
  const allow = browser.allowOrigin(window.location.origin);
  return <p className={browser.caution === undefined ? 'field-hint' : 'field-issue'}><Words text={browser.caution === undefined ? allow : `${browser.caution} ${allow}`} /></p>;
}

/** The suggestions a name field offers, from what the backend listed. */
function suggestions(field: NameField, listed: BackendNames): string[] {
  return (field.suggestFrom ?? []).flatMap((list) => listed[list] ?? []);
}

/** Checkpoint fields name files the backend lists in full, so a name it lacks can be flagged (a hosted provider's model list need not be whole). */
const checksFiles = (field: NameField) => field.key === 'checkpoint' || field.key === 'refiner';

/** A name the backend's list lacks, with the file it likely means; nothing while the list is not known. */
function notListed(label: string, what: string, name: string | undefined, names: readonly string[] | undefined): string | undefined {
  const value = name?.trim() ?? '';
  if (value === '' || names === undefined || names.includes(value)) return undefined;
  return `${label} has no ${what} '${value}': a run would stop before sending; ${suggestion(value, names)}`;
}

export interface FieldsEditorProps {
  kind: RemoteKind;
  fields: BackendFields;
  credential: string;
  /** The engines whose per-engine names are set here: every engine for "all engines", else its own. */
  engines: readonly EngineId[];
  onFields(change: Partial<BackendFields>): void;
  onCredential(value: string): void;
  /** A pool server's own credential (by its row's id), for a backend that takes several servers. */
  serverCredential?(rowId: string): string;
  onServerCredential?(rowId: string, value: string): void;
}

export function BackendFieldsEditor({ kind, fields, credential, engines, onFields, onCredential, serverCredential, onServerCredential }: FieldsEditorProps) {
  const description = BACKEND_DESCRIPTION[kind];
  const { label } = description;
  const url = backendUrl(kind, fields);
  const names = useBackendNames(kind, url.ok ? url.url : undefined, credential);
  const listed = names.state?.status === 'known' ? names.state.names : {};
  const listId = useId();
  const ask = () => names.ask();
  const suggest = (field: NameField) => (
    <datalist id={`${listId}-${field.key}`} data-list={field.key}>{suggestions(field, listed).map((o) => <option key={o} value={o} />)}</datalist>
  );

  const textField = (field: TextNameField, engine: EngineId) => {
    const placeholder = nameDefault(field, engine);
    return (
      <Field key={`${field.key}-${engine}`} label={field.perEngine === true ? `${field.label} for ${ENGINE_LABEL[engine]}` : field.label} {...(field.hint === undefined ? {} : { hint: field.hint })}
        error={checksFiles(field) ? notListed(label, 'checkpoint', nameValue(fields, field, engine), listed.checkpoints) : undefined}>
        {(id, describedBy) => (
          <CommitInput id={id} className="input" list={`${listId}-${field.key}`} spellCheck={false} aria-describedby={describedBy} value={nameValue(fields, field, engine)}
            {...(placeholder === undefined ? {} : { placeholder })} onFocus={ask} onCommit={(v) => onFields(nameChange(fields, field, engine, v))} />
        )}
      </Field>
    );
  };

  return (
    <>
      <Field label="Base URL" hint={`Empty: ${description.defaultBaseUrl}`} error={urlError(fields.baseUrl)}>
        {(id, describedBy) => <CommitInput id={id} className="input" type="url" value={fields.baseUrl} placeholder={description.defaultBaseUrl} spellCheck={false} aria-describedby={describedBy} onCommit={(v) => onFields({ baseUrl: v })} />}
      </Field>
      {description.credential !== undefined && (
        <Field label={description.credential.label} hint={description.credential.help}>
          {(id, describedBy) => <CommitInput id={id} className="input" type="password" autoComplete="off" value={credential} aria-describedby={describedBy} onCommit={onCredential} />}
        </Field>
      )}
      <DirectUse kind={kind} />
      {description.pool === true && serverCredential !== undefined && onServerCredential !== undefined && (
        <Suspense fallback={<p className="field-hint" aria-busy="true">Loading the servers…</p>}>
          <PoolServers label={label} fields={fields} {...(description.credential === undefined ? {} : { credentialLabel: description.credential.label })}
            credentialOf={serverCredential} onFields={onFields} onCredential={onServerCredential} />
        </Suspense>
      )}

      {description.names.map((field) => (
        <Fragment key={field.key}>
          {field.key === 'assets'
            ? <AssetRows label={label} rows={fields.assets} nameList={`${listId}-svc`} fileList={`${listId}-${field.key}`} onFocus={ask} onChange={(assets) => onFields({ assets })} />
            : (field.perEngine === true ? engines : engines.slice(0, 1)).map((engine) => textField(field as TextNameField, engine))}
          {suggest(field)}
        </Fragment>
      ))}
      {description.names.some((field) => field.key === 'assets') && (
        <datalist id={`${listId}-svc`} data-list="service-assets">{PUBLIC_CONTROLNETS.map((o) => <option key={o} value={o} />)}</datalist>
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
