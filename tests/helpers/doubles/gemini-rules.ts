/**
 * What the Gemini API double checks in a `generateContent` request, and the error bodies it answers
 * with, written from Google's API reference (ai.google.dev/api: `GenerateContentRequest`, `Content`,
 * `Part`, `Blob`, `GenerationConfig`, `ImageConfig`; errors as google.rpc.Status, ai.google.dev
 * troubleshooting), the image generation guide (ratios, sizes, pixel sizes and tokens per model) and
 * the official SDK (googleapis/js-genai: `ImageConfig`, the Developer API converters that throw for
 * fields the API does not take, `FinishReason`, `BlockedReason`). Field names are taken in the
 * API's JSON (camelCase) and its proto names (snake_case), as Google's JSON parser takes both.
 *
 * Messages are the API's words where they are known from public reports ("API key not valid.
 * Please pass a valid API key.", "Multiple candidates is not enabled for models/…", "Invalid JSON
 * payload received. Unknown name …", "Base64 decoding failed for …"); the wording for an aspect
 * ratio or image size the model does not take is the double's own (the API answers 400
 * INVALID_ARGUMENT for both).
 */

export interface GoogleStatus {
  httpStatus: number;
  body: { error: { code: number; message: string; status: string; details?: unknown[] } };
}

export function status(httpStatus: number, state: string, message: string, details?: unknown[]): GoogleStatus {
  return { httpStatus, body: { error: { code: httpStatus, message, status: state, ...(details === undefined ? {} : { details }) } } };
}

const badRequest = (message: string): GoogleStatus => status(400, 'INVALID_ARGUMENT', message, [
  { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: message }] },
]);

export interface DoubleModel {
  ratios: readonly string[];
  /** `imageSize` values; the model's default is the first. */
  sizes: readonly string[];
  /** Output MIME type: PNG from gemini-2.5-flash-image, JPEG from the Gemini 3 image models. */
  mime: 'image/png' | 'image/jpeg';
  /** Output tokens per image by size (the guide's tables). */
  tokens: Record<string, number>;
  /** Gemini 3 image models think first: a thought text and a draft image come before the answer. */
  thinks: boolean;
  displayName: string;
}

const RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

export const DOUBLE_MODELS: Record<string, DoubleModel> = {
  'gemini-2.5-flash-image': { ratios: RATIOS, sizes: ['1K'], mime: 'image/png', tokens: { '1K': 1290 }, thinks: false, displayName: 'Nano Banana' },
  'gemini-3-pro-image-preview': {
    ratios: RATIOS, sizes: ['1K', '2K', '4K'], mime: 'image/jpeg', tokens: { '1K': 1120, '2K': 1120, '4K': 2000 }, thinks: true, displayName: 'Nano Banana Pro',
  },
  'gemini-3.1-flash-image-preview': {
    ratios: [...RATIOS, '1:4', '4:1', '1:8', '8:1'], sizes: ['1K', '512', '2K', '4K'], mime: 'image/jpeg',
    tokens: { '512': 747, '1K': 1120, '2K': 1680, '4K': 2520 }, thinks: true, displayName: 'Nano Banana 2',
  },
};

/** Models the double lists besides the image ones, as the real list does. */
export const OTHER_MODELS = ['gemini-2.5-flash', 'gemini-embedding-001', 'imagen-4.0-generate-001'];

/** Pixel size per ratio at 1K (the guide's table); 2K doubles, 4K quadruples, 512 halves. */
const PIXELS_1K: Record<string, [number, number]> = {
  '1:1': [1024, 1024], '2:3': [832, 1248], '3:2': [1248, 832], '3:4': [864, 1184], '4:3': [1184, 864], '4:5': [896, 1152],
  '5:4': [1152, 896], '9:16': [768, 1344], '16:9': [1344, 768], '21:9': [1536, 672], '1:4': [512, 2048], '4:1': [2048, 512],
  '1:8': [384, 3072], '8:1': [3072, 384],
};
const SCALE: Record<string, number> = { '512': 0.5, '1K': 1, '2K': 2, '4K': 4 };

export function pixelsFor(ratio: string, size: string): { width: number; height: number } {
  const [w, h] = PIXELS_1K[ratio] ?? [1024, 1024];
  const s = SCALE[size] ?? 1;
  return { width: Math.round(w * s), height: Math.round(h * s) };
}

