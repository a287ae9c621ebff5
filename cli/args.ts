/**
 * The command line: what `atelier` accepts, the usage text, and parsing with node:util parseArgs.
 * Every mistake becomes a UsageError (exit 2) that names the flag, never echoing a value that
 * might be a secret.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { BackendEntry } from '../api/backends/describe';
import { BACKENDS } from '../api/backends/registry';
import { backendUsage } from './backend-help';

/** A command-line mistake: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What the backend flags said, as parsed (resolved in backends.ts). */
export interface BackendArgs {
  kind?: string;
  /** `URL`, or for a pool several `[LABEL=]URL` (repeated `--backend-url`). */
  url?: string | string[];
  file?: string;
  checkpoints: string[];
  /** `NAME` for every engine, or `ENGINE=NAME`; repeated. */
  refiner?: string | string[];
  /** `NAME` for every engine, or `ENGINE=NAME`; repeated. */
  model?: string | string[];
  assets: string[];
}

export interface RunArgs {
  command: 'run';
  file: string;
  out?: string;
  imageBaseUrl?: string;
  textBaseUrl?: string;
  /** Raw `node.param=value` overrides, in the order given. */
  sets: string[];
  /** Raw `name=value` values of the workflow's app inputs, in the order given. */
  inputs: string[];
  concurrency?: number;
  /** Most runs one fan-out of a node that calls an API may make; above it the node fails, sending nothing. */
  maxFanOut?: number;
  json: boolean;
  /** Embed the workflow and a manifest in each image written (off with --no-embed). */
  embed: boolean;
  model?: string;
  /** Run only part of the workflow: up to a node, or from a node on. */
  target?: { mode: 'to' | 'from'; node: string };
  /** Where image requests go when not to the service's API, as the flags said. */
  backends: BackendArgs;
}

/** `atelier run FILE --help`: the app inputs of FILE, with their kinds and defaults. */
export interface AppHelpArgs {
  command: 'app-help';
  file: string;
}

export type CliArgs = RunArgs | AppHelpArgs | { command: 'help' } | { command: 'version' };

/** The usage text, with the backend flags written from `backends`' descriptions. */
export function usageText(backends: readonly BackendEntry[]): string {
  return `Usage: atelier run <workflow.json> [options]
       atelier --help | --version

Runs an Atelier workflow file headless, on the same executor as the editor, and writes every
output (images, texts as .txt) plus a manifest.json into one folder. Each JPEG and PNG carries
the workflow as it ran and a manifest of the request and seed that made it (never a token or an
endpoint); give such an image instead of <workflow.json> to run its workflow again.

Options:
  --out DIR               Folder for this run's outputs (default ./atelier-out/<run-id>).
  --image-base-url URL    The image API, e.g. https://images.example.com (default: the local
                          engines, started inside this process: no server, no network).
  --text-base-url URL     The chat API base URL, the part before /v1/chat/completions
                          (default: the local engines).
  --model NAME            Chat model for chat nodes that name none (default for the local
                          engines: atelier-local-chat; required with --text-base-url).
${backendUsage(backends)}
  --set NODE.PARAM=VALUE  Override a parameter before the run; NODE is a node id or title.
                          VALUE is read as JSON when it parses (42, true, null, {"a":1}) and
                          the parameter takes it, else as text. Repeat for more.
  --input NAME=VALUE      Fill in one of the workflow's app inputs by name: text as it is,
                          numbers and switches as written, an image as a file's path.
                          'atelier run <workflow.json> --help' lists a workflow's inputs.
  --to NODE               Run only NODE and what it depends on.
  --from NODE             Run NODE and everything downstream of it afresh; what it needs
                          upstream runs too (the CLI keeps no cache between runs).
  --concurrency N         Nodes run at once, 1 to 64 (default 4); each item of a fan-out
                          counts as one.
  --max-fan-out N         Most runs a node that calls an API may make once per item of a list,
                          1 to 10000 (default 64); above it the node fails and sends nothing.
  --no-embed              Write the images exactly as the service sent them, with no workflow
                          or manifest inside.
  --json                  Print the run's events as JSON lines on stdout (image data replaced
                          by sizes and file names); progress stays on stderr.
  -h, --help              Show this help.
  -v, --version           Show the version.

The access token for real endpoints is read from the environment variable ATELIER_TOKEN only,
and sent only to the base URLs given above; a backend's credential (each backend's, above) from
ATELIER_BACKEND_TOKEN only, and sent only to the backend.
A workflow file can never choose an endpoint or a backend.

Exit status: 0 success, 1 a node failed or the workflow is invalid, 2 usage error,
130 interrupted (Ctrl-C; partial outputs and the manifest are still written).
`;
}

export const USAGE = usageText(BACKENDS);

