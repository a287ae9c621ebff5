import { describe, expect, it } from 'vitest';
import { imageLoaderNode as loader } from '../../nodes/image-loader';
import { PREVIEW_OUTPUT, previewNode as preview } from '../../nodes/preview';
import { imageValue, imagesValue, portAccepts, textValue } from '../../nodes/values';
import { PNG_B64, fakeContext, fakeJpeg } from './fakes';

describe('image loader', () => {
  it('reports a missing image on the image param', () => {
    expect(loader.validate?.(loader.params.parse({}), new Set())).toEqual([
      { param: 'image', message: 'no image chosen: pick, drop or paste one' },
    ]);
  });

  it('reports a file that is not an image', () => {
    const p = loader.params.parse({ image: { b64: Buffer.from('hello').toString('base64'), mime: 'image/png', name: 'notes.png' } });
    expect(loader.validate?.(p, new Set())).toEqual([{ param: 'image', message: "'notes.png' is not a JPEG, PNG, WebP or GIF image" }]);
  });

  it('refuses a data: URL with a clear message', () => {
    const r = loader.params.safeParse({ image: { b64: `data:image/png;base64,${PNG_B64}`, mime: 'image/png', name: 'a.png' } });
    expect(r.error?.issues[0]?.message).toContain('bare base64');
  });

  it('outputs the embedded image unchanged, its mime read from the bytes', async () => {
    const p = loader.params.parse({ image: { b64: fakeJpeg(1), mime: 'image/png', name: 'really-a-jpeg.png', width: 640, height: 480 } });
    expect(loader.validate?.(p, new Set())).toEqual([]);
    const out = await loader.run({ params: p, inputs: {}, ctx: fakeContext() });
    expect(out).toEqual({ image: imageValue({ b64: fakeJpeg(1), mime: 'image/jpeg', width: 640, height: 480 }) });
  });

  it('fails the run, naming the param, when no image was chosen', async () => {
    await expect(loader.run({ params: loader.params.parse({}), inputs: {}, ctx: fakeContext() })).rejects.toThrow('image: no image chosen');
  });
});

describe('preview', () => {
  const port = preview.inputs instanceof Array ? preview.inputs[0]! : undefined;

  it('takes images, a list of images, text or a number as they are', () => {
    expect(port).toBeDefined();
    for (const kind of ['image', 'images', 'text', 'number'] as const) expect(portAccepts(port!, kind)).toBe(true);
    expect(preview.outputs).toEqual([]);
  });

  it('hands back what it shows under the shown output', async () => {
    const params = preview.params.parse({});
    for (const value of [textValue('hello'), imageValue({ b64: PNG_B64, mime: 'image/png' }), imagesValue([])]) {
      expect(await preview.run({ params, inputs: { value }, ctx: fakeContext() })).toEqual({ [PREVIEW_OUTPUT]: value });
    }
  });

  it('allows a plain file name and refuses a path', () => {
    expect(preview.params.safeParse({ filename: 'fox 01_final' }).success).toBe(true);
    expect(preview.params.safeParse({ filename: 'Füchse' }).success).toBe(true);
    expect(preview.params.safeParse({ filename: '../etc/passwd' }).success).toBe(false);
    expect(preview.params.safeParse({ filename: '.hidden' }).success).toBe(false);
  });
});
