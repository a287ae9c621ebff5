/**
 * Fan-out on the command line: the limit (--max-fan-out), one failing item among many (the others
 * are written, the manifest names the item), and the flag's own mistakes.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendText, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
import { answerWithLocalEngine, example, onlyRunDir, readManifest, runCli } from './helpers';

let upstream: MisbehavingServer;
beforeAll(async () => {
  upstream = await startMisbehavingServer();
  // The third shot of the list is refused, every time; the rest are drawn.
  upstream.handle(async (req, res) => {
    if (req.body.includes('Low angle')) sendText(res, 400, 'the prompt was refused by the content filter');
    else await answerWithLocalEngine(req, res);
  });
});
afterAll(() => upstream.close());

describe('atelier run with lists', () => {
  it('refuses a fan-out above --max-fan-out before sending anything, saying how to raise it', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('shot-list'), '--max-fan-out', '5']);
    expect(code).toBe(1);
    expect(stderr).toContain('draw: would run 6 times, above the fan-out limit of 5: raise the limit (the editor\'s settings, or --max-fan-out) to run it');
    const m = readManifest(onlyRunDir(cwd));
    expect(m.nodes.draw).toMatchObject({ status: 'failed', requests: [], items: { count: 6, ended: [] } });
    expect(m.nodes.sheet).toMatchObject({ status: 'skipped', skippedBecause: 'draw' });
    expect(m.apiCalls).toBe(0);
  });

  it('writes the items that worked when one fails, and names the failed item in the manifest', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('shot-list'), '--image-base-url', upstream.url]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/failed +draw \[3\/6\] .*content filter/);
    expect(stderr).toMatch(/draw: item 3 of 6 failed: .*content filter/);
    const dir = onlyRunDir(cwd);
    for (const i of [0, 1, 3, 4, 5]) expect(existsSync(join(dir, `draw-image-${i}.jpg`)), `item ${i}`).toBe(true);
    expect(readdirSync(dir).some((f) => f.startsWith('draw-image-2'))).toBe(false);
    const m = readManifest(dir);
    expect(m.failures).toEqual([{ nodeId: 'draw', error: expect.objectContaining({ item: 2, status: 400 }) as unknown }]);
    const ended = m.nodes.draw!.items!.ended;
    expect(ended.find((e) => e.item === 2)).toMatchObject({ status: 'failed', error: { status: 400 } });
    expect(ended.find((e) => e.item === 4)).toMatchObject({ status: 'done', outputs: { image: { files: ['draw-image-4.jpg'] } } });
    expect(m.nodes.sheet).toMatchObject({ status: 'skipped' });
  });

  it('takes --max-fan-out from 1 to 10000 only', async () => {
    for (const value of ['0', '10001', 'many']) {
      const { code, stderr } = await runCli(['run', example('shot-list'), '--max-fan-out', value]);
      expect(code).toBe(2);
      expect(stderr).toContain('--max-fan-out must be a whole number from 1 to 10000');
    }
  });
});
