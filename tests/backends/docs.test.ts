/**
 * The docs' backend tables are what the descriptions say: README's list of backends and the
 * names table of docs/backends.md. A description changed without the docs (or the other way
 * round) fails here, with the command that writes them again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_PARTS, generatedPart } from '../../api/backends/docs';
import { BACKENDS } from '../../api/backends/registry';
import { PROJECT_ROOT } from '../../server/config';

describe('the backend docs', () => {
  for (const { file, marker, render } of GENERATED_PARTS) {
    it(`${file}'s ${marker} table is what the backends' descriptions say`, () => {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      const part = generatedPart(text, marker);
      expect(part, `${file} has lost its <!-- ${marker} --> markers`).toBeDefined();
      expect(part, `${file}'s ${marker} table disagrees with api/backends/*/describe.ts: run npx tsx scripts/backend-docs.ts`).toBe(render(BACKENDS));
    });
  }

  it('names every backend of the registry, with its label, kind and usual address', () => {
    const readme = generatedPart(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'), 'backend-list') ?? '';
    for (const { description } of BACKENDS) expect(readme).toContain(`| ${description.label} | \`${description.kind}\` |`);
    const names = generatedPart(readFileSync(join(PROJECT_ROOT, 'docs/backends.md'), 'utf8'), 'backend-names') ?? '';
    expect(names.split('\n')[0]).toBe(`| setting | meaning | ${BACKENDS.slice(1).map((b) => b.description.label).join(' | ')} |`);
  });
});
