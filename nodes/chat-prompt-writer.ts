/**
 * Chat prompt writer: fills system and user message templates from optional text inputs, streams
 * a chat completion into the node, and outputs the whole text.
 *
 * Caching: always cacheable. The chat API has no seed, so a temperature above 0 varies from call
 * to call, but the usual chain is chat → image, and re-rolling the chat on every run would change
 * the prompt and so re-run every pinned-seed image downstream. As in ComfyUI, an unchanged node
 * gives its cached result; a new variation is asked for by changing a field or re-running the
 * node without the cache.
 */
import { z } from 'zod';
import { ChatRequestSchema, type ChatMessage, type ChatRequest } from '../api/chat';
import { fillFromInputs, placeholderNames, placeholderPorts, templateIssues } from './template';
import type { NodeDefinition, ParamIssue } from './types';
import { textValue } from './values';

const chat = ChatRequestSchema.shape;
const template = z.string().max(200_000, 'is longer than 200000 characters');

const params = z.strictObject({
  model: z.string().max(200).default('')
    .meta({ title: 'Model', description: 'Empty uses the chat model from the settings.' }),
  system: template.default('You write prompts for an image generator. Reply with the prompt only: one vivid sentence, no preamble, no quotes.')
    .meta({ title: 'System message', description: 'Instructions for the model; {{name}} adds a text input.' }),
  user: template.default('A striking scene to paint.')
    .meta({ title: 'User message', description: 'What to write about; {{name}} adds a text input.' }),
  max_tokens: chat.max_tokens.meta({ title: 'Max tokens', description: 'Most tokens to generate.' }),
  temperature: chat.temperature.meta({ title: 'Temperature', description: '0 to 2; higher is more varied.' }),
  top_p: chat.top_p.meta({ title: 'Top p', description: '0 to 1; nucleus sampling.' }),
  stop: chat.stop.meta({ title: 'Stop', description: 'Generation stops at any of these.' }),
  frequency_penalty: chat.frequency_penalty.meta({ title: 'Frequency penalty', description: '0 to 1; penalizes repetition.' }),
  presence_penalty: chat.presence_penalty.meta({ title: 'Presence penalty', description: '0 to 1; penalizes reused words.' }),
});
export type ChatPromptWriterParams = z.infer<typeof params>;

const OPTIONAL_FIELDS = ['max_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'] as const;

/** The request the node sends, without `stream` (the client adds it). */
export function buildChatRequest(
  p: ChatPromptWriterParams,
  messages: ChatMessage[],
  defaultModel: string,
): Omit<ChatRequest, 'stream'> {
  const request: Omit<ChatRequest, 'stream'> = { model: p.model.trim() || defaultModel, messages };
  for (const field of OPTIONAL_FIELDS) {
    const value = p[field];
    if (value !== undefined) request[field] = value;
  }
  if (p.stop !== undefined && p.stop.length > 0) request.stop = p.stop;
  return request;
}

export const chatPromptWriterNode: NodeDefinition<ChatPromptWriterParams> = {
  type: 'chat-prompt-writer',
  version: 1,
  title: 'Chat prompt writer',
  category: 'text',
  description: 'Asks a chat model to write text (typically an image prompt), streaming it into the node.',
  params,
  inputs: (p) => placeholderPorts(placeholderNames(p.system, p.user)),
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  validate(p) {
    const issues: ParamIssue[] = [...templateIssues('system', p.system), ...templateIssues('user', p.user)];
    if (p.user.trim() === '') issues.push({ param: 'user', message: 'is empty: the model needs a user message to answer' });
    return issues;
  },
  cacheable: () => true,
  async run({ params: p, inputs, ctx }) {
    const messages: ChatMessage[] = [];
    const system = fillFromInputs(p.system, inputs);
    if (system.trim() !== '') messages.push({ role: 'system', content: system });
    messages.push({ role: 'user', content: fillFromInputs(p.user, inputs) });
    const request = buildChatRequest(p, messages, ctx.settings.chatModel);
    if (request.model === '') throw new Error('no chat model: set one on the node or in the settings');

    ctx.progress(0, `asking ${request.model}`);
    const pieces: string[] = [];
    let stoppedAtLimit = false;
    for await (const event of ctx.api.chat.stream(request, { signal: ctx.signal })) {
      if (event.text !== '') {
        pieces.push(event.text);
        ctx.partialText(event.text);
      }
      if (event.finishReason === 'length') stoppedAtLimit = true;
    }
    ctx.progress(1, stoppedAtLimit ? 'stopped at max_tokens' : undefined);
    return { text: textValue(pieces.join('')) };
  },
};
