/**
 * Image loader: an image picked, dropped or pasted in the editor, embedded in the workflow file
 * as base64 so the file runs anywhere (in the editor's document, a reference into the asset
 * store; image-source.ts). It is passed on exactly as stored.
 */
import { z } from 'zod';
import { ParamIssuesError } from './errors';
import type { NodeDefinition, ParamIssue } from './types';
import { ImageSourceSchema } from './image-source';
import { imageMime, imageValue } from './values';
import { isAssetRef } from '../assets/ref';

const size = z.number().int('must be a whole number').positive('must be positive').max(65_535);

const params = z.strictObject({
  image: z.strictObject({
    b64: ImageSourceSchema,
    mime: z.string().max(100),
    /** The file name it was picked as, shown in the node and used when saving. */
    name: z.string().max(500),
    width: size.optional(),
    height: size.optional(),
  }).nullable().default(null).meta({ title: 'Image', description: 'Pick, drop or paste a JPEG, PNG or WebP image.' }),
});
export type ImageLoaderParams = z.infer<typeof params>;

function issues(p: ImageLoaderParams): ParamIssue[] {
  if (p.image === null) return [{ param: 'image', message: 'no image chosen: pick, drop or paste one' }];
  // A reference's bytes were sniffed when they were stored.
  if (!isAssetRef(p.image.b64) && imageMime(p.image.b64) === undefined) {
    return [{ param: 'image', message: `'${p.image.name}' is not a JPEG, PNG, WebP or GIF image` }];
  }
  return [];
}

export const imageLoaderNode: NodeDefinition<ImageLoaderParams> = {
  type: 'image-loader',
  version: 1,
  title: 'Image loader',
  category: 'input',
  mainFields: ['image'],
  description: 'An image from your computer, kept inside the workflow file.',
  params,
  inputs: [],
  outputs: [{ name: 'image', kind: 'image', label: 'Image' }],
  validate: issues,
  run({ params: p }) {
    const problems = issues(p);
    if (p.image === null || problems.length > 0) return Promise.reject(new ParamIssuesError(problems));
    const { b64, width, height } = p.image;
    return Promise.resolve({
      image: imageValue({
        b64,
        // The bytes decide: a file named .png may well hold a JPEG.
        mime: imageMime(b64) ?? p.image.mime,
        ...(width === undefined ? {} : { width }),
        ...(height === undefined ? {} : { height }),
      }),
    });
  },
};
