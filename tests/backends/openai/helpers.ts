/** Shared helpers of the OpenAI Images backend's tests. */
import sharp from 'sharp';
import { createOpenAIImagesBackend } from '../../../api/backends/openai';
import type { BackendOptions } from '../../../api/backends/options';
import { optionsOn } from '../../helpers/backend-on-double';
import type { OpenAIImagesDouble } from '../../helpers/doubles/openai-images';

export { caught } from '../../helpers/caught';
export { imageInfo } from '../../helpers/backend-on-double';

/** A backend on the double, with its key, no retries unless asked, and waits that take no time. */
export function backendOn(double: OpenAIImagesDouble, overrides: Partial<BackendOptions> = {}) {
  return createOpenAIImagesBackend(optionsOn(double, overrides));
}

/** The alpha channel of a PNG, row by row. */
export async function alphaOf(bytes: Buffer): Promise<{ width: number; height: number; alpha: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, alpha: data };
}
