/**
 * `metadata.modified` is the time of the last edit of the document, not of the save: saving the
 * same document twice writes the same bytes, whenever and after whichever backend ran it; an
 * edit moves it, and undoing the edit puts it back. Through the editor's own Open and Save (the
 * download itself caught), the store's history and the run queue.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registry } from '../../nodes/index';
import { openWorkflowText, saveWorkflow } from '../../src/files/open-save';
import { createRunController } from '../../src/run/controller';
import { createRunQueue } from '../../src/run/queue';
import { storeLink } from '../../src/run/store-link';
import { createSettingsStore } from '../../src/settings/settings-store';
import { createEditorStore, type EditorStore } from '../../src/store/editor-store';
import { serializeWorkflow } from '../../workflow/serialize';
import { countingUrls, inThreadClient, settings } from '../run/helpers';

const { downloads } = vi.hoisted(() => ({ downloads: [] as Blob[] }));
vi.mock('../../src/ui/download', () => ({ downloadBlob: (blob: Blob) => void downloads.push(blob) }));

const FILE = serializeWorkflow({
  format: 'atelier.workflow',
  version: 1,
  metadata: { title: 'Harbour', description: '', created: '2026-01-15T10:00:00.000Z', modified: '2026-02-01T09:30:00.000Z' },
  nodes: [
    { id: 'subject', type: 'text', position: { x: 0, y: 0 }, params: { text: 'a harbour at dawn' } },
    { id: 'writer', type: 'chat-prompt-writer', position: { x: 300, y: 0 }, params: { user: 'An image prompt about {{subject}}.' } },
    { id: 'draw', type: 'text-to-image', position: { x: 600, y: 0 }, params: { engine: 'sd', seed: 5, seed_mode: 'increment' } },
    { id: 'show', type: 'preview', position: { x: 900, y: 0 }, params: {} },
  ],
  edges: [
    { id: 'subject:text->writer:subject', source: { node: 'subject', port: 'text' }, target: { node: 'writer', port: 'subject' } },
    { id: 'writer:text->draw:prompt', source: { node: 'writer', port: 'text' }, target: { node: 'draw', port: 'prompt' } },
    { id: 'draw:image->show:value', source: { node: 'draw', port: 'image' }, target: { node: 'show', port: 'value' } },
  ],
});

const at = (iso: string) => vi.setSystemTime(new Date(iso));

/** Save as the toolbar does; the text of the file it downloads. */
async function save(store: EditorStore): Promise<string> {
  const before = downloads.length;
  saveWorkflow(store);
  await vi.waitFor(() => expect(downloads.length).toBe(before + 1));
  return downloads.at(-1)!.text();
}

async function opened(): Promise<EditorStore> {
  const store = createEditorStore();
  expect(await openWorkflowText(store, FILE, 'harbour.json')).toBe(true);
  return store;
}

const modifiedOf = (text: string) => (JSON.parse(text) as { metadata: { modified: string } }).metadata.modified;

beforeEach(() => {
  // Only the clock is faked: waiting for the download still uses real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  at('2026-03-01T08:00:00.000Z');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the time a workflow was modified', () => {
  it('does not move with Save: open, save, save later give the bytes of the file', async () => {
    const store = await opened();
    at('2026-03-01T09:00:00.000Z');
    const first = await save(store);
    at('2026-03-02T17:45:00.000Z');
    const second = await save(store);
    expect(second).toBe(first);
    expect(first).toBe(FILE);
  });

  it('moves with an edit, to the time of the edit; undo puts it back, redo brings it again', async () => {
    const store = await opened();
    at('2026-03-01T09:15:00.000Z');
    store.setParam('subject', 'text', 'a harbour at dusk');
    at('2026-03-01T11:00:00.000Z');
    const edited = await save(store);
    expect(modifiedOf(edited)).toBe('2026-03-01T09:15:00.000Z');
    expect(JSON.parse(edited)).toMatchObject({ metadata: { created: '2026-01-15T10:00:00.000Z' } });

    store.undo();
    expect(await save(store)).toBe(FILE);
    store.redo();
    expect(await save(store)).toBe(edited);

    // A selection or a drag not yet let go is no edit.
    at('2026-03-01T12:00:00.000Z');
    store.select({ nodes: ['draw'] });
    store.dragNodes({ draw: { x: 640, y: 40 } });
    store.cancelDrag();
    expect(await save(store)).toBe(edited);
  });

  it('is the date of the document in nodes copied out, so copying twice gives the same text', async () => {
    const store = await opened();
    store.select({ nodes: ['subject', 'writer'] });
    at('2026-03-05T10:00:00.000Z');
    const first = serializeWorkflow(store.copy()!);
    at('2026-03-06T10:00:00.000Z');
    expect(serializeWorkflow(store.copy()!)).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ metadata: { created: '2026-01-15T10:00:00.000Z', modified: '2026-02-01T09:30:00.000Z' } });
  });

  it('is the same after a run on one backend as after a run on another, seeds moved on alike', async () => {
    const runAndSave = async (backend: ReturnType<typeof inThreadClient>, ranAt: string, savedAt: string) => {
      at('2026-03-01T08:00:00.000Z');
      const store = await opened();
      const controller = createRunController({ client: backend.client, settings: () => settings, urls: countingUrls().urls });
      const link = { ...storeLink(store, createSettingsStore(null), 'http://127.0.0.1:8787'), getSettings: () => settings };
      at(ranAt);
      const [summary] = await createRunQueue({ controller, link }).start({ mode: 'all' }, 1);
      expect(summary?.status).toBe('succeeded');
      at(savedAt);
      return save(store);
    };
    const one = inThreadClient({ registry, chatAnswer: 'a lighthouse over still water' });
    const other = inThreadClient({ registry, chatAnswer: 'fishing boats under a pink sky', imageLatencyMs: 5 });
    const afterOne = await runAndSave(one, '2026-03-03T10:00:00.000Z', '2026-03-03T10:05:00.000Z');
    const afterOther = await runAndSave(other, '2026-04-10T16:00:00.000Z', '2026-04-11T09:00:00.000Z');
    // The runs answered differently, and each moved the seed on (an increment seed).
    expect(one.image.calls[0]?.request.prompt).not.toBe(other.image.calls[0]?.request.prompt);
    expect(JSON.parse(afterOne)).toMatchObject({ nodes: [{}, {}, { id: 'draw', params: { seed: 6 } }, {}] });
    expect(afterOther).toBe(afterOne);
    expect(modifiedOf(afterOne)).toBe('2026-02-01T09:30:00.000Z');
  });
});
