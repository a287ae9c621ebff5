/**
 * The editor's records keyed by node ids and port names (positions of a move, parameters shown
 * as ports, a node's shown outputs) hold ids such as `__proto__` and `constructor` as keys like
 * any others, in a document that did not go through the loader's renaming (an old autosave).
 */
import { describe, expect, it } from 'vitest';
import { gatherShown, toShownOutputs } from '../../src/results/object-urls';
import { createEditorStore } from '../../src/store/editor-store';
import { groupItem } from '../../src/store/frames';
import type { Workflow } from '../../workflow/schema';
import { hostileWorkflow, prototypeSnapshot } from '../helpers/prototype-ids';

const urls = { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined };

describe('ids that objects answer to, in the editor', () => {
  it('moves the members of a group whatever their ids', () => {
    const before = prototypeSnapshot();
    const s = createEditorStore({ initial: JSON.parse(JSON.stringify(hostileWorkflow())) as Workflow });
    const at = (id: string) => s.getState().index.nodeById.get(id)!.position;
    expect([at('__proto__'), at('hasOwnProperty')]).toEqual([{ x: 0, y: 0 }, { x: 0, y: 100 }]);
    s.moveNodes({ [groupItem('hasOwnProperty')]: { x: 80, y: -20 } });
    // The group moved 100 to the right: so did both its nodes.
    expect([at('__proto__'), at('hasOwnProperty')]).toEqual([{ x: 100, y: 0 }, { x: 100, y: 100 }]);
    expect(prototypeSnapshot()).toBe(before);
  });

  it('keeps parameters shown as ports for nodes called __proto__ and constructor', () => {
    const s = createEditorStore({ initial: JSON.parse(JSON.stringify(hostileWorkflow())) as Workflow });
    const saved = JSON.parse('{"__proto__": ["seed"], "constructor": ["seed"], "toString": ["prompt"]}') as Record<string, string[]>;
    s.load(s.getState().doc, { asInput: saved });
    const record = s.asInputRecord();
    expect(Object.keys(record).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.parse(JSON.stringify(record))).toEqual(saved);
  });

  it('shows outputs on ports called __proto__ and toString as they came', () => {
    const outputs = JSON.parse('{"__proto__": {"kind": "text", "value": "a"}, "toString": {"kind": "text", "value": "b"}}') as Parameters<typeof toShownOutputs>[0];
    const shown = toShownOutputs(outputs, urls);
    expect(Object.keys(shown)).toEqual(['__proto__', 'toString']);
    expect(Object.hasOwn(shown, '__proto__') && shown.__proto__).toEqual({ kind: 'text', value: 'a' });
    const gathered = gatherShown([shown, shown]);
    expect(Object.keys(gathered)).toEqual(['__proto__', 'toString']);
    expect(gathered.toString).toEqual({ kind: 'texts', value: ['b', 'b'] });
  });
});
