/**
 * A random seed comes back: the images the CLI writes carry the workflow with the seeds the run
 * used fixed, so running an image again makes the same bytes on the local engines.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { extractWorkflow } from '../../workflow/embed';
import { loadWorkflow } from '../../workflow/load';
import { example, onlyRunDir, readManifest, runCli } from './helpers';

const LOAD = catalogueLoadOptions(registry);
const images = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
const seedsIn = (path: string) => loadWorkflow(extractWorkflow(readFileSync(path))!.workflow!, LOAD).workflow.nodes
  .filter((n) => 'seed' in n.params)
  .map((n) => [n.id, n.params.seed, n.params.seed_mode]);

describe('an image made with random seeds', () => {
  it('carries the seeds it used, fixed, and runs again to the same bytes', async () => {
    const clock = () => new Date('2026-03-01T12:00:00.000Z');
    // Draw, restyle and repaint, every one random; the last makes two images.
    const random = ['draw', 'restyle', 'sky'].flatMap((id) => ['--set', `${id}.seed=null`]);
    const first = await runCli(['run', example('restyle-chain'), ...random, '--set', 'restyle.seed_mode=increment', '--set', 'sky.num_images=2'], { now: clock });
    expect(first.code, first.stderr).toBe(0);
    const firstDir = onlyRunDir(first.cwd);
    expect(images(firstDir)).toEqual(['draw-image.jpg', 'restyle-image.jpg', 'sky-images-0.jpg', 'sky-images-1.jpg']);
    const { nodes } = readManifest(firstDir);
    const used = { draw: nodes.draw!.seeds[0]!, restyle: nodes.restyle!.seeds[0]!, sky: nodes.sky!.seeds[0]! };
    // The two images of the repaint have their own seeds; the first one's is the one sent.
    expect(nodes.sky!.seeds).toHaveLength(2);
    expect(nodes.sky!.requests[0]!.request).toMatchObject({ seed: used.sky, num_images: 2 });

    const last = join(firstDir, 'sky-images-1.jpg');
    expect(seedsIn(last)).toEqual([['draw', used.draw, 'fixed'], ['restyle', used.restyle, 'fixed'], ['sky', used.sky, 'fixed']]);

    // The image itself, run again: every picture comes back, the last one byte for byte.
    const again = await runCli(['run', last, '--out', 'again'], { cwd: first.cwd, now: clock });
    expect(again.code, again.stderr).toBe(0);
    const againDir = join(first.cwd, 'again');
    expect(images(againDir)).toEqual(images(firstDir));
    expect(readManifest(againDir).nodes.sky!.seeds).toEqual(nodes.sky!.seeds);
    for (const file of ['sky-images-0.jpg', 'sky-images-1.jpg']) {
      expect(readFileSync(join(againDir, file)).equals(readFileSync(join(firstDir, file))), file).toBe(true);
    }
    for (const file of images(firstDir)) {
      const [was, now] = await Promise.all([sharp(join(firstDir, file)).raw().toBuffer(), sharp(join(againDir, file)).raw().toBuffer()]);
      expect(now.equals(was), file).toBe(true);
    }
  });

  it('an image written before the nodes after it ran carries the seeds of those before it, and remakes itself', async () => {
    const clock = () => new Date('2026-03-01T12:00:00.000Z');
    const first = await runCli(['run', example('restyle-chain'), '--set', 'draw.seed=null', '--set', 'restyle.seed=null'], { now: clock });
    expect(first.code, first.stderr).toBe(0);
    const firstDir = onlyRunDir(first.cwd);
    const drawn = readManifest(firstDir).nodes.draw!.seeds[0]!;
    expect(seedsIn(join(firstDir, 'draw-image.jpg'))).toEqual([['draw', drawn, 'fixed'], ['restyle', null, undefined], ['sky', 9, undefined]]);

    const again = await runCli(['run', join(firstDir, 'draw-image.jpg'), '--to', 'draw', '--out', 'again'], { cwd: first.cwd, now: clock });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(first.cwd, 'again', 'draw-image.jpg')).equals(readFileSync(join(firstDir, 'draw-image.jpg')))).toBe(true);
  });
});
