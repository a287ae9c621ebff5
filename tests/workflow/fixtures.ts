/** Reading the golden workflow fixtures in tests/fixtures/workflows/. */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/workflows/', import.meta.url));

export function fixture(name: string): string {
  return readFileSync(`${FIXTURE_DIR}${name}.json`, 'utf8');
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
}

/** The node types of the catalogue, as the fixtures use them. */
export const KNOWN_TYPES: ReadonlySet<string> = new Set([
  'image-loader', 'text', 'chat-prompt-writer', 'split-text', 'join-text', 'text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge',
  'preview', 'contact-sheet',
]);
