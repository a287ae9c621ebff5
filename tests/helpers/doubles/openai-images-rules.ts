/**
 * What the OpenAI Images API accepts and how it refuses the rest, for the test double. Written from:
 * - openai/openai-openapi, openapi.yaml: CreateImageRequest, CreateImageEditRequest (fields, enums,
 *   n 1..10, image up to 16, prompt lengths), ImagesResponse, ErrorResponse `{error: {message, type,
 *   param, code}}`;
 * - openai/openai-node, src/resources/images.ts: per-model rules in the parameter docs (sizes per
 *   model, response_format refused by the GPT image models, dall-e-3 n=1 only, dall-e-2 edits take
 *   one square PNG under 4 MB);
 * - maruel/genai, providers/openaichat/testdata/TestClient/errors/bad_apiKey_image/GenSync.yaml and
 *   bad_model_image/GenSync.yaml, recordings of the real API: the 401 and unknown-model bodies;
 *   Scoreboard/gpt-image-1-mini/GenDoc-Image.yaml: a real 200 body (created, background, data,
 *   output_format, quality, size, usage).
 * Error wordings not in those files follow the real API's messages as quoted in public issue threads
 * and client code ("Unknown parameter: 'x'.", "Invalid value: 'x'. Supported values are: …",
 * "You must provide n=1 for this model.", "Invalid 'n': integer above maximum value. …",
 * "Invalid input image - …", "Invalid mask image format - …").
 */

