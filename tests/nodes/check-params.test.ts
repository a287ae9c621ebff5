import { describe, expect, it } from 'vitest';
import { checkNodeParams } from '../../nodes/check-params';
import { registry } from '../../nodes/index';
import type { AnyNodeDefinition } from '../../nodes/types';

const def = (type: string): AnyNodeDefinition => registry.get(type)!;
const problems = (type: string, params: Record<string, unknown>) => {
  const check = checkNodeParams(def(type), params, new Set());
  return check.ok ? [] : check.problems;
};

describe('a node parameter check speaks plainly', () => {
  it('says a number out of range and a fraction where a whole number goes, not zod\'s own words', () => {
    expect(problems('contact-sheet', { columns: 99, cell_size: 3.5 })).toEqual([
      { field: 'columns', message: 'must be at most 32' },
      { field: 'cell_size', message: 'must be a whole number' },
    ]);
  });

  it('names the length limit of a text field, the same way for every node', () => {
    expect(problems('chat-prompt-writer', { model: 'm'.repeat(201) })).toContainEqual({ field: 'model', message: 'is longer than 200 characters' });
    expect(problems('join-text', { separator: ','.repeat(101) })).toEqual([{ field: 'separator', message: 'is longer than 100 characters' }]);
    expect(problems('split-text', { mode: 'separator', separator: ','.repeat(101) })).toEqual([{ field: 'separator', message: 'is longer than 100 characters' }]);
    expect(problems('text', { text: 'x'.repeat(200_001) })).toEqual([{ field: 'text', message: 'is longer than 200000 characters' }]);
  });

  it('keeps a message the schema or the node sets itself', () => {
    expect(problems('split-text', { mode: 'separator', separator: '' })).toEqual([{ field: 'separator', message: 'is empty: say what stands between the items' }]);
    expect(problems('text', { txt: 'a' })).toEqual([{ field: 'txt', message: "'txt' is not a parameter of this node" }]);
  });

  it('never shows zod\'s default wording for any field of any node', () => {
    const odd = { text: 7, separator: 7, model: 7, columns: 'x', cell_size: -1, gap: 1e9, filename: 7, temperature: 'hot', seed: 'x', steps: 0.5 };
    for (const d of registry.list()) {
      const shape = (d.params as unknown as { shape: Record<string, unknown> }).shape;
      const check = checkNodeParams(d, Object.fromEntries(Object.entries(odd).filter(([k]) => k in shape)), new Set());
      if (check.ok) continue;
      for (const p of check.problems) expect(p.message, `${d.type}.${p.field ?? ''}`).not.toMatch(/^(Too small|Too big|Invalid input|Invalid option)/);
    }
  });
});
