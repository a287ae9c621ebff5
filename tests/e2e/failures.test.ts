import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();

/** Settings → This server's token, then Escape (what was typed is kept). */
async function setServerToken(editor: EditorPage, token: string): Promise<void> {
  const settings = await SettingsDialog.open(editor.page);
  await settings.field('Local server token').fill(token);
  await editor.page.keyboard.press('Escape');
  await settings.dialog.waitFor({ state: 'detached' });
}
const TOKEN = 'local-secret-4d9f2c';

describe('a node that fails', () => {
  it("pins the service's message on the node, skips what depends on it, finishes the rest, and runs once the cause is fixed", async () => {
    // A server that requires a token, given the wrong one: every image request answers 401.
    const server = await session.server({ ATELIER_LOCAL_TOKEN: TOKEN });
    const editor = await session.open({ baseUrl: server.url });
    await editor.openExample('Fan-out: SDXL and SD 1.5');
    await editor.fitView();
    await setServerToken(editor, 'not-the-token');

    expect(await editor.runToEnd()).toBe('Run finished with failures');

    const sdxl = editor.node('SDXL');
    await expect.poll(() => sdxl.phase()).toBe('failed');
    expect(await sdxl.status.textContent()).toMatch(/^Failed after \d+\.\d s$/);
    const message = (await sdxl.error.textContent()) ?? '';
    expect(message).toContain('401');
    expect(message).toContain('ATELIER_LOCAL_TOKEN');
    expect(await sdxl.error.getAttribute('role')).toBe('alert');
    expect(await editor.node('Preview SDXL').status.textContent()).toBe("Skipped: 'SDXL' failed");
    expect(await editor.node('SD 1.5').phase()).toBe('failed');
    // The text node did not need the image API: its result stands.
    expect(await editor.node('Prompt').phase()).toBe('done');
    expect(await editor.lastRun.textContent()).toMatch(/Failed2 nodes, 2 skipped/);

    // "Show 'SDXL'" on the skipped preview leads to the node that failed.
    await editor.node('Preview SDXL').root.getByRole('button', { name: "Show 'SDXL'" }).click();
    await expect.poll(() => sdxl.root.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Give the editor the server's token in the settings: the next run goes through, and the
    // token appears nowhere on the page.
    await setServerToken(editor, TOKEN);
    expect(await editor.runToEnd()).toBe('Run finished');
    await editor.inspect(sdxl);
    await expect.poll(() => sdxl.images.count()).toBe(1);
    expect(await editor.page.content()).not.toContain(TOKEN);
  });
});
