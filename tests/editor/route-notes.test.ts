/** What the routes mean for a run, said in Settings and before a run: chat on the stand-in, engines that cannot run. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../src/settings/settings';
import { backendRules, type BackendSlot } from '../../src/settings/backend-settings';
import { chatNote, engineProblems, enginesUsedBy } from '../../src/settings/route-notes';
import type { ServerInfo } from '../../src/settings/server-info';

const comfy = (checkpoints: Record<string, string>): BackendSlot => ({ kind: 'comfyui', fields: { comfyui: { baseUrl: '', checkpoints, refiner: '', model: '', assets: [] } } });

describe('route notes', () => {
  it('a ComfyUI engine with no checkpoint cannot run: said per engine, with where to choose one', () => {
    const s: Settings = { ...DEFAULT_SETTINGS, mode: 'direct', imageBackends: { all: comfy({ sdxl: 'base.safetensors' }), engines: {} } };
    expect(engineProblems(s, null, backendRules)).toEqual([
      'ComfyUI for sd has no checkpoint: choose one in Settings → Image backend',
      'ComfyUI for controlnet-sdxl has no checkpoint: choose one in Settings → Image backend',
    ]);
    expect(engineProblems(s, null, backendRules, ['sdxl'])).toEqual([]);
  });

  it("through the server, an engine the server sends to ComfyUI without a checkpoint names the config file's field", () => {
    const info: ServerInfo = { forwarder: { image: true, imageBackends: { sdxl: { kind: 'comfyui', label: 'ComfyUI' }, sd: { kind: 'comfyui', label: 'ComfyUI', names: { checkpoint: 'v15.safetensors' } } } } };
    expect(engineProblems({ ...DEFAULT_SETTINGS, mode: 'forward' }, info, backendRules)).toEqual([
      'ComfyUI for sdxl has no checkpoint: set "imageBackends" → "sdxl" → "names" → "checkpoint" in the server\'s config file (ATELIER_CONFIG) and restart it',
    ]);
  });

  it('names chat on the stand-in, and the engines a workflow uses', () => {
    expect(chatNote({ ...DEFAULT_SETTINGS, mode: 'direct', chat: 'local' }, null)).toBe('Chat: local stand-in (offline, not a language model)');
    expect(chatNote({ ...DEFAULT_SETTINGS, mode: 'direct', chat: 'route' }, null)).toBeUndefined();
    expect(enginesUsedBy([
      { type: 'text-to-image', params: { engine: 'sd' } }, { type: 'controlnet', params: {} }, { type: 'image-to-image', params: {}, bypass: true }, { type: 'text', params: {} },
    ])).toEqual(['sd', 'controlnet-sdxl']);
  });
});
