/** The Chromium the e2e tests and the editor bench drive: scripts/ensure-browser.mjs finds (or installs) it. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export function chromiumPath(root: string): string {
  try {
    const out = execFileSync(process.execPath, [join(root, 'scripts', 'ensure-browser.mjs'), '--install'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 300_000,
    });
    const path = out.trim().split('\n').at(-1)?.trim();
    if (!path) throw new Error('scripts/ensure-browser.mjs printed no path');
    return path;
  } catch (error) {
    throw new Error(`no Chromium for the e2e tests (README.md, "Tests and benchmarks", says how the browser is found and installed): ${(error as Error).message}`);
  }
}

/** Flags for a headless Chromium in a container: no sandbox (root), no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
