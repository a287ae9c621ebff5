/** What the generated forms show: fields, controls and problems, from the node definitions. */
import { describe, expect, it } from 'vitest';
import { PREMIUM_SAMPLERS, STYLE_PRESETS } from '../../api/catalog';
import { registry } from '../../nodes/index';
import { NO_MASK } from '../../nodes/inpaint';
import { inputsFor } from '../../src/store/ports';
import { planFields, resolutionOptions, type FieldSpec } from '../../src/forms/field-plan';
import { formIssues } from '../../src/forms/issues';
import { parseNumberInput, typedNumber } from '../../src/forms/widgets/basic';

function plan(type: string, params: Record<string, unknown> = {}) {
  const def = registry.get(type)!;
  const full = def.params.parse(params) as Record<string, unknown>;
  const fields = planFields(def, full, inputsFor(def, full));
  return { fields, byName: new Map(fields.map((f) => [f.name, f])), def, params: full };
}
const names = (fields: FieldSpec[]) => fields.map((f) => f.name);

describe('field plan', () => {
  it('gives text to image its fields with the right controls', () => {
    const { byName } = plan('text-to-image');
    expect(byName.get('engine')).toMatchObject({ widget: 'engine', options: [{ value: 'sdxl', label: 'SDXL v1.0' }, { value: 'sd', label: 'SD v1.5' }] });
    expect(byName.get('prompt')).toMatchObject({ widget: 'prompt', tokenLimit: 77, title: 'Prompt', section: 'main' });
    expect(byName.get('prompt')!.port?.name).toBe('prompt');
    expect(byName.get('seed')).toMatchObject({ widget: 'seed', max: 4294967295 });
    expect(byName.get('steps')).toMatchObject({ widget: 'number', min: 1, max: 150, integer: true, section: 'more' });
    expect(byName.get('loras')!.widget).toBe('weights');
    expect(byName.get('textual_inversions')!.widget).toBe('triggers');
    expect(byName.get('checkpoint')!.widget).toBe('asset');
    expect(byName.has('height')).toBe(false);
    expect(byName.get('width')).toMatchObject({ widget: 'resolution', title: 'Resolution' });
  });

  it('marks premium samplers as twice the price, in their own group', () => {
    const sampler = plan('text-to-image').byName.get('sampler')!;
    for (const premium of PREMIUM_SAMPLERS) {
      expect(sampler.options).toContainEqual({ value: premium, label: `${premium} (2×)`, group: 'Premium: twice the price' });
    }
    expect(sampler.options).toContainEqual({ value: 'DDIM', label: 'DDIM', group: 'Regular' });
  });

  it('offers the exact style presets, and none', () => {
    const style = plan('text-to-image').byName.get('style_preset')!;
    expect(style.options!.map((o) => o.value)).toEqual(['', ...STYLE_PRESETS]);
  });

  it('hides SDXL-only fields on SD 1.5 and counts against its 231-token limit', () => {
    const sdxl = plan('text-to-image', { engine: 'sdxl', use_refiner: true });
    expect(names(sdxl.fields)).toEqual(expect.arrayContaining(['prompt_2', 'negative_prompt_2', 'use_refiner', 'high_noise_frac', 'style_preset']));
    const sd = plan('text-to-image', { engine: 'sd', use_refiner: true });
    for (const hidden of ['prompt_2', 'negative_prompt_2', 'use_refiner', 'high_noise_frac', 'style_preset']) expect(sd.byName.has(hidden)).toBe(false);
    expect(sd.byName.get('prompt')!.tokenLimit).toBe(231);
  });

  it('shows the refiner split only with the refiner on', () => {
    expect(plan('text-to-image', { use_refiner: false }).byName.has('high_noise_frac')).toBe(false);
    expect(plan('text-to-image', { use_refiner: true }).byName.get('high_noise_frac')).toMatchObject({ widget: 'slider', min: 0, max: 1 });
  });

  it('offers the engine family\'s resolution pairs as one choice', () => {
    expect(plan('text-to-image', { engine: 'sd' }).byName.get('width')!.options).toEqual(resolutionOptions('sd15'));
    const options = resolutionOptions('sdxl');
    expect(options[0]).toEqual({ value: '', label: 'Engine default (1024×1024)' });
    expect(options.map((o) => o.value)).toContain('832x1216');
    expect(options).toHaveLength(10);
  });

  it('gives ControlNet its checkpoint picker and no engine choice', () => {
    const { byName } = plan('controlnet');
    expect(byName.get('controlnet')!.widget).toBe('controlnet');
    expect(byName.get('controlnet_preprocess')!.widget).toBe('toggle');
    expect(byName.has('engine')).toBe(false);
  });

  it('gives the chat node text areas, a model field and sliders for 0–1 ranges', () => {
    const { byName } = plan('chat-prompt-writer');
    expect(byName.get('system')!.widget).toBe('textarea');
    expect(byName.get('model')!.widget).toBe('model');
    expect(byName.get('top_p')).toMatchObject({ widget: 'slider', min: 0, max: 1, section: 'more' });
    expect(byName.get('stop')!.widget).toBe('lines');
    expect(byName.get('max_tokens')).toMatchObject({ widget: 'number', integer: true });
  });

  it('gives the image loader an image field', () => {
    expect(plan('image-loader').byName.get('image')!.widget).toBe('image');
  });
});

