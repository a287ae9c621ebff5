/**
 * The editor's build leaves React Flow's unused components out of the bundle without dropping
 * anything of ours: a name-based "these calls are pure" list once made Rolldown drop every
 * `memo.set(…)` whose result went unused, so the editor's caches named `memo` never remembered and
 * opening a 2,000-node workflow took 25 s. Each case builds a small entry with the project's own
 * vite.config.ts (unminified, in memory) and looks at what came out. And what the page needs at
 * start is one file, not a dozen cut out of it (startModules).
 */
import { join } from 'node:path';
import { build, loadConfigFromFile, type Plugin, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/config';
import { startModules } from '../../vite.config';

const ENTRY = 'virtual:atelier-treeshake-entry';

/** Builds `code` as the only entry, with vite.config.ts as the editor's build uses it. */
async function buildWithProjectConfig(code: string): Promise<string> {
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, join(PROJECT_ROOT, 'vite.config.ts'), PROJECT_ROOT, 'silent');
  if (!loaded) throw new Error('vite.config.ts did not load');
  const { config } = loaded;
  const entry: Plugin = {
    name: 'test-entry',
    resolveId: (id) => (id === ENTRY ? `\0${ENTRY}` : null),
    load: (id) => (id === `\0${ENTRY}` ? code : null),
  };
  const output = await build({
    ...config,
    configFile: false,
    root: PROJECT_ROOT,
    logLevel: 'silent',
    plugins: [...(config.plugins ?? []), entry],
    build: {
      ...config.build,
      write: false,
      minify: false,
      // An app's entry exports nothing; this one's exports are what the test looks at.
      rolldownOptions: { ...config.build?.rolldownOptions, input: ENTRY, preserveEntrySignatures: 'strict', output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output).map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('\n');
}

describe('the editor build', () => {
  it('puts every module the page imports statically, and only those, in its start group', () => {
    const graph = new Map<string, { isEntry: boolean; importedIds: string[]; dynamicallyImportedIds: string[] }>([
      ['index.html', { isEntry: true, importedIds: ['main.tsx'], dynamicallyImportedIds: [] }],
      ['main.tsx', { isEntry: false, importedIds: ['store.ts', 'app.css'], dynamicallyImportedIds: ['dialog.tsx'] }],
      ['store.ts', { isEntry: false, importedIds: ['main.tsx'], dynamicallyImportedIds: [] }],
      ['app.css', { isEntry: false, importedIds: [], dynamicallyImportedIds: [] }],
      ['dialog.tsx', { isEntry: false, importedIds: ['store.ts', 'dialog-only.ts'], dynamicallyImportedIds: [] }],
      ['dialog-only.ts', { isEntry: false, importedIds: [], dynamicallyImportedIds: [] }],
    ]);
    const start = startModules();
    const context = { getModuleIds: () => graph.keys(), getModuleInfo: (id: string) => graph.get(id) ?? null };
    (start.plugin.buildEnd as (this: typeof context) => void).call(context);
    expect([...graph.keys()].filter((id) => start.has(id))).toEqual(['index.html', 'main.tsx', 'store.ts', 'app.css']);
  });

  it('keeps the writes of a cache named memo (the call on it is not dropped as pure)', async () => {
    const code = await buildWithProjectConfig(`
      const memo = new WeakMap();
      export function remember(key) {
        let hit = memo.get(key);
        if (hit === undefined) {
          hit = { key };
          memo.set(key, hit);
        }
        return hit;
      }
    `);
    const { remember } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { remember: (key: object) => object };
    const key = {};
    expect(remember(key)).toBe(remember(key));
  }, 120_000);

  it("leaves out React Flow's components the editor does not draw", async () => {
    const code = await buildWithProjectConfig(`
      import { ReactFlow } from '@xyflow/react';
      export { ReactFlow };
    `);
    expect(code).toContain('react-flow__pane');
    // NodeResizeControl is only a memo() call away from being dropped: unmarked, it stays.
    expect(code).not.toContain('react-flow__resize-control');
    expect(code).not.toContain('react-flow__node-toolbar');
  }, 120_000);
});
