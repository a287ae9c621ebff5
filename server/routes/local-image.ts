/**
 * The local image engine's HTTP face at /local/image: `POST /generate/{engine_id}` exactly as the
 * interface describes (section 4), and `GET /local/image` saying plainly what it is.
 */
import { ENGINE_LABEL, ENGINES } from '../../api/catalog';
import { formatIssues, validateImageRequest } from '../../api/image';
import { generateImages, ImageInputError } from '../engines/image';
import { type ServerConfig } from '../config';
import { checkBearer } from '../guard';
import { clientGoneSignal, HttpError, readJsonObject, sendJson } from '../http-utils';
import { type RequestContext, type Route } from '../router';
import { standInRoute } from './stand-in';

export const LOCAL_IMAGE_BASE = '/local/image';

export const IMAGE_STAND_IN_NOTE =
  'A deterministic local stand-in, not a diffusion model: images are synthesised from the request ' +
  '(prompt, style preset, seed, steps, input images, mask, control map) so that its meaning is visible, ' +
  'and the same request and seed give the same bytes. Use it to build and test workflows offline; ' +
  'for real pictures, choose an image backend (ComfyUI, AUTOMATIC1111 or Forge, OpenAI Images) in Settings.';

export function localImageRoutes(config: ServerConfig): Route[] {
  return [
    standInRoute(config, LOCAL_IMAGE_BASE, () => ({
      service: 'Atelier local image engine',
      description: IMAGE_STAND_IN_NOTE,
      endpoints: ENGINES.map((engine) => ({ method: 'POST', path: `${LOCAL_IMAGE_BASE}/generate/${engine}`, engine: ENGINE_LABEL[engine] })),
      simulatedStepMs: config.stepDelayMs,
    })),
    { path: `${LOCAL_IMAGE_BASE}/generate/:engine`, methods: { POST: (ctx) => generate(ctx, config) } },
  ];
}

async function generate({ req, res, params }: RequestContext, config: ServerConfig): Promise<void> {
  checkBearer(req, config.localToken);
  const engine = params.engine ?? '';
  if (!(ENGINES as readonly string[]).includes(engine)) {
    throw new HttpError(404, `engine_id: unknown engine '${engine.slice(0, 60)}'; use one of ${ENGINES.join(', ')}`);
  }
  const body = await readJsonObject(req, config.maxBodyBytes);
  const checked = validateImageRequest(engine, body);
  if (!checked.ok) throw new HttpError(400, formatIssues(checked.issues));

  const signal = clientGoneSignal(res);
  try {
    const result = await generateImages(checked.value, { signal, stepDelayMs: config.stepDelayMs });
    if (!signal.aborted) sendJson(res, 200, result);
  } catch (error) {
    if (signal.aborted) return;
    if (error instanceof ImageInputError) throw new HttpError(400, `${error.field}: ${error.message}`);
    throw error;
  }
}