describe('form problems', () => {
  it('reports a problem under its field, and the resolution under "width"', () => {
    const def = registry.get('text-to-image')!;
    const params = { ...(def.params.parse({}) as Record<string, unknown>), engine: 'sd', width: 1024, height: 1024 };
    const issues = formIssues(def, params, inputsFor(def, params), undefined);
    expect(issues.byField.get('width')?.join(' ')).toMatch(/1024/);
  });

  it('does not judge a prompt that a wire supplies', () => {
    const def = registry.get('text-to-image')!;
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const params = { ...(def.params.parse({}) as Record<string, unknown>), prompt: long };
    expect(formIssues(def, params, inputsFor(def, params), undefined).byField.get('prompt')?.join(' ')).toMatch(/token/);
    const wire = { id: 'w', source: { node: 'a', port: 'text' }, target: { node: 'b', port: 'prompt' } };
    expect(formIssues(def, params, inputsFor(def, params), new Map([['prompt', wire]])).byField.has('prompt')).toBe(false);
  });

  it("shows inpaint's missing mask under the Painted mask field, and nothing once a mask is wired", () => {
    const def = registry.get('inpaint')!;
    const params = def.params.parse({}) as Record<string, unknown>;
    const image = { id: 'i', source: { node: 'a', port: 'image' }, target: { node: 'b', port: 'image' } };
    const issues = formIssues(def, params, inputsFor(def, params), new Map([['image', image]]));
    expect(issues.byField.get('mask_paint')).toEqual([NO_MASK]);
    expect(issues.byField.has('mask')).toBe(false);
    expect(issues.general.join(' ')).not.toMatch(/needs a mask/);
    const mask = { id: 'm', source: { node: 'a', port: 'image' }, target: { node: 'b', port: 'mask' } };
    const wired = formIssues(def, params, inputsFor(def, params), new Map([['image', image], ['mask', mask]]));
    expect(wired.byField.has('mask_paint')).toBe(false);
  });

  it('puts problems that are not a field in the general list, named by the port label', () => {
    const def = registry.get('merge')!;
    const params = def.params.parse({}) as Record<string, unknown>;
    expect(formIssues(def, params, inputsFor(def, params), undefined).general).toContain('Samples: connect at least one sample image of the subject');
  });
});

describe('number input', () => {
  const spec = { name: 'steps', title: 'Steps', widget: 'number', section: 'more', min: 1, max: 150, integer: true } as const;
  it('accepts numbers in range and empty (the default), and says why otherwise', () => {
    expect(parseNumberInput(' 40 ', spec)).toEqual({ ok: true, value: 40 });
    expect(parseNumberInput('', spec)).toEqual({ ok: true, value: undefined });
    expect(parseNumberInput('4.5', spec)).toEqual({ ok: false, reason: 'must be a whole number' });
    expect(parseNumberInput('0', spec)).toEqual({ ok: false, reason: 'must be at least 1' });
    expect(parseNumberInput('200', spec)).toEqual({ ok: false, reason: 'must be at most 150' });
    expect(parseNumberInput('abc', spec)).toEqual({ ok: false, reason: "'abc' is not a number" });
  });

  it('stores a number as typed, in range or not, so the checks flag it; text that is no number waits', () => {
    expect(typedNumber('0')).toEqual({ store: true, value: 0 });
    expect(typedNumber(' 4.5 ')).toEqual({ store: true, value: 4.5 });
    expect(typedNumber('')).toEqual({ store: true, value: undefined });
    expect(typedNumber('-')).toEqual({ store: false });
    expect(typedNumber('abc')).toEqual({ store: false });
  });
});
