/**
 * Settings → where requests go, as a person sets them up: a token reaches only a URL they have
 * finished entering, and settings that cannot work stop the run before anything is sent.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const TOKEN = 'direct-secret-7c1e9a';
const CHAT_URL = 'https://chat.example.test';
const SERVER_TOKEN = 'local-secret-51b0d3';

/**
 * Every request the page makes to another host, answered here (never sent): the chat host lists
 * two models to a request that carries the token, and refuses one that does not.
 */
async function recordForeignRequests(page: Page, ownOrigin: string): Promise<string[]> {
  const seen: string[] = [];
  await page.route(() => true, async (route) => {
    const request = route.request();
    if (new URL(request.url()).origin === ownOrigin) return route.continue();
    const auth = request.headers().authorization;
    seen.push(`${request.method()} ${request.url()}${auth ? ` with ${auth}` : ''}`);
    if (request.url() !== `${CHAT_URL}/v1/models`) return route.abort('namenotresolved');
    const cors = { 'access-control-allow-origin': ownOrigin, 'access-control-allow-headers': 'authorization' };
    if (auth !== `Bearer ${TOKEN}`) return route.fulfill({ status: 401, headers: cors, body: 'no token' });
    return route.fulfill({ status: 200, headers: cors, contentType: 'application/json', body: JSON.stringify({ object: 'list', data: [{ id: 'chat-large' }, { id: 'chat-small' }] }) });
  });
  return seen;
}

/** The editor with Settings open on the direct route, and the list of requests to other hosts. */
async function directSettings(): Promise<{ editor: EditorPage; settings: SettingsDialog; seen: string[] }> {
  const editor = await session.open();
  const seen = await recordForeignRequests(editor.page, new URL(editor.page.url()).origin);
  const settings = await SettingsDialog.open(editor.page);
  await settings.route('Real endpoints, directly from the browser');
  return { editor, settings, seen };
}

describe('direct endpoints', () => {
  it('sends the token only to a base URL the person has finished entering, and lists its models then', async () => {
    const { editor, settings, seen } = await directSettings();

    // The token first, then the URL key by key: nothing may go to `https://c`, `https://ch`…
    await settings.type('Access token', TOKEN);
    await settings.type('Chat API base URL', CHAT_URL);
    await editor.page.keyboard.press('Tab');
    const hint = settings.dialog.getByText(/^Listed by the endpoint: /);
    await hint.waitFor();
    expect(await hint.textContent()).toBe('Listed by the endpoint: chat-large, chat-small');
    expect(seen).toEqual([`GET ${CHAT_URL}/v1/models with Bearer ${TOKEN}`]);
  });

  it('asks again with a token entered after the URL, once the token is entered', async () => {
    const { editor, settings, seen } = await directSettings();

    await settings.type('Chat API base URL', CHAT_URL);
    await editor.page.keyboard.press('Enter');
    await expect.poll(() => seen.length).toBe(1);
    await settings.type('Access token', TOKEN);
    await editor.page.keyboard.press('Enter');
    await settings.dialog.getByText('Listed by the endpoint: chat-large, chat-small').waitFor();
    expect(seen).toEqual([`GET ${CHAT_URL}/v1/models`, `GET ${CHAT_URL}/v1/models with Bearer ${TOKEN}`]);
  });
});

describe('settings that cannot work stop the run before anything is sent', () => {
  /** The run panel's "Could not run: …" line once Run is pressed; no node may have started. */
  async function refusal(editor: EditorPage): Promise<string> {
    await editor.run();
    const error = editor.runPanel.getByRole('alert');
    await error.waitFor();
    expect(await editor.lastRun.count()).toBe(0);
    expect(await editor.node('Chat prompt writer').status.count()).toBe(0);
    return (await error.textContent()) ?? '';
  }

  it('through a server whose forwarder has no upstream: says which variable to set on the server', async () => {
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.route('Real endpoints, through this server');
    // Chat goes to the local stand-in on a server without a chat upstream; images have nowhere to go.
    await settings.dialog.getByText(/^Images: not configured · Chat: local stand-in/).waitFor();
    await settings.close();
    const text = await refusal(editor);
    expect(text).toMatch(/^Could not run: the settings stop the run: this server has no image API to forward to: set ATELIER_IMAGE_BASE_URL/);
    expect(text).not.toContain('ATELIER_TEXT_BASE_URL');
  });

  it('to a server started with ATELIER_LOCAL_TOKEN when no token is set: asks for the token, then runs with it', async () => {
    const server = await session.server({ ATELIER_LOCAL_TOKEN: SERVER_TOKEN });
    const editor = await session.open({ baseUrl: server.url });
    expect(await refusal(editor)).toBe('Could not run: the settings stop the run: this server requires a token (it was started with '
      + 'ATELIER_LOCAL_TOKEN) and none is set: enter the server’s token in Settings (This server’s token)');

    const settings = await SettingsDialog.open(editor.page);
    await settings.field('Local server token').fill(SERVER_TOKEN);
    await settings.close();
    expect(await editor.runToEnd()).toBe('Run finished');
  });
});

describe('a service that refuses the browser (CORS)', () => {
  it('fails the node at once, saying it is CORS and how to fix it, without retrying', async () => {
    // Another server on another port is another origin, and it allows no other origin.
    const other = await session.server({});
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.route('Real endpoints, directly from the browser');
    await settings.field('Image API base URL').fill(`${other.url}/local/image`);
    await settings.field('Chat API base URL').fill(`${other.url}/local/text`);
    await settings.close();

    expect(await editor.runToEnd()).toBe('Run finished with failures');
    const writer = editor.node('Chat prompt writer');
    expect(await writer.phase()).toBe('failed');
    const message = (await writer.error.textContent()) ?? '';
    // The other server is running, so the page's no-cors probe is answered: it is CORS, said as such.
    expect(message).toContain(`${other.url} answered, but does not allow requests from this page (CORS): `
      + `allow the origin ${new URL(editor.page.url()).origin} there, or use the route through this server (Settings)`);
    expect(message).not.toMatch(/attempts|Failed to fetch/);
    expect(await writer.root.getByText(/^Retrying/).count()).toBe(0);
  });
});
