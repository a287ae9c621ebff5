/**
 * The ControlNet fields as one unit of the sd-webui-controlnet extension, sent in the payload's
 * `alwayson_scripts.controlnet.args` (Forge's built-in ControlNet reads the same).
 *
 * `enabled` must be sent: a unit is off by default. The preprocessor (`module`) makes the control
 * map from the image, as the service does for its public checkpoints unless
 * `controlnet_preprocess` is false; a private checkpoint's image is its map. The map is stretched
 * to the output size ("Just Resize"), as a diffusers ControlNet pipeline does, and the extension is
 * told not to return the maps it made (`save_detected_map: false`), which it would otherwise add
 * to the images.
 *
 * Source: Mikubill/sd-webui-controlnet internal_controlnet/args.py (`ControlNetUnit`),
 * scripts/supported_preprocessor.py and scripts/preprocessor/ (the preprocessor names).
 */
import { isPublicAsset } from '../../catalog';
import type { ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import type { BackendNamesConfig } from '../config';
import type { TranslationNote } from '../types';
import { assetName, withoutExtension } from './assets';

/** The extension's preprocessor for each kind of public checkpoint (`svc:canny_sdxl` is `canny`). */
export const PREPROCESSORS: Record<string, string> = {
  canny: 'canny',
  depth: 'depth_midas',
  openpose: 'openpose',
  lineart: 'lineart_realistic',
  scribble: 'scribble_pidinet',
  tile: 'tile_resample',
  inpaint: 'inpaint_only',
  // InstructPix2Pix follows the picture itself, not a map made from it.
  ip2p: 'none',
};

export interface ControlUnit {
  args: Record<string, unknown>;
  model: string;
}

export function controlUnit(
  req: ImageRequest, names: BackendNamesConfig | undefined, notes: TranslationNote[], refusals: FieldIssue[], image: (b64: string) => string,
): ControlUnit | undefined {
  const serviceName = req.controlnet;
  if (serviceName === undefined) return undefined;
  const model = withoutExtension(assetName(names, 'controlnet', serviceName, notes));
  if (req.controlnet_image === undefined) {
    refusals.push({ path: 'controlnet_image', message: 'is required on AUTOMATIC1111: its ControlNet extension needs the control image (or, with preprocessing, the picture to make the map from)' });
    return undefined;
  }
  const kind = isPublicAsset(serviceName) ? serviceName.slice(4).replace(/_(sdxl|sd15)$/, '') : undefined;
  let module = 'none';
  if (req.controlnet_preprocess !== false) {
    if (kind !== undefined) module = PREPROCESSORS[kind] ?? 'none';
    else if (req.controlnet_preprocess === true) {
      notes.push({ field: 'controlnet_preprocess', treatment: 'not-sent', message: `no preprocessor is known for the private ControlNet '${serviceName}'; its control image is used as the map` });
    }
  }
  return {
    model,
    args: {
      enabled: true, module, model, weight: 1, image: image(req.controlnet_image),
      resize_mode: 'Just Resize', pixel_perfect: module !== 'none',
      guidance_start: 0, guidance_end: 1, control_mode: 'Balanced', save_detected_map: false,
    },
  };
}
