/** The credential scan before export, and taking what it finds out of the workflow. */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import {
  REMOVED_MARK, findAllCredentialLike, maskCredential, removeCredentialLike, removeFindings, scanWorkflowForExport,
} from '../../workflow/export-scan';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow, WorkflowNode } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

const OPENAI = 'sk-proj-T3BlbkFJx9Qw2Lm4Zr8Vt6Yp1Ks0Nd5Hg7Jc3Bf2';
const BEARER_TOKEN = 'ya29.a0AfB_byC7x2Kq9Lm3Np8Rt4Vw6Yz1';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhdGVsaWVyIn0.c2lnbmF0dXJlLXN0YW5kLWlu';
const GITHUB = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const HF = 'hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
const SECRETS = [OPENAI, BEARER_TOKEN, JWT, GITHUB, HF];

const clock = () => new Date('2026-01-01T00:00:00Z');
const node = (id: string, type: string, params: Record<string, unknown>, title?: string): WorkflowNode => ({
  id, type, position: { x: 0, y: 0 }, params, ...(title === undefined ? {} : { title }),
});

let photoB64 = '';
let tinyPngB64 = '';
beforeAll(async () => {
  const noise = Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 2654435761) >>> 24));
  photoB64 = (await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } }).jpeg().toBuffer()).toString('base64');
  tinyPngB64 = (await sharp({ create: { width: 1, height: 1, channels: 4, background: '#000' } }).png().toBuffer()).toString('base64');
});

/** A workflow someone might well try to share, leaks and all. */
function leaky(): Workflow {
  const wf = createWorkflow({ title: 'Harbour series', description: `Pulled from my repo with ${GITHUB}` }, clock);
  wf.nodes.push(
    node('t2i', 'text-to-image', { prompt: `a harbour at dusk, (golden light:1.2) ${OPENAI}`, seed: 1234, engine: 'sdxl', api_key: 'abc123', loras: { 'svc:film': 0.7, [HF]: 1 } }, 'Hero shot'),
    node('note-1', 'note', { text: `To call it by hand:\ncurl -H "Authorization: Bearer ${BEARER_TOKEN}" …` }),
    node('chat', 'chat-prompt-writer', { messages: [{ role: 'system', content: OPENAI }], baseUrl: 'https://llm.example.com/v1' }, JWT),
    node(OPENAI.replace('.', ''), 'preview', {}),
  );
  wf.edges.push({ id: `t2i:image->${OPENAI}:value`, source: { node: 't2i', port: 'image' }, target: { node: OPENAI, port: 'value' } });
  return wf;
}

