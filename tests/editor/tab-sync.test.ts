/**
 * Two tabs on one autosaved workflow, simulated in Node: IndexedDB (fake-indexeddb) and a
 * BroadcastChannel shared by the "tabs", or none at all (the revision check alone).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { type AutosaveRecord, readSlot, writeSlot } from '../../src/files/autosave-db';
import { type ConflictKind, createTabSync, type TabSync } from '../../src/files/tab-sync';
import { createEditorStore, type EditorStore } from '../../src/store/editor-store';
import { createSmallStore } from '../../src/ui/small-store';

let slotCounter = 0;
const opened: TabSync[] = [];
afterEach(() => {
  for (const sync of opened.splice(0)) sync.stop();
});

function record(store: EditorStore): AutosaveRecord {
  const { doc, dirty } = store.getState();
  return { format: 'atelier.autosave', version: 1, workflow: JSON.stringify(doc), asInput: {}, dirty, savedAt: new Date().toISOString() };
}

/** A tab: its store, its conflict, and autosave hooks as the page wires them. */
function tab(slot: string, rev: number, channel: string, title = 'Shared') {
  const store = createEditorStore({ initial: createWorkflow({ title }) });
  const conflict = createSmallStore<ConflictKind | null>(null);
  let written = store.getState().revision;
  const state = {
    store,
    conflict,
    pending: () => store.getState().revision !== written,
    save: async () => {
      const revision = store.getState().revision;
      if (await sync.write(record(store), revision === written)) written = revision;
    },
    sync: undefined as unknown as TabSync,
  };
  const sync = createTabSync(store, { slot, rev }, {
    record: () => record(store),
    pending: state.pending,
    flush: state.save,
    adopted: () => {
      written = store.getState().revision;
    },
  }, { channel, conflicts: conflict });
  state.sync = sync;
  opened.push(sync);
  return state;
}

const fresh = () => {
  slotCounter++;
  return { slot: `test-${slotCounter}`, channel: `test-channel-${slotCounter}` };
};

describe('two tabs on one autosaved workflow', () => {
  it('a tab that only moved its view does not stop the other tab, which has changes, from writing them', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel);
    await a.save();
    const b = tab(slot, 1, channel);
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    await b.sync.resolve('reload');
    a.store.addNode('text', { x: 0, y: 0 });
    // B writes its view (its workflow is what A wrote last), while A has a change pending. A
    // third listener on the channel says when B's message has been delivered.
    const probe = new BroadcastChannel(channel);
    const heard = new Promise<void>((resolve) => probe.addEventListener('message', (e: MessageEvent<{ type: string }>) => {
      if (e.data.type === 'saved') resolve();
    }));
    expect(await b.sync.write(record(b.store), true)).toBe(true);
    await heard;
    probe.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(a.conflict.get()).toBeNull();
    await a.save();
    expect(a.conflict.get()).toBeNull();
    expect((await readSlot(slot))!.restored.workflow.nodes.map((n) => n.type)).toEqual(['text']);
    // And B, with nothing of its own, follows.
    await vi.waitFor(() => expect(b.store.getState().doc.nodes.map((n) => n.type)).toEqual(['text']));
  });

  it('a tab opening a workflow another tab edits is told at once, and writes nothing until it chooses', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel);
    a.store.addNode('text', { x: 0, y: 0 });
    await a.save();
    const b = tab(slot, 1, channel);
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    expect(a.conflict.get()).toBeNull();
    b.store.addNode('preview', { x: 300, y: 0 });
    await b.save();
    expect((await readSlot(slot))!.restored.workflow.nodes.map((n) => n.type)).toEqual(['text']);
  });

  it('"Reload theirs" takes the other tab\'s work, which then follows it while it has nothing of its own', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel);
    await a.save();
    const b = tab(slot, 1, channel, 'Stale');
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    a.store.addNode('text', { x: 0, y: 0 });
    await a.save();
    await b.sync.resolve('reload');
    expect(b.conflict.get()).toBeNull();
    expect(b.store.getState().doc.nodes.map((n) => n.type)).toEqual(['text']);
    // Undo brings this tab's own work back.
    expect(b.store.getState().history.undoLabel).toBe('open workflow');

    a.store.setWorkflowTitle('Edited in A');
    await a.save();
    await vi.waitFor(() => expect(b.store.getState().doc.metadata.title).toBe('Edited in A'));
    expect(b.conflict.get()).toBeNull();
  });

  it('a tab with changes of its own is told when another tab saves, and its changes are not overwritten', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel);
    await a.save();
    const b = tab(slot, 1, channel);
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    await b.sync.resolve('reload');
    b.store.setWorkflowTitle('B, not yet saved');
    a.store.setWorkflowTitle('A wins the race');
    await a.save();
    await vi.waitFor(() => expect(b.conflict.get()).toBe('changed-elsewhere'));
    expect(b.store.getState().doc.metadata.title).toBe('B, not yet saved');
    await b.save();
    expect((await readSlot(slot))!.restored.workflow.metadata.title).toBe('A wins the race');
  });

  it('"Take over" writes this tab\'s work and the other tab is told', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel);
    await a.save();
    const b = tab(slot, 1, channel, 'B takes over');
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    await b.sync.resolve('take-over');
    expect(b.conflict.get()).toBeNull();
    await vi.waitFor(() => expect(a.conflict.get()).toBe('taken-over'));
    expect((await readSlot(slot))!.restored.workflow.metadata.title).toBe('B takes over');
    a.store.setWorkflowTitle('A after the take-over');
    await a.save();
    expect((await readSlot(slot))!.restored.workflow.metadata.title).toBe('B takes over');
  });

  it('"Open a copy" keeps this tab\'s work apart, under a title that says so', async () => {
    const { slot, channel } = fresh();
    const a = tab(slot, 0, channel, 'Poster');
    await a.save();
    const b = tab(slot, 1, channel, 'Poster');
    await vi.waitFor(() => expect(b.conflict.get()).toBe('open-elsewhere'));
    await b.sync.resolve('copy');
    expect(b.sync.slot()).not.toBe(slot);
    expect(b.store.getState().doc.metadata.title).toBe('Poster (copy)');
    expect((await readSlot(b.sync.slot()))!.restored.workflow.metadata.title).toBe('Poster (copy)');
    expect((await readSlot(slot))!.restored.workflow.metadata.title).toBe('Poster');
    // The tabs no longer concern each other.
    a.store.setWorkflowTitle('Poster, edited');
    await a.save();
    await new Promise((r) => setTimeout(r, 50));
    expect(b.conflict.get()).toBeNull();
    expect(b.store.getState().doc.metadata.title).toBe('Poster (copy)');
  });

  it('without any message between the tabs, the revision check alone refuses to overwrite', async () => {
    const { slot } = fresh();
    const a = tab(slot, 0, `${slot}-a`);
    const b = tab(slot, 0, `${slot}-b`);
    a.store.setWorkflowTitle('first');
    await a.save();
    b.store.setWorkflowTitle('second');
    await b.save();
    expect(b.conflict.get()).toBe('changed-elsewhere');
    expect((await readSlot(slot))!.restored.workflow.metadata.title).toBe('first');
    const refused = await writeSlot(slot, record(b.store), { rev: 0, tab: 'someone-else' });
    expect(refused).toMatchObject({ ok: false, rev: 1 });
  });
});
