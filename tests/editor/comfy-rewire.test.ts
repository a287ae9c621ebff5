/**
 * Choosing another workflow file for a ComfyUI workflow node that has wires: the wires to ports the
 * new workflow does not have are removed with the file change, as one undo step, and the person is
 * told how many; wires to ports it still has stay.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromStored } from '../../api/backends/comfyui/pipeline/model';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams, type ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import { chooseForNode } from '../../src/comfy/apply';
import type { ChosenWorkflow } from '../../src/comfy/choose';
import { setInputChoice } from '../../src/comfy/choices';
import { createEditorStore } from '../../src/store/editor-store';
import { toast } from '../../src/ui/toast';
import { fixtureText, recordedObjectInfo } from '../backends/comfyui/pipeline/fixtures';
import { workflow } from '../workers/fakes';

vi.mock('../../src/ui/toast', () => ({ toast: vi.fn() }));
afterEach(() => vi.mocked(toast).mockClear());

const info = recordedObjectInfo();
/** A pipeline's params (with its prompt a port when `promptPort`), as a chosen file gives them. */
function chosen(name: string, promptPort: boolean): ChosenWorkflow {
  const imported = importPipeline({ api: fixtureText(name, 'api') }, { info });
  let params: ComfyWorkflowParams = comfyWorkflowParams(imported, `${name}.json`);
  const prompt = params.fields.find((c) => c.name === 'prompt');
  if (promptPort && prompt) params = { ...params, ...setInputChoice(params, fromStored(params.pipeline), prompt.targets[0]!, 'port', info) };
  return { params, imported, info };
}

/** A Text into FLUX's prompt port, its pictures into a Preview. */
function wired() {
  const flux = chosen('flux-dev', true).params;
  return createEditorStore({
    initial: workflow(
      [['t', 'text', { text: 'a fox' }], ['f', 'comfy-workflow', flux as unknown as Record<string, unknown>], ['p', 'preview']],
      ['t.text -> f.prompt', 'f.images -> p.value'],
    ),
  });
}

const file = (name: string) => new File(['{}'], name);
const edges = (store: ReturnType<typeof wired>) => store.getState().doc.edges.map((e) => `${e.source.node}.${e.source.port} -> ${e.target.node}.${e.target.port}`);

describe('choosing another workflow file for a wired ComfyUI workflow node', () => {
  it('removes the wires to ports it no longer has, with the file, as one undo step, and says how many', async () => {
    const store = wired();
    expect(edges(store)).toEqual(['t.text -> f.prompt', 'f.images -> p.value']);
    // Image to image: its prompt a field (no prompt port) and its pictures under another name.
    const img2img = chosen('img2img', false);
    img2img.params.outputs = img2img.params.outputs.map((o) => ({ ...o, name: 'pictures' }));
    expect(await chooseForNode(store, 'f', file('img2img.json'), () => Promise.resolve(img2img))).toBe(true);
    expect(edges(store)).toEqual([]);
    expect(store.getState().index.nodeById.get('f')?.params.source).toBe('img2img.json');
    expect(vi.mocked(toast)).toHaveBeenCalledWith(expect.stringMatching(/, 1 outputs; 2 wires to ports it does not have were removed \(Undo brings them back\)$/), 'warning');

    store.undo();
    expect(edges(store)).toEqual(['t.text -> f.prompt', 'f.images -> p.value']);
    expect(store.getState().index.nodeById.get('f')?.params.source).toBe('flux-dev.json');
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('keeps every wire whose port the new workflow has, and says nothing of wires', async () => {
    const store = wired();
    await chooseForNode(store, 'f', file('sd35.json'), () => Promise.resolve(chosen('sd35', true)));
    expect(edges(store)).toEqual(['t.text -> f.prompt', 'f.images -> p.value']);
    expect(vi.mocked(toast)).toHaveBeenCalledWith(expect.not.stringMatching(/wire/), 'success');
  });
});
