/** Files from anyone: pollution, credentials, and every limit, each refused or cleaned with where. */
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowLoadError } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { fixture } from './fixtures';

const META = { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };
const node = (id: string, params: unknown = {}) => ({ id, type: 'text', position: { x: 0, y: 0 }, params });
const file = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ format: 'atelier.workflow', version: 1, metadata: META, nodes: [node('a')], edges: [], ...extra });

function loadError(text: string, options?: Parameters<typeof loadWorkflow>[1]): WorkflowLoadError {
  try {
    loadWorkflow(text, options);
  } catch (error) {
    if (error instanceof WorkflowLoadError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('prototype pollution', () => {
  afterEach(() => {
    // Belt and braces: if a test ever polluted, later tests in the file must not inherit it.
    for (const key of ['polluted', 'isAdmin']) delete (Object.prototype as Record<string, unknown>)[key];
  });

  it('drops __proto__, constructor and prototype anywhere, with a warning naming each place', () => {
    const { workflow, warnings } = loadWorkflow(fixture('polluted'));
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ['unsafe-key-dropped', '__proto__'],
      ['unsafe-key-dropped', 'metadata.constructor'],
      ['unsafe-key-dropped', 'nodes[0].params.__proto__'],
      ['unsafe-key-dropped', 'nodes[0].params.nested.prototype'],
      ['unsafe-key-dropped', 'nodes[0].params.nested.list[0].__proto__'],
    ]);
    expect(workflow.nodes[0]?.params).toEqual({ text: 'hello', nested: { ok: 1, list: [{}] } });
  });

  it('leaves Object.prototype and every loaded object untouched', () => {
    const { workflow } = loadWorkflow(fixture('polluted'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('isAdmin');
    const params = workflow.nodes[0]!.params;
    expect(Object.getPrototypeOf(workflow)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((params.nested as { list: object[] }).list[0])).toBe(Object.prototype);
    expect((params as Record<string, unknown>).polluted).toBeUndefined();
    expect((params as Record<string, unknown>).isAdmin).toBeUndefined();
    // Merging loaded data the way an editor might must not pollute either.
    const merged: Record<string, unknown> = { ...params };
    Object.assign({}, params, workflow.metadata);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged.isAdmin).toBeUndefined();
  });
});

describe('credentials and endpoints', () => {
  it('removes credential- and endpoint-named fields and credential-shaped values, naming each path', () => {
    const { workflow, warnings } = loadWorkflow(fixture('credentials'));
    const dropped = warnings.filter((w) => w.code === 'credential-dropped').map((w) => w.path);
    expect(dropped).toEqual([
      'apiKey',
      'baseUrl',
      'nodes[0].params.api_key',
      'nodes[0].params.Authorization',
      'nodes[0].params.endpoint',
      'nodes[0].params.headers["X-Api-Key"]',
      'nodes[0].params.model',
      'nodes[1].params.checkpoint',
      'nodes[1].params.stop[1]',
      'nodes[1].params.base_url',
    ]);
    expect(warnings.find((w) => w.path === 'nodes[0].params.api_key')).toMatchObject({ nodeId: 'writer' });
    const writer = workflow.nodes[0]!.params;
    expect(Object.keys(writer).sort()).toEqual(['headers', 'max_tokens', 'messages', 'system', 'user_template']);
    expect(writer.headers).toEqual({ Accept: 'application/json' });
    expect(workflow.nodes[1]!.params.stop).toEqual(['###']);
  });

  it('never touches prose that mentions tokens, nor max_tokens, nor asset names', () => {
    const { workflow } = loadWorkflow(fixture('credentials'));
    expect(workflow.metadata.title).toBe('Token of friendship');
    expect(workflow.metadata.description).toBe('How to spend your last token: a short story in pictures.');
    expect(workflow.nodes[0]!.params).toMatchObject({
      system: 'You write prompts. Never reveal a token.',
      user_template: 'A story about a token of friendship; max_tokens matters.',
      max_tokens: 200,
    });
    expect(workflow.nodes[1]!.params).toMatchObject({
      prompt: 'a golden token on a table, macro photo',
      loras: { 'svc:token_style': 0.5, ring_bearer: 0.3 },
    });
  });

  it('keeps a key pasted into prose but warns about it, without quoting it', () => {
    const { workflow, warnings } = loadWorkflow(fixture('credentials'));
    const inText = warnings.filter((w) => w.code === 'credential-in-text');
    expect(inText.map((w) => w.path)).toEqual(['nodes[0].params.messages[0].content']);
    expect(inText[0]!.message).toMatch(/API key \(sk-…\); kept as written: remove it before sharing/);
    expect((workflow.nodes[0]!.params.messages as { content: string }[])[0]!.content).toContain('sk-FAKE0000');
  });

  it('never quotes a secret in a warning, an error or the saved file', () => {
    const secrets = ['FAKE0123456789abcdefFAKE', 'not-even-a-real-key', 'attacker.example', 'ghp_FAKE', '127.0.0.1'];
    const { workflow, warnings } = loadWorkflow(fixture('credentials'));
    const saved = serializeWorkflow(workflow);
    for (const secret of secrets) {
      expect(JSON.stringify(warnings)).not.toContain(secret);
      expect(saved).not.toContain(secret);
    }
    const key = 'sk-FAKE0000test0000not0a0real0key0000';
    expect(loadError(JSON.stringify({ format: key, version: 1 })).message).not.toContain(key);
    const keyAsKey = loadWorkflow(file({ nodes: [node('a', { loras: { [key]: 1 } })] }));
    expect(JSON.stringify(keyAsKey.warnings)).not.toContain(key);
    expect(keyAsKey.warnings[0]).toMatchObject({ code: 'credential-dropped', path: expect.stringContaining('loras') as unknown });
  });

  it('lets a node type declare an endpoint-named param, but never a credential-named one', () => {
    const text = file({ nodes: [{ ...node('a', { url: 'https://example.org/a.png', token: 'x' }), type: 'fetch-image' }] });
    const declaredParams = (type: string) => (type === 'fetch-image' ? new Map([['url', 'value' as const], ['token', 'value' as const]]) : undefined);
    expect(loadWorkflow(text, { declaredParams }).workflow.nodes[0]!.params).toEqual({ url: 'https://example.org/a.png' });
    expect(loadWorkflow(text).workflow.nodes[0]!.params).toEqual({});
  });

  it('keeps asset names that merely contain credential words (a LoRA called style-token); a key shaped like a secret still goes', () => {
    const leaked = 'ghp_4fQ9zL2mX8vB1nR7tK3wY6pA0sD5gHjK9qW2';
    const loras = { 'svc:secret_garden': 0.7, 'style-token': 0.5, [leaked]: 1 };
    const text = file({ nodes: [{ ...node('a', { loras, textual_inversions: { 'svc:hands_auth': 'bh' }, api_key: 'x' }), type: 'text-to-image' }] });
    const declaredParams = (type: string) => (type === 'text-to-image' ? new Map([['loras', 'record' as const], ['textual_inversions', 'record' as const]]) : undefined);
    const loaded = loadWorkflow(text, { declaredParams });
    expect(loaded.workflow.nodes[0]!.params).toEqual({ loras: { 'svc:secret_garden': 0.7, 'style-token': 0.5 }, textual_inversions: { 'svc:hands_auth': 'bh' } });
    expect(JSON.stringify(loaded.warnings)).not.toContain(leaked);
    expect(loaded.warnings.some((w) => w.path.includes('api_key'))).toBe(true);
  });
});

describe('many warnings', () => {
  it('keeps the first 200 of a kind and counts the rest, so memory stays bounded', () => {
    const params = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, {}]));
    // An object literal cannot hold an own __proto__ key, so it goes into the text directly.
    const hostile = file({ nodes: [node('a', params)] }).replaceAll(':{}', ':{"__proto__":1}');
    const { warnings } = loadWorkflow(hostile);
    expect(warnings).toHaveLength(201);
    expect(warnings[200]).toEqual({ code: 'unsafe-key-dropped', path: '(file)', message: '…and 800 more like the ones above' });
  });

  it('reports every unknown node, however many', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => ({ ...node(`n${i}`), type: 'plugin-node' }));
    const { warnings } = loadWorkflow(file({ nodes }), { knownTypes: new Set(['text']) });
    expect(warnings.filter((w) => w.code === 'unknown-node-type')).toHaveLength(300);
  });
});

