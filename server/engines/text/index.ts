/**
 * The local chat engine: an offline stand-in for `POST /v1/chat/completions` (whole and
 * streamed) and `GET /v1/models`. It is template-driven, not a language model: it reads the
 * conversation, keeps the user's subject in their words and adds descriptive phrases chosen by
 * topic from curated banks, honouring temperature, top_p, the penalties, stop and max_tokens.
 * Requests reach it already validated by `ChatRequestSchema`.
 *
 * Defaults of the optional parameters: temperature 1, top_p 1, penalties 0, no max_tokens (the
 * answer's natural length). Token counting is described in `tokenizer.ts`.
 */
import { randomUUID } from 'node:crypto';
import { type ChatChunk, type ChatCompletion, type ChatRequest } from '../../../api/chat';
import { generate } from './generate';
import { contentChunk, pause, roleChunk, type ChunkMeta } from './stream';

export { DEFAULT_LOCAL_CHAT_MODEL, LOCAL_CHAT_MODELS, listModels } from './models';
export { countPromptTokens, countTokens, tokenize } from './tokenizer';

function newMeta(model: string): ChunkMeta {
  return { id: `chatcmpl-${randomUUID().replace(/-/g, '')}`, created: Math.floor(Date.now() / 1000), model };
}

/** A whole completion, shaped exactly as 2.8 of the service interface. */
export function createChatCompletion(req: ChatRequest): ChatCompletion {
  const meta = newMeta(req.model);
  const g = generate(req);
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{
      index: 0,
      message: { role: 'assistant', content: g.text, function_call: null },
      delta: null,
      finish_reason: g.finishReason,
    }],
    system_fingerprint: null,
    usage: { prompt_tokens: g.promptTokens, completion_tokens: g.pieces.length, total_tokens: g.promptTokens + g.pieces.length },
  };
}

export interface StreamOptions {
  /** Wait between chunks, so a person sees the text arrive; 0 sends them back to back. */
  tokenDelayMs: number;
  /** Ends the stream early: the generator then returns without further chunks and without error. */
  signal?: AbortSignal;
}

/**
 * A streamed completion as the chunk objects of 2.9: a role-only first chunk (yielded at once),
 * then one chunk per token with the finish reason on the last one (a single empty-content chunk
 * when there is no text). The caller writes `data: <json>` per chunk and `data: [DONE]` after the
 * last; joined, the contents equal `createChatCompletion`'s for the same request at temperature 0.
 */
export async function* streamChatCompletion(req: ChatRequest, opts: StreamOptions): AsyncGenerator<ChatChunk> {
  const { signal, tokenDelayMs } = opts;
  if (signal?.aborted) return;
  const meta = newMeta(req.model);
  yield roleChunk(meta);
  const g = generate(req);
  const pieces = g.pieces.length > 0 ? g.pieces : [''];
  for (let i = 0; i < pieces.length; i++) {
    if (!(await pause(tokenDelayMs, signal))) return;
    yield contentChunk(meta, pieces[i]!, i === pieces.length - 1 ? g.finishReason : null);
  }
}
