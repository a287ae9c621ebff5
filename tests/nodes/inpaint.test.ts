import { describe, expect, it } from 'vitest';
import { ParamIssuesError } from '../../nodes/errors';
import { NO_MASK, inpaintNode, maskSource } from '../../nodes/inpaint';
import { registry } from '../../nodes/index';
import type { Value } from '../../nodes/types';
import { imageValue, imagesValue } from '../../nodes/values';
import { validateWorkflow } from '../../workers/validate';
import { workflow } from '../workers/fakes';
import { PNG_B64, fakeContext, fakeJpeg } from './fakes';

const picture: Value = imageValue({ b64: fakeJpeg(1), mime: 'image/jpeg' });
const wiredMask: Value = imageValue({ b64: fakeJpeg(2), mime: 'image/jpeg' });
/** A painted mask as the editor stores it: PNG base64 and the size it was painted at. */
const painted = { b64: `${PNG_B64}AAAAAElFTkSuQmCC`, width: 1024, height: 1024 };
const parse = (params: unknown) => inpaintNode.params.parse(params);
const issues = (params: unknown, connected: string[]) => inpaintNode.validate?.(parse(params), new Set(connected)) ?? [];

async function maskSent(params: unknown, inputs: Record<string, Value>): Promise<string | undefined> {
  const ctx = fakeContext();
  await inpaintNode.run({ params: parse(params), inputs, ctx });
  expect(ctx.imageCalls).toHaveLength(1);
  return ctx.imageCalls[0]!.request.mask_image;
}

describe('inpaint: where the mask comes from', () => {
  it('sends the painted mask, unchanged, when the Mask input is not connected', async () => {
    const mask = await maskSent({ prompt: 'a kite', mask_paint: painted }, { image: picture });
    // The very string stored in the workflow: no decode, no re-encode on the way.
    expect(mask).toBe(painted.b64);
  });

  it('sends the connected mask instead of a painted one: the port wins', async () => {
    expect(await maskSent({ prompt: 'a kite', mask_paint: painted }, { image: picture, mask: wiredMask })).toBe(fakeJpeg(2));
    expect(await maskSent({ prompt: 'a kite' }, { image: picture, mask: wiredMask })).toBe(fakeJpeg(2));
  });

  it('takes the first image of a list wired into Mask', async () => {
    const list = imagesValue([{ b64: fakeJpeg(7), mime: 'image/jpeg' }, { b64: fakeJpeg(8), mime: 'image/jpeg' }]);
    expect(await maskSent({ prompt: 'a kite', mask_paint: painted }, { image: picture, mask: list })).toBe(fakeJpeg(7));
  });

  it('refuses to run without any mask, naming the mask, and sends nothing', async () => {
    const ctx = fakeContext();
    const run = inpaintNode.run({ params: parse({ prompt: 'a kite' }), inputs: { image: picture }, ctx });
    await expect(run).rejects.toBeInstanceOf(ParamIssuesError);
    await expect(run).rejects.toThrow(`mask: ${NO_MASK}`);
    expect(ctx.imageCalls).toHaveLength(0);
  });

  it('says which source is in use', () => {
    expect(maskSource({ mask_paint: painted }, true)).toBe('port');
    expect(maskSource({ mask_paint: null }, true)).toBe('port');
    expect(maskSource({ mask_paint: painted }, false)).toBe('painted');
    expect(maskSource({ mask_paint: null }, false)).toBe('none');
  });
});

describe('inpaint: validation before a run', () => {
  it('asks for a mask, on the mask input, when neither is there', () => {
    expect(issues({}, ['image'])).toEqual([{ param: 'mask', message: NO_MASK }]);
  });

  it('is satisfied by a connected mask or by a painted one', () => {
    expect(issues({}, ['image', 'mask'])).toEqual([]);
    expect(issues({ mask_paint: painted }, ['image'])).toEqual([]);
    expect(issues({ mask_paint: painted }, ['image', 'mask'])).toEqual([]);
  });

  it('reports the missing mask alongside the other problems of the node', () => {
    const found = issues({ width: 512, height: 512 }, ['image']).map((i) => i.param);
    expect(found).toEqual(['mask', 'width']);
  });

  it('defaults to no painted mask and keeps one through a parse', () => {
    expect(parse({}).mask_paint).toBeNull();
    expect(parse({ mask_paint: painted }).mask_paint).toEqual(painted);
  });

  it('refuses a painted mask that is not a base64 image, or has no size', () => {
    const bad = (mask_paint: unknown) => inpaintNode.params.safeParse({ mask_paint });
    const dataUrl = bad({ ...painted, b64: `data:image/png;base64,${painted.b64}` });
    expect(dataUrl.success).toBe(false);
    expect(dataUrl.error?.issues[0]?.path).toEqual(['mask_paint', 'b64']);
    expect(dataUrl.error?.issues[0]?.message).toContain('not a data: URL');
    expect(bad({ ...painted, b64: 'aGVsbG8gd29ybGQh' }).error?.issues[0]?.message).toContain('not a JPEG, PNG');
    expect(bad({ b64: painted.b64, width: 1024 }).success).toBe(false);
    expect(bad({ ...painted, width: 0 }).success).toBe(false);
    expect(bad({ ...painted, extra: 1 }).success).toBe(false);
  });

  it('lets a workflow with only a painted mask through the executor’s validation, and stops one with none', () => {
    const edges = ['t.image -> i.image'];
    const withPaint = workflow([['t', 'text-to-image', { prompt: 'a field' }], ['i', 'inpaint', { prompt: 'a kite', mask_paint: painted }]], edges);
    expect(validateWorkflow(withPaint, registry)).toEqual([]);

    const without = workflow([['t', 'text-to-image', { prompt: 'a field' }], ['i', 'inpaint', { prompt: 'a kite' }]], edges);
    expect(validateWorkflow(without, registry)).toEqual([{ nodeId: 'i', field: 'mask', message: `Mask: ${NO_MASK}` }]);

    const wired = workflow(
      [['t', 'text-to-image', { prompt: 'a field' }], ['m', 'text-to-image', { prompt: 'a blob' }], ['i', 'inpaint', { prompt: 'a kite' }]],
      [...edges, 'm.image -> i.mask'],
    );
    expect(validateWorkflow(wired, registry)).toEqual([]);
  });
});
