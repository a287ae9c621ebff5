/**
 * What a backend says about itself: its kind, how it is named, where it usually listens, its
 * credential, the backend-side names it uses and whether a browser can call it. Settings, the
 * CLI's flags and help, the server's settings and the docs are all built from these descriptions
 * (registry.ts lists them), so adding a backend is its folder and one line there.
 *
 * Light on purpose: a description is plain data and imports no backend code, because the
 * editor's first page loads every description for the Settings dialog.
 */
import type { EngineId } from '../catalog';
import type { BackendNames, ImageBackend } from './types';
import type { BackendOptions } from './options';

/** The backend-side names a backend can use (the members of `BackendNamesConfig`). */
export type NameKey = 'checkpoint' | 'refiner' | 'model' | 'assets';

/** How much a backend needs a name. */
export type NameNeed = 'required' | 'recommended' | 'optional';

/** One backend-side name: a settings field, a CLI flag and a docs row. */
export interface NameField {
  key: NameKey;
  /** The settings field's label: 'Checkpoint' (per engine: 'Checkpoint for SDXL v1.0'), 'Model'. */
  label: string;
  /** A line under the settings field. */
  hint?: string;
  /** What the docs table and the CLI's help add after `need` ('a name not listed is sent without `svc:`'). */
  note?: string;
  /** The 'all engines' slot asks it once per engine (a checkpoint; a hosted provider's model). */
  perEngine?: boolean;
  need: NameNeed;
  /** Used when unset, for every engine (`gpt-image-1`); shown as the placeholder. */
  default?: string;
  /** Used when unset, per engine, before `default` (fal's model for sdxl). */
  defaults?: Partial<Record<EngineId, string>>;
  /** Which of the backend's own lists suggest values. */
  suggestFrom?: readonly (keyof BackendNames)[];
}

/** What a backend takes as its credential. */
export interface CredentialField {
  /** The settings label: 'API key', 'User:password (optional)'. */
  label: string;
  /** How it is sent and where to get it. */
  help: string;
  required: boolean;
}

/** Whether the editor's page can call the backend itself. */
export type BrowserUse =
  /**
   * `corsFlag`: the command-line option that lets a page at `origin` in (Settings shows it, and
   * a CORS refusal names it); `allowOrigin`: how to let this page's origin in, in words with
   * `code` in backticks; `caution`: said first and as a warning (a key kept in a browser can be
   * read there).
   */
  | { direct: true; corsFlag: (origin: string) => string; allowOrigin: (origin: string) => string; caution?: string }
  /** `why`: the reason the server's route is needed. */
  | { direct: false; why: string };

/** One backend, as it describes itself. */
export interface BackendDescription<K extends string = string> {
  /** Id in settings, `--image-backend`, `ATELIER_IMAGE_BACKEND`, config files: lower case, stable. */
  kind: K;
  /** How a person names it: 'ComfyUI', 'fal', 'Replicate'. */
  label: string;
  /** One line for help and docs: what it is and what it runs. */
  summary: string;
  /** Where it usually listens (settings placeholder, CLI and server default). */
  defaultBaseUrl: string;
  credential?: CredentialField;
  /** The backend-side names it uses; a key not listed is not used by this backend. */
  names: readonly NameField[];
  browser: BrowserUse;
  /** Does a backend of this kind accept several base URLs (a pool of servers)? */
  pool?: boolean;
  /** Does it follow its work over a WebSocket? Node then loads one (the `ws` package) for it. */
  webSocket?: boolean;
}

/** A backend's factory, from its `index.ts`. */
export type BackendFactory = (options: BackendOptions) => ImageBackend;

/** One registry line: the description, and the factory loaded only when a backend is built. */
export interface BackendEntry<K extends string = string> {
  description: BackendDescription<K>;
  load: () => Promise<BackendFactory>;
}

/** Keeps a description's kind as a literal type, so the registry can name every kind. */
export function describeBackend<const K extends string>(description: BackendDescription<K>): BackendDescription<K> {
  return description;
}

const KIND = /^[a-z][a-z0-9-]{0,30}$/;

/**
 * The registry's list, checked once: every kind is lower case and appears once, and the service's
 * API comes first (it is the default choice everywhere).
 */
