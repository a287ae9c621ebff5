/**
 * Which images a request sends to `/v1/images/edits`, checked against the model's rules from their
 * first bytes and base64 length only (openapi.yaml, CreateImageEditRequest.image and .mask): GPT
 * image models take up to 16 PNG, JPEG or WebP images under 50 MB; dall-e-2 one square PNG under
 * 4 MB, and only to repaint a masked part; dall-e-3 edits nothing.
 */
import type { FieldIssue } from '../../issues';
import type { ImageMode, ImageRequest } from '../../image-schema';
import type { TranslationNote } from '../types';
import { openaiDescription } from './describe';
import { base64ByteLength, base64Format, base64PngDimensions, FORMAT_NAME } from './image-info';
import type { ModelRules } from './models';

export interface UploadImage {
  /** The service field it came from (`init_image`, `transfer_images.sks.0`). */
  source: string;
  b64: string;
  format: 'png' | 'jpeg' | 'webp';
}

export interface PlannedImages {
  uploads: UploadImage[];
  mask?: { b64: string; format: 'png' | 'jpeg' };
}

const LABEL = openaiDescription.label;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function formatList(formats: readonly string[]): string {
  const names = formats.map((f) => FORMAT_NAME[f as keyof typeof FORMAT_NAME] ?? f);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}` : names.join('');
}

/** One input image, or a refusal naming its field. */
function upload(source: string, b64: string, rules: ModelRules, model: string, refusals: FieldIssue[]): UploadImage | undefined {
  const format = base64Format(b64);
  if (format === undefined || !rules.inputFormats.includes(format)) {
    const what = format === undefined ? 'not an image format OpenAI reads' : `a ${FORMAT_NAME[format]}`;
    refusals.push({ path: source, message: `is ${what}; ${model} takes ${formatList(rules.inputFormats)} images (save it as PNG first)` });
    return undefined;
  }
  const bytes = base64ByteLength(b64);
  if (bytes > rules.inputBytes) {
    refusals.push({ path: source, message: `is ${megabytes(bytes)}; ${model} takes images under ${megabytes(rules.inputBytes)}` });
    return undefined;
  }
  return { source, b64, format: format as UploadImage['format'] };
}

function cannotEdit(model: string, field: string): FieldIssue {
  return { path: field, message: `${model} cannot edit images; set the backend's model to gpt-image-1 (or route this engine to another backend) for image to image, inpainting and subject transfer` };
}

function planImageToImage(request: ImageRequest, rules: ModelRules, model: string, refusals: FieldIssue[], notes: TranslationNote[]): PlannedImages {
  if (!rules.edits) {
    refusals.push(cannotEdit(model, 'init_image'));
    return { uploads: [] };
  }
  if (rules.kind === 'dall-e-2') {
    refusals.push({ path: 'init_image', message: 'dall-e-2 only repaints the masked part of an image, and image to image has no mask: set the backend\'s model to gpt-image-1, or use an Inpaint node with a mask' });
    return { uploads: [] };
  }
  const image = upload('init_image', request.init_image!, rules, model, refusals);
  notes.push({ field: 'init_image', treatment: 'approximated', message: `is sent for ${model} to edit as a whole, guided by the prompt; how much of it stays is the model's choice` });
  return { uploads: image === undefined ? [] : [image] };
}

function planInpainting(request: ImageRequest, rules: ModelRules, model: string, refusals: FieldIssue[], notes: TranslationNote[]): PlannedImages {
  if (!rules.edits) {
    refusals.push(cannotEdit(model, 'init_image'));
    return { uploads: [] };
  }
  const image = upload('init_image', request.init_image!, rules, model, refusals);
  if (image !== undefined && rules.kind === 'dall-e-2') {
    const size = base64PngDimensions(image.b64);
    if (size !== undefined && size.width !== size.height) {
      refusals.push({ path: 'init_image', message: `is ${size.width}×${size.height}; dall-e-2 edits square images only (crop it square first, or set the backend's model to gpt-image-1)` });
    }
  }
  const maskB64 = request.mask_image!;
  const maskFormat = base64Format(maskB64);
  let mask: PlannedImages['mask'];
  if (maskFormat === 'png' || maskFormat === 'jpeg') {
    mask = { b64: maskB64, format: maskFormat };
  } else {
    const what = maskFormat === undefined ? 'not an image' : `a ${FORMAT_NAME[maskFormat]}`;
    refusals.push({ path: 'mask_image', message: `is ${what}; the ${LABEL} backend turns PNG or JPEG masks into the transparent PNG OpenAI reads (save the mask as PNG)` });
  }
  if (rules.kind === 'gpt-image') {
    notes.push({ field: 'mask_image', treatment: 'approximated', message: `is sent as OpenAI's transparent-PNG mask, which ${model} takes as a guide: it may also change pixels outside the white area` });
  }
  return { uploads: image === undefined ? [] : [image], ...(mask === undefined ? {} : { mask }) };
}

function planTransfer(request: ImageRequest, rules: ModelRules, model: string, refusals: FieldIssue[], notes: TranslationNote[]): PlannedImages {
  if (rules.referenceImages < 2) {
    refusals.push({ path: 'transfer_images', message: `subject transfer needs several reference images in one request, which only the GPT image models take; ${model} does not. Set the backend's model to gpt-image-1, or route this engine to ComfyUI` });
    return { uploads: [] };
  }
  const entries = Object.entries(request.transfer_images ?? {});
  const total = entries.reduce((sum, [, list]) => sum + list.length, 0);
  if (total > rules.referenceImages) {
    refusals.push({ path: 'transfer_images', message: `holds ${total} sample images; ${model} takes at most ${rules.referenceImages} in one request` });
    return { uploads: [] };
  }
  const uploads = entries.flatMap(([word, list]) => list.flatMap((b64, i) => upload(`transfer_images.${word}.${i}`, b64, rules, model, refusals) ?? []));
  notes.push({ field: 'transfer_images', treatment: 'approximated', message: `the ${total} sample images are sent as reference images, with a sentence in the prompt saying which show which trigger word; ${model} is not trained on the subject, so the likeness is approximate` });
  return { uploads };
}

/** The images to send for the request's mode, with refusals and notes added. */
export function checkImages(request: ImageRequest, mode: ImageMode, rules: ModelRules, model: string, refusals: FieldIssue[], notes: TranslationNote[]): PlannedImages {
  switch (mode) {
    case 'image-to-image': return planImageToImage(request, rules, model, refusals, notes);
    case 'inpainting': return planInpainting(request, rules, model, refusals, notes);
    case 'subject-transfer': return planTransfer(request, rules, model, refusals, notes);
    default: return { uploads: [] };
  }
}
