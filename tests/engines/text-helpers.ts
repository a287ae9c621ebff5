/** Shared helpers for the local chat engine tests. */
import { type ChatMessage, type ChatRequest } from '../../api/chat';
import { createChatCompletion } from '../../server/engines/text';
import { wordsOf } from '../../server/engines/text/vocab/topics';

export const PROMPT_WRITER = 'You write prompts for an image model';
export const CABIN = 'a cozy cabin in the snowy woods at dusk';

export function request(messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'atelier-local-chat', messages, temperature: 0, ...extra };
}

export const user = (content: string): ChatMessage => ({ role: 'user', content });
export const system = (content: string): ChatMessage => ({ role: 'system', content });
export const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

/** The assistant's text for a request. */
export function reply(messages: ChatMessage[], extra: Partial<ChatRequest> = {}): string {
  const content = createChatCompletion(request(messages, extra)).choices[0]?.message.content;
  if (typeof content !== 'string') throw new Error('completion has no text content');
  return content;
}

/**
 * Plays a conversation turn by turn at temperature 0, feeding each answer back as the assistant
 * message, and returns the last answer.
 */
export function converse(turns: readonly string[], systemPrompt?: string): string {
  const messages: ChatMessage[] = systemPrompt ? [system(systemPrompt)] : [];
  let last = '';
  for (const turn of turns) {
    messages.push(user(turn));
    last = reply(messages);
    messages.push(assistant(last));
  }
  return last;
}

/** Distinct words over all words: 1 when nothing repeats. */
export function distinctRatio(text: string): number {
  const words = wordsOf(text);
  return new Set(words).size / words.length;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
