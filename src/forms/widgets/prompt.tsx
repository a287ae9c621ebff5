/**
 * A prompt: a text area with a live token count against the engine's limit (77 SDXL, 231 SD 1.5),
 * counted the way the service counts (weighting syntax is free), red when over. The run worker
 * counts (it holds the CLIP word list); the text itself never waits for it. An empty main prompt
 * is said on the same line: the service takes it, and draws with nothing to follow.
 */
import { EMPTY_PROMPT } from '../../../nodes/image-params';
import { usePromptTokens } from '../use-checks';
import { TextAreaWidget } from './basic';
import type { WidgetProps } from './types';

export function PromptWidget(props: WidgetProps) {
  const { id, spec, value } = props;
  const text = typeof value === 'string' ? value : '';
  const tokens = usePromptTokens(text);
  const limit = spec.tokenLimit;
  const over = limit !== undefined && tokens !== undefined && tokens > limit;
  const empty = spec.name === 'prompt' && text.trim() === '';
  const countId = `${id}-tokens`;
  // One text node, rewritten in place: the browser's run of typing is not split by a swap.
  const line = over
    ? `⚠ ${tokens} / ${limit} tokens: over the engine's limit by ${tokens - limit}`
    : empty
      ? `Empty: ${EMPTY_PROMPT} · 0 / ${limit} tokens`
      : `${tokens ?? '…'} / ${limit} tokens`;
  return (
    <>
      <TextAreaWidget {...props} rows={spec.name === 'prompt' ? 3 : 2} describedBy={[props.describedBy, countId].filter(Boolean).join(' ')} />
      {limit !== undefined && (
        <p id={countId} className={`token-count ${over ? 'over' : empty ? 'empty' : ''}`} aria-busy={(!empty && tokens === undefined) || undefined}>
          {line}
        </p>
      )}
    </>
  );
}
