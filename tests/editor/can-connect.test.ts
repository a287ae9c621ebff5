/** The connection check: what may be wired, and the reason given when not. */
import { describe, expect, it } from 'vitest';
import { canConnect } from '../../src/store/can-connect';
import type { Workflow, WorkflowNode } from '../../workflow/schema';

const node = (id: string, type: string, params: Record<string, unknown> = {}): WorkflowNode => ({ id, type, position: { x: 0, y: 0 }, params });
const graph = (nodes: WorkflowNode[], wires: [string, string, string, string][] = []): Pick<Workflow, 'nodes' | 'edges'> => ({
  nodes,
  edges: wires.map(([sn, sp, tn, tp]) => ({ id: `${sn}:${sp}->${tn}:${tp}`, source: { node: sn, port: sp }, target: { node: tn, port: tp } })),
});

describe('canConnect', () => {
  const base = [node('chat', 'chat-prompt-writer'), node('t2i', 'text-to-image'), node('i2i', 'image-to-image'), node('pv', 'preview'), node('load', 'image-loader')];

  it('allows matching kinds and conversions (text to a number seed, image to a list)', () => {
    const g = graph(base);
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 't2i', port: 'prompt' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 't2i', port: 'seed' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 't2i', port: 'images' }, { node: 'pv', port: 'value' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 't2i', port: 'images' }, { node: 'i2i', port: 'image' })).toEqual({ ok: true });
  });

  it('takes a list into an input of one value (it runs once per item) or whole where the input takes lists', () => {
    const g = graph([...base, node('split', 'split-text'), node('sheet', 'contact-sheet'), node('join', 'join-text')]);
    expect(canConnect(g, { node: 'split', port: 'items' }, { node: 't2i', port: 'prompt' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'split', port: 'items' }, { node: 't2i', port: 'seed' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'split', port: 'items' }, { node: 'sheet', port: 'captions' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 't2i', port: 'image' }, { node: 'sheet', port: 'images' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 'join', port: 'items' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'split', port: 'items' }, { node: 'sheet', port: 'images' }))
      .toEqual({ ok: false, reason: 'Items gives text list, but Images takes image or image list' });
  });

  it('refuses a wrong kind, naming both kinds', () => {
    const check = canConnect(graph(base), { node: 'load', port: 'image' }, { node: 't2i', port: 'prompt' });
    expect(check).toEqual({ ok: false, reason: 'Image gives image, but Prompt takes text, number or text list' });
    const other = canConnect(graph(base), { node: 'chat', port: 'text' }, { node: 'i2i', port: 'image' });
    expect(other).toEqual({ ok: false, reason: 'Text gives text, but Image takes image or image list' });
  });

  it('refuses a wire that would close a loop, naming the nodes', () => {
    const g = graph([node('a', 'text-to-image'), node('b', 'image-to-image'), node('c', 'image-to-image')], [
      ['a', 'image', 'b', 'image'], ['b', 'image', 'c', 'image'],
    ]);
    const check = canConnect(g, { node: 'c', port: 'image' }, { node: 'b', port: 'image' });
    expect(check).toEqual({ ok: false, reason: "this would make a loop: 'Image to image' (b) already feeds 'Image to image' (c)" });
    const mixed = graph([node('t', 'text-to-image'), node('i', 'image-to-image')], [['t', 'image', 'i', 'image']]);
    expect(canConnect(mixed, { node: 'i', port: 'image' }, { node: 't', port: 'seed' })).toMatchObject({ ok: false, reason: expect.stringMatching(/number/) });
    expect(canConnect(g, { node: 'b', port: 'image' }, { node: 'b', port: 'image' })).toEqual({ ok: false, reason: 'a node cannot feed its own input' });
  });

  it('accepts a wire into a connected input as a replacement, and says when it is the same wire', () => {
    const g = graph([...base, node('txt', 'text')], [['chat', 'text', 't2i', 'prompt']]);
    const check = canConnect(g, { node: 'txt', port: 'text' }, { node: 't2i', port: 'prompt' });
    expect(check.ok && check.replaces?.id).toBe('chat:text->t2i:prompt');
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 't2i', port: 'prompt' })).toEqual({ ok: false, reason: 'these two ports are already connected' });
  });

  it('knows inputs that come from parameters (Text placeholders)', () => {
    const g = graph([node('tpl', 'text', { text: 'a {{subject}} in {{style}}' }), node('chat', 'chat-prompt-writer')]);
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 'tpl', port: 'style' })).toEqual({ ok: true });
    expect(canConnect(g, { node: 'chat', port: 'text' }, { node: 'tpl', port: 'mood' })).toEqual({ ok: false, reason: "'Text' has no input 'mood'" });
  });

  it('refuses unknown node types and missing ports', () => {
    const g = graph([...base, node('alien', 'vendor/upscale')]);
    expect(canConnect(g, { node: 't2i', port: 'image' }, { node: 'alien', port: 'image' })).toEqual({
      ok: false, reason: "'vendor/upscale' is an unknown node type (vendor/upscale); it cannot be wired",
    });
    expect(canConnect(g, { node: 't2i', port: 'nope' }, { node: 'i2i', port: 'image' })).toEqual({ ok: false, reason: "'Text to image' has no output 'nope'" });
    expect(canConnect(g, { node: 'ghost', port: 'x' }, { node: 'i2i', port: 'image' })).toEqual({ ok: false, reason: "there is no node 'ghost'" });
  });
});