export const KEY_MISSING = status(403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.');

export const KEY_INVALID = status(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
  { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
]);

/** A bearer token where the API key belongs: Google then expects OAuth. */
export const BEARER_NOT_OAUTH = status(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.');

export function modelNotFound(model: string): GoogleStatus {
  return status(404, 'NOT_FOUND', `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`);
}

/** A per-minute quota hit, with RetryInfo, as the free tier answers. */
export function rateLimited(retrySeconds: number, model = 'gemini-2.5-flash-image', quotaId = 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', quotaValue = '10'): GoogleStatus {
  return status(429, 'RESOURCE_EXHAUSTED', `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: ${quotaValue}, model: ${model}\nPlease retry in ${retrySeconds}s.`, [
    { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId, quotaDimensions: { location: 'global', model }, quotaValue }] },
    { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retrySeconds}s` },
  ]);
}

export const BILLING_NOT_ENABLED = status(400, 'FAILED_PRECONDITION', 'Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.');

type Json = Record<string, unknown>;

/** Known fields of each message, both JSON and proto spellings. */
const FIELDS: Record<string, readonly string[]> = {
  request: ['contents', 'generationConfig', 'generation_config', 'safetySettings', 'safety_settings', 'systemInstruction', 'system_instruction', 'tools', 'toolConfig', 'tool_config', 'cachedContent', 'cached_content', 'model'],
  content: ['role', 'parts'],
  part: ['text', 'inlineData', 'inline_data', 'fileData', 'file_data', 'functionCall', 'function_call', 'functionResponse', 'function_response', 'executableCode', 'executable_code', 'codeExecutionResult', 'code_execution_result', 'thought', 'thoughtSignature', 'thought_signature', 'videoMetadata', 'video_metadata', 'mediaResolution', 'media_resolution'],
  blob: ['mimeType', 'mime_type', 'data'],
  generation: ['stopSequences', 'stop_sequences', 'responseMimeType', 'response_mime_type', 'responseSchema', 'response_schema', 'responseModalities', 'response_modalities', 'candidateCount', 'candidate_count', 'maxOutputTokens', 'max_output_tokens', 'temperature', 'topP', 'top_p', 'topK', 'top_k', 'seed', 'presencePenalty', 'presence_penalty', 'frequencyPenalty', 'frequency_penalty', 'responseLogprobs', 'response_logprobs', 'logprobs', 'mediaResolution', 'media_resolution', 'speechConfig', 'speech_config', 'thinkingConfig', 'thinking_config', 'imageConfig', 'image_config'],
  image: ['aspectRatio', 'aspect_ratio', 'imageSize', 'image_size'],
};

const DATA_FIELDS = ['text', 'inlineData', 'inline_data', 'fileData', 'file_data', 'functionCall', 'function_call', 'functionResponse', 'function_response', 'executableCode', 'executable_code', 'codeExecutionResult', 'code_execution_result'];
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const pick = (o: Json, name: string): unknown => o[name] ?? o[snake(name)];

function unknownField(o: Json, kind: string, at: string): GoogleStatus | undefined {
  const known = FIELDS[kind]!;
  const extra = Object.keys(o).find((k) => !known.includes(k));
  if (extra === undefined) return undefined;
  return badRequest(`Invalid JSON payload received. Unknown name "${extra}"${at === '' ? '' : ` at '${at}'`}: Cannot find field.`);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Input image types the API reads (image understanding guide). */
const INPUT_MIME = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

export interface InlineImage {
  at: string;
  mimeType: string;
  bytes: Buffer;
}

export interface CheckedRequest {
  text: string;
  images: InlineImage[];
  ratio: string;
  size: string;
  seed?: number;
  modalities: string[];
}

function checkPart(part: unknown, at: string, images: InlineImage[], texts: string[]): GoogleStatus | undefined {
  if (!isObject(part)) return badRequest(`Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Part), ${JSON.stringify(part)}`);
  const unknown = unknownField(part, 'part', at);
  if (unknown !== undefined) return unknown;
  const set = DATA_FIELDS.filter((f) => part[f] !== undefined);
  if (set.length === 0) return badRequest(`* GenerateContentRequest.${at}.data: required oneof field 'data' must have one initialized field`);
  if (set.length > 1) return badRequest(`Invalid value at '${at}.data' (oneof), oneof field 'data' is already set. Cannot overwrite with '${snake(set[1]!)}'`);
  const text = part.text;
  if (text !== undefined) {
    if (typeof text !== 'string') return badRequest(`Invalid value at '${at}.text' (TYPE_STRING), ${JSON.stringify(text)}`);
    texts.push(text);
    return undefined;
  }
  const blob = pick(part, 'inlineData');
  if (!isObject(blob)) return undefined;
  const bad = unknownField(blob, 'blob', `${at}.inline_data`);
  if (bad !== undefined) return bad;
  const mimeType = pick(blob, 'mimeType');
  const data = blob.data;
  if (typeof mimeType !== 'string' || !INPUT_MIME.includes(mimeType)) {
    return badRequest(`Unable to submit request because it has a mimeType parameter with value ${String(mimeType ?? '')}, which is not supported. Update the mimeType and try again. Learn more: https://ai.google.dev/gemini-api/docs/prompting_with_media`);
  }
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length % 4 === 1) {
    return badRequest(`Invalid value at '${at}.inline_data.data' (TYPE_BYTES), Base64 decoding failed for "${String(data).slice(0, 40)}"`);
  }
  images.push({ at, mimeType, bytes: Buffer.from(data, 'base64') });
  return undefined;
}

