/** Service asset names as AUTOMATIC1111's names. */
import { isPublicAsset } from '../../catalog';
import { backendAssetName, type BackendNamesConfig } from '../config';
import type { TranslationNote } from '../types';

/** Extensions a LoRA, embedding or ControlNet name is written without in AUTOMATIC1111. */
const MODEL_FILE = /\.(safetensors|ckpt|pt|pth|bin)$/i;

export const withoutExtension = (name: string): string => name.replace(MODEL_FILE, '');

/** A backend name for a service asset, with a note when a public asset has no mapping. */
export function assetName(names: BackendNamesConfig | undefined, field: string, serviceName: string, notes: TranslationNote[]): string {
  const name = backendAssetName(names, serviceName);
  if (isPublicAsset(serviceName) && names?.assets?.[serviceName] === undefined) {
    notes.push({
      field, treatment: 'approximated',
      message: `${serviceName} has no AUTOMATIC1111 name in the backend's settings; it is sent as '${name}', which AUTOMATIC1111 must have`,
    });
  }
  return name;
}
