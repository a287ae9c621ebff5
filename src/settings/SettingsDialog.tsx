/**
 * Settings: where requests go (the local engines, the real endpoints through this server's
 * forwarder, or directly from the browser), the tokens, the chat model and concurrency, and the
 * cached results (CacheSection). Changes apply at once and are kept in this browser, apart from
 * any workflow.
 */
import { useId } from 'react';
import { Dialog } from '../ui/Dialog';
import { CacheSection } from './CacheSection';
import { BackendSection } from './BackendSection';
import { backendChosen } from './backend-types';
import { CommitInput } from './CommitInput';
import { Field } from './Field';
import { useChatModels } from './models';
import { urlError } from './url-error';
import { CHAT_STAND_IN_LABEL, MAX_CONCURRENCY, MAX_FAN_OUT_SETTING, chatOnStandIn, hasTokens, type ChatChoice, type EndpointMode, type Settings } from './settings';
import { useServerInfo, type ServerInfoState } from './server-info';
import { settingsStore, useSettings } from './settings-store';

const MODES: { id: EndpointMode; title: string; text: string }[] = [
  { id: 'local', title: 'Local engines (offline)', text: 'This server’s stand-in engines: no account, no network. Images are synthesised, not real models.' },
  { id: 'forward', title: 'Real endpoints, through this server', text: 'The server holds the base URLs and the token (ATELIER_IMAGE_BASE_URL, ATELIER_TEXT_BASE_URL, ATELIER_TOKEN or its config file); the browser never sees the token.' },
  { id: 'direct', title: 'Real endpoints, directly from the browser', text: 'For services that allow it (CORS). The token is kept in this browser.' },
];

function ForwarderStatus({ info }: { info: ServerInfoState }) {
  if (info === null) return <p className="muted">Asking the server…</p>;
  if (info === 'unreachable') return <p className="field-issue">The local server did not answer /api/info; is it running?</p>;
  const { image = false, text = false, chat } = info.forwarder ?? {};
  const chatLine = text ? 'configured' : chat === 'local' ? `${CHAT_STAND_IN_LABEL}, as no ATELIER_TEXT_BASE_URL is set` : 'not configured';
  if (!image && !text && chat !== 'local') return <p className="field-issue">Not configured on this server: start it with ATELIER_IMAGE_BASE_URL or ATELIER_IMAGE_BACKEND, ATELIER_TEXT_BASE_URL and ATELIER_TOKEN (or its config file).</p>;
  return (
    <p className={image && text ? 'ok-text' : 'field-issue'}>
      Images: {image ? 'configured' : 'not configured'} · Chat: {chatLine}
    </p>
  );
}

/** What "the route's chat" means on each route. */
const ROUTE_CHAT: Record<EndpointMode, string> = {
  local: 'The local engines (the route above)',
  forward: 'This server’s chat API (ATELIER_TEXT_BASE_URL)',
  direct: 'The Chat API base URL (Direct endpoints)',
};

/** Chat chosen apart from images: the route's chat API, or the local stand-in on any route. */
function ChatSection({ settings, info }: { settings: Settings; info: ServerInfoState }) {
  const standIn = chatOnStandIn(settings, info);
  return (
    <fieldset className="settings-group">
      <legend>Chat</legend>
      <Field label="Chat goes to" hint={standIn
        ? `Chat: ${CHAT_STAND_IN_LABEL}. Chat nodes get fluent, prompt-like text composed on this server, not a model’s answer: good for trying image backends without a chat service.`
        : 'Chat nodes call an OpenAI-compatible chat-completions API.'}>
        {(id, describedBy) => (
          <select id={id} className="input" value={settings.chat} aria-describedby={describedBy} onChange={(e) => settingsStore.update({ chat: e.target.value as ChatChoice })}>
            <option value="route">{ROUTE_CHAT[settings.mode]}</option>
            <option value="local">Local stand-in (offline, not a language model)</option>
          </select>
        )}
      </Field>
    </fieldset>
  );
}

