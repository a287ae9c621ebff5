#!/usr/bin/env node
// `npm start`: builds the editor when its build is missing or older than its sources, then runs
// the local server (server/main.ts) in this same process through tsx, so SIGINT/SIGTERM reach
// the server's own shutdown directly.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEditorIfStale } from '../scripts/build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  buildEditorIfStale(root, {
    onBuild: (reason) => console.log(reason === 'missing'
      ? 'atelier: building the editor (vite build)...'
      : 'atelier: the editor changed since the last build; rebuilding (vite build)...'),
  });
} catch (error) {
  console.error(`atelier: ${error instanceof Error ? error.message : String(error)}; fix it or run \`npm run dev\` to start the server alone.`);
  process.exit(1);
}
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
