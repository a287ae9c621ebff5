import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { checkParams } from '../../workers/params';

describe('checkParams lists every problem of a node at once', () => {
  const def = registry.get('text-to-image')!;

  it('reports a bad resolution even when another field fails its schema', () => {
    const result = checkParams(def, { engine: 'sdxl', prompt: 'a fox', sampler: 'NOT_A_SAMPLER', width: 1000, height: 1000 }, new Set());
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.problems.map((p) => p.field);
    expect(fields).toContain('sampler');
    expect(fields.some((f) => f === 'width' || f === 'height' || f === 'resolution')).toBe(true);
  });

  it('does not report a cross-field rule against a field that already failed', () => {
    const result = checkParams(def, { engine: 'sdxl', prompt: 'a fox', width: 'wide', height: 1024 }, new Set());
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.filter((p) => p.field === 'width')).toHaveLength(1);
  });

  it('passes a valid node', () => {
    expect(checkParams(def, { engine: 'sdxl', prompt: 'a fox' }, new Set()).ok).toBe(true);
  });
});
