/**
 * Settings → where requests go, as a person sets them up: a token reaches only a URL they have
 * finished entering, and settings that cannot work stop the run before anything is sent.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const TOKEN = 'direct-secret-7c1e9a';
const CHAT_URL = 'https://chat.example.test';

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

describe('direct endpoints', () => {
  it('sends the token only to a base URL the person has finished entering, and lists its models then', async () => {
    const editor = await session.open();
    const origin = new URL(editor.page.url()).origin;
    const seen = await recordForeignRequests(editor.page, origin);
    const settings = await SettingsDialog.open(editor.page);
    await settings.route('Real endpoints, directly from the browser');

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
    const editor = await session.open();
    const origin = new URL(editor.page.url()).origin;
    const seen = await recordForeignRequests(editor.page, origin);
    const settings = await SettingsDialog.open(editor.page);
    await settings.route('Real endpoints, directly from the browser');

    await settings.type('Chat API base URL', CHAT_URL);
    await editor.page.keyboard.press('Enter');
    await expect.poll(() => seen.length).toBe(1);
    await settings.type('Access token', TOKEN);
    await editor.page.keyboard.press('Enter');
    await settings.dialog.getByText('Listed by the endpoint: chat-large, chat-small').waitFor();
    expect(seen).toEqual([`GET ${CHAT_URL}/v1/models`, `GET ${CHAT_URL}/v1/models with Bearer ${TOKEN}`]);
  });
});