export default function SettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useSettings();
  const info = useServerInfo();
  const models = useChatModels();
  const update = (change: Partial<Settings>) => settingsStore.update(change);
  const modelListId = useId();
  const tokenRequired = info !== null && info !== 'unreachable' && info.localEngines?.tokenRequired === true;

  return (
    <Dialog title="Settings" onClose={onClose} className="settings-dialog" footer={<button type="button" className="button primary" onClick={onClose}>Done</button>}>
      <p className="muted">Kept in this browser only. Settings are never written into a workflow file, an autosave or an export: opening someone’s workflow cannot send your requests or your token anywhere.</p>
      <fieldset className="settings-modes">
        <legend>Where requests go</legend>
        {MODES.map((mode) => (
          <label key={mode.id} className={`mode-option ${settings.mode === mode.id ? 'chosen' : ''}`}>
            <input type="radio" name="endpoint-mode" value={mode.id} checked={settings.mode === mode.id} onChange={() => update({ mode: mode.id })} />
            <span>
              <strong>{mode.title}</strong>
              <span className="mode-text">{mode.text}</span>
              {mode.id === 'forward' && <ForwarderStatus info={info} />}
            </span>
          </label>
        ))}
      </fieldset>

      {settings.mode === 'direct' && (
        <fieldset className="settings-group">
          <legend>Direct endpoints</legend>
          <Field label="Image API base URL" hint="Requests go to {this}/generate/{engine}." error={urlError(settings.directImageBaseUrl)}>
            {(id, describedBy) => <CommitInput id={id} className="input" type="url" value={settings.directImageBaseUrl} placeholder="https://…" spellCheck={false} aria-describedby={describedBy} onCommit={(v) => update({ directImageBaseUrl: v })} />}
          </Field>
          <Field label="Chat API base URL" hint={settings.chat === 'local' ? 'Not used: chat goes to the local stand-in (Chat, below).' : 'Requests go to {this}/v1/chat/completions.'} error={settings.chat === 'local' ? undefined : urlError(settings.directTextBaseUrl)}>
            {(id, describedBy) => <CommitInput id={id} className="input" type="url" value={settings.directTextBaseUrl} placeholder="https://…" spellCheck={false} aria-describedby={describedBy} onCommit={(v) => update({ directTextBaseUrl: v })} />}
          </Field>
          <Field label="Access token" hint="Sent as Authorization: Bearer to these two URLs only.">
            {(id, describedBy) => <CommitInput id={id} className="input" type="password" autoComplete="off" value={settings.directToken} aria-describedby={describedBy} onCommit={(v) => update({ directToken: v })} />}
          </Field>
        </fieldset>
      )}

      {(settings.mode !== 'direct' && (tokenRequired || settings.serverToken !== '')) && (
        <fieldset className="settings-group">
          <legend>This server’s token</legend>
          <Field label="Local server token" hint={tokenRequired ? 'This server was started with ATELIER_LOCAL_TOKEN and requires it.' : 'This server does not require a token now.'}>
            {(id, describedBy) => <CommitInput id={id} className="input" type="password" autoComplete="off" value={settings.serverToken} aria-describedby={describedBy} onCommit={(v) => update({ serverToken: v })} />}
          </Field>
        </fieldset>
      )}

      <ChatSection settings={settings} info={info} />

      <BackendSection settings={settings} info={info} />

      {(settings.mode === 'direct' || tokenRequired || hasTokens(settings) || (settings.mode !== 'forward' && backendChosen(settings.imageBackends))) && (
        <div className="settings-field">
          <label className="inline-check">
            <input type="checkbox" checked={settings.rememberTokens} onChange={(e) => update({ rememberTokens: e.target.checked })} />
            Remember tokens on this device
          </label>
          <p className={settings.rememberTokens ? 'field-issue' : 'field-hint'}>
            {settings.rememberTokens
              ? 'Tokens and backend credentials are stored in this browser’s local storage, readable by anyone using this browser profile. Untick on a shared computer.'
              : 'Tokens and backend credentials are kept for this browser session only and forgotten when it closes.'}
          </p>
        </div>
      )}

      <fieldset className="settings-group">
        <legend>Running</legend>
        <Field label="Chat model" hint={models.length > 0 ? `Listed by the endpoint: ${models.join(', ')}` : 'This endpoint lists no models (or could not be asked): type the name.'}>
          {(id, describedBy) => (
            <>
              <input id={id} className="input" type="text" list={modelListId} value={settings.chatModel} spellCheck={false} aria-describedby={describedBy} onChange={(e) => update({ chatModel: e.target.value })} />
              <datalist id={modelListId}>{models.map((m) => <option key={m} value={m} />)}</datalist>
            </>
          )}
        </Field>
        <Field label="Nodes running at once" hint={`1 to ${MAX_CONCURRENCY}. Independent branches run in parallel up to this many.`}>
          {(id, describedBy) => <WholeNumber id={id} describedBy={describedBy} value={settings.concurrency} max={MAX_CONCURRENCY} onChange={(n) => update({ concurrency: n })} />}
        </Field>
        <Field label="Fan-out limit" hint={`1 to ${MAX_FAN_OUT_SETTING}. A node that would run more times than this, once per item of a list, asks before it sends anything.`}>
          {(id, describedBy) => <WholeNumber id={id} describedBy={describedBy} value={settings.maxFanOut} max={MAX_FAN_OUT_SETTING} onChange={(n) => update({ maxFanOut: n })} />}
        </Field>
      </fieldset>

      <CacheSection />
    </Dialog>
  );
}

/** A whole number from 1 to `max`; anything else typed is not taken. */
function WholeNumber({ id, describedBy, value, max, onChange }: { id: string; describedBy: string | undefined; value: number; max: number; onChange(n: number): void }) {
  return (
    <input
      id={id}
      className="input number narrow"
      type="number"
      min={1}
      max={max}
      value={value}
      aria-describedby={describedBy}
      onChange={(e) => {
        const n = Math.round(Number(e.target.value));
        if (Number.isFinite(n) && n >= 1 && n <= max) onChange(n);
      }}
    />
  );
}
