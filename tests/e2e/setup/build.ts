/**
 * Builds the editor into dist/ when the build is missing or older than anything it is built from
 * (the same rule as `npm start`), so the e2e tests always drive the current sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Everything the editor bundle is built from (bin/start.mjs watches the same list). */
const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'src', 'public', 'nodes', 'api', 'workflow', 'workers'];

function newestMtime(path: string): number {
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

/** Runs `vite build` when dist/ is stale; returns whether it built. Throws with vite's output on failure. */
export function buildEditorIfStale(root: string): boolean {
  if (!existsSync(join(root, 'index.html'))) throw new Error('index.html is missing: there is no editor to build for the e2e tests');
  const builtIndex = join(root, 'dist', 'index.html');
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  if (builtAt >= sourcesAt) return false;
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest sets NODE_ENV=test, which would give a development build of React: build what ships.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, encoding: 'utf8', env });
  if (result.status !== 0) {
    throw new Error(`vite build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return true;
}