describe('scanWorkflowForExport', () => {
  it('finds every leak, names the field, and never quotes the secret', () => {
    const { findings } = scanWorkflowForExport(leaky());
    expect(findings.map(({ path, field, kind, remedy, nodeId }) => ({ path, field, kind, remedy, nodeId }))).toEqual([
      { path: 'metadata.description', field: "the workflow's description", kind: 'a GitHub token', remedy: 'replace', nodeId: undefined },
      { path: 'nodes[0].params.prompt', field: 'prompt of “Hero shot” (t2i)', kind: 'an API key (sk-…)', remedy: 'replace', nodeId: 't2i' },
      { path: 'nodes[0].params.api_key', field: 'api_key of “Hero shot” (t2i)', kind: "a field named like a credential ('api_key')", remedy: 'drop', nodeId: 't2i' },
      { path: 'nodes[0].params.loras', field: 'loras of “Hero shot” (t2i)', kind: 'a key that looks like a Hugging Face token', remedy: 'drop-keys', nodeId: 't2i' },
      { path: 'nodes[1].params.text', field: 'text of note node #2 (note-1)', kind: 'a bearer token', remedy: 'replace', nodeId: 'note-1' },
      { path: 'nodes[2].params.messages[0].content', field: 'messages[0].content of chat-prompt-writer node #3 (chat)', kind: 'an API key (sk-…)', remedy: 'replace', nodeId: 'chat' },
      { path: 'nodes[2].params.baseUrl', field: 'baseUrl of chat-prompt-writer node #3 (chat)', kind: "a field named like an endpoint ('baseUrl')", remedy: 'drop', nodeId: 'chat' },
      { path: 'nodes[2].title', field: 'the title of chat-prompt-writer node #3 (chat)', kind: 'a JSON Web Token', remedy: 'drop', nodeId: 'chat' },
      { path: 'nodes[3].id', field: 'the id of preview node #4', kind: 'an API key (sk-…)', remedy: 'rename', nodeId: undefined },
      { path: 'edges[0].id', field: 'id of edge #1', kind: 'an API key (sk-…)', remedy: 'rename', nodeId: undefined },
    ]);
    const shown = JSON.stringify(findings);
    for (const secret of SECRETS) {
      expect(shown).not.toContain(secret.slice(4, 20));
    }
    expect(findings[1]!.preview).toBe(`sk-…(${OPENAI.length} chars)`);
    expect(findings[4]!.preview).toBe(`Bearer …(${`Bearer ${BEARER_TOKEN}`.length} chars)`);
    expect(findings[7]!.preview).toBe(`eyJ…(${JWT.length} chars)`);
    expect(findings[2]!.preview).toBe('…(6 chars)');
  });

  it('reports every key in a text, not only the first', () => {
    const wf = createWorkflow({}, clock);
    wf.nodes.push(node('t', 'text', { text: `first ${OPENAI} then ${HF} and ${GITHUB}` }));
    expect(scanWorkflowForExport(wf).findings.map((f) => f.kind)).toEqual(['an API key (sk-…)', 'a Hugging Face token', 'a GitHub token']);
  });

  it('lets a node type declare an endpoint-named param', () => {
    const wf = createWorkflow({}, clock);
    wf.nodes.push(node('f', 'fetch-image', { url: 'https://example.org/cat.png' }));
    expect(scanWorkflowForExport(wf, { declaredParams: (t) => (t === 'fetch-image' ? new Map([['url', 'value' as const]]) : undefined) }).findings).toEqual([]);
    expect(scanWorkflowForExport(wf).findings.map((f) => f.path)).toEqual(['nodes[0].params.url']);
  });

  it('takes the keys of a record param (LoRA names) as names: only a key shaped like a secret is a finding', () => {
    const wf = createWorkflow({}, clock);
    const leaked = 'sk-proj-4fQ9zL2mX8vB1nR7tK3wY6pA0sD5gH';
    wf.nodes.push(node('d', 'text-to-image', { loras: { 'style-token': 0.5, 'svc:hands_auth': 0.7, [leaked]: 1 }, textual_inversions: { 'my-secret-sauce': 'tok' } }));
    const declaredParams = (t: string) => (t === 'text-to-image' ? new Map([['loras', 'record' as const], ['textual_inversions', 'record' as const]]) : undefined);
    const findings = scanWorkflowForExport(wf, { declaredParams }).findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ path: 'nodes[0].params.loras', remedy: 'drop-keys' });
    expect(JSON.stringify(findings)).not.toContain(leaked);
  });

  it('does not flag prose about tokens and keys, images, colours, seeds or asset names', () => {
    const wf = createWorkflow({ title: 'Token economy', description: 'A key light, a secret garden; the API key goes in settings.' }, clock);
    wf.nodes.push(
      node('load', 'image-loader', { image: { b64: photoB64, mime: 'image/jpeg', name: 'photo.jpg' } }),
      node('tiny', 'image-loader', { image: { b64: tinyPngB64, mime: 'image/png', name: 'dot.png' } }),
      node('data', 'image-loader', { image: { b64: `data:image/jpeg;base64,${photoB64}`, mime: 'image/jpeg', name: 'x.jpg' } }),
      node('t2i', 'text-to-image', {
        prompt: 'a (token:1.2) of friendship, brass key, Bearer of good news, #ff8800 and #0af accents, see https://example.com/ref.png',
        negative_prompt: 'blurry, extra fingers', seed: 4_294_967_295, loras: { 'svc:film-grain': 0.6, 'my_lora_v2': 1 },
        checkpoint: 'svc:sdxl_base', sha: 'a3f1'.repeat(16), max_tokens: 77,
      }, 'Key art'),
    );
    expect(photoB64.length).toBeGreaterThan(512);
    expect(tinyPngB64.length).toBeLessThan(512);
    expect(scanWorkflowForExport(wf).findings).toEqual([]);
  });
});

