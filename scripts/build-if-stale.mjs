// Builds the editor into dist/ when the build is missing or older than anything it is built from.
// Shared by `npm start` (bin/start.mjs, plain Node) and the e2e setup and editor bench (TypeScript,
// through build-if-stale.d.mts), so both rebuild on exactly the same rule.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Everything the editor bundle is built from; a change in any of them calls for a rebuild. */
export const EDITOR_SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'src', 'public', 'nodes', 'api', 'workflow', 'workers'];

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

export function buildEditorIfStale(root, options = {}) {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${join(root, 'index.html')} is missing: there is no editor to build`);
  const builtIndex = join(root, 'dist', 'index.html');
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(...EDITOR_SOURCES.map((s) => newestMtime(join(root, s))));
  if (builtAt >= sourcesAt) return false;
  options.onBuild?.(builtAt === 0 ? 'missing' : 'stale');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest sets NODE_ENV=test, which would give a development build of React: build what ships.
  const env = { ...process.env, NODE_ENV: 'production' };
  const args = options.quiet ? [vite, 'build', '--logLevel', 'warn'] : [vite, 'build'];
  const result = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', stdio: options.quiet ? 'pipe' : 'inherit' });
  if (result.status !== 0) {
    const output = options.quiet ? `:\n${result.stdout}\n${result.stderr}` : ' (its output is above)';
    throw new Error(`vite build failed (exit ${result.status ?? result.signal})${output}`);
  }
  return true;
}
