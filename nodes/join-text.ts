/**
 * Join text: a text list into one text, the items in order with a separator between them. It
 * takes the list whole, so it runs once however long the list is.
 */
import { z } from 'zod';
import { separatorParam, unescapeSeparator } from './split-rules';
import type { NodeDefinition } from './types';
import { textValue, textsOf } from './values';

const params = z.strictObject({
  separator: separatorParam('\\n', 'What goes between items; \\n is a line break, \\t a tab.'),
});
export type JoinTextParams = z.infer<typeof params>;

export const joinTextNode: NodeDefinition<JoinTextParams> = {
  type: 'join-text',
  version: 1,
  title: 'Join text',
  category: 'text',
  mainFields: ['separator'],
  description: 'Turns a text list into one text, with a separator between the items.',
  params,
  inputs: [{ name: 'items', kind: 'texts', label: 'Items', description: 'A text list (a single text is a list of one).' }],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ params: p, inputs }) => Promise.resolve({ text: textValue(textsOf(inputs.items).join(unescapeSeparator(p.separator))) }),
};
