/** Shared pieces of the ComfyUI backend tests: images, the backend on a double, a caught error. */
import sharp from 'sharp';
import WebSocket from 'ws';
import { expect } from 'vitest';
import { createComfyBackend, type ComfyBackendOptions } from '../../../api/backends/comfyui/index';
import { ApiError } from '../../../api/errors';
import type { ComfyDouble } from '../../helpers/doubles/comfyui';

/** The `ws` package's client, which speaks the browser's WebSocket interface. */
export const NodeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

export const NAMES = {
  checkpoint: 'sd_xl_base_1.0.safetensors',
  refiner: 'sd_xl_refiner_1.0.safetensors',
  assets: { 'svc:canny_sdxl': 'diffusers_xl_canny_full.safetensors', 'svc:depth_sdxl': 'diffusers_xl_depth_full.safetensors' },
};

export async function imageBase64(colour: string, format: 'png' | 'jpeg' = 'png', size = 64): Promise<string> {
  const image = sharp({ create: { width: size, height: size, channels: 3, background: colour } });
  return (await (format === 'png' ? image.png() : image.jpeg()).toBuffer()).toString('base64');
}

export function comfyOn(double: ComfyDouble, overrides: Partial<ComfyBackendOptions> = {}) {
  return createComfyBackend({
    baseUrl: double.url,
    names: NAMES,
    WebSocket: NodeWebSocket,
    retry: { maxAttempts: 1 },
    timeouts: { headersMs: 20_000, idleMs: 20_000 },
    pollIntervalMs: 5,
    ...overrides,
  });
}

export async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
