/**
 * Google's Gemini API called straight from the browser, set up in Settings as a person does (the
 * double answers any page's origin, as Google's front end does): the cost panel says what Gemini
 * changes, the starter workflow runs to images, the key goes in x-goog-api-key only (never in a
 * URL) and stays in its settings key, the run summary shows the money the API reported, and a
 * picture Google's safety filter stops is said on the node and never kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiDouble, type GeminiDouble } from '../helpers/doubles/gemini';
import { figureText, settledEstimate } from '../run/run-page';
import { backendNotes, runRefused, storedByPage } from './backend-helpers';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
let gemini: GeminiDouble | undefined;
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
});

describe('Google Gemini API, directly from the browser', () => {
  it('runs the starter on the key entered for it, says what it changes and the money reported, and keeps the key in its settings key only', async () => {
    gemini = await startGeminiDouble();
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('Google Gemini API');
    await settings.enterBackendField('Base URL', gemini.url);
    await settings.enterBackendField('API key', gemini.apiKey);
    await settings.close();

    const notes = await backendNotes(editor);
    expect(notes[0]).toMatch(/^Text to image on Google Gemini API: .*Style preset: 'cinematic' is added to the prompt/);
    expect(notes[1]).toMatch(/^Image to image on Google Gemini API: .*Strength: 0\.55 is said in words/);
    // The published price per image, with its page and the day it was read.
    const money = await figureText(await settledEstimate(editor), 'Money');
    expect(money).toMatch(/^≈ \$0\.078≈/);
    expect(money).toContain('≈ $0.039 per image · ai.google.dev/gemini-api/docs/pricing, 2026-08-24');
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Image to image').images.count()).toBe(1);
    const calls = gemini.received.filter((r) => r.method === 'POST');
    expect(calls.map((r) => `${r.path}${r.query} ${r.apiKey ?? ''} ${r.authorization ?? ''}`)).toEqual([
      `/v1beta/models/gemini-2.5-flash-image:generateContent ${gemini.apiKey} `,
      `/v1beta/models/gemini-2.5-flash-image:generateContent ${gemini.apiKey} `,
    ]);
    await editor.runPanel.getByText(/^\$0\.\d{4} reported by the backend$/).waitFor();

    const stored = await storedByPage(editor.page);
    expect(stored.session['atelier.backend-credentials.v1']).toBe(JSON.stringify({ 'all:google': gemini.apiKey }));
    const elsewhere = { ...stored.local, ...stored.session, 'atelier.backend-credentials.v1': '' };
    expect(JSON.stringify(elsewhere)).not.toContain(gemini.apiKey);
    expect(stored.indexedDb).not.toContain(gemini.apiKey);
    // Google's safety filter stops the restyle: said on the node, nothing kept as its picture.
    gemini.failNext({ status: 200, body: { candidates: [{ finishReason: 'IMAGE_SAFETY', index: 0, content: { parts: [{ text: 'I cannot make that image.' }], role: 'model' } }] } });
    expect(await runRefused(editor, 'the same scene, as a poster')).toMatch(/stopped the picture \(finishReason IMAGE_SAFETY\); no image was kept/);

    const saved = (await downloadBytes(await editor.save())).toString('utf8');
    expect(saved).not.toContain(gemini.apiKey);
    expect(saved).not.toMatch(/google|gemini|backend/i);
  });
});
