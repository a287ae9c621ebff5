/**
 * The backend part of `atelier --help`, written from the backends' descriptions: the kinds
 * `--image-backend` takes, where each usually listens and what its credential is, and a line per
 * backend-side name flag saying which backends use it. A backend added to the registry appears
 * here with no edit.
 */
import { backendChoices, nameDefault, nameField, type BackendEntry, type NameKey } from '../api/backends/describe';
import { ENGINES } from '../api/catalog';

/** The flag of each backend-side name, and the value it takes. */
export const NAME_FLAGS: Record<NameKey, { flag: string; value: string; what: string }> = {
  checkpoint: { flag: '--checkpoint', value: 'ENGINE=NAME', what: `The backend's checkpoint for an engine (${ENGINES.join(', ')}) when a node names none. Repeat for each engine.` },
  refiner: { flag: '--refiner', value: '[ENGINE=]NAME', what: "The backend's SDXL refiner checkpoint, for use_refiner." },
  model: { flag: '--image-model', value: '[ENGINE=]NAME', what: 'The model id on the backend, for every engine or (ENGINE=NAME, repeated) for one.' },
  assets: { flag: '--asset', value: 'NAME=FILE', what: "Maps an asset name used in the workflow (svc:canny_sdxl, a LoRA) to the backend's file. Repeat for more." },
};

const INDENT = 26;
const WIDTH = 96;

/** `words` wrapped to the help's width, each line after the first indented to the description column. */
function wrap(words: string, first: string): string[] {
  // A flag too long for its column gets a line of its own.
  const lines: string[] = first.length >= INDENT - 1 ? [first] : [];
  let line = first.length >= INDENT - 1 ? ' '.repeat(INDENT) : first.padEnd(INDENT);
  let empty = true;
  for (const word of words.split(' ')) {
    if (!empty && line.length + word.length + 1 > WIDTH) {
      lines.push(line.trimEnd());
      line = ' '.repeat(INDENT);
      empty = true;
    }
    line += `${empty ? '' : ' '}${word}`;
    empty = false;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** The usage lines of the backend flags, for `entries`. */
export function backendUsage(entries: readonly BackendEntry[]): string {
  const remote = entries.map((entry) => entry.description).filter((d) => d.kind !== 'service');
  const lines = [
    ...wrap(`Send image requests to a backend instead of the service's API (the workflow file is unchanged): ${backendChoices(entries).join(', ')}.`, '  --image-backend KIND'),
    ...remote.flatMap((d) => wrap(`${d.summary}. At ${d.defaultBaseUrl}${d.credential === undefined ? '' : `; ATELIER_BACKEND_TOKEN: ${d.credential.label}`}.`, `      ${d.kind}`)),
    ...wrap(`The backend's base URL (default: where the backend usually listens, above). Repeat for a pool of ${remote.filter((d) => d.pool === true).map((d) => d.label).join(' or ')} servers sharing the run, each LABEL=URL (gpu2=http://10.0.0.7:8188); a server's own credential from ATELIER_BACKEND_TOKEN_<LABEL>.`, '  --backend-url [LABEL=]URL'),
    ...wrap('JSON choosing a backend per engine: { "sdxl": { "kind": "…", "baseUrl": "…", "names": { "checkpoint": "…" } }, "sd": … }.', '  --backends FILE'),
  ];
  for (const key of Object.keys(NAME_FLAGS) as NameKey[]) {
    const users = remote.flatMap((d) => {
      const field = nameField(d, key);
      if (field === undefined) return [];
      const fallback = nameDefault(field, undefined);
      return [`${d.label} (${field.need}${fallback === undefined ? '' : `, default ${fallback}`})`];
    });
    if (users.length === 0) continue;
    const { flag, value, what } = NAME_FLAGS[key];
    lines.push(...wrap(`${what} Used by ${users.join(', ')}.`, `  ${flag} ${value}`));
  }
  return lines.join('\n');
}
