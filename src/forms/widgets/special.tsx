/**
 * Controls that know the service's vocabularies: the resolution pairs, the seed, ControlNet
 * checkpoints, asset names, the chat model and lists of stop words.
 */
import { useId, useState } from 'react';
import { LOCAL_LIMITS } from '../../../api/image-schema';
import { ENGINE_FAMILY, PUBLIC_ASSET_PREFIX, isSupportedResolution, type EngineId } from '../../../api/catalog';
import { useSettings } from '../../settings/settings-store';
import { TextArea } from '../../ui/TextArea';
import { controlNetOptions } from '../field-plan';
import { NumberWidget, Options, SelectWidget } from './basic';
import ModelSuggestions from './model-options';
import type { WidgetProps } from './types';

export function ResolutionWidget({ id, spec, params, setMany, describedBy, invalid }: WidgetProps) {
  const { width, height } = params;
  const current = typeof width === 'number' && typeof height === 'number' ? `${width}x${height}` : width === undefined && height === undefined ? '' : 'partial';
  const options = spec.options ?? [];
  const extra = current !== '' && !options.some((o) => o.value === current)
    ? [{ value: current, label: current === 'partial' ? 'Width or height missing' : `${current.replace('x', '×')} (not for this engine)` }]
    : [];
  return (
    <select
      id={id}
      className="input select"
      value={current}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => {
        const [w, h] = e.target.value.split('x').map(Number);
        setMany(e.target.value === '' || w === undefined || h === undefined ? { width: undefined, height: undefined } : { width: w, height: h });
      }}
    >
      <Options options={[...extra, ...options]} />
    </select>
  );
}

export function randomSeed(): number {
  const buffer = new Uint32Array(1);
  crypto.getRandomValues(buffer);
  return buffer[0]! % (LOCAL_LIMITS.seedMax + 1);
}

export function SeedWidget(props: WidgetProps) {
  const { id, value, set } = props;
  const random = value === null || value === undefined;
  return (
    <div className="seed-row">
      {random
        ? <input id={id} className="input number" type="text" value="random each run" readOnly aria-describedby={props.describedBy} />
        : <NumberWidget {...props} placeholder="seed" />}
      <label className="inline-check">
        <input type="checkbox" checked={random} onChange={(e) => set(e.target.checked ? null : randomSeed())} />
        Random
      </label>
      <button type="button" className="icon-button" aria-label="New random seed" title="New random seed" onClick={() => set(randomSeed())}>⚄</button>
    </div>
  );
}

const PRIVATE = '__private__';

export function ControlNetWidget({ id, nodeId, value, set, params, describedBy, invalid }: WidgetProps) {
  const family = typeof params.engine === 'string' ? ENGINE_FAMILY[params.engine as EngineId] : 'sdxl';
  const options = controlNetOptions(family);
  const name = typeof value === 'string' ? value : '';
  const isPublic = options.some((o) => o.value === name);
  const [privateMode, setPrivateMode] = useState(!isPublic && name !== '');
  const privateId = `${id}-private-${nodeId}`;
  const showPrivate = privateMode || (!isPublic && name !== '');
  return (
    <div className="stack">
      <select
        id={id}
        className="input select"
        value={showPrivate ? PRIVATE : name}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          if (e.target.value === PRIVATE) {
            setPrivateMode(true);
          } else {
            setPrivateMode(false);
            set(e.target.value);
          }
        }}
      >
        <Options options={options} />
        <option value={PRIVATE}>A private checkpoint…</option>
      </select>
      {showPrivate && (
        <input
          id={privateId}
          className="input"
          type="text"
          value={isPublic ? '' : name}
          placeholder="name in your library (no svc: prefix)"
          aria-label="Private ControlNet checkpoint name"
          spellCheck={false}
          onChange={(e) => set(e.target.value, { typing: true })}
        />
      )}
    </div>
  );
}

export function AssetWidget({ id, value, set, describedBy, invalid, spec }: WidgetProps) {
  const hintId = useId();
  return (
    <>
      <input
        id={id}
        className="input"
        type="text"
        value={typeof value === 'string' ? value : ''}
        maxLength={spec.maxLength}
        placeholder={`${PUBLIC_ASSET_PREFIX}name or a private name`}
        spellCheck={false}
        aria-describedby={[describedBy, hintId].filter(Boolean).join(' ')}
        aria-invalid={invalid || undefined}
        onChange={(e) => set(e.target.value === '' ? undefined : e.target.value, { typing: true })}
      />
      <p id={hintId} className="field-hint"><code>{PUBLIC_ASSET_PREFIX}</code> for the public library; private names have no prefix.</p>
    </>
  );
}

/** A chat model: free text, with the endpoint's models suggested once the field is reached. */
export function ModelWidget({ id, value, set, describedBy, invalid, spec }: WidgetProps) {
  const settings = useSettings();
  const [suggest, setSuggest] = useState(false);
  const listId = `${id}-models`;
  return (
    <>
      <input
        id={id}
        className="input"
        type="text"
        list={listId}
        value={typeof value === 'string' ? value : ''}
        maxLength={spec.maxLength}
        placeholder={`from settings: ${settings.chatModel || 'none set'}`}
        spellCheck={false}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => set(e.target.value, { typing: true })}
        onPointerEnter={() => setSuggest(true)}
        onFocus={() => setSuggest(true)}
      />
      {suggest && <ModelSuggestions listId={listId} />}
    </>
  );
}

/** A list of strings edited one per line (stop sequences). */
export function LinesWidget({ id, value, set, describedBy, invalid }: WidgetProps) {
  const lines = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? lines.join('\n');
  return (
    <TextArea
      id={id}
      className="input textarea nowheel"
      rows={2}
      value={shown}
      placeholder="one per line"
      describedBy={describedBy}
      invalid={invalid}
      onText={(text) => {
        setDraft(text);
        const next = text.split('\n').filter((l) => l !== '');
        set(next.length === 0 ? undefined : next, { typing: true });
      }}
      onBlur={() => setDraft(null)}
    />
  );
}

/**
 * The engine: switching to one that does not offer the chosen resolution goes back to the new
 * engine's default size in the same step, instead of leaving a size it would refuse.
 */
export function EngineWidget(props: WidgetProps) {
  const { params, setMany } = props;
  const set = (engine: unknown) => {
    const { width, height } = params;
    const family = ENGINE_FAMILY[engine as EngineId];
    const keep = family === undefined || typeof width !== 'number' || typeof height !== 'number' || isSupportedResolution(family, width, height);
    setMany(keep ? { engine } : { engine, width: undefined, height: undefined });
  };
  return <SelectWidget {...props} set={set} />;
}
