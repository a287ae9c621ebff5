/**
 * Chat prompt writer: fills system and user message templates from optional text inputs, streams
 * a chat completion into the node, and outputs the whole text. Asked to answer as a list (one
 * item per line, or a JSON array), it says so at the end of its system message and also gives
 * the answer as a text list (split-rules.ts), so what it feeds runs once per item.
 *
 * Caching: always cacheable. The chat API has no seed, so a temperature above 0 varies from call
 * to call, but the usual chain is chat → image, and re-rolling the chat on every run would change
 * the prompt and so re-run every pinned-seed image downstream. As in ComfyUI, an unchanged node
 * gives its cached result; a new variation is asked for by changing a field or re-running the
 * node without the cache.
 */
import { z } from 'zod';
import { ChatRequestSchema, type ChatMessage, type ChatRequest } from '../api/chat';
import { ParamIssuesError } from './errors';
import { SplitError, looksLikeJson, splitJson, splitLines, type SplitResult } from './split-rules';
import { fillFromInputs, placeholderNames, placeholderPorts, templateIssues } from './template';
import type { NodeDefinition, ParamIssue } from './types';
import { textValue, textsValue } from './values';

/** What the system message asks for when the answer should be a list, by `answer_as`. */
export const LIST_INSTRUCTIONS = {
  lines: 'Answer with a list: one item per line and nothing else, with no numbering, bullets, quotes or blank lines.',
  json: 'Answer with a JSON array of strings and nothing else: no code fence, no words before or after it.',
} as const;

const chat = ChatRequestSchema.shape;
const template = z.string().max(200_000);

const params = z.strictObject({
  model: z.string().max(200).default('')
    .meta({ title: 'Model', description: 'Empty uses the chat model from the settings.' }),
  system: template.default('You write prompts for an image generator. Reply with the prompt only: one vivid sentence, no preamble, no quotes.')
    .meta({ title: 'System message', description: 'Instructions for the model; {{name}} adds a text input.' }),
  user: template.default('A striking scene to paint.')
    .meta({ title: 'User message', description: 'What to write about; {{name}} adds a text input.' }),
  answer_as: z.enum(['text', 'lines', 'json']).default('text').meta({
    title: 'Answer as',
    description: 'A list answer is also given as a text list (Items): what it feeds runs once per item. The system message says what is asked for.',
    optionLabels: { text: 'One text', lines: 'A list, one item per line', json: 'A list, as a JSON array' },
  }),
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
  version: 2,
  title: 'Chat prompt writer',
  category: 'text',
  mainFields: ['system', 'user'],
  description: 'Asks a chat model to write text (typically an image prompt), streaming it into the node.',
  params,
  inputs: (p) => placeholderPorts(placeholderNames(p.system, p.user)),
  outputs: [
    { name: 'text', kind: 'text', label: 'Text', description: 'The whole answer.' },
    { name: 'items', kind: 'texts', label: 'Items', description: 'A list answer, one entry per item (a text answer is a list of one).' },
  ],
  validate(p) {
    const issues: ParamIssue[] = [...templateIssues('system', p.system), ...templateIssues('user', p.user)];
    if (p.user.trim() === '') issues.push({ param: 'user', message: 'is empty: the model needs a user message to answer' });
    return issues;
  },
  cacheable: () => true,
  async run({ params: p, inputs, ctx }) {
    const messages: ChatMessage[] = [];
    const system = withListInstruction(fillFromInputs(p.system, inputs), p.answer_as);
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
    const text = pieces.join('');
    // A model that answers a JSON request with a plain list (the local engines do) is read by line.
    const asLines = p.answer_as === 'json' && text.trim() !== '' && !looksLikeJson(text);
    const items = answerItems(text, asLines ? 'lines' : p.answer_as, stoppedAtLimit);
    const notes = [
      ...(stoppedAtLimit ? ['stopped at max_tokens'] : []),
      ...(p.answer_as === 'text' ? [] : [`${items.length} item${items.length === 1 ? '' : 's'}${asLines ? ', one per line: the answer held no JSON' : ''}`]),
    ];
    ctx.progress(1, notes.length > 0 ? notes.join('; ') : undefined);
    return { text: textValue(text), items: textsValue(items) };
  },
};

/** The system message with what a list answer asks for at its end (on its own when there is none). */
function withListInstruction(system: string, answerAs: ChatPromptWriterParams['answer_as']): string {
  if (answerAs === 'text') return system;
  const instruction = LIST_INSTRUCTIONS[answerAs];
  return system.trim() === '' ? instruction : `${system.trimEnd()}\n\n${instruction}`;
}

/** The answer as a list: one item for a text answer, else split as asked; no items is a failure. */
function answerItems(text: string, answerAs: ChatPromptWriterParams['answer_as'], stoppedAtLimit: boolean): string[] {
  if (answerAs === 'text') return [text];
  let result: SplitResult;
  try {
    result = answerAs === 'json' ? splitJson(text) : splitLines(text);
  } catch (error) {
    if (!(error instanceof SplitError)) throw error;
    const cut = stoppedAtLimit ? ' (it stopped at max_tokens: raise Max tokens)' : '';
    throw new ParamIssuesError([{ param: 'answer_as', message: `the answer ${error.message}${cut}` }]);
  }
  if (result.items.length === 0) throw new ParamIssuesError([{ param: 'answer_as', message: 'the answer holds no items' }]);
  return result.items;
}
