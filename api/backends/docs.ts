/**
 * The docs' backend tables, written from the descriptions: README's list of backends and the
 * names table of docs/backends.md. Each sits between two marker comments in its file;
 * `npx tsx scripts/backend-docs.ts` rewrites them, and tests/backends/docs.test.ts fails when a
 * file and the descriptions disagree.
 */
import type { BackendDescription, BackendEntry, NameField, NameKey } from './describe';

/** What each backend-side name means, whatever the backend. */
const NAME_MEANING: Record<NameKey, string> = {
  checkpoint: 'the model file an engine runs when a node names none',
  refiner: 'the SDXL refiner, for `use_refiner`',
  model: 'the model id',
  assets: 'which file a `svc:` (or private) asset name means: checkpoints, LoRAs, VAEs, ControlNet models',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function remote(entries: readonly BackendEntry[]): BackendDescription[] {
  return entries.map((entry) => entry.description).filter((d) => d.kind !== 'service');
}

/** 'required, per engine, default `gpt-image-1`: a note'. */
function nameCell(field: NameField | undefined): string {
  if (field === undefined) return 'not used';
  const defaults = Object.entries(field.defaults ?? {}).map(([engine, value]) => `${engine} \`${value}\``);
  const parts = [
    field.need,
    ...(field.perEngine === true ? ['per engine'] : []),
    ...(field.default === undefined ? [] : [`default \`${field.default}\``]),
    ...(defaults.length === 0 ? [] : [`defaults ${defaults.join(', ')}`]),
  ];
  return `${parts.join(', ')}${field.note === undefined ? '' : `: ${field.note}`}`;
}

/** docs/backends.md's table of backend-side names: a row per name some backend uses, a column per backend. */
export function namesTable(entries: readonly BackendEntry[]): string {
  const backends = remote(entries);
  const keys = (Object.keys(NAME_MEANING) as NameKey[]).filter((key) => backends.some((d) => d.names.some((n) => n.key === key)));
  return [
    `| setting | meaning | ${backends.map((d) => cell(d.label)).join(' | ')} |`,
    `|---|---|${backends.map(() => '---|').join('')}`,
    ...keys.map((key) => `| \`${key}\` | ${NAME_MEANING[key]} | ${backends.map((d) => cell(nameCell(d.names.find((n) => n.key === key)))).join(' | ')} |`),
  ].join('\n');
}

/** README's list of backends: the kind to choose, what it is, where it listens, its credential, and whether a browser can call it. */
export function backendList(entries: readonly BackendEntry[]): string {
  return [
    '| Backend | Kind | What it runs | Usual address | Credential | From the browser |',
    '|---|---|---|---|---|---|',
    ...entries.map(({ description: d }) => `| ${cell(d.label)} | \`${d.kind}\` | ${cell(d.summary)} | ${d.defaultBaseUrl} | ${d.credential === undefined ? 'none' : cell(`${d.credential.label}${d.credential.required ? ', required' : ''}`)} | ${d.browser.direct ? 'yes' : cell(`no: ${d.browser.why}`)} |`),
  ].join('\n');
}

/** A generated part of a docs file: the marker it sits between and how it is made. */
export interface GeneratedPart {
  file: string;
  marker: string;
  render: (entries: readonly BackendEntry[]) => string;
}

export const GENERATED_PARTS: readonly GeneratedPart[] = [
  { file: 'README.md', marker: 'backend-list', render: backendList },
  { file: 'docs/backends.md', marker: 'backend-names', render: namesTable },
];

const begin = (marker: string) => `<!-- ${marker}: generated from api/backends/*/describe.ts by \`npx tsx scripts/backend-docs.ts\` -->`;
const end = (marker: string) => `<!-- /${marker} -->`;

/** What sits between `marker`'s comments in `text`, or undefined when they are missing. */
export function generatedPart(text: string, marker: string): string | undefined {
  const from = text.indexOf(begin(marker));
  const to = text.indexOf(end(marker));
  if (from < 0 || to < from) return undefined;
  return text.slice(from + begin(marker).length, to).trim();
}

/** `text` with `marker`'s part replaced by `content`; throws when the markers are missing. */
export function withGeneratedPart(text: string, marker: string, content: string): string {
  const from = text.indexOf(begin(marker));
  const to = text.indexOf(end(marker));
  if (from < 0 || to < from) throw new Error(`the markers ${begin(marker)} … ${end(marker)} are missing`);
  return `${text.slice(0, from)}${begin(marker)}\n${content}\n${text.slice(to)}`;
}
