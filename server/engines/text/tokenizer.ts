/**
 * The local chat engine's tokenizer. It has no vocabulary file, so it counts the simple way:
 *
 * - a word (a run of letters, digits and combining marks, with inner apostrophes as in "don't")
 *   is one token;
 * - every other visible character (punctuation, symbols, an emoji) is one token on its own;
 * - whitespace rides on the token that follows it, and whitespace at the very end is one token.
 *
 * Tokens therefore join back to the exact text, which is what lets `max_tokens` cut the text at a
 * token boundary and the stream send one token per chunk. English prose comes out at about 1.2 to
 * 1.3 tokens per word, close to what BPE tokenizers of hosted models report; long rare words count
 * as one token here where BPE would split them.
 */
import { type ChatMessage } from '../../../api/chat';

const TOKEN = /\s*(?:[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}])|\s+/gu;

/** Splits text into tokens that concatenate back to exactly `text`. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) n += 1;
  return n;
}

/**
 * Overhead per message (its role and the separators around it) and for priming the reply,
 * following the accounting hosted chat models publish for their own message formats.
 */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_PER_REPLY = 3;

/** `usage.prompt_tokens` for a conversation: each message's content plus its framing. */
export function countPromptTokens(messages: readonly ChatMessage[]): number {
  let total = TOKENS_PER_REPLY;
  for (const m of messages) total += TOKENS_PER_MESSAGE + countTokens(m.content);
  return total;
}
