/**
 * Text generation: reads the conversation into a plan, writes the answer the plan calls for, and
 * enforces the form the conversation asked for.
 */
import { composeAnswer, composeGreeting, composeThanks, composeUnsupported } from './compose/answers';
import { composeList, composeNegative } from './compose/lists';
import { composePrompt, type Context } from './compose/prompt';
import { composeCaption, composeDescription, composeTitle } from './compose/prose';
import { finalize } from './format';

/** The full answer for a plan, before `stop` and `max_tokens` are applied. */
export function compose(ctx: Context): string {
  const text = (() => {
    switch (ctx.plan.task) {
      case 'prompt': return composePrompt(ctx);
      case 'negative': return composeNegative(ctx);
      case 'list': return composeList(ctx);
      case 'describe': return composeDescription(ctx);
      case 'caption': return composeCaption(ctx);
      case 'title': return composeTitle(ctx);
      case 'answer': return composeAnswer(ctx);
      case 'greet': return composeGreeting(ctx);
      case 'thanks': return composeThanks();
      case 'unsupported': return composeUnsupported(ctx);
    }
  })();
  return finalize(text, ctx.plan.format);
}
