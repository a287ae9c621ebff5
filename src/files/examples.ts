/** The example workflows served from public/examples/ (listed in its index.json). */
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import { openWorkflowText } from './open-save';

export interface ExampleEntry {
  file: string;
  title: string;
  description: string;
}

const SAFE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

/** The entries of an index.json that are well-formed; anything else is left out. */
export function parseExampleIndex(body: unknown): ExampleEntry[] {
  if (!Array.isArray(body)) return [];
  return body.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { file, title, description } = item as Record<string, unknown>;
    if (typeof file !== 'string' || !SAFE_FILE.test(file) || typeof title !== 'string') return [];
    return [{ file, title: title.slice(0, 200), description: typeof description === 'string' ? description.slice(0, 1000) : '' }];
  });
}

let cached: Promise<ExampleEntry[]> | undefined;

export function fetchExamples(): Promise<ExampleEntry[]> {
  cached ??= fetch('/examples/index.json')
    .then((r) => (r.ok ? r.json() : []))
    .then(parseExampleIndex)
    .catch(() => {
      cached = undefined;
      return [];
    });
  return cached;
}

export async function openExample(store: EditorStore, entry: ExampleEntry): Promise<void> {
  let text: string;
  try {
    const response = await fetch(`/examples/${encodeURIComponent(entry.file)}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    text = await response.text();
  } catch (error) {
    toast(`The example “${entry.title}” could not be fetched: ${error instanceof Error ? error.message : String(error)}`, 'error');
    return;
  }
  await openWorkflowText(store, text, `The example “${entry.title}”`);
}
