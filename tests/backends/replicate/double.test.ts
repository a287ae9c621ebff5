/**
 * The Replicate double speaks Replicate's real API: Replicate's own client (`replicate` on npm)
 * runs against it with `baseUrl` pointed at it, and gets what it would get from Replicate. The
 * double refuses what Replicate refuses: a wrong auth scheme, an unknown model or version, an
 * input the model's schema refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Replicate from 'replicate';
import { startReplicateDouble, type ReplicateDouble } from '../../helpers/doubles/replicate';
import { makeImage } from '../../engines/image-test-utils';

const SDXL = 'stability-ai/sdxl:7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc';
let double: ReplicateDouble;
let replicate: Replicate;
beforeAll(async () => {
  double = await startReplicateDouble({ coldPolls: 2, steps: 2, flagPrompts: /forbidden/ });
  replicate = new Replicate({ auth: double.token, baseUrl: `${double.url}/v1`, useFileOutput: false });
});
afterAll(async () => { await double.close(); });

describe('Replicate double, driven by the replicate client', () => {
  it('run() of a community model by version polls through starting and processing to its output URLs', async () => {
    const seen: string[] = [];
    const output = await replicate.run(SDXL, { input: { prompt: 'a lighthouse', num_outputs: 2 }, wait: { mode: 'poll', interval: 1 } }, (p) => { seen.push(p.status); });
    expect(output).toEqual([expect.stringMatching(/\/delivery\/.+\/out-0\.png$/), expect.stringMatching(/out-1\.png$/)]);
    expect(seen).toContain('starting');
    expect(seen).toContain('processing');
    expect(seen.at(-1)).toBe('succeeded');
    const created = double.received.find((r) => r.method === 'POST' && r.path === '/v1/predictions')!;
    expect(created.authorization).toBe(`Bearer ${double.token}`);
    expect(created.body).toMatchObject({ version: SDXL.split(':')[1], input: { prompt: 'a lighthouse' } });
  });

  it('run() of an official model goes by name and, blocking, sends Prefer: wait', async () => {
    const output = await replicate.run('black-forest-labs/flux-schnell', { input: { prompt: 'p', aspect_ratio: '16:9' } });
    expect(output).toHaveLength(1);
    const created = double.received.at(-1)!;
    expect(created.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(created.prefer).toBe('wait');
  });

  it('predictions.create / get / cancel, and files.create', async () => {
    const created = await replicate.predictions.create({ version: SDXL.split(':')[1]!, input: { prompt: 'p' } });
    expect(created.status).toBe('starting');
    const canceled = await replicate.predictions.cancel(created.id);
    expect(canceled.status).toBe('canceled');
    expect((await replicate.predictions.get(created.id)).status).toBe('canceled');
    const png = Buffer.from(await makeImage(8, 8, () => [1, 2, 3]), 'base64');
    const file = await replicate.files.create(new Blob([new Uint8Array(png)], { type: 'image/png' }));
    expect(file.urls.get).toMatch(new RegExp(`^${double.url}/v1/files/`));
    expect(double.files.get(`files/${file.id}`)?.bytes.equals(png)).toBe(true);
  });

  it('refuses a wrong scheme, an unknown model, an unknown version and a refused input, with problem details', async () => {
    const keyScheme = await fetch(`${double.url}/v1/predictions`, { method: 'POST', body: '{}', headers: { Authorization: `Key ${double.token}` } });
    expect(keyScheme.status).toBe(401);
    await expect(replicate.run('nobody/nothing', { input: { prompt: 'p' } })).rejects.toMatchObject({ response: { status: 404 } });
    await expect(replicate.predictions.create({ version: '0'.repeat(64), input: { prompt: 'p' } })).rejects.toMatchObject({ response: { status: 422 } });
    const refused = (await replicate.predictions.create({ model: 'black-forest-labs/flux-dev', input: { prompt: 'p', num_outputs: 5, guidance: 11 } }).catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(/status 422 .*input\.num_outputs.*less than or equal to 4/s);
    await expect(replicate.run('black-forest-labs/flux-dev', { input: {} })).rejects.toMatchObject({ response: { status: 422 } });
  });

  it('fails a prediction its safety checker catches, as Replicate does', async () => {
    await expect(replicate.run(SDXL, { input: { prompt: 'forbidden' }, wait: { mode: 'poll', interval: 1 } })).rejects.toThrow(/Prediction failed: NSFW content detected/);
  });
});
