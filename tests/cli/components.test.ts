/**
 * The CLI runs workflows with components (flattened like the editor's runs), and `--set` reaches
 * a component's shown parameters by the instance's id or its component's name.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { starterWorkflow } from '../../src/store/starter';
import { makeComponent } from '../../workflow/make-component';
import { serializeWorkflow } from '../../workflow/serialize';
import { example, onlyRunDir, readManifest, runCli, tempDir } from './helpers';

/** The starter with its two image nodes made into "Restyle", strength shown; its path. */
function restyleFile(): { path: string; instance: string } {
  const made = makeComponent(starterWorkflow(), new Set(['text-to-image', 'image-to-image']), {
    name: 'Restyle', shown: [{ name: 'strength', label: 'Restyle strength', node: 'image-to-image', param: 'strength' }],
  });
  const dir = tempDir();
  const path = join(dir, 'restyle.json');
  writeFileSync(path, serializeWorkflow(made.workflow));
  return { path, instance: made.instanceId };
}

describe('the CLI and components', () => {
  it('runs a workflow with a component, and --set by the component\'s name reaches its shown parameter', async () => {
    const { path, instance } = restyleFile();
    const { code, stderr, cwd } = await runCli(['run', path, '--set', 'Restyle.strength=0.4']);
    expect(code, stderr).toBe(0);
    const { nodes } = readManifest(onlyRunDir(cwd));
    const inner = nodes[`${instance}/image-to-image`];
    expect(inner?.requests[0]?.request).toMatchObject({ strength: 0.4 });
    expect(nodes[`${instance}/text-to-image`]?.requests).toHaveLength(1);
    // Inner nodes' pictures are files beside the others, named through the instance.
    expect(readdirSync(onlyRunDir(cwd))).toContain(`${instance}.image-to-image-image.jpg`);
  });

  it('reaches it by the instance id too, and names the shown parameters when one is not', async () => {
    const { path, instance } = restyleFile();
    const ok = await runCli(['run', path, '--set', `${instance}.strength=0.7`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readManifest(onlyRunDir(ok.cwd)).nodes[`${instance}/image-to-image`]?.requests[0]?.request).toMatchObject({ strength: 0.7 });
    const bad = await runCli(['run', path, '--set', 'Restyle.steps=3']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`node '${instance}' (component:restyle) has no parameter 'steps'; its parameters are strength`);
  });
});

describe('the examples with components', () => {
  it('restyle-component: one definition, two instances at their own strengths', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('restyle-component')]);
    expect(code, stderr).toBe(0);
    const { nodes } = readManifest(onlyRunDir(cwd));
    expect(nodes['watercolour-restyle-1/light']?.requests[0]?.request).toMatchObject({ strength: 0.3 });
    expect(nodes['restyle-heavy/light']?.requests[0]?.request).toMatchObject({ strength: 0.75 });
  });

  it('idea-component: two ideas through the same component, each with its own seed', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('idea-component'), '--set', 'Fox.seed=7']);
    expect(code, stderr).toBe(0);
    const { nodes } = readManifest(onlyRunDir(cwd));
    expect(nodes['fox/draw']?.requests[0]?.request).toMatchObject({ seed: 7 });
    expect(nodes['picture-from-an-idea-1/draw']?.requests[0]?.request).toMatchObject({ seed: 41 });
  });
});
