/**
 * What every e2e test file uses: a connection to the shared Chromium, a fresh browser context per
 * test (its own IndexedDB, storage and downloads), the editor opened in it, a screenshot and the
 * page's errors and console in test-results/e2e/ when a test fails, and no uncaught error in the page allowed to pass unseen.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process';
import { EditorPage } from './pages/editor';
import { e2eServerEnv } from './setup/global-setup';

const SHOTS = join(PROJECT_ROOT, 'test-results', 'e2e');

export interface EditorSession {
  /** A fresh context with the editor loaded at `baseUrl` (the shared server by default), in a window of `viewport` (1440×900). */
  open(options?: { baseUrl?: string; viewport?: { width: number; height: number } }): Promise<EditorPage>;
  /** Starts a server of this test's own (e.g. slower engines); stopped after the file. */
  server(env: Record<string, string>): Promise<ServerProcess>;
}

/**
 * tsx and vite compile page.evaluate callbacks with esbuild's keepNames, which can wrap named
 * inner functions in a `__name` helper the page lacks: give the page a do-nothing one.
 */
const NAME_SHIM = 'globalThis.__name = (f) => f;';

/** Registers the hooks of one test file and returns how its tests open the editor. */
export function editorSession(): EditorSession {
  let browser: Browser | undefined;
  const contexts: { context: BrowserContext; page: Page; errors: string[]; console: string[] }[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    browser = await chromium.connect(inject('e2eBrowserWs'));
  });

  afterEach(async (ctx) => {
    const open = contexts.splice(0);
    try {
      if (ctx.task.result?.state === 'fail') {
        mkdirSync(SHOTS, { recursive: true });
        const name = ctx.task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
        const alive = await fetch(`${inject('e2eBaseUrl')}/api/info`).then((r) => `answers ${r.status}`, (e: Error) => `does not answer (${e.message})`);
        for (const [i, { page, errors, console: lines }] of open.entries()) {
          const file = join(SHOTS, `${name}${i ? `-${i}` : ''}`);
          await page.screenshot({ path: `${file}.png` }).catch(() => undefined);
          writeFileSync(`${file}.log`, [`url: ${page.url()}`, `shared server ${alive}`, '', 'page errors:', ...errors, '', 'console:', ...lines].join('\n'));
        }
      } else {
        for (const { errors } of open) expect(errors, 'uncaught errors in the page').toEqual([]);
      }
    } finally {
      for (const { context } of open) await context.close().catch(() => undefined);
    }
  });

  afterAll(async () => {
    for (const server of servers.splice(0)) await server.stop();
    await browser?.close();
  });

  return {
    async open(options = {}) {
      if (!browser) throw new Error('the browser is not connected yet (open() belongs in a test)');
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1440, height: 900 }, acceptDownloads: true });
      await context.addInitScript(NAME_SHIM);
      const page = await context.newPage();
      const errors: string[] = [];
      const lines: string[] = [];
      page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
      page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
      contexts.push({ context, page, errors, console: lines });
      const editor = new EditorPage(page, options.baseUrl ?? inject('e2eBaseUrl'));
      await editor.goto();
      return editor;
    },
    async server(env) {
      const server = await startServer({ ...e2eServerEnv(inject('e2eDistDir')), ...env });
      servers.push(server);
      return server;
    },
  };
}
