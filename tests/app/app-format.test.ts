/**
 * The app section of the workflow file: optional, written only when it holds something (files
 * without it keep their bytes), checked against the graph with errors that say where, renamed
 * with the nodes it names, and described against the catalogue the same way for the editor and
 * the CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appFields, applyAppValues } from '../../nodes/app-fields';
import { registry } from '../../nodes/index';
import { WorkflowLoadError, loadWorkflow, serializeWorkflow, type Workflow } from '../../workflow/index';
import { EXAMPLES, example } from '../cli/helpers';
import { KNOWN_TYPES } from '../workflow/fixtures';

const chat = () => readFileSync(example('chat-to-image'), 'utf8');
const withApp = (app: unknown): string => {
  const doc = JSON.parse(chat()) as Record<string, unknown>;
  doc.app = app;
  return JSON.stringify(doc);
};
const loadError = (text: string): string[] => {
  try {
    loadWorkflow(text, { knownTypes: KNOWN_TYPES });
  } catch (error) {
    if (error instanceof WorkflowLoadError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the file to be refused');
};

describe('the app section', () => {
  it('round-trips byte for byte', () => {
    const text = chat();
    expect(text).toContain('"app"');
    expect(serializeWorkflow(loadWorkflow(text, { knownTypes: KNOWN_TYPES }).workflow)).toBe(text);
  });

  it('is not written when empty, and files without one keep their bytes', () => {
    const examples = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { file: string }[];
    const without = examples.map((e) => readFileSync(join(EXAMPLES, e.file), 'utf8')).filter((t) => !t.includes('"app"'));
    expect(without.length).toBeGreaterThan(3);
    for (const text of without) expect(serializeWorkflow(loadWorkflow(text, { knownTypes: KNOWN_TYPES }).workflow)).toBe(text);
    const empty = loadWorkflow(withApp({ inputs: [], outputs: [] })).workflow;
    expect(serializeWorkflow(empty)).not.toContain('"app"');
  });

  it('refuses what does not fit the graph, saying where', () => {
    expect(loadError(withApp({
      inputs: [
        { name: 'a', node: 'ghost', param: 'text' },
        { name: 'a', node: 'subject', param: 'text' },
        { name: 'b', node: 'subject', param: 'text' },
      ],
      outputs: [{ node: 'preview' }, { node: 'preview' }, { node: 'nowhere' }],
    }))).toEqual([
      "app.inputs[0].node: no node 'ghost'",
      "app.inputs[1].name: duplicate input name 'a' (also app.inputs[0])",
      "app.inputs[2].param: parameter 'text' of node 'subject' is already app.inputs[1]",
      "app.outputs[1].node: node 'preview' is already app.outputs[0]",
      "app.outputs[2].node: no node 'nowhere'",
    ]);
  });

  it.each([
    [{ inputs: [{ name: '1st', node: 'subject', param: 'text' }] }, /app.inputs\[0\].name: a letter, then/],
    [{ inputs: [{ name: 'x y', node: 'subject', param: 'text' }] }, /app.inputs\[0\].name/],
    [{ outputs: [], colour: 'red' }, /app.colour: unknown field/],
    [{ inputs: Array.from({ length: 201 }, (_, i) => ({ name: `n${i}`, node: 'subject', param: `p${i}` })) }, /app.inputs/],
  ])('refuses a malformed app %#', (app, message) => {
    expect(loadError(withApp(app)).join('\n')).toMatch(message);
  });

  it('drops an endpoint a file slips into an input, saying so', () => {
    const { workflow, warnings } = loadWorkflow(withApp({ inputs: [{ name: 'x', node: 'subject', param: 'text', endpoint: 'http://x' }] }), { knownTypes: KNOWN_TYPES });
    expect(workflow.app!.inputs[0]).toEqual({ name: 'x', node: 'subject', param: 'text' });
    expect(warnings.map((w) => w.path)).toContain('app.inputs[0].endpoint');
  });

  it('follows a node renamed because its id was a prototype name', () => {
    const doc = JSON.parse(chat()) as Workflow;
    const subject = doc.nodes.find((n) => n.id === 'subject')!;
    subject.id = 'constructor';
    for (const e of doc.edges) if (e.source.node === 'subject') e.source.node = 'constructor';
    doc.app!.inputs[0]!.node = 'constructor';
    const { workflow, renamedIds } = loadWorkflow(JSON.stringify(doc), { knownTypes: KNOWN_TYPES });
    const renamed = renamedIds.get('constructor')!;
    expect(renamed).not.toBe('constructor');
    expect(workflow.app!.inputs[0]!.node).toBe(renamed);
    expect(appFields(workflow, registry).fields[0]!.nodeId).toBe(renamed);
  });
});

describe('appFields and applyAppValues', () => {
  it('describe each input from its node type and apply values by name', () => {
    const { workflow } = loadWorkflow(chat(), { knownTypes: KNOWN_TYPES });
    const { fields, problems } = appFields(workflow, registry);
    expect(problems).toEqual([]);
    expect(fields.map((f) => [f.name, f.kind, f.value, f.label])).toEqual([
      ['subject', 'text', 'a lighthouse on a rocky cliff at dusk', 'What should the picture show?'],
      ['seed', 'integer', 1234, 'Seed (same seed, same picture)'],
    ]);
    const changed = applyAppValues(workflow, fields, new Map<string, unknown>([['seed', 9], ['toString', 1]]));
    expect(changed.nodes.find((n) => n.id === 'draw')!.params.seed).toBe(9);
    expect(workflow.nodes.find((n) => n.id === 'draw')!.params.seed).toBe(1234);
  });

  it('report an input whose parameter the node type does not have, and label unlabelled ones from the node', () => {
    const { workflow } = loadWorkflow(withApp({
      inputs: [{ name: 'style', node: 'draw', param: 'style_preset' }, { name: 'oops', node: 'draw', param: 'hasOwnProperty' }],
    }), { knownTypes: KNOWN_TYPES });
    const { fields, problems } = appFields(workflow, registry);
    expect(fields[0]).toMatchObject({ name: 'style', kind: 'choice', label: expect.stringMatching(/^Draw it \(SDXL\) › /) as unknown });
    expect(fields[0]!.choices!.length).toBeGreaterThan(3);
    expect(problems).toEqual([{ name: 'oops', message: "input 'oops': node 'draw' (Text to image) has no parameter 'hasOwnProperty'" }]);
  });
});
