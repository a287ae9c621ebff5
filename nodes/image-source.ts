/**
 * What an image parameter (an Image loader's picture, a painted mask) holds: base64, as in every
 * saved file, or, in the editor's document, a reference to the bytes in the asset store
 * (`asset:sha256:…`, assets/ref.ts) that the executor turns into base64 just before the
 * node runs. A reference was checked when its bytes were stored, so only base64 is checked here.
 */
import { z } from 'zod';
import { base64ImageProblem, base64Problem } from '../api/image-data';
import { isAssetRef } from '../assets/ref';

const sourceWith = (check: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const problem = isAssetRef(value) ? undefined : check(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Well-formed base64 or a reference; what the base64 holds is checked apart. */
export const ImageSourceSchema = sourceWith(base64Problem);

/** Base64 of an image the engines decode, or a reference. */
export const ImageSourceImageSchema = sourceWith(base64ImageProblem);
