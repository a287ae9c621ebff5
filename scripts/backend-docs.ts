/** Rewrites the docs' backend tables (README.md, docs/backends.md) from the backends' descriptions. */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_PARTS, withGeneratedPart } from '../api/backends/docs';
import { BACKENDS } from '../api/backends/registry';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
for (const { file, marker, render } of GENERATED_PARTS) {
  const path = resolve(root, file);
  writeFileSync(path, withGeneratedPart(readFileSync(path, 'utf8'), marker, render(BACKENDS)));
  console.log(`wrote ${file} (${marker})`);
}