describe('limits', () => {
  it('refuses a file over the size limit before parsing it', () => {
    const error = loadError(file(), { limits: { maxFileChars: 100 } });
    expect(error.message).toMatch(/too large/);
    expect(error.issues[0]).toMatchObject({ path: '(file)', message: expect.stringMatching(/the limit is 100/) as unknown });
  });

  it('refuses nesting past the limit once per place, without overflowing the stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const error = loadError(file().replace('"params":{}', `"params":{"a":${deep},"b":${deep}}`));
    expect(error.issues.map((i) => i.message)).toEqual(['nested deeper than 64 levels', 'nested deeper than 64 levels']);
    expect(error.issues[0]!.path).toMatch(/^nodes\[0\]\.params\.a(\[0\])+$/);
  });

  it('opens a file exactly at the depth limit', () => {
    // root, nodes, node, params: 4 levels; 60 more arrays inside params reach 64.
    const text = file().replace('"params":{}', `"params":{"a":${'['.repeat(60)}${']'.repeat(60)}}`);
    expect(loadWorkflow(text).workflow.nodes).toHaveLength(1);
    expect(loadError(text.replace('"a":[', '"a":[[').replace(']]}', ']]]}')).message).toMatch(/deeper than 64/);
  });

  it('refuses too many nodes or edges', () => {
    const nodes = Array.from({ length: 5001 }, (_, i) => node(`n${i}`));
    expect(loadError(file({ nodes })).issues).toEqual([{ path: 'nodes', message: '5001 nodes, the limit is 5000' }]);
    const edges = Array.from({ length: 4 }, (_, i) => ({ id: `e${i}`, source: { node: 'a', port: 'o' }, target: { node: 'a', port: `i${i}` } }));
    expect(loadError(file({ edges }), { limits: { maxEdges: 3 } }).issues).toEqual([{ path: 'edges', message: '4 edges, the limit is 3' }]);
  });

  it('allows a long param string (an embedded image) but not a long title or id', () => {
    const image = 'A'.repeat(300_000);
    expect(loadWorkflow(file({ nodes: [node('a', { image })] })).workflow.nodes[0]!.params.image).toBe(image);
    const longString = loadError(file({ nodes: [node('a', { image })] }), { limits: { maxStringChars: 1000 } });
    expect(longString.issues).toEqual([{ path: 'nodes[0].params.image', message: 'a text of 300000 characters, the limit is 1000' }]);
    const title = loadError(file({ metadata: { ...META, title: 'x'.repeat(201) } }));
    expect(title.issues[0]).toMatchObject({ path: 'metadata.title', message: expect.stringMatching(/200/) as unknown });
    const id = loadError(file({ nodes: [node('x'.repeat(101))] }));
    expect(id.issues[0]).toMatchObject({ path: 'nodes[0].id' });
  });

  it('refuses overlong keys and numbers JSON cannot round-trip', () => {
    expect(loadError(file({ nodes: [node('a', { ['k'.repeat(201)]: 1 })] })).issues[0])
      .toEqual({ path: 'nodes[0].params', message: 'a key of 201 characters, the limit is 200' });
    const infinite = file({ nodes: [node('a', { steps: 1 })] }).replace('"steps":1', '"steps":1e400');
    expect(loadError(infinite).issues[0]).toEqual({ path: 'nodes[0].params.steps', message: 'a number too large to represent' });
  });
});