export interface ApiErrorBody {
  status: number;
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function apiError(status: number, message: string, param: string | null = null, code: string | null = null, type = 'invalid_request_error'): ApiErrorBody {
  return { status, error: { message, type, param, code } };
}

export type DoubleModelKind = 'gpt-image' | 'dall-e-2' | 'dall-e-3' | 'compatible';

export interface DoubleModel {
  kind: DoubleModelKind;
  generationSizes: readonly string[] | 'any';
  editSizes: readonly string[] | 'any' | 'none';
  maxN: number;
  promptChars: number;
}

const GPT: DoubleModel = {
  kind: 'gpt-image', generationSizes: ['1024x1024', '1024x1536', '1536x1024', 'auto'],
  editSizes: ['1024x1024', '1024x1536', '1536x1024', 'auto'], maxN: 10, promptChars: 32_000,
};

export const DOUBLE_MODELS: Record<string, DoubleModel> = {
  'gpt-image-1': GPT,
  'gpt-image-1-mini': GPT,
  'gpt-image-1.5': GPT,
  'dall-e-2': { kind: 'dall-e-2', generationSizes: ['256x256', '512x512', '1024x1024'], editSizes: ['256x256', '512x512', '1024x1024'], maxN: 10, promptChars: 1000 },
  'dall-e-3': { kind: 'dall-e-3', generationSizes: ['1024x1024', '1792x1024', '1024x1792'], editSizes: 'none', maxN: 1, promptChars: 4000 },
};

/** A model of a compatible server (LocalAI and the like): any WIDTHxHEIGHT, DALL·E-2 style fields. */
export const COMPATIBLE: DoubleModel = { kind: 'compatible', generationSizes: 'any', editSizes: 'any', maxN: 10, promptChars: 32_000 };

export const GENERATION_FIELDS = ['prompt', 'model', 'n', 'quality', 'response_format', 'output_format', 'output_compression', 'stream', 'partial_images', 'size', 'moderation', 'background', 'style', 'user'];
export const EDIT_FIELDS = ['image', 'image[]', 'prompt', 'mask', 'background', 'model', 'n', 'size', 'response_format', 'output_format', 'output_compression', 'user', 'input_fidelity', 'stream', 'partial_images', 'quality'];
/** Fields only the GPT image models take. */
const GPT_ONLY = ['output_format', 'output_compression', 'background', 'moderation', 'input_fidelity', 'stream', 'partial_images'];

export const SAFETY_WORD = 'FORBIDDEN';

function supportedList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]!}` : quoted.join('');
}

function checkInteger(name: string, value: unknown, min: number, max: number): ApiErrorBody | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const got = typeof value === 'number' ? 'a decimal number' : `a ${typeof value}`;
    return apiError(400, `Invalid type for '${name}': expected an integer, but got ${got} instead.`, name, 'invalid_type');
  }
  if (value < min) return apiError(400, `Invalid '${name}': integer below minimum value. Expected a value >= ${min}, but got ${value} instead.`, name, 'integer_below_min_value');
  if (value > max) return apiError(400, `Invalid '${name}': integer above maximum value. Expected a value <= ${max}, but got ${value} instead.`, name, 'integer_above_max_value');
  return undefined;
}

/** The checks every image request shares; `fields` hold JSON values (multipart values are parsed first). */
export function checkCommon(fields: Record<string, unknown>, allowed: readonly string[], modelName: string, model: DoubleModel, edits: boolean): ApiErrorBody | undefined {
  for (const key of Object.keys(fields)) {
    if (!allowed.includes(key)) return apiError(400, `Unknown parameter: '${key}'.`, key, 'unknown_parameter');
  }
  if (fields.prompt === undefined) return apiError(400, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  if (typeof fields.prompt !== 'string') return apiError(400, "Invalid type for 'prompt': expected a string, but got a " + typeof fields.prompt + ' instead.', 'prompt', 'invalid_type');
  if (fields.prompt.length > model.promptChars) {
    return apiError(400, `Invalid 'prompt': string too long. Expected a string with maximum length ${model.promptChars}, but got a string with length ${fields.prompt.length} instead.`, 'prompt', 'string_above_max_length');
  }
  if (fields.n !== undefined) {
    const problem = checkInteger('n', fields.n, 1, 10);
    if (problem !== undefined) return problem;
    if (model.maxN === 1 && fields.n !== 1) return apiError(400, 'You must provide n=1 for this model.');
  }
  const gpt = model.kind === 'gpt-image';
  if (gpt && fields.response_format !== undefined) return apiError(400, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
  if (!gpt) {
    const gptOnly = GPT_ONLY.find((key) => fields[key] !== undefined);
    if (gptOnly !== undefined) return apiError(400, `Unknown parameter: '${gptOnly}'.`, gptOnly, 'unknown_parameter');
    if (fields.response_format !== undefined && fields.response_format !== 'url' && fields.response_format !== 'b64_json') {
      return apiError(400, `'${String(fields.response_format)}' is not one of ['b64_json', 'url'] - 'response_format'`);
    }
  }
  if (fields.style !== undefined && model.kind !== 'dall-e-3') return apiError(400, "Unknown parameter: 'style'.", 'style', 'unknown_parameter');
  if (fields.output_format !== undefined && !['png', 'jpeg', 'webp'].includes(String(fields.output_format))) {
    return apiError(400, `Invalid value: '${String(fields.output_format)}'. Supported values are: 'png', 'jpeg', and 'webp'.`, 'output_format', 'invalid_value');
  }
  const sizes = edits ? model.editSizes : model.generationSizes;
  const size = fields.size ?? (edits || gpt ? (Array.isArray(sizes) ? sizes[0] : '1024x1024') : '1024x1024');
  if (sizes === 'none') return apiError(400, `Invalid value: '${modelName}'. Supported values are: 'gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'chatgpt-image-latest', and 'dall-e-2'.`, 'model', 'invalid_value');
  if (sizes === 'any' ? !/^\d{2,4}x\d{2,4}$/.test(String(size)) : !sizes.includes(String(size))) {
    return gpt || sizes === 'any'
      ? apiError(400, `Invalid value: '${String(size)}'. Supported values are: ${supportedList(sizes === 'any' ? ['WIDTHxHEIGHT'] : sizes)}.`, 'size', 'invalid_value')
      : apiError(400, `'${String(size)}' is not one of [${sizes.map((s) => `'${s}'`).join(', ')}] - 'size'`);
  }
  if (String(fields.prompt).includes(SAFETY_WORD)) {
    return gpt
      ? apiError(400, 'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_double.', null, 'moderation_blocked', 'image_generation_user_error')
      : apiError(400, 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.', null, 'content_policy_violation');
  }
  return undefined;
}

/** The output size a request gets, `auto` being 1024x1024. */
export function outputSize(size: unknown): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(String(size ?? 'auto'));
  return match ? { width: Number(match[1]), height: Number(match[2]) } : { width: 1024, height: 1024 };
}

/** OpenAI shows a refused key masked, its start and last four characters kept; a short one as it is. */
export function maskKey(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}
