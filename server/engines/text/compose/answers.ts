/**
 * Conversational answers: greetings, thanks, questions about a scene or about the image API,
 * and honest refusals for what a template engine cannot do.
 */
import { capitalize, withArticle } from '../format';
import { inSentence } from '../subject';
import { PARAMETER_ANSWERS } from '../vocab/answers';
import { type Phrase } from '../vocab/bank';
import { COMPOSITIONS, LENSES, STYLES } from '../vocab/craft';
import { LIGHTING, MOODS, PALETTES } from '../vocab/scene';
import { composePrompt, type Context, subjectPhrase } from './prompt';

const WHAT_I_AM = "I'm Atelier's offline chat engine, a template-driven stand-in for a hosted chat model that writes image prompts, scene descriptions and short lists";
const EXAMPLE = '"a lighthouse on a stormy coast at night"';

export function composeGreeting(ctx: Context): string {
  return `Hello! I'm the local chat engine that comes with Atelier (model "${ctx.model}"). It runs offline and is a template-driven stand-in for a hosted chat model, made for writing image prompts: describe a scene, for example ${EXAMPLE}, and I will turn it into a detailed prompt. I can also describe a scene, suggest lighting, styles or colours, write negative prompts and titles, and refine an answer when you say things like "make it darker" or "add a red fox".`;
}

export function composeThanks(): string {
  return 'Glad it helps. Say "another" for a different take, name a style to restyle it, or ask for a negative prompt to go with it.';
}

function sceneName(ctx: Context): string | undefined {
  const { subject } = ctx.plan;
  return subject && inSentence({ ...subject, text: subjectPhrase(subject, ctx.plan.additions) });
}

export function composeUnsupported(ctx: Context): string {
  const what = ctx.plan.unsupported ?? 'do that';
  const scene = sceneName(ctx);
  const offer = scene
    ? ` Here is an image prompt for ${scene} instead:\n${composePrompt(ctx)}`
    : ` Describe a scene, such as ${EXAMPLE}, and I will write an image prompt for it.`;
  return `I can't ${what} here: ${WHAT_I_AM}, not a general-purpose assistant.${offer}`;
}

const CATEGORY = /\b(lens(?:es)?|lighting|light|styles?|colou?rs?|palettes?|moods?|compositions?|angles?|framing|camera)\b/i;

/** "Which lens for a portrait?": two suggestions from the bank, the better fit first. */
function categoryAnswer(ctx: Context, category: string): string | undefined {
  const { sampler } = ctx;
  const scene = sceneName(ctx);
  const forScene = scene ? `For ${scene}` : 'For a scene like this';
  const two = (bank: readonly Phrase[], slot: string) => sampler.pickMany(bank, 2, slot).map((p) => p.text);
  const c = category.toLowerCase();
  if (/lens|camera/.test(c)) {
    const [a, b] = two(LENSES, 'answer-lens');
    return a && b && `${forScene}, I would use ${withArticle(a)}; ${withArticle(b)} is a good alternative if you want a different look.`;
  }
  if (/light/.test(c)) {
    const [a, b] = two(LIGHTING, 'answer-lighting');
    return a && b && `${forScene}, try ${a}. For a different mood, ${b} works well too.`;
  }
  if (/style/.test(c)) {
    const [a, b] = two(STYLES, 'answer-style');
    return a && b && `${capitalize(a)} suits ${scene ?? 'it'} well; for something different, try ${b}.`;
  }
  if (/colou?r|palette/.test(c)) {
    const [a, b] = two(PALETTES, 'answer-palette');
    return a && b && `${forScene}, keep to ${a}. If you want a different feel, ${b} also works.`;
  }
  if (/mood/.test(c)) {
    const [a, b] = two(MOODS, 'answer-mood');
    return a && b && `${forScene}, aim for something ${a}; ${b} would also suit it.`;
  }
  const [a, b] = two(COMPOSITIONS, 'answer-composition').map((t) => t.replace(/\{head\}/g, ctx.plan.subject?.head ?? 'subject'));
  return a && b && `${forScene}, frame it as ${withArticle(a)}, or try ${withArticle(b)} for a different take.`;
}

export function composeAnswer(ctx: Context): string {
  const question = ctx.plan.request;
  for (const [pattern, answer] of PARAMETER_ANSWERS) if (pattern.test(question)) return answer;
  const category = CATEGORY.exec(question)?.[1];
  if (category && /\b(?:what|which|should|suggest|recommend|best|good)\b/i.test(question)) {
    const answer = categoryAnswer(ctx, category);
    if (answer) return answer;
  }
  const scene = sceneName(ctx);
  if (/\b(?:improve|better|stronger|fix|enhance|polish)\b/i.test(question)) {
    return `A strong prompt names the subject first, then the light, the mood, the composition and the style, each in a few concrete words. For ${scene ?? 'example'}:\n${composePrompt(ctx)}`;
  }
  if (scene) return `I can't answer that reliably: ${WHAT_I_AM}. What I can offer is a prompt for ${scene}:\n${composePrompt(ctx)}`;
  return `I can't answer that reliably: ${WHAT_I_AM}. Describe a scene, such as ${EXAMPLE}, and I will write a prompt for it.`;
}
