/**
 * Marking a workflow's app in the editor store, headless: each mark is one undo step, names are
 * command-line words free among the inputs, and deleting a marked node takes its entries with it
 * so the document still saves.
 */
import { describe, expect, it } from 'vitest';
import { appInputName } from '../../src/store/app-actions';
import { createEditorStore } from '../../src/store/editor-store';
import { createWorkflow } from '../../workflow/create';
import { serializeWorkflow } from '../../workflow/serialize';

function store() {
  const s = createEditorStore({ initial: createWorkflow({ title: 'App' }), now: () => 1_000_000 });
  const text = s.addNode('text', { x: 0, y: 0 });
  const draw = s.addNode('text-to-image', { x: 400, y: 0 });
  const preview = s.addNode('preview', { x: 800, y: 0 });
  return { s, text, draw, preview };
}

describe('app marks in the editor store', () => {
  it('marks inputs and outputs, each one undo step, and saves them', () => {
    const { s, text, draw, preview } = store();
    expect(s.markAppInput(text, 'text', 'Prompt')).toBe('text');
    expect(s.markAppInput(draw, 'seed')).toBe('seed');
    expect(s.markAppInput(draw, 'seed')).toBe('seed');
    s.markAppOutput(preview);
    s.moveAppInput('seed', -1);
    expect(s.getState().doc.app).toEqual({
      inputs: [{ name: 'seed', node: draw, param: 'seed' }, { name: 'text', node: text, param: 'text', label: 'Prompt' }],
      outputs: [{ node: preview }],
    });
    expect(serializeWorkflow(s.getState().doc)).toContain('"app"');
    s.undo();
    s.undo();
    expect(s.getState().doc.app?.outputs).toEqual([]);
    s.undo();
    s.undo();
    expect(s.getState().doc.app).toBeUndefined();
  });

  it('deleting a marked node removes its entries and an app left empty', () => {
    const { s, draw, preview } = store();
    s.markAppInput(draw, 'seed');
    s.markAppOutput(preview);
    s.deleteNodes([draw]);
    expect(s.getState().doc.app).toEqual({ inputs: [], outputs: [{ node: preview }] });
    expect(() => serializeWorkflow(s.getState().doc)).not.toThrow();
    s.deleteNodes([preview]);
    expect(s.getState().doc.app).toBeUndefined();
    s.undo();
    expect(s.getState().doc.app?.outputs).toEqual([{ node: preview }]);
  });

  it('reorders and labels outputs and inputs, each one undo step; a label that changes nothing is no step', () => {
    const { s, text, preview } = store();
    const second = s.addNode('preview', { x: 800, y: 400 });
    s.markAppInput(text, 'text');
    s.markAppOutput(preview);
    s.markAppOutput(second);
    s.moveAppOutput(second, -1);
    s.moveAppOutput(second, -1);
    expect(s.getState().doc.app?.outputs.map((o) => o.node)).toEqual([second, preview]);
    s.labelAppOutput(second, '  Pictures ');
    s.labelAppInput('text', 'What to draw');
    expect(s.getState().doc.app?.outputs[0]).toEqual({ node: second, label: 'Pictures' });
    expect(s.getState().doc.app?.inputs[0]?.label).toBe('What to draw');
    const steps = s.getState().history.undoLabel;
    s.labelAppInput('text', 'What to draw ');
    expect(s.getState().history.undoLabel).toBe(steps);
    s.labelAppOutput(second, '');
    expect(s.getState().doc.app?.outputs[0]).toEqual({ node: second });
    s.undo();
    s.undo();
    s.undo();
    expect(s.getState().doc.app?.outputs).toEqual([{ node: second }, { node: preview }]);
    s.undo();
    expect(s.getState().doc.app?.outputs.map((o) => o.node)).toEqual([preview, second]);
  });

  it('moves an input or an output to a place (a drag), one undo step per move; no step for a move that changes nothing', () => {
    const { s, text, draw, preview } = store();
    s.markAppInput(text, 'text');
    s.markAppInput(draw, 'seed');
    s.markAppInput(draw, 'steps');
    const second = s.addNode('preview', { x: 800, y: 400 });
    s.markAppOutput(preview);
    s.markAppOutput(second);
    s.moveAppInputTo('text', 2);
    expect(s.getState().doc.app?.inputs.map((i) => i.name)).toEqual(['seed', 'steps', 'text']);
    expect(s.getState().history.undoLabel).toBe('reorder app inputs');
    s.moveAppInputTo('steps', 0);
    expect(s.getState().doc.app?.inputs.map((i) => i.name)).toEqual(['steps', 'seed', 'text']);
    s.moveAppOutputTo(second, 0);
    expect(s.getState().doc.app?.outputs.map((o) => o.node)).toEqual([second, preview]);
    const before = s.getState().doc;
    for (const [name, to] of [['text', 2], ['text', 3], ['text', -1], ['text', 0.5], ['nope', 0]] as const) s.moveAppInputTo(name, to);
    s.moveAppOutputTo(preview, 5);
    expect(s.getState().doc).toBe(before);
    s.undo();
    expect(s.getState().doc.app?.outputs.map((o) => o.node)).toEqual([preview, second]);
    s.undo();
    expect(s.getState().doc.app?.inputs.map((i) => i.name)).toEqual(['seed', 'steps', 'text']);
    s.undo();
    expect(s.getState().doc.app?.inputs.map((i) => i.name)).toEqual(['text', 'seed', 'steps']);
  });

  it('makes names that are command-line words, free among the inputs', () => {
    expect(appInputName('seed', new Set(['seed', 'seed-2']))).toBe('seed-3');
    expect(appInputName('2nd prompt', new Set())).toBe('nd-prompt');
    expect(appInputName('__proto__', new Set())).toBe('proto__');
    expect(appInputName('42', new Set())).toBe('input');
  });
});
