/**
 * The editor under its Content-Security-Policy: everything a person does in a session (open,
 * run the starter, lay it out, open the lazily loaded parts) runs without one violation, in the
 * page or in its workers; markup slipped into the page cannot run script; and the page and the
 * executor's worker can still reach an endpoint on another origin, as the "directly from the
 * browser" setting needs.
 */
import type { ConsoleMessage, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();

interface Violation { directive: string; blocked: string }
type Watched = typeof globalThis & { __violations: Violation[]; __ran?: string };

/**
 * Opens the editor again with every `securitypolicyviolation` of the page recorded from its first
 * script on, and every error on the console of the page and its workers.
 */
async function watchPolicy(editor: EditorPage): Promise<{ violations: () => Promise<Violation[]>; console: string[] }> {
  const page = editor.page;
  // An init script is the browser's own, not the page's: the policy does not apply to it.
  await page.context().addInitScript(() => {
    const seen: Violation[] = [];
    (globalThis as Watched).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
  const lines: string[] = [];
  const onConsole = (where: string) => (message: ConsoleMessage) => {
    if (message.type() === 'error' || /Content.Security.Policy|Refused to/i.test(message.text())) lines.push(`${where}: ${message.text()}`);
  };
  page.on('console', onConsole('page'));
  page.on('worker', (worker) => worker.on('console', onConsole(worker.url())));
  await editor.goto();
  return { violations: () => page.evaluate(() => (globalThis as Watched).__violations), console: lines };
}

/**
 * The policy issues Chrome recorded for the page and for each of its workers since they started
 * (enabling the Audits domain replays them), with the workers looked at. A worker's violations
 * reach neither the page's events nor Playwright's console, so they are read here, over CDP.
 * Workers take commands through the page's session (`flatten: false`).
 */
async function recordedIssues(page: Page): Promise<{ issues: string[]; workers: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  const issues: string[] = [];
  const note = (where: string, issue: { code: string; details: unknown }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') issues.push(`${where}: ${JSON.stringify(issue.details)}`);
  };
  cdp.on('Audits.issueAdded', ({ issue }) => note('page', issue));
  await cdp.send('Audits.enable');
  const { targetInfo: self } = await cdp.send('Target.getTargetInfo');
  const workers = (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'worker' && t.parentFrameId === self.targetId);
  for (const worker of workers) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
    await new Promise<void>((replied) => {
      // Replayed issues come before the reply to the command that enabled them.
      cdp.on('Target.receivedMessageFromTarget', (event) => {
        if (event.sessionId !== sessionId) return;
        const message = JSON.parse(event.message) as { id?: number; method?: string; params?: { issue: { code: string; details: unknown } } };
        if (message.method === 'Audits.issueAdded') note(worker.url, message.params!.issue);
        if (message.id === 1) replied();
      });
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Audits.enable' }) });
    });
  }
  await cdp.detach();
  return { issues, workers: workers.map((w) => w.url) };
}

let upstream: MisbehavingServer;
beforeAll(async () => {
  upstream = await startMisbehavingServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
    res.end('reached');
  });
});
afterAll(() => upstream.close());

/** Fetches `url` from the page or a worker of it: 'reached', or why not. */
const reach = (where: Pick<Worker, 'evaluate'>, url: string): Promise<string> =>
  where.evaluate((u: string) => fetch(u).then((r) => r.text(), (e: Error) => `failed: ${e.message}`), url);

describe('the Content-Security-Policy', () => {
  it('is sent with the editor and lets a whole session run without a violation, in the page or its workers', async () => {
    const editor = await session.open();
    const watch = await watchPolicy(editor);
    const response = await editor.page.request.get(editor.baseUrl);
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");

    expect(await editor.runToEnd()).toBe('Run finished');
    // The starter opens on its start, at a readable zoom: show all of it, its last node too.
    await editor.fitView();
    await expect.poll(() => editor.node('Preview / save').root.locator('img').count()).toBeGreaterThan(0);
    // Auto-layout fetches ELK and runs it in a worker of its own.
    await editor.page.getByRole('toolbar', { name: 'Canvas tools' }).getByRole('button', { name: 'Auto-layout' }).click();
    await (await SettingsDialog.open(editor.page)).close();
    await editor.page.keyboard.press('?');
    await editor.page.getByRole('dialog', { name: 'Keyboard shortcuts and help' }).waitFor();
    await editor.page.keyboard.press('Escape');
    await editor.quiet();

    expect(await watch.violations()).toEqual([]);
    expect(watch.console).toEqual([]);
    const { issues, workers } = await recordedIssues(editor.page);
    expect(workers.some((url) => /\/assets\/worker-[^/]+\.js$/.test(url)), workers.join(', ')).toBe(true);
    expect(workers.some((url) => /\/assets\/elk-worker/.test(url)), workers.join(', ')).toBe(true);
    expect(issues).toEqual([]);
  });

  it('blocks script slipped into the page as markup, inline or as an event handler', async () => {
    const editor = await session.open();
    const watch = await watchPolicy(editor);
    await editor.page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'globalThis.__ran = "inline"';
      document.body.append(inline);
      const slip = document.createElement('div');
      slip.innerHTML = '<img src="data:," onerror="globalThis.__ran = \'handler\'">';
      document.body.append(slip);
    });
    await expect.poll(async () => (await watch.violations()).map((v) => v.directive).sort()).toEqual(['script-src-attr', 'script-src-elem']);
    expect(await editor.page.evaluate(() => (globalThis as Watched).__ran)).toBeUndefined();
  });

  it('lets the page and the executor worker reach an endpoint on another origin', async () => {
    const editor = await session.open();
    const other = `${upstream.url.replace('127.0.0.1', 'localhost')}/v1/models`;
    expect(await reach(editor.page, other)).toBe('reached');
    // The executor's worker starts with the first estimate of the starter workflow.
    await expect.poll(() => editor.page.workers().some((w) => /\/assets\/worker-/.test(w.url()))).toBe(true);
    const worker = editor.page.workers().find((w) => /\/assets\/worker-/.test(w.url()))!;
    expect(await reach(worker, other)).toBe('reached');
    expect((await recordedIssues(editor.page)).issues).toEqual([]);
  });
});
