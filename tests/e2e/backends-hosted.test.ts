/**
 * fal and Replicate through the local server, as a person with a key and no GPU sets them up: the
 * server holds the key (ATELIER_IMAGE_BACKEND, ATELIER_BACKEND_URL, ATELIER_BACKEND_TOKEN), the
 * cost panel says before the run what the provider changes and what it costs (or that its price
 * is unknown, and why), the starter runs to images on the provider's double, and a picture the
 * provider's safety checker refuses is said on the node, sent once, and never kept as a picture.
 * Settings says, for every backend, whether this browser can call it and, if not, why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../api/backends/registry';
import { startFalDouble, type FalDouble } from '../helpers/doubles/fal';
import { startReplicateDouble, type ReplicateDouble } from '../helpers/doubles/replicate';
import { figureText, settledEstimate } from '../run/run-page';
import { backendNotes, runRefused, storedByPage } from './backend-helpers';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const doubles: (FalDouble | ReplicateDouble)[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

/** Picks "through this server" and returns what Settings says of where each engine goes. */
async function throughServer(editor: EditorPage): Promise<string[]> {
  const settings = await SettingsDialog.open(editor.page);
  await settings.route('Real endpoints, through this server');
  const shown = settings.imageBackend;
  await shown.getByText('through this server, the server decides', { exact: false }).waitFor();
  const lines = (await shown.getByRole('listitem').allTextContents()).map((t) => t.trim());
  await settings.close();
  return lines;
}

