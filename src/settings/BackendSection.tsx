/**
 * Settings → Image backend: where the image nodes' requests go. On the local and direct routes,
 * chosen here: one backend for every engine (what most people need) and, under "Per engine",
 * exceptions. Through this server, the server decides: shown read-only, with where to change it.
 */
import { useId, useState } from 'react';
import { backendChoices, orList } from '../../api/backends/describe';
import { BACKENDS, type BackendKind } from '../../api/backends/registry';
import { ENGINES, ENGINE_LABEL, type EngineId } from '../../api/catalog';
import { BackendFieldsEditor } from './BackendFieldsEditor';
import { backendChoicesFor } from './backend-choices';
import {
  credentialKey, fieldsOf, isRemote, type BackendFields, type BackendSlot, type BackendSlotId, type ImageBackendSettings, type RemoteKind,
} from './backend-settings';
import type { Settings } from './settings';
import type { ServerInfoState } from './server-info';
import { settingsStore } from './settings-store';
import { serverCredentialKey } from './backend-pool';
import { engineProblems } from './route-notes';

const SAME = 'same';


function update(change: (b: ImageBackendSettings) => ImageBackendSettings) {
  settingsStore.update({ imageBackends: change(settingsStore.get().imageBackends) });
}

function setSlot(id: BackendSlotId, slot: BackendSlot | undefined) {
  update((b) => {
    if (id === 'all') return { ...b, all: slot ?? b.all };
    const engines = { ...b.engines };
    if (slot === undefined) delete engines[id];
    else engines[id] = slot;
    return { ...b, engines };
  });
}

function setFields(id: BackendSlotId, kind: RemoteKind, change: Partial<BackendFields>) {
  const b = settingsStore.get().imageBackends;
  const slot = id === 'all' ? b.all : b.engines[id];
  if (slot === undefined) return;
  setSlot(id, { ...slot, fields: { ...slot.fields, [kind]: { ...fieldsOf(slot, kind), ...change } } });
}

function setCredential(id: BackendSlotId, kind: RemoteKind, value: string, rowId?: string) {
  const credentials = { ...settingsStore.get().backendCredentials };
  const key = rowId === undefined ? credentialKey(id, kind) : serverCredentialKey(credentialKey(id, kind), rowId);
  if (value === '') delete credentials[key];
  else credentials[key] = value;
  settingsStore.update({ backendCredentials: credentials });
}

function SlotEditor({ id, slot, settings, engines }: { id: BackendSlotId; slot: BackendSlot | undefined; settings: Settings; engines: readonly EngineId[] }) {
  const selectId = useId();
  const kind = slot?.kind;
  const choose = (value: string) => {
    if (value === SAME) setSlot(id, undefined);
    else setSlot(id, { kind: value as BackendKind, fields: slot?.fields ?? {} });
  };
  return (
    <fieldset className="settings-group backend-slot">
      <legend>{id === 'all' ? 'All engines' : ENGINE_LABEL[id]}</legend>
      <div className="settings-field">
        <label htmlFor={selectId}>Backend</label>
        <select id={selectId} className="input" value={kind ?? SAME} onChange={(e) => choose(e.target.value)}>
          {id !== 'all' && <option value={SAME}>Same as all engines</option>}
          {backendChoicesFor(BACKENDS, settings.mode).map((c) => <option key={c.kind} value={c.kind}>{c.label}</option>)}
        </select>
      </div>
      {slot !== undefined && isRemote(slot.kind) && (
        <BackendFieldsEditor
          kind={slot.kind}
          fields={fieldsOf(slot, slot.kind)}
          credential={settings.backendCredentials[credentialKey(id, slot.kind)] ?? ''}
          engines={engines}
          onFields={(change) => setFields(id, slot.kind as RemoteKind, change)}
          onCredential={(value) => setCredential(id, slot.kind as RemoteKind, value)}
          serverCredential={(rowId) => settings.backendCredentials[serverCredentialKey(credentialKey(id, slot.kind as RemoteKind), rowId)] ?? ''}
          onServerCredential={(rowId, value) => setCredential(id, slot.kind as RemoteKind, value, rowId)}
        />
      )}
    </fieldset>
  );
}

/** Through this server: where the server sends each engine, from its /api/info. */
function ServerBackends({ info }: { info: ServerInfoState }) {
  if (info === null) return <p className="muted">Asking the server…</p>;
  if (info === 'unreachable') return <p className="field-issue">The local server did not answer /api/info; is it running?</p>;
  const where = (engine: EngineId): string => {
    const backend = info.forwarder?.imageBackends?.[engine];
    if (backend !== undefined) {
      const names = backend.names?.checkpoint ?? backend.names?.model;
      return `${backend.label}${names === undefined ? '' : ` (${names})`}`;
    }
    return info.forwarder?.image === true ? "the service's API at ATELIER_IMAGE_BASE_URL" : 'nowhere: not configured';
  };
  return (
    <>
      <p className="field-hint">Through this server, the server decides where image requests go, and holds the backends’ addresses and credentials:</p>
      <ul className="backend-server-list">
        {ENGINES.map((engine) => <li key={engine}><strong>{ENGINE_LABEL[engine]}</strong>: {where(engine)}</li>)}
      </ul>
      <p className="field-hint">
        To change it, start the server with <code>ATELIER_IMAGE_BACKEND</code> ({orList(backendChoices(BACKENDS))}), <code>ATELIER_BACKEND_URL</code> and
        <code> ATELIER_BACKEND_TOKEN</code>, or per engine with the <code>imageBackends</code> of its config file (<code>ATELIER_CONFIG</code>), and restart it.
      </p>
    </>
  );
}

export function BackendSection({ settings, info }: { settings: Settings; info: ServerInfoState }) {
  const { all, engines } = settings.imageBackends;
  // Open at first when an engine has a choice of its own, then as the person leaves it.
  const [open, setOpen] = useState(() => ENGINES.some((engine) => engines[engine] !== undefined));
  return (
    <fieldset className="settings-group">
      <legend>Image backend</legend>
      {engineProblems(settings, info, settingsStore.backendRules()).map((problem) => <p key={problem} className="field-issue" role="status">{problem}</p>)}
      {settings.mode === 'forward' ? <ServerBackends info={info} /> : (
        <>
          <p className="field-hint">
            Where the image nodes’ requests go, translated from the workflow’s request. What a backend approximates or leaves out is shown
            beside the run’s cost before it runs; a workflow never chooses this.
          </p>
          <SlotEditor id="all" slot={all} settings={settings} engines={ENGINES} />
          <details className="backend-engines" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
            <summary>Per engine</summary>
            {ENGINES.map((engine) => <SlotEditor key={engine} id={engine} slot={engines[engine]} settings={settings} engines={[engine]} />)}
          </details>
        </>
      )}
    </fieldset>
  );
}
