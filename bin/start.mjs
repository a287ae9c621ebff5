#!/usr/bin/env node
// `npm start`: builds the editor when its build is missing or older than its sources, then runs
// the local server (server/main.ts) in this same process through tsx, so SIGINT/SIGTERM reach
// the server's own shutdown directly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Everything the editor bundle is built from; a change in any of them calls for a rebuild. */
const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'src', 'public', 'nodes', 'api', 'workflow', 'workers'];

function newestMtime(path) {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function buildIfStale() {
  // The editor arrives in a later change; until then there is nothing to build.
  if (!existsSync(join(root, 'index.html'))) return;
  const builtIndex = join(root, 'dist', 'index.html');
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  if (builtAt >= sourcesAt) return;
  console.log(builtAt === 0 ? 'atelier: building the editor (vite build)...' : 'atelier: the editor changed since the last build; rebuilding (vite build)...');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('atelier: the editor build failed (see above); fix it or run `npm run dev` to start the server alone.');
    process.exit(result.status ?? 1);
  }
}

buildIfStale();
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
