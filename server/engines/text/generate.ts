/**
 * One generation: the answer text for a request, cut by `stop` and `max_tokens`, as the token
 * pieces the stream sends and with the counts `usage` reports.
 */
import { type ChatRequest, type FinishReason } from '../../../api/chat';
import { compose } from './composer';
import { readConversation } from './conversation';
import { hashString } from '../random';
import { Sampler } from './sampling';
import { countPromptTokens, tokenize } from './tokenizer';

/** Defaults of the optional parameters, as in the usual chat-completions convention. */
export const DEFAULTS = { temperature: 1, top_p: 1, frequency_penalty: 0, presence_penalty: 0 } as const;

export interface Generation {
  text: string;
  /** The tokens of `text`, in order; they join to exactly `text`. */
  pieces: string[];
  finishReason: FinishReason;
  promptTokens: number;
}

/**
 * The sampling seed when none is given: a hash of everything that shapes the answer (not
 * `stream`, so a streamed answer equals the whole one). The same request therefore gets the same
 * answer on every visit, and a newcomer's first run of the starter looks the same each time; a
 * different temperature, model or message gives a different one.
 */
export function requestSeed(req: ChatRequest): number {
  const fields = Object.entries(req).filter(([k]) => k !== 'stream').sort(([a], [b]) => (a < b ? -1 : 1));
  return hashString(JSON.stringify(fields));
}

/**
 * Generates the answer. Temperature 0 depends only on the messages (so a request with a smaller
 * `max_tokens` yields a prefix of the same text); above 0, `seed` (the request's own unless
 * given) varies it.
 */
export function generate(req: ChatRequest, seed: number = requestSeed(req)): Generation {
  const temperature = req.temperature ?? DEFAULTS.temperature;
  const plan = readConversation(req.messages);
  const jitterSeed = hashString(JSON.stringify(req.messages.map((m) => [m.role, m.content])));
  const sampler = new Sampler({
    jitterSeed,
    seed: temperature === 0 ? jitterSeed : (jitterSeed ^ seed) >>> 0,
    temperature,
    topP: req.top_p ?? DEFAULTS.top_p,
    frequencyPenalty: req.frequency_penalty ?? DEFAULTS.frequency_penalty,
    presencePenalty: req.presence_penalty ?? DEFAULTS.presence_penalty,
    topics: plan.topics,
    excluded: plan.excluded,
    avoid: plan.avoid,
  });
  const full = compose({ plan, sampler, model: req.model });
  return cut(full, req.stop ?? [], req.max_tokens, countPromptTokens(req.messages));
}

/**
 * Applies `stop` (text before the first occurrence of any stop string; finish 'stop') and then
 * `max_tokens` (finish 'length' when the remaining text has more tokens than allowed).
 */
export function cut(full: string, stop: readonly string[], maxTokens: number | undefined, promptTokens: number): Generation {
  let end = full.length;
  for (const s of stop) {
    const at = full.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  let pieces = tokenize(full.slice(0, end));
  let finishReason: FinishReason = 'stop';
  if (maxTokens !== undefined && pieces.length > maxTokens) {
    pieces = pieces.slice(0, maxTokens);
    finishReason = 'length';
  }
  return { text: pieces.join(''), pieces, finishReason, promptTokens };
}
