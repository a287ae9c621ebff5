/**
 * The chat completion request, response and stream chunk (docs/service-interface.md 2.7 to 2.9).
 */
import { z } from 'zod';
import { CHAT_ROLES } from './catalog';

/**
 * One message of the conversation: `role` and `content` (2.7), and also the `function_call: null`
 * that the service's own replies carry (2.8), so a client that appends the assistant's reply to
 * the conversation, as OpenAI-compatible clients do, can send it back unchanged. It is not used.
 */
export const ChatMessageSchema = z.strictObject({
  role: z.enum(CHAT_ROLES, { error: `must be one of ${CHAT_ROLES.join(', ')}` }),
  content: z.string().max(200_000),
  function_call: z.null({ error: 'is only accepted as null (the service does not call functions)' }).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

const range = (min: number, max: number) =>
  z.number().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`);

/** The request body (2.7). Unknown fields are refused so a typo is never silently ignored. */
export const ChatRequestSchema = z.strictObject({
  model: z.string({ error: (issue) => (issue.input === undefined ? 'is required: the name of the model to use' : 'must be a string: the name of the model to use') })
    .min(1, 'is required: the name of the model to use'),
  messages: z.array(ChatMessageSchema, { error: (issue) => (issue.input === undefined ? 'is required: a list of {role, content} messages' : 'must be a list of {role, content} messages') })
    .min(1, 'needs at least one message').max(1000, 'has more than 1000 messages'),
  max_tokens: z.number().int('must be a whole number').min(1, 'must be at least 1').max(32_768).optional(),
  temperature: range(0, 2).optional(),
  top_p: range(0, 1).optional(),
  stop: z.array(z.string().min(1, 'a stop string cannot be empty').max(200)).max(16).optional(),
  frequency_penalty: range(0, 1).optional(),
  presence_penalty: range(0, 1).optional(),
  stream: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/**
 * Why an answer ended: `stop` (it was done), `length` (max_tokens cut it), `content_filter` (the
 * model's content filter stopped it, as OpenAI-compatible servers say; the contract shows only
 * the first two). Any other reason reads as `stop`.
 */
export const FINISH_REASONS = ['stop', 'length', 'content_filter'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export const ChatUsageSchema = z.object({
  completion_tokens: z.number().int(),
  prompt_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

/** A non-streaming completion (2.8). Extra fields are kept, not refused: the service may add some. */
export const ChatCompletionSchema = z.looseObject({
  id: z.string(),
  choices: z.array(z.looseObject({
    index: z.number().int(),
    message: z.looseObject({
      role: z.string(),
      content: z.string().nullable(),
      function_call: z.unknown().nullable().optional(),
    }),
    delta: z.unknown().nullable().optional(),
    finish_reason: z.string().nullable(),
  })),
  created: z.number().int(),
  model: z.string(),
  object: z.literal('chat.completion'),
  system_fingerprint: z.unknown().nullable().optional(),
  usage: ChatUsageSchema,
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

/** One `data:` line of a stream (2.9). The first chunk may omit `object`. */
export const ChatChunkSchema = z.looseObject({
  id: z.string(),
  created: z.number().int(),
  model: z.string(),
  object: z.literal('chat.completion.chunk').optional(),
  choices: z.array(z.looseObject({
    index: z.number().int(),
    delta: z.looseObject({
      role: z.string().optional(),
      content: z.string().nullable().optional(),
      function_call: z.unknown().nullable().optional(),
    }),
    finish_reason: z.string().nullable(),
  })),
  usage: ChatUsageSchema.nullable().optional(),
});
export type ChatChunk = z.infer<typeof ChatChunkSchema>;

/** The literal payload of the last stream line, which is not JSON. */
export const STREAM_DONE = '[DONE]';

/** Model list of `GET {text_base_url}/v1/models`, in the usual chat-completions shape. */
export const ModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), object: z.literal('model') })),
});
export type ModelList = z.infer<typeof ModelListSchema>;
