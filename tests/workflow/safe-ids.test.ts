/**
 * The loader renames ids that are names every object answers to (`__proto__`, `toString`…),
 * says so in the load report (the node by title and type, the old id and the new one), and
 * everything that refers to them follows: edges, groups, the CLI's old names.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { loadReport } from '../../src/files/load-report';
import { loadWorkflow } from '../../workflow/load';
import { PROTOTYPE_NAMES, isSafeKey } from '../../workflow/keys';
import { serializeWorkflow } from '../../workflow/serialize';
import { hostileWorkflow } from '../helpers/prototype-ids';

const LOAD = catalogueLoadOptions(registry);

describe('ids that are not safe keys', () => {
  it('are renamed, each with a warning naming the node by title and type, the old id and the new', () => {
    const { workflow, warnings, renamedIds } = loadWorkflow(JSON.stringify(hostileWorkflow()), LOAD);
    const renames = warnings.filter((w) => w.code === 'unsafe-id-renamed');
    expect(renames.find((w) => w.path === 'nodes[2].id')).toEqual({
      code: 'unsafe-id-renamed',
      path: 'nodes[2].id',
      nodeId: 'constructor-1',
      message: "“Text constructor” (text) had the id 'constructor', a name every JavaScript object already answers to: renamed to 'constructor-1'; its connections follow",
    });
    expect(renames.find((w) => w.path === 'nodes[4].id')?.message).toBe(
      "a preview node had the id 'prototype', a name every JavaScript object already answers to: renamed to 'prototype-1'; its connections follow");
    // Eleven nodes, three edges, the note and the group.
    expect(renames.map((w) => w.path.replace(/\[\d+\]/, '[]'))).toEqual([...Array<string>(11).fill('nodes[].id'), ...Array<string>(3).fill('edges[].id'), 'notes[].id', 'groups[].id']);
    expect(renames.find((w) => w.path === 'edges[0].id')?.message).toBe("the connection id '__proto__' is a name every JavaScript object already answers to: renamed to '__proto__-1'");
    expect(renames.find((w) => w.path === 'groups[0].id')?.message).toContain("the group id 'hasOwnProperty' of “Inputs”");

    expect([...renamedIds]).toEqual(hostileWorkflow().nodes.map((n) => [n.id, `${n.id}-1`]));
    expect(workflow.nodes.every((n) => isSafeKey(n.id))).toBe(true);
    // Edges follow, end by end; the group keeps its members and its note.
    expect(workflow.edges[0]).toEqual({ id: '__proto__-1', source: { node: '__proto__-1', port: 'text' }, target: { node: 'constructor-1', port: 'toString' } });
    expect(workflow.edges.map((e) => `${e.source.node}.${e.source.port}->${e.target.node}.${e.target.port}`))
      .toEqual(hostileWorkflow().edges.map((e) => `${e.source.node}-1.${e.source.port}->${e.target.node}-1.${e.target.port}`));
    expect(workflow.notes?.[0]?.id).toBe('toString-1');
    expect(workflow.groups?.[0]).toMatchObject({ id: 'hasOwnProperty-1', nodes: ['__proto__-1', 'hasOwnProperty-1'], notes: ['toString-1'] });
    // Port names are the node types' (a placeholder's), not ids: kept as written.
    expect(workflow.edges[0]?.target.port).toBe('toString');
  });

  it('get a number no other id has, and saving then opening again renames nothing', () => {
    const doc = hostileWorkflow();
    doc.nodes.push({ id: 'toString-1', type: 'preview', position: { x: 0, y: 900 }, params: {} });
    const { workflow, renamedIds } = loadWorkflow(JSON.stringify(doc), LOAD);
    expect(renamedIds.get('toString')).toBe('toString-2');
    expect(workflow.nodes.map((n) => n.id).filter((id) => id.startsWith('toString'))).toEqual(['toString-2', 'toString-1']);

    const saved = serializeWorkflow(workflow);
    const again = loadWorkflow(saved, LOAD);
    expect(again.warnings).toEqual([]);
    expect(again.renamedIds.size).toBe(0);
    expect(serializeWorkflow(again.workflow)).toBe(saved);
  });

  it('are every name Object.prototype has, and prototype; a file without them loads untouched', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'prototype', '__defineGetter__']) {
      expect(PROTOTYPE_NAMES.has(name), name).toBe(true);
    }
    expect(isSafeKey('toString-1')).toBe(true);
    const plain = { ...hostileWorkflow(), edges: [], notes: [], groups: [], nodes: [{ id: 'writer', type: 'text', position: { x: 0, y: 0 }, params: {} }] };
    const loaded = loadWorkflow(JSON.stringify(plain), LOAD);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.workflow.nodes[0]?.id).toBe('writer');
  });

  it('are listed in the editor\'s load report by the node\'s name on the canvas', () => {
    const { workflow, warnings } = loadWorkflow(JSON.stringify(hostileWorkflow()), LOAD);
    const report = loadReport('names.json', warnings, workflow, registry);
    expect(report.issues).toContainEqual({
      path: 'id of “Text constructor”',
      message: "“Text constructor” (text) had the id 'constructor', a name every JavaScript object already answers to: renamed to 'constructor-1'; its connections follow",
    });
    expect(report.issues.find((i) => i.message.includes("'prototype'"))?.path).toBe('id of “Preview / save” (1 of 3)');
  });
});
