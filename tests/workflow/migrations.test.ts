/** The migration mechanism: ordered named steps on the raw JSON, dispatched on the version. */
import { describe, expect, it } from 'vitest';
import { WorkflowLoadError } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import { MIGRATIONS, type Migration, applyMigrations, readsUnchanged } from '../../workflow/migrations';
import { type JsonObject, type JsonValue } from '../../workflow/sanitize';
import { serializeWorkflow } from '../../workflow/serialize';
import { fixture } from './fixtures';

/** A step that records that it ran, to check order. */
const step = (from: number, name: string): Migration => ({
  name,
  from,
  migrate: (doc) => ({ ...doc, trail: [...(Array.isArray(doc.trail) ? doc.trail : []), name] }),
});

describe('applyMigrations', () => {
  const list = [step(1, 'one-to-two'), step(2, 'two-to-three'), step(3, 'three-to-four')];

  it('runs the steps from the file version up, in order, and sets each version', () => {
    const seen: number[] = [];
    const watched = list.map((m) => ({ ...m, migrate: (doc: JsonObject) => (seen.push(doc.version as number), m.migrate(doc)) }));
    const { doc, applied } = applyMigrations({ version: 2 }, 2, 4, watched);
    expect(applied).toEqual(['two-to-three', 'three-to-four']);
    expect(doc).toEqual({ version: 4, trail: ['two-to-three', 'three-to-four'] });
    expect(seen).toEqual([2, 3]);
  });

  it('does not depend on the order the list is written in', () => {
    expect(applyMigrations({ version: 1 }, 1, 4, [...list].reverse()).applied).toEqual(['one-to-two', 'two-to-three', 'three-to-four']);
  });

  it('runs nothing for a file already at the target version', () => {
    expect(applyMigrations({ version: 4 }, 4, 4, list)).toEqual({ doc: { version: 4 }, applied: [] });
  });

  it('refuses a version with no step, naming what this build opens', () => {
    expect(() => applyMigrations({ version: 0 }, 0, 4, list)).toThrow(/format version 0 cannot be upgraded: this build opens versions 1 to 4/);
    expect(() => applyMigrations({ version: 1 }, 1, 4, [list[0]!, list[2]!])).toThrow(WorkflowLoadError);
  });

  it('turns a failing step into a load error naming the step', () => {
    const broken: Migration = { name: 'needs-nodes', from: 1, migrate: (doc) => ({ ...doc, n: (doc.nodes as JsonValue[]).length }) };
    expect(() => applyMigrations({ version: 1 }, 1, 2, [broken])).toThrow(/upgrading from version 1 \(step 'needs-nodes'\) failed/);
  });

  it('refuses a list with two steps from one version', () => {
    expect(() => applyMigrations({ version: 1 }, 1, 3, [step(1, 'a'), step(1, 'b')])).toThrow(/'a' and 'b' both read version 1/);
  });

  it('publishes a list that is consistent (one step per version, below the current one)', () => {
    const froms = MIGRATIONS.map((m) => m.from);
    expect(new Set(froms).size).toBe(froms.length);
    for (const m of MIGRATIONS) expect(m.name).toMatch(/^[a-z0-9-]+$/);
  });
});

describe('loading an older file', () => {
  /** What version 0 might have looked like: positional links, flat positions, `kind` for type. */
  const testMigrations: Migration[] = [{
    name: 'links-to-named-edges',
    from: 0,
    migrate(doc) {
      const nodes = (doc.nodes as JsonObject[]).map(({ id, kind, x, y, params }) => ({ id, type: kind, position: { x, y }, params }));
      const edges = (doc.links as string[][]).map(([sn, sp, tn, tp], i) => ({
        id: `e${i}`, source: { node: sn!, port: sp! }, target: { node: tn!, port: tp! },
      }));
      const metadata = { title: doc.name, created: '2025-06-01T00:00:00.000Z', modified: '2025-06-01T00:00:00.000Z' };
      return { format: doc.format, version: doc.version, metadata, nodes, edges } as JsonObject;
    },
  }];

  it('migrates on load, says so, and saves as the current version', () => {
    const result = loadWorkflow(fixture('legacy-v0'), { migrations: [...testMigrations, ...MIGRATIONS] });
    expect(result.fromVersion).toBe(0);
    expect(result.warnings).toEqual([{
      code: 'migrated',
      path: 'version',
      message: 'upgraded from format version 0 to 2 (links-to-named-edges, components-section); saving writes version 2',
    }]);
    expect(result.workflow.edges).toEqual([{ id: 'e0', source: { node: 'p', port: 'text' }, target: { node: 'd', port: 'prompt' } }]);
    expect(result.workflow.nodes[1]).toEqual({ id: 'd', type: 'text-to-image', position: { x: 300, y: 20 }, params: { engine: 'sd' } });
    const saved = serializeWorkflow(result.workflow);
    expect(loadWorkflow(saved).warnings).toEqual([]);
  });

  it('checks the migrated document like any other', () => {
    const sloppy: Migration[] = [{ ...testMigrations[0]!, migrate: (doc) => ({ ...testMigrations[0]!.migrate(doc), edges: 'none' }) }];
    expect(() => loadWorkflow(fixture('legacy-v0'), { migrations: [...sloppy, ...MIGRATIONS] })).toThrow(/edges: Invalid input: expected array/);
  });
});

describe('version 2: room for components', () => {
  it('opens a version 1 file as it is, without an upgrade warning, and saves its bytes again', () => {
    const text = serializeWorkflow(loadWorkflow(fixture('small-graph')).workflow);
    expect(text).toContain('"version": 1,');
    const result = loadWorkflow(text);
    expect(result.fromVersion).toBe(1);
    expect(result.warnings).toEqual([]);
    expect(result.workflow.version).toBe(1);
    expect(serializeWorkflow(result.workflow)).toBe(text);
  });

  it('says a version 1 file reads unchanged, and a version 0 one (no additive step) does not', () => {
    expect(readsUnchanged(1, 2)).toBe(true);
    expect(readsUnchanged(2, 2)).toBe(true);
    expect(readsUnchanged(0, 2)).toBe(false);
    expect(readsUnchanged(3, 2)).toBe(false);
  });
});