const OPTIONS = {
  out: { type: 'string' },
  'image-base-url': { type: 'string' },
  'text-base-url': { type: 'string' },
  model: { type: 'string' },
  set: { type: 'string', multiple: true },
  input: { type: 'string', multiple: true },
  to: { type: 'string' },
  from: { type: 'string' },
  concurrency: { type: 'string' },
  'max-fan-out': { type: 'string' },
  json: { type: 'boolean' },
  'no-embed': { type: 'boolean' },
  'image-backend': { type: 'string' },
  'backend-url': { type: 'string', multiple: true },
  backends: { type: 'string' },
  checkpoint: { type: 'string', multiple: true },
  refiner: { type: 'string', multiple: true },
  'image-model': { type: 'string', multiple: true },
  asset: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsConfig['options'];

/** Flags people reach for to pass a credential; each is refused with the reason. */
const CREDENTIAL_FLAGS = new Set(['token', 'api-key', 'apikey', 'key', 'access-token', 'auth', 'bearer', 'password']);

export const TOKEN_FLAG_REFUSED =
  'is not accepted: a command line is visible to every user of this machine (ps, /proc) and is ' +
  'kept in your shell history. Put the token in the environment variable ATELIER_TOKEN instead ' +
  '(for example: read -rs ATELIER_TOKEN && export ATELIER_TOKEN).';

export const MAX_CONCURRENCY = 64;
export const MAX_FAN_OUT_FLAG = 10_000;

/** Rejects unknown and credential flags by name, before values are looked at. */
function checkFlagNames(argv: readonly string[]): void {
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (CREDENTIAL_FLAGS.has(token.name.toLowerCase())) throw new UsageError(`${token.rawName} ${TOKEN_FLAG_REFUSED}`);
    if (!(token.name in OPTIONS)) throw new UsageError(`unknown option ${token.rawName}`);
  }
}

function positiveInteger(flag: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}`);
  }
  return n;
}

/** Parses `argv` (without node and the script). Throws UsageError on any mistake. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  checkFlagNames(argv);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs names the option and what is wrong with it; its messages never quote a value.
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  const { values, positionals } = parsed;
  // `run FILE --help` asks about FILE's app; any other --help is the general one.
  if (values.help && positionals.length === 2 && positionals[0] === 'run') return { command: 'app-help', file: positionals[1]! };
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };

  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('no command given');
  if (command === 'help') return { command: 'help' };
  if (command !== 'run') throw new UsageError(`unknown command '${command.slice(0, 40)}'; the command is 'run'`);
  if (rest.length === 0) throw new UsageError('run needs a workflow file: atelier run <workflow.json>');
  if (rest.length > 1) throw new UsageError(`run takes one workflow file, got ${rest.length} arguments`);
  if (values.to !== undefined && values.from !== undefined) throw new UsageError('--to and --from cannot be used together');

  const args: RunArgs = {
    command: 'run', file: rest[0]!, sets: values.set ?? [], inputs: values.input ?? [], json: values.json === true, embed: values['no-embed'] !== true,
    backends: { checkpoints: values.checkpoint ?? [], assets: values.asset ?? [] },
  };
  const nonEmpty = (flag: string, value: string | undefined): string | undefined => {
    if (value !== undefined && value.trim() === '') throw new UsageError(`--${flag} needs a value`);
    return value;
  };
  args.out = nonEmpty('out', values.out);
  args.imageBaseUrl = nonEmpty('image-base-url', values['image-base-url']);
  args.textBaseUrl = nonEmpty('text-base-url', values['text-base-url']);
  args.model = nonEmpty('model', values.model)?.trim();
  const backend = (key: 'kind' | 'file', flag: string, value: string | undefined) => {
    const given = nonEmpty(flag, value)?.trim();
    if (given !== undefined) args.backends[key] = given;
  };
  backend('kind', 'image-backend', values['image-backend']);
  backend('file', 'backends', values.backends);
  const many = (flag: string, given: string[] | undefined) => given?.map((value) => nonEmpty(flag, value)!.trim());
  const urls = many('backend-url', values['backend-url']);
  if (urls !== undefined) args.backends.url = urls.length === 1 ? urls[0]! : urls;
  const refiners = many('refiner', values.refiner);
  const models = many('image-model', values['image-model']);
  if (refiners !== undefined) args.backends.refiner = refiners;
  if (models !== undefined) args.backends.model = models;
  if (values.concurrency !== undefined) args.concurrency = positiveInteger('--concurrency', values.concurrency, MAX_CONCURRENCY);
  if (values['max-fan-out'] !== undefined) args.maxFanOut = positiveInteger('--max-fan-out', values['max-fan-out'], MAX_FAN_OUT_FLAG);
  const to = nonEmpty('to', values.to);
  const from = nonEmpty('from', values.from);
  if (to !== undefined) args.target = { mode: 'to', node: to };
  if (from !== undefined) args.target = { mode: 'from', node: from };
  return args;
}
