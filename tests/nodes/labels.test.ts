/** How messages name nodes and fields: as the canvas and the forms show them, never by id or key. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { fieldLabel, nodeName } from '../../nodes/labels';
import { storeLink } from '../../src/run/store-link';
import { createSettingsStore } from '../../src/settings/settings-store';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';

const def = (type: string) => registry.get(type);

describe('labels', () => {
  it('names a parameter by its title in the form, and a port by its label', () => {
    expect(fieldLabel(def('text-to-image'), 'negative_prompt')).toBe('Negative prompt');
    expect(fieldLabel(def('text-to-image'), 'cfg_scale')).toBe('CFG scale');
    // Width and height are one control in the form.
    expect(fieldLabel(def('text-to-image'), 'height')).toBe('Resolution');
    expect(fieldLabel(def('inpaint'), 'mask')).toBe('Mask');
    expect(fieldLabel(def('image-to-image'), 'image')).toBe('Image');
    expect(fieldLabel(def('chat-prompt-writer'), 'user')).toBe('User message');
  });

  it('keeps the rest of a nested path, and what the type does not declare, as written', () => {
    expect(fieldLabel(def('text-to-image'), 'loras.svc:film')).toBe('LoRAs › svc:film');
    expect(fieldLabel(def('text-to-image'), 'api_key')).toBe('api_key');
    expect(fieldLabel(undefined, 'factor')).toBe('factor');
  });

  it("names a node by its own title, else its type's, else its id", () => {
    expect(nodeName({ id: 'text-to-image', title: ' Hero shot ' }, def('text-to-image'))).toBe('Hero shot');
    expect(nodeName({ id: 'text-to-image' }, def('text-to-image'))).toBe('Text to image');
    expect(nodeName({ id: 'up', title: '' }, undefined)).toBe('up');
  });
});

describe("the editor's description of a node", () => {
  it('gives the run side its title and its fields by label (a failed node\'s "Go to field")', () => {
    const link = storeLink(createEditorStore({ initial: starterWorkflow() }), createSettingsStore(null), 'http://127.0.0.1:8787');
    const draw = link.describeNode('text-to-image');
    expect(draw.label).toBe('Text to image');
    expect(draw.fieldLabel?.('negative_prompt')).toBe('Negative prompt');
    expect(link.describeNode('gone')).toEqual({ label: 'gone' });
  });
});
