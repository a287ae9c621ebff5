/**
 * Reads a `generateContent` answer (GenerateContentResponse): the images are the `inlineData`
 * parts of `candidates[0].content.parts` that are not `thought` parts (Gemini 3 image models think
 * first and may show draft images as thoughts; those are not the picture). An answer with no image
 * is never taken as one: a prompt blocked before generating (`promptFeedback.blockReason`), a
 * candidate stopped by a safety filter (`finishReason` SAFETY, IMAGE_SAFETY, PROHIBITED_CONTENT,
 * IMAGE_PROHIBITED_CONTENT, BLOCKLIST, SPII, RECITATION, IMAGE_RECITATION), or one that just made no
 * image (NO_IMAGE, IMAGE_OTHER, a text reply) each fail with what the API said, and are not retried:
 * the same request meets the same filter.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { LABEL } from './label';

const PartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  inlineData: z.looseObject({ mimeType: z.string().optional(), data: z.string().optional() }).optional(),
});

const ModalityCount = z.looseObject({ modality: z.string().optional(), tokenCount: z.number().optional() });

export const GenerateContentResponseSchema = z.looseObject({
  candidates: z.array(z.looseObject({
    content: z.looseObject({ parts: z.array(PartSchema).optional() }).optional(),
    finishReason: z.string().optional(),
    finishMessage: z.string().optional(),
  })).optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional(), blockReasonMessage: z.string().optional() }).optional(),
  usageMetadata: z.looseObject({
    promptTokenCount: z.number().optional(),
    candidatesTokenCount: z.number().optional(),
    thoughtsTokenCount: z.number().optional(),
    totalTokenCount: z.number().optional(),
    candidatesTokensDetails: z.array(ModalityCount).optional(),
  }).optional(),
  modelVersion: z.string().optional(),
});
export type GenerateContentResponse = z.infer<typeof GenerateContentResponseSchema>;

const SAFETY = /^(SAFETY|IMAGE_SAFETY|PROHIBITED_CONTENT|IMAGE_PROHIBITED_CONTENT|BLOCKLIST|SPII|RECITATION|IMAGE_RECITATION)$/;

export interface ReadImage {
  image_b64: string;
  mimeType: string;
}

function refusal(endpoint: string, secrets: readonly string[], detail: string): ApiError {
  return new ApiError({ kind: 'invalid-response', endpoint, attempts: 1, retryable: false, status: 200, detail }, secrets);
}

/** The images of one answer, or the refusal it carries, in words. */
export function readImages(response: GenerateContentResponse, endpoint: string, secrets: readonly string[]): ReadImage[] {
  const blocked = response.promptFeedback?.blockReason;
  if (blocked !== undefined && blocked !== 'BLOCKED_REASON_UNSPECIFIED') {
    const why = response.promptFeedback?.blockReasonMessage;
    return refusalThrown(endpoint, secrets, `${LABEL}'s safety filter blocked the prompt before drawing (promptFeedback.blockReason ${blocked}${why === undefined ? '' : `: ${why}`}); sending it again will not help: change the prompt or the input images`);
  }
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const images: ReadImage[] = [];
  const words: string[] = [];
  for (const part of parts) {
    if (part.thought === true) continue;
    const data = part.inlineData?.data;
    if (data !== undefined && data !== '') images.push({ image_b64: data, mimeType: part.inlineData?.mimeType ?? 'image/png' });
    else if (part.text !== undefined && part.text.trim() !== '') words.push(part.text.trim());
  }
  const reason = candidate?.finishReason;
  const said = [candidate?.finishMessage, ...words].filter((w) => w !== undefined && w !== '').join(' ');
  const saidText = said === '' ? '' : ` It said: ${said.slice(0, 300)}`;
  if (reason !== undefined && SAFETY.test(reason)) {
    return refusalThrown(endpoint, secrets, `${LABEL}'s safety filter stopped the picture (finishReason ${reason}); no image was kept. Sending it again will not help: change the prompt or the input images.${saidText}`);
  }
  if (images.length === 0) {
    const why = candidate === undefined ? 'no candidate' : `finishReason ${reason ?? 'not given'}`;
    return refusalThrown(endpoint, secrets, `${LABEL} answered without an image (${why}).${saidText}`);
  }
  return images;
}

function refusalThrown(endpoint: string, secrets: readonly string[], detail: string): never {
  throw refusal(endpoint, secrets, detail);
}