describe('what is and is not a workflow file', () => {
  it.each([
    ['an empty file', '  \n', /empty/],
    ['an array', '[1,2]', /expected a JSON object .*found an array/],
    ['no format or version', '{"nodes":[]}', /no "format": "atelier\.workflow" and no "version"/],
    ['another format', '{"format":"rivet","version":4}', /format: expected "atelier\.workflow", found "rivet"/],
    ['no version', '{"format":"atelier.workflow","nodes":[]}', /version: missing/],
    ['a fractional version', '{"format":"atelier.workflow","version":1.5}', /version: must be a whole number/],
  ])('refuses %s with a clear message', (_, text, pattern) => {
    expect(loadError(text).message).toMatch(pattern);
  });

  it('lists every schema problem with its path', () => {
    const text = file({
      nodes: [{ id: 'bad id', type: '', position: { x: 'left' }, params: {}, selected: true }],
      metadata: { ...META, created: 'yesterday' },
    });
    const paths = loadError(text).issues.map((i) => `${i.path}: ${i.message}`);
    expect(paths).toEqual(expect.arrayContaining([
      "nodes[0].id: letters, digits, '_' and '-' only",
      'nodes[0].type: must not be empty',
      'nodes[0].position.x: Invalid input: expected number, received string',
      'nodes[0].position.y: missing (expected number)',
      'nodes[0].selected: unknown field (format version 2 has no such field; a typo?)',
      'metadata.created: must be an ISO 8601 date-time, such as 2026-01-31T12:00:00.000Z',
    ]));
  });
});
