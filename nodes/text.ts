/**
 * Text: a text field whose `{{name}}` placeholders become optional text inputs (see template.ts
 * for how unconnected and invalid placeholders are treated).
 */
import { z } from 'zod';
import { fillFromInputs, parseTemplate, placeholderPorts, templateIssues } from './template';
import type { NodeDefinition } from './types';
import { textValue } from './values';

const params = z.strictObject({
  text: z.string().max(200_000).default('')
    .meta({ title: 'Text', description: 'Use {{name}} to add a text input called name.' }),
});
export type TextParams = z.infer<typeof params>;

export const textNode: NodeDefinition<TextParams> = {
  type: 'text',
  version: 1,
  title: 'Text',
  category: 'text',
  mainFields: ['text'],
  description: 'A piece of text; {{name}} placeholders are filled from text inputs of the same name.',
  params,
  inputs: (p) => placeholderPorts(parseTemplate(p.text).names),
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  validate: (p) => templateIssues('text', p.text),
  run: ({ params: p, inputs }) => Promise.resolve({ text: textValue(fillFromInputs(p.text, inputs)) }),
};
