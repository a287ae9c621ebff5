/**
 * `atelier run` on a file whose node ids, edge ids and port names are names every object answers
 * to: the loader renames the ids (saying so), `--set` and `--to` still take the old ones, the
 * outputs and the manifest are right, and no built-in object changes on the way.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { extractWorkflow } from '../../workflow/embed';
import { loadWorkflow } from '../../workflow/load';
import { HOSTILE_RESULTS, hostileWorkflow, prototypeSnapshot } from '../helpers/prototype-ids';
import { readManifest, runCli, tempDir } from './helpers';

function hostileFile(): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'names.json');
  writeFileSync(file, JSON.stringify(hostileWorkflow(), null, 2));
  return { dir, file };
}

describe('atelier run with ids and port names that objects answer to', () => {
  it('renames the ids, runs right, writes a true manifest and changes no built-in object', async () => {
    const before = prototypeSnapshot();
    const { dir, file } = hostileFile();
    const result = await runCli(['run', file, '--out', 'out', '--set', 'toString.seed=9', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(prototypeSnapshot()).toBe(before);
    expect(({} as Record<string, unknown>).status).toBeUndefined();

    // The loader says what it renamed, naming the node by title and type.
    expect(result.stderr).toContain("nodes[2].id: “Text constructor” (text) had the id 'constructor'");
    expect(result.stderr).toContain("renamed to 'constructor-1'");
    expect(result.stderr).toContain("“Draw” (text-to-image) had the id 'toString'");

    const out = join(dir, 'out');
    const manifest = readManifest(out);
    expect(Object.keys(manifest.nodes).sort()).toEqual(hostileWorkflow().nodes.map((n) => `${n.id}-1`).sort());
    // Every node ran, but the bypassed one, which the manifest marks so (with what it passed on).
    expect(manifest.nodes['isPrototypeOf-1']).toMatchObject({ status: 'bypassed' });
    expect(manifest.nodes['isPrototypeOf-1']!.passedOn).toBeDefined();
    const ran = Object.entries(manifest.nodes).filter(([id]) => id !== 'isPrototypeOf-1');
    for (const [id, record] of ran) expect(record.status, id).toBe('done');
    // --set named the node by its id in the file.
    expect(manifest.overrides).toEqual([{ node: 'toString-1', param: 'seed', value: 9 }]);
    expect(manifest.nodes['toString-1']!.requests[0]!.request).toMatchObject({ seed: 9 });
    // What each node wrote, through the manifest (a text already written is not written twice).
    const texts = (id: string, port: string) => manifest.nodes[id]!.outputs[port]!.files.map((f) => readFileSync(join(out, f), 'utf8'));
    expect(texts('constructor-1', 'text')).toEqual([HOSTILE_RESULTS.constructor]);
    expect(texts('valueOf-1', 'shown')).toEqual([HOSTILE_RESULTS.valueOf]);
    expect(texts('__lookupSetter__-1', 'shown')).toEqual(HOSTILE_RESULTS.__lookupSetter__);
    expect(manifest.nodes['prototype-1']!.outputs.shown).toEqual({ kind: 'image', files: ['toString-1-image.jpg'] });
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; nodeId?: string });
    expect(lines.filter((e) => e.type === 'node-done').map((e) => e.nodeId).sort()).toEqual(Object.keys(manifest.nodes).filter((id) => id !== 'isPrototypeOf-1').sort());

    // The workflow the image carries opens as it is: its ids are safe already.
    const image = readdirSync(out).find((f) => f.endsWith('.jpg'))!;
    const embedded = loadWorkflow(extractWorkflow(readFileSync(join(out, image)))!.workflow!, catalogueLoadOptions(registry));
    expect(embedded.renamedIds.size).toBe(0);
    expect(embedded.workflow.nodes.find((n) => n.id === 'toString-1')?.params).toMatchObject({ seed: 9 });
  });

  it('refuses a --set of a parameter named like an object member, saying so, instead of failing', async () => {
    const before = prototypeSnapshot();
    const { dir, file } = hostileFile();
    for (const param of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const result = await runCli(['run', file, '--set', `toString.${param}=1`], { cwd: dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`node 'toString-1' (text-to-image) has no parameter '${param}'`);
    }
    expect(prototypeSnapshot()).toBe(before);
  });
});
