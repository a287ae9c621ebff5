/**
 * Once per e2e run: build the editor if its build is stale, start the local server on a free
 * port serving that build (chat streaming slowed to 5 ms a token so it can be watched, image
 * steps near instant), and launch one headless Chromium the test files connect to.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT, startServer } from '../../helpers/server-process';
import { buildEditorIfStale } from './build';
import { CHROMIUM_ARGS, chromiumPath } from './browser-path';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local server serving the built editor, e.g. http://127.0.0.1:41234. */
    e2eBaseUrl: string;
    /** Where test files connect to the shared Chromium. */
    e2eBrowserWs: string;
    /** The build being tested, for servers a test starts itself. */
    e2eDistDir: string;
  }
}

/** The server's settings for the e2e run; tests that need others start their own (see fixtures). */
export function e2eServerEnv(distDir: string): Record<string, string> {
  return { ATELIER_DIST_DIR: distDir, ATELIER_LOCAL_TOKEN_MS: '5', ATELIER_LOCAL_STEP_MS: '1' };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = buildEditorIfStale(PROJECT_ROOT);
  if (built) console.log('e2e: built the editor (vite build) into dist/');
  // The tests drive a copy of dist/, so a rebuild while they run (`npm start`, another build in
  // the same tree) cannot pull files from under the page.
  const snapshot = mkdtempSync(join(tmpdir(), 'atelier-e2e-dist-'));
  cpSync(join(PROJECT_ROOT, 'dist'), snapshot, { recursive: true });
  const executablePath = chromiumPath(PROJECT_ROOT);
  const server = await startServer(e2eServerEnv(snapshot));
  const browser = await chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS }).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  project.provide('e2eBaseUrl', server.url);
  project.provide('e2eBrowserWs', browser.wsEndpoint());
  project.provide('e2eDistDir', snapshot);
  return async () => {
    await browser.close();
    const { code, output } = await server.stop();
    rmSync(snapshot, { recursive: true, force: true });
    if (code !== 0) console.error(`e2e: the local server exited with ${code}:\n${output}`);
  };
}
