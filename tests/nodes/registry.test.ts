import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NODE_DEFINITIONS, createRegistry, registry, resolveInputs } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { textNode } from '../../nodes/text';
import type { AnyNodeDefinition } from '../../nodes/types';

const ALL = [
  'image-loader', 'text', 'chat-prompt-writer', 'split-text', 'join-text', 'text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge', 'comfy-workflow',
  'preview', 'contact-sheet',
];

describe('registry', () => {
  it('lists all thirteen nodes once, in palette order', () => {
    expect(registry.list().map((d) => d.type)).toEqual(ALL);
    for (const type of ALL) {
      expect(registry.has(type)).toBe(true);
      expect(registry.get(type)?.type).toBe(type);
    }
    expect(registry.get('no-such-node')).toBeUndefined();
    expect(registry.has('no-such-node')).toBe(false);
  });

  it('refuses a duplicate type', () => {
    const copy: AnyNodeDefinition = { ...textNode, title: 'Another text' };
    expect(() => createRegistry([textNode, copy])).toThrow("node type 'text' is registered twice");
  });

  it('refuses malformed definitions', () => {
    expect(() => createRegistry([{ ...textNode, type: 'Text Node' }])).toThrow('must be lower-case');
    expect(() => createRegistry([{ ...textNode, version: 0 }])).toThrow('version 0');
    const output = { name: 'text', kind: 'text' as const, label: 'Text' };
    const twice = { ...textNode, outputs: [output, output] };
    expect(() => createRegistry([twice])).toThrow("declares output port 'text' twice");
  });

  it('groups nodes by category for the palette', () => {
    expect(registry.byCategory().map((c) => [c.id, c.nodes.map((d) => d.type)])).toEqual([
      ['input', ['image-loader']],
      ['text', ['text', 'chat-prompt-writer', 'split-text', 'join-text']],
      ['image', ['text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge', 'comfy-workflow']],
      ['output', ['preview', 'contact-sheet']],
    ]);
  });
});

describe.each(NODE_DEFINITIONS.map((d) => [d.type, d] as const))('%s definition', (_type, def) => {
  const defaults = def.params.parse({}) as Record<string, unknown>;

  it('parses empty params into its defaults, and has a JSON Schema for forms and files', () => {
    expect(defaults).toBeTypeOf('object');
    expect(() => z.toJSONSchema(def.params, { io: 'input' })).not.toThrow();
  });

  it('has uniquely named ports, each param port naming a parameter of the same name', () => {
    const shape = (def.params as unknown as z.ZodObject).shape;
    const inputs = resolveInputs(def, defaults);
    expect(new Set(inputs.map((p) => p.name)).size).toBe(inputs.length);
    for (const port of inputs.filter((p) => p.param !== undefined)) {
      expect(port.param).toBe(port.name);
      expect(Object.keys(shape)).toContain(port.param);
    }
  });
});

describe('what the loader is told of the catalogue', () => {
  it('declares LoRAs and textual inversions as params keyed by asset names, so their keys are data', () => {
    const declared = catalogueLoadOptions(registry).declaredParams!;
    for (const type of ['text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge']) {
      expect(declared(type)?.get('loras'), type).toBe('record');
      expect(declared(type)?.get('textual_inversions'), type).toBe('record');
      expect(declared(type)?.get('prompt'), type).toBe('value');
    }
    expect(declared('no-such-type')).toBeUndefined();
  });
});