describe('hosted providers, through this server', () => {
  it('fal: says what it changes and that its price is unknown, runs the starter, and a flagged picture is said on the node, never kept', async () => {
    const fal = await startFalDouble({ queuePolls: 1, progressPolls: 1, flagPrompts: /forbidden/ });
    doubles.push(fal);
    const server = await session.server({ ATELIER_IMAGE_BACKEND: 'fal', ATELIER_BACKEND_URL: fal.url, ATELIER_BACKEND_TOKEN: fal.apiKey });
    const editor = await session.open({ baseUrl: server.url });
    expect(await throughServer(editor)).toEqual(['SDXL v1.0: fal', 'SD v1.5: fal', 'ControlNet on SDXL: fal']);

    const notes = await backendNotes(editor);
    expect(notes[0]).toMatch(/^Text to image on fal: .*Style preset: 'cinematic' becomes words around the prompt/);
    expect(notes[1]).toMatch(/^Image to image on fal: .*Style preset: 'Stained Glass' becomes words around the prompt/);
    const estimate = await settledEstimate(editor);
    const money = await figureText(estimate, 'Money');
    expect(money).toMatch(/^2 nodes: price unknown/);
    expect(money).toContain('price unknown: fal publishes no fixed price for fal-ai/fast-sdxl that Atelier knows: it bills by the GPU time a request takes');

    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(fal.jobs.map((j) => j.endpoint)).toEqual(['fal-ai/fast-sdxl', 'fal-ai/fast-sdxl/image-to-image']);

    const message = await runRefused(editor, 'something forbidden');
    expect(message).toMatch(/fal's safety checker flagged the image \(has_nsfw_concepts\), so none is kept; sending it again will not help/);
    // Sent once: the refusal is not retried (each try would be billed).
    expect(fal.jobs.map((j) => j.endpoint)).toEqual(['fal-ai/fast-sdxl', 'fal-ai/fast-sdxl/image-to-image', 'fal-ai/fast-sdxl/image-to-image']);
    const stored = await storedByPage(editor.page);
    expect(JSON.stringify(stored)).not.toContain(fal.apiKey);
  });

  it('fal on FLUX.1 [dev]: the price from fal\'s price page before the run, and after it the money fal reported', async () => {
    const fal = await startFalDouble({ queuePolls: 0, progressPolls: 0 });
    doubles.push(fal);
    // The server's config file chooses the model per engine (no key in it: that stays in the variable).
    const config = join(mkdtempSync(join(tmpdir(), 'atelier-config-')), 'config.json');
    writeFileSync(config, JSON.stringify({ imageBackends: { sdxl: { kind: 'fal', baseUrl: fal.url, names: { model: 'fal-ai/flux/dev' } } } }), { mode: 0o600 });
    const server = await session.server({ ATELIER_CONFIG: config, ATELIER_BACKEND_TOKEN: fal.apiKey });
    const editor = await session.open({ baseUrl: server.url });
    await throughServer(editor);

    // 1024×1024 is 1.05 megapixels, billed as 2 at $0.025; FLUX's image-to-image endpoint is not in the table.
    const before = await figureText(await settledEstimate(editor), 'Money');
    expect(before).toMatch(/^≈ \$0\.05; 1 node: price unknown/);
    expect(before).toContain('≈ $0.025 per megapixel · fal.ai/pricing, 2026-05-25');
    expect(before).toContain('price unknown: fal publishes no fixed price for fal-ai/flux/dev/image-to-image');

    expect(await editor.runToEnd()).toBe('Run finished');
    expect(fal.jobs.map((j) => j.endpoint)).toEqual(['fal-ai/flux/dev', 'fal-ai/flux/dev/image-to-image']);
    // Only the text-to-image answer carried its billable units: the sum says it covers 1 of 2 calls.
    expect(await figureText(editor.lastRun, 'Money')).toBe('$0.0500 reported by the backend (1 of 2 image calls reported it)');
  });

  it('fal: while a request waits in fal\'s queue, its node says where it stands, through the server', async () => {
    const fal = await startFalDouble({ queuePolls: 3, progressPolls: 1, holdQueue: true });
    doubles.push(fal);
    const server = await session.server({ ATELIER_IMAGE_BACKEND: 'fal', ATELIER_BACKEND_URL: fal.url, ATELIER_BACKEND_TOKEN: fal.apiKey });
    const editor = await session.open({ baseUrl: server.url });
    await throughServer(editor);
    await editor.run();
    // The key stays on the server: this word came from fal's queue by way of it.
    const node = editor.node('Text to image');
    await node.runStatus.getByText("waiting in fal's queue (3 ahead)", { exact: true }).waitFor({ timeout: 60_000 });
    fal.release();
    await editor.lastRun.waitFor({ timeout: 60_000 });
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run finished');
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(JSON.stringify(await storedByPage(editor.page))).not.toContain(fal.apiKey);
  });

  it('Replicate: says what it changes and why its price is unknown, runs the starter, and a refused picture is said on the node, never kept', async () => {
    const replicate = await startReplicateDouble({ coldPolls: 1, steps: 1, flagPrompts: /forbidden/ });
    doubles.push(replicate);
    const server = await session.server({ ATELIER_IMAGE_BACKEND: 'replicate', ATELIER_BACKEND_URL: replicate.url, ATELIER_BACKEND_TOKEN: replicate.token });
    const editor = await session.open({ baseUrl: server.url });
    expect(await throughServer(editor)).toEqual(['SDXL v1.0: Replicate', 'SD v1.5: Replicate', 'ControlNet on SDXL: Replicate']);

    const notes = await backendNotes(editor);
    expect(notes[0]).toMatch(/^Text to image on Replicate: .*Style preset: 'cinematic' becomes words around the prompt/);
    expect(notes[1]).toMatch(/^Image to image on Replicate: /);
    const estimate = await settledEstimate(editor);
    const money = await figureText(estimate, 'Money');
    expect(money).toMatch(/^2 nodes: price unknown/);
    expect(money).toContain('price unknown: Replicate bills stability-ai/sdxl by the second of GPU time it takes');

    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(replicate.predictions).toHaveLength(2);

    const message = await runRefused(editor, 'something forbidden');
    expect(message).toMatch(/Replicate's safety checker refused the images of stability-ai\/sdxl:\w+, so none is kept; sending it again will not help/);
    expect(replicate.predictions).toHaveLength(3);
    const stored = await storedByPage(editor.page);
    expect(JSON.stringify(stored)).not.toContain(replicate.token);
  });
});

describe('Settings, for every backend', () => {
  it('says whether this browser can call it, as its description says, and why not', async () => {
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    const origin = new URL(editor.page.url()).origin;
    const said = new Map<string, string>();
    for (const { description } of BACKENDS) {
      if (description.kind === 'service') continue;
      await settings.chooseBackend(description.label);
      await settings.backendSlot().getByLabel('Base URL', { exact: true }).waitFor();
      const notes = (await settings.backendSlot().locator('p.field-hint, p.field-issue').allTextContents()).map((t) => t.trim());
      // Words in backticks show as code: the text is the same without them.
      const words = (text: string) => text.replaceAll('`', '');
      const { browser } = description;
      const expected = browser.direct ? words(browser.allowOrigin(origin)) : `Not from this browser: ${words(browser.why)}`;
      const shown = notes.filter((t) => t.includes(expected));
      expect(shown, `${description.label}: ${notes.join(' | ')}`).toHaveLength(1);
      said.set(description.kind, shown[0]!);
      if (browser.direct) expect(notes.some((t) => t.startsWith('Not from this browser'))).toBe(false);
    }
    // The hosted providers whose keys must stay on a server say so; Google's front end answers browsers.
    expect(said.get('fal')).toMatch(/^Not from this browser: fal asks that its key never be used from a browser.*through its own server, which holds the key/);
    expect(said.get('replicate')).toMatch(/^Not from this browser: Replicate's API does not answer a browser's cross-origin requests.*which holds the token/);
    expect(said.get('google')).not.toMatch(/^Not from this browser/);
  });
});
