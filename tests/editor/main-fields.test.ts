/** Which fields a node shows on the canvas (its definition's main fields) and which wait in the inspector. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NODE_DEFINITIONS, registry } from '../../nodes/index';
import type { AnyNodeDefinition } from '../../nodes/types';
import { inputsFor } from '../../src/store/ports';
import { isMainField, planFields } from '../../src/forms/field-plan';

function sections(def: AnyNodeDefinition, params: Record<string, unknown> = {}) {
  const full = def.params.parse(params) as Record<string, unknown>;
  const fields = planFields(def, full, inputsFor(def, full));
  return {
    main: fields.filter((f) => f.section === 'main').map((f) => f.name),
    more: fields.filter((f) => f.section === 'more').map((f) => f.name),
  };
}

describe('main fields', () => {
  it('shows text to image its prompt and a few choices on the node, in the form order, the rest in the inspector', () => {
    const { main, more } = sections(registry.get('text-to-image')!);
    expect(main).toEqual(['prompt', 'negative_prompt', 'width', 'num_images', 'seed']);
    expect(more).toEqual(expect.arrayContaining(['engine', 'sampler', 'steps', 'cfg_scale', 'seed_mode', 'style_preset', 'loras', 'checkpoint']));
  });

  it('keeps the chat writer to its messages', () => {
    const { main, more } = sections(registry.get('chat-prompt-writer')!);
    expect(main).toEqual(['system', 'user']);
    expect(more).toContain('answer_as');
    expect(more).toContain('max_tokens');
  });

  it.each(NODE_DEFINITIONS.map((def) => [def.type, def] as const))('%s names main fields its form has, its prompt among them', (_type, def) => {
    const names = Object.keys((z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as { properties: object }).properties);
    expect(def.mainFields, 'every node in the catalogue chooses its main fields').toBeDefined();
    for (const name of def.mainFields ?? []) expect(names).toContain(name);
    const { main } = sections(def);
    expect(main.length).toBeGreaterThan(0);
    expect(main.length).toBeLessThanOrEqual(5);
    if (names.includes('prompt')) expect(main).toContain('prompt');
    if (names.includes('user')) expect(main).toContain('user');
  });

  it('shows every field on a node type that names no main fields (a plugin, say)', () => {
    const base = registry.get('text-to-image')!;
    const { mainFields: _dropped, ...rest } = base;
    const def: AnyNodeDefinition = rest;
    expect(isMainField(def, 'steps')).toBe(true);
    expect(sections(def).more).toEqual([]);
    expect(isMainField(base, 'steps')).toBe(false);
  });

  it('keeps a main field main when the engine hides others (SD 1.5)', () => {
    const { main } = sections(registry.get('text-to-image')!, { engine: 'sd' });
    expect(main).toEqual(['prompt', 'negative_prompt', 'width', 'num_images', 'seed']);
  });
});
