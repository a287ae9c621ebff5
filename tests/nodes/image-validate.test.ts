import { describe, expect, it } from 'vitest';
import { controlNetNode } from '../../nodes/controlnet';
import { imageToImageNode } from '../../nodes/image-to-image';
import { inpaintNode } from '../../nodes/inpaint';
import { mergeNode } from '../../nodes/merge';
import { textToImageNode } from '../../nodes/text-to-image';
import type { AnyNodeDefinition } from '../../nodes/types';

const none = new Set<string>();
function issues(def: AnyNodeDefinition, params: unknown, connected: ReadonlySet<string> = none) {
  return def.validate?.(def.params.parse(params), connected) ?? [];
}
const params = (list: { param: string }[]) => list.map((i) => i.param);
const longPrompt = 'a castle on a hill '.repeat(20);

describe('image node validation before a run', () => {
  it('passes every image node with its defaults and its image inputs connected', () => {
    expect(issues(textToImageNode, {})).toEqual([]);
    expect(issues(imageToImageNode, {}, new Set(['image']))).toEqual([]);
    expect(issues(inpaintNode, {}, new Set(['image', 'mask']))).toEqual([]);
    expect(issues(controlNetNode, {}, new Set(['control_image']))).toEqual([]);
    expect(issues(mergeNode, {}, new Set(['samples']))).toEqual([]);
  });

  it('names width for a size the engine does not support, listing the supported pairs', () => {
    const found = issues(textToImageNode, { width: 512, height: 512 });
    expect(found).toEqual([{ param: 'width', message: expect.stringContaining('512x512 is not a supported SDXL resolution') as string }]);
    expect(found[0]?.message).toContain('832x1216');
    expect(params(issues(textToImageNode, { engine: 'sd', width: 1024, height: 1024 }))).toEqual(['width']);
    expect(issues(textToImageNode, { engine: 'sd', width: 576, height: 1024 })).toEqual([]);
  });

  it('asks for width and height together', () => {
    expect(params(issues(textToImageNode, { width: 1024 }))).toEqual(['height']);
  });

  it('reports a prompt over the token limit of the engine', () => {
    const sdxl = issues(textToImageNode, { prompt: longPrompt });
    expect(sdxl).toEqual([{ param: 'prompt', message: expect.stringMatching(/has \d+ tokens, over the SDXL limit of 77/) as string }]);
    expect(issues(textToImageNode, { prompt: longPrompt, engine: 'sd' })).toEqual([]);
    expect(params(issues(imageToImageNode, { negative_prompt: longPrompt, prompt_2: longPrompt }, new Set(['image'])))).toEqual(['prompt_2', 'negative_prompt']);
  });

  it('does not judge a prompt or seed that arrives through its port', () => {
    expect(issues(textToImageNode, { prompt: longPrompt }, new Set(['prompt']))).toEqual([]);
    expect(issues(mergeNode, { prompt: 'no subject here' }, new Set(['prompt', 'samples']))).toEqual([]);
  });

  it('ignores SDXL-only fields on SD 1.5, which the form hides and the request leaves out', () => {
    expect(issues(textToImageNode, { engine: 'sd', prompt_2: 'x', style_preset: 'anime', use_refiner: true, width: 512, height: 768 })).toEqual([]);
  });

  it('reports an SD 1.5 ControlNet checkpoint on the controlnet param', () => {
    const found = issues(controlNetNode, { controlnet: 'svc:canny_sd15' }, new Set(['control_image']));
    expect(found).toEqual([{ param: 'controlnet', message: expect.stringContaining('SD 1.5 checkpoint') as string }]);
    expect(issues(controlNetNode, { controlnet: 'svc:nope' }, new Set(['control_image']))[0]?.message).toContain('unknown public ControlNet');
    expect(issues(controlNetNode, { controlnet: 'my_private' }, new Set(['control_image']))).toEqual([]);
  });

  it('reports a trigger word missing from the prompt, and merge without samples', () => {
    expect(issues(mergeNode, { prompt: 'a dog', trigger_word: 'zq' }, new Set(['sample_1']))).toEqual([
      { param: 'trigger_word', message: expect.stringContaining("'zq' does not appear in the prompt") as string },
    ]);
    expect(issues(mergeNode, {})).toEqual([{ param: 'samples', message: expect.stringContaining('connect at least one') as string }]);
    const proto = mergeNode.params.safeParse({ prompt: 'a __proto__', trigger_word: '__proto__' });
    expect(proto.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['trigger_word', 'cannot be __proto__: choose another word']]);
  });

  it('refuses parameters the form cannot produce, naming the field', () => {
    const r = textToImageNode.params.safeParse({ sampler: 'EULER', style_preset: 'Anime', steps: 0, engine: 'controlnet-sdxl', extra: 1 });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => (i.code === 'unrecognized_keys' ? i.keys.join() : i.path.join('.')));
    expect(paths?.sort()).toEqual(['engine', 'extra', 'sampler', 'steps', 'style_preset']);
    expect(controlNetNode.params.safeParse({ engine: 'sdxl' }).success).toBe(false);
  });
});