describe('removeFindings', () => {
  it('takes every secret out, keeps the prose around it, and leaves the argument alone', () => {
    const wf = leaky();
    const before = structuredClone(wf);
    const cleaned = removeFindings(wf, scanWorkflowForExport(wf).findings);
    expect(wf).toEqual(before);

    expect(scanWorkflowForExport(cleaned).findings).toEqual([]);
    const text = JSON.stringify(cleaned);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(cleaned.metadata.description).toBe(`Pulled from my repo with ${REMOVED_MARK}`);
    const [t2i, note, chat, preview] = cleaned.nodes;
    expect(t2i!.params).toEqual({ prompt: `a harbour at dusk, (golden light:1.2) ${REMOVED_MARK}`, seed: 1234, engine: 'sdxl', loras: { 'svc:film': 0.7 } });
    expect(note!.params.text).toBe(`To call it by hand:\ncurl -H "Authorization: ${REMOVED_MARK}" …`);
    expect(chat!.title).toBeUndefined();
    expect(chat!.params).toEqual({ messages: [{ role: 'system', content: REMOVED_MARK }] });
    // The renamed node keeps its edge.
    expect(preview!.id).toBe('node-1');
    expect(cleaned.edges).toEqual([{ id: 't2i:image->node-1:value', source: { node: 't2i', port: 'image' }, target: { node: 'node-1', port: 'value' } }]);

    // What is left is a workflow that saves and opens with nothing to warn about.
    const { warnings } = loadWorkflow(serializeWorkflow(cleaned));
    expect(warnings.filter((w) => w.code.startsWith('credential'))).toEqual([]);
  });

  it('judges each place again: a field fixed since the scan is not dropped', () => {
    const wf = createWorkflow({}, clock);
    wf.nodes.push(node('t', 'text', { text: OPENAI }, 'Notes'));
    const { findings } = scanWorkflowForExport(wf);
    expect(findings.map((f) => f.remedy)).toEqual(['drop']);
    const edited = structuredClone(wf);
    edited.nodes[0]!.params.text = 'a lighthouse';
    expect(removeFindings(edited, findings).nodes[0]!.params).toEqual({ text: 'a lighthouse' });
    expect(removeFindings(wf, findings).nodes[0]!.params).toEqual({});
    // Findings that point nowhere (the node was deleted since) do nothing.
    expect(removeFindings(createWorkflow({}, clock), findings).nodes).toEqual([]);
  });

  it('leaves node types and port names to a person', () => {
    const wf = createWorkflow({}, clock);
    wf.nodes.push(node('a', `vendor/${HF}`, {}), node('b', 'preview', {}));
    wf.edges.push({ id: 'e', source: { node: 'a', port: GITHUB }, target: { node: 'b', port: 'value' } });
    const { findings } = scanWorkflowForExport(wf);
    expect(findings.map((f) => [f.path, f.remedy])).toEqual([['nodes[0].type', 'manual'], ['edges[0].source.port', 'manual']]);
    expect(findings.map((f) => f.field)).toEqual(['the type of node #1 (a)', 'source.port of edge #1']);
    expect(removeFindings(wf, findings)).toEqual(wf);
  });
});

describe('text helpers', () => {
  it('find, mask and remove credential-like pieces', () => {
    const text = `a ${OPENAI} b Bearer ${BEARER_TOKEN} c`;
    expect(findAllCredentialLike(text).map((p) => text.slice(p.start, p.end))).toEqual([OPENAI, `Bearer ${BEARER_TOKEN}`]);
    expect(removeCredentialLike(text)).toBe(`a ${REMOVED_MARK} b ${REMOVED_MARK} c`);
    expect(removeCredentialLike('nothing here')).toBe('nothing here');
    expect(maskCredential(GITHUB)).toBe(`ghp_…(${GITHUB.length} chars)`);
    expect(maskCredential('https://user:hunter2@example.com')).toBe('https://…(32 chars)');
    expect(maskCredential('AKIAIOSFODNN7EXAMPLE')).toBe('AKIA…(20 chars)');
  });
});