export function defineBackends<const T extends readonly BackendEntry[]>(entries: T): T {
  const seen = new Set<string>();
  for (const { description } of entries) {
    if (!KIND.test(description.kind)) throw new TypeError(`backend kind '${description.kind}' must be lower case letters, digits and '-'`);
    if (seen.has(description.kind)) throw new TypeError(`backend kind '${description.kind}' is registered twice`);
    seen.add(description.kind);
    const keys = description.names.map((n) => n.key);
    if (new Set(keys).size !== keys.length) throw new TypeError(`backend '${description.kind}' lists a name twice`);
  }
  if (entries[0]?.description.kind !== 'service') throw new TypeError("the registry's first backend must be the service's API ('service')");
  return entries;
}

/** What the rest of the code takes from a list of backends, by kind. */
export interface Registry<K extends string> {
  /** Every kind, in the list's order (a tuple, for schemas that take a non-empty list). */
  kinds: [K, ...K[]];
  description: Record<K, BackendDescription<K>>;
  label: Record<K, string>;
  defaultBaseUrl: Record<K, string>;
  isKind(value: unknown): value is K;
}

/**
 * The kinds, descriptions, labels and usual addresses of `entries`: registry.ts builds its own
 * from the real list, and a test can build them from a list of its own. The records have no
 * prototype, so a kind read from a file never reaches Object's members.
 */
export function registryOf<K extends string>(entries: readonly BackendEntry[]): Registry<K> {
  const byKind = <V>(value: (description: BackendDescription<K>) => V): Record<K, V> => {
    const record = Object.create(null) as Record<K, V>;
    for (const { description } of entries) record[description.kind as K] = value(description as BackendDescription<K>);
    return record;
  };
  const kinds = entries.map((entry) => entry.description.kind as K) as [K, ...K[]];
  return {
    kinds,
    description: byKind((d) => d),
    label: byKind((d) => d.label),
    defaultBaseUrl: byKind((d) => d.defaultBaseUrl),
    isKind: (value): value is K => (kinds as readonly unknown[]).includes(value),
  };
}

/** The description of `kind` in `entries`, or undefined for a kind they do not hold. */
export function findBackend(entries: readonly BackendEntry[], kind: string): BackendEntry | undefined {
  return entries.find((entry) => entry.description.kind === kind);
}

/** The name field `key` of a description, when it uses that name. */
export function nameField(description: BackendDescription, key: NameKey): NameField | undefined {
  return description.names.find((field) => field.key === key);
}

/** A name's value when none is set: the engine's own default, else the field's. */
export function nameDefault(field: NameField, engine: EngineId | undefined): string | undefined {
  return (engine === undefined ? undefined : field.defaults?.[engine]) ?? field.default;
}

/** Whether any of `kinds` follows its work over a WebSocket (so Node needs one loaded). */
export function needsWebSocket(entries: readonly BackendEntry[], kinds: Iterable<string>): boolean {
  for (const kind of kinds) if (findBackend(entries, kind)?.description.webSocket === true) return true;
  return false;
}

/** The lists that name files on the backend's disk, which a run's names are checked against. */
const FILE_LISTS: ReadonlySet<string> = new Set(['checkpoints', 'loras', 'vaes', 'embeddings', 'controlnets']);

/**
 * Whether a run's names are checked against what a backend of this kind lists: those whose names
 * are files on its disk (checkpoints, LoRAs…). A backend that names only models is not asked
 * before each run; it says itself when a model is unknown.
 */
export function listsFiles(description: BackendDescription): boolean {
  return description.names.some((field) => field.suggestFrom?.some((list) => FILE_LISTS.has(list)) === true);
}

/** Whether a backend of this description cannot draw without a checkpoint named for the engine. */
export function needsCheckpoint(description: BackendDescription): boolean {
  return nameField(description, 'checkpoint')?.need === 'required';
}

/** The kinds of `entries` a person chooses as a backend: every one but the service's API. */
export function backendChoices(entries: readonly BackendEntry[]): string[] {
  return entries.map((entry) => entry.description.kind).filter((kind) => kind !== 'service');
}

/** 'comfyui, a1111 or openai'. */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]!}`;
}

/**
 * The first engine routed to a backend whose description requires a credential, when none is
 * given: a sentence for the CLI's and the server's errors, naming `setting` as where to put it.
 */
export function missingCredential(entries: readonly BackendEntry[], routed: Readonly<Record<string, { kind: string } | undefined>>, given: boolean, setting: string): string | undefined {
  if (given) return undefined;
  for (const [engine, backend] of Object.entries(routed)) {
    const credential = backend === undefined ? undefined : findBackend(entries, backend.kind)?.description.credential;
    if (credential?.required === true) return `the ${engine} engine goes to ${findBackend(entries, backend!.kind)!.description.label}, which needs its ${credential.label}: set ${setting}`;
  }
  return undefined;
}
