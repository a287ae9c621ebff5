/**
 * Split text: one text into a text list, by line, by a separator, by a numbered list, or from a
 * JSON array of strings (what a chat model writes when asked for JSON). Empty items are left
 * out and the node says how many (split-rules.ts). A list reaching an input that takes one text
 * runs that node once per item.
 */
import { z } from 'zod';
import { ParamIssuesError } from './errors';
import { SPLIT_MODES, SplitError, describeSplit, separatorParam, splitText } from './split-rules';
import type { NodeDefinition } from './types';
import { textOf, textsValue } from './values';

const params = z.strictObject({
  mode: z.enum(SPLIT_MODES).default('lines').meta({
    title: 'Split by',
    description: 'Lines drop bullets, numbers and quotes; a numbered list lets an item run over lines; JSON reads an array of strings, code fence or not.',
    optionLabels: { lines: 'One item per line', numbered: 'Numbered list', separator: 'Separator', json: 'JSON array of strings' },
  }),
  separator: separatorParam(',', 'For "Separator": what stands between items; \\n is a line break.'),
});
export type SplitTextParams = z.infer<typeof params>;

export const splitTextNode: NodeDefinition<SplitTextParams> = {
  type: 'split-text',
  version: 1,
  title: 'Split text',
  category: 'text',
  mainFields: ['mode', 'separator'],
  description: 'Turns a text into a list: by line, separator, numbered list or JSON array. What it feeds runs once per item.',
  params,
  inputs: [{ name: 'text', kind: 'text', label: 'Text', description: 'The text to split, such as a chat answer.' }],
  outputs: [{ name: 'items', kind: 'texts', label: 'Items', description: 'The items, in order, empty ones left out.' }],
  validate: (p) => (p.mode === 'separator' && p.separator === '' ? [{ param: 'separator', message: 'is empty: say what stands between the items' }] : []),
  run({ params: p, inputs, ctx }) {
    const text = textOf(inputs.text);
    try {
      const result = splitText(text, p.mode, p.separator);
      if (result.items.length === 0) {
        const why = text.trim() === '' ? 'the text is empty' : `all ${result.dropped} items are empty`;
        throw new SplitError(`holds no items: ${why}`);
      }
      ctx.progress(1, describeSplit(result));
      return Promise.resolve({ items: textsValue(result.items) });
    } catch (error) {
      return Promise.reject(error instanceof SplitError ? new ParamIssuesError([{ param: 'mode', message: `the text ${error.message}` }]) : error);
    }
  },
};
