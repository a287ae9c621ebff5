/**
 * Golden fixtures, loaded and saved: every fixture either opens, and then saves to
 * its committed snapshot and re-saves byte for byte, or is refused with a message naming where.
 */
import { describe, expect, it } from 'vitest';
import { type LoadResult, loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { KNOWN_TYPES, fixture, fixtureNames } from './fixtures';

const OPENS = ['small-graph', 'hand-written', 'embedded-image', 'unknown-types', 'newer-version', 'credentials', 'polluted'];
const REFUSED: Record<string, RegExp[]> = {
  'too-deep': [/beyond what Atelier opens/, /nodes\[0\]\.params\.payload(\[0\])+: nested deeper than 64 levels/],
  'broken-edges': [
    /nodes\[2\]\.id: duplicate node id 'a' \(also nodes\[0\]\)/,
    /edges\[0\]\.target\.node: no node 'c'/,
    /edges\[2\]\.id: duplicate edge id 'e2' \(also edges\[1\]\)/,
    /edges\[2\]\.target: input 'text' of node 'a' already has an edge \(edges\[1\]\)/,
    /edges\[3\]\.source\.node: no node 'n9'/,
  ],
  comfyui: [/not an Atelier workflow file/, /no "format": "atelier\.workflow".*ComfyUI/],
  'invalid-json': [/not valid JSON/, /line 4, column 44: expected a property name in double quotes, found '\}'/],
  'legacy-v0': [/too old/, /version: format version 0 cannot be upgraded: this build opens versions 1 to 2/],
};

const open = (name: string): LoadResult => loadWorkflow(fixture(name), { knownTypes: KNOWN_TYPES });
const codes = (result: LoadResult) => result.warnings.map((w) => `${w.code} ${w.path}`);

describe('golden workflow fixtures', () => {
  it('has a verdict for every fixture file', () => {
    expect([...OPENS, ...Object.keys(REFUSED)].sort()).toEqual(fixtureNames());
  });

  describe.each(OPENS)('%s', (name) => {
    it('saves to its snapshot, and load → save is byte-stable', async () => {
      const saved = serializeWorkflow(open(name).workflow);
      await expect(saved).toMatchFileSnapshot(`./__snapshots__/${name}.saved.json`);
      const again = loadWorkflow(saved, { knownTypes: KNOWN_TYPES });
      expect(serializeWorkflow(again.workflow)).toBe(saved);
      // A saved file is clean: opening it again has nothing to fix (unknown types stay reported).
      expect(again.warnings.filter((w) => w.code !== 'unknown-node-type' && w.code !== 'credential-in-text')).toEqual([]);
      expect(again.fromVersion).toBe(1);
    });
  });

  describe.each(Object.entries(REFUSED))('%s', (name, patterns) => {
    it('is refused with a message naming where', () => {
      const error = captureError(() => open(name));
      expect(error.name).toBe('WorkflowLoadError');
      for (const pattern of patterns) expect(error.message).toMatch(pattern);
    });
  });

  it('opens the small graph with no warnings and every field intact', () => {
    const { workflow, warnings, fromVersion } = open('small-graph');
    expect(warnings).toEqual([]);
    expect(fromVersion).toBe(1);
    expect(workflow.nodes.map((n) => n.id)).toEqual(['prompt', 'style', 'draw', 'show']);
    expect(workflow.nodes[2]).toMatchObject({ type: 'text-to-image', typeVersion: 1, params: { loras: { 'svc:detail_tweaker': 0.6 } } });
    expect(workflow.nodes[1]?.title).toBe('Style');
    expect(workflow.edges[1]).toEqual({ id: 'prompt:text->draw:prompt', source: { node: 'prompt', port: 'text' }, target: { node: 'draw', port: 'prompt' } });
  });

  it('fills what a hand-written file may leave out (description, params)', () => {
    const { workflow } = open('hand-written');
    expect(workflow.metadata.description).toBe('');
    expect(workflow.nodes.find((n) => n.id === 'out')?.params).toEqual({});
  });

  it('keeps an embedded image exactly', () => {
    const raw = JSON.parse(fixture('embedded-image')) as { nodes: { params: { image: { b64: string } } }[] };
    const { workflow } = open('embedded-image');
    expect(workflow.nodes[0]?.params.image).toEqual({ mime: 'image/png', b64: raw.nodes[0]?.params.image.b64 });
  });

  it('keeps unknown node types verbatim and reports each by node', () => {
    const result = open('unknown-types');
    expect(codes(result)).toEqual(['unknown-node-type nodes[1].type', 'unknown-node-type nodes[2].type']);
    expect(result.warnings[0]).toMatchObject({ nodeId: 'upscale', message: expect.stringMatching(/'acme\/upscale-4x'.*kept/) as unknown });
    const raw = JSON.parse(fixture('unknown-types')) as { nodes: unknown[]; edges: unknown[] };
    expect(result.workflow.nodes).toEqual(raw.nodes);
    expect(result.workflow.edges).toEqual(raw.edges);
  });

  it('opens a newer version best-effort, says so, and drops no node', () => {
    const result = open('newer-version');
    expect(result.fromVersion).toBe(7);
    expect(result.workflow.version).toBe(1);
    expect(result.warnings[0]).toMatchObject({ code: 'newer-version', message: expect.stringMatching(/newer Atelier \(format version 7/) as unknown });
    expect(codes(result).slice(1)).toEqual([
      'unknown-field-dropped groups',
      'unknown-field-dropped viewport',
      'unknown-field-dropped metadata.author',
      'unknown-field-dropped metadata.tags',
      'unknown-field-dropped nodes[0].color',
      'unknown-field-dropped nodes[0].position.z',
      'unknown-field-dropped edges[0].style',
      'unknown-field-dropped edges[0].source.index',
      'unknown-node-type nodes[2].type',
    ]);
    expect(result.workflow.nodes.map((n) => n.id)).toEqual(['prompt', 'draw', 'hologram']);
    // `bypass` became part of version 1: the file's flag is kept, not dropped as unknown.
    expect(result.workflow.nodes.map((n) => n.bypass)).toEqual([undefined, true, undefined]);
    // Params are records by name: a newer param is kept as it is.
    expect(result.workflow.nodes[0]?.params).toEqual({ text: 'a castle', future_param: { kept: true } });
  });
});

function captureError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected an error');
}