function checkConfig(config: unknown, modelName: string, model: DoubleModel): GoogleStatus | Pick<CheckedRequest, 'ratio' | 'size' | 'seed' | 'modalities'> {
  const defaults = { ratio: '1:1', size: model.sizes[0]!, modalities: ['TEXT', 'IMAGE'] };
  if (config === undefined) return defaults;
  if (!isObject(config)) return badRequest(`Invalid value at 'generation_config' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig), ${JSON.stringify(config)}`);
  const unknown = unknownField(config, 'generation', 'generation_config');
  if (unknown !== undefined) return unknown;
  const count = pick(config, 'candidateCount');
  if (count !== undefined && count !== 1) return status(400, 'INVALID_ARGUMENT', `Multiple candidates is not enabled for models/${modelName}`);
  const modalities = pick(config, 'responseModalities') ?? defaults.modalities;
  if (!Array.isArray(modalities)) return badRequest(`Invalid value at 'generation_config.response_modalities' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality), ${JSON.stringify(modalities)}`);
  const badModality = modalities.findIndex((m) => !['TEXT', 'IMAGE', 'AUDIO'].includes(String(m)));
  if (badModality !== -1) return badRequest(`Invalid value at 'generation_config.response_modalities[${badModality}]' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality), ${JSON.stringify(modalities[badModality])}`);
  const seed = config.seed;
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -(2 ** 31) || seed > 2 ** 31 - 1)) {
    return badRequest(`Invalid value at 'generation_config.seed' (TYPE_INT32), ${JSON.stringify(seed)}`);
  }
  const image = pick(config, 'imageConfig');
  let ratio = defaults.ratio;
  let size = defaults.size;
  if (image !== undefined) {
    if (!isObject(image)) return badRequest(`Invalid value at 'generation_config.image_config', ${JSON.stringify(image)}`);
    const bad = unknownField(image, 'image', 'generation_config.image_config');
    if (bad !== undefined) return bad;
    const askedRatio = pick(image, 'aspectRatio');
    if (askedRatio !== undefined) {
      if (typeof askedRatio !== 'string' || !model.ratios.includes(askedRatio)) {
        return status(400, 'INVALID_ARGUMENT', `Aspect ratio ${JSON.stringify(askedRatio)} is not supported by models/${modelName}; supported: ${model.ratios.join(', ')}.`);
      }
      ratio = askedRatio;
    }
    const askedSize = pick(image, 'imageSize');
    if (askedSize !== undefined) {
      if (typeof askedSize !== 'string' || !model.sizes.includes(askedSize)) {
        return status(400, 'INVALID_ARGUMENT', `Image size ${JSON.stringify(askedSize)} is not supported by models/${modelName}; supported: ${model.sizes.join(', ')}.`);
      }
      size = askedSize;
    }
  }
  return { ratio, size, modalities: modalities.map(String), ...(typeof seed === 'number' ? { seed } : {}) };
}

/** A GenerateContentRequest checked as the API checks it, or the API's refusal. */
export function checkRequest(body: unknown, modelName: string, model: DoubleModel): GoogleStatus | CheckedRequest {
  if (!isObject(body)) return badRequest('Invalid JSON payload received. Unexpected token.');
  const unknown = unknownField(body, 'request', '');
  if (unknown !== undefined) return unknown;
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return badRequest('* GenerateContentRequest.contents: contents is not specified');
  const images: InlineImage[] = [];
  const texts: string[] = [];
  for (const [c, content] of contents.entries()) {
    if (!isObject(content)) return badRequest(`Invalid value at 'contents[${c}]', ${JSON.stringify(content)}`);
    const bad = unknownField(content, 'content', `contents[${c}]`);
    if (bad !== undefined) return bad;
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') return badRequest('Please use a valid role: user, model.');
    const parts = content.parts;
    if (!Array.isArray(parts) || parts.length === 0) return badRequest(`* GenerateContentRequest.contents[${c}].parts: contents.parts must not be empty.`);
    for (const [p, part] of parts.entries()) {
      const problem = checkPart(part, `contents[${c}].parts[${p}]`, images, texts);
      if (problem !== undefined) return problem;
    }
  }
  const config = checkConfig(pick(body, 'generationConfig'), modelName, model);
  if ('httpStatus' in config) return config;
  return { text: texts.join('\n'), images, ...config };
}
