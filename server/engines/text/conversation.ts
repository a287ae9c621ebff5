/**
 * Reads a whole conversation into a plan for the answer: the task (from the last user message,
 * or the one before it when the last only refines), the subject (from the latest message that
 * names one), the topics that steer phrase choice, and the form the answer must take.
 * System messages set defaults; later user turns refine earlier ones.
 */
import { type ChatMessage } from '../../../api/chat';
import { defaultFormat, readFormat } from './constraints';
import { readIntent, type Task } from './intent';
import { type Plan } from './plan';
import { applyRefinement } from './refine';
import { contextOf, findQuestionSubject, findSubject, type Subject } from './subject';
import { MODIFIER_TOPICS, STYLE_TOPICS, detectTopics, wordsOf } from './vocab/topics';

/** What a system prompt says the assistant is for, when the user does not say otherwise. */
function systemTask(text: string): Task | undefined {
  if (/\bnegative prompts?\b/i.test(text)) return 'negative';
  if (/\b(?:describe|descriptions?)\b/i.test(text) && !/\bprompts?\b/i.test(text)) return 'describe';
  if (/\bcaptions?\b/i.test(text)) return 'caption';
  if (/\btitles?\b/i.test(text) && !/\bprompts?\b/i.test(text)) return 'title';
  return undefined;
}

/** Instructions sit at the start or the end of a message; the middle of a pasted page is skipped. */
function excerpt(text: string): string {
  return text.length <= 4000 ? text : `${text.slice(0, 2000)}\n${text.slice(-2000)}`;
}

function topicsOf(text: string, weight: number, only?: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of detectTopics(text).keys()) if (!only || only.has(t)) out.set(t, weight);
  return out;
}

export function readConversation(messages: readonly ChatMessage[]): Plan {
  let format = defaultFormat();
  let defaultTask: Task = 'prompt';
  const systemStyles = new Map<string, number>();
  const plan: Plan = { task: 'prompt', additions: [], topics: new Map(), format, request: '', excluded: new Set(), avoid: new Set() };
  let lastTask: Task | undefined;

  for (const m of messages) {
    if (m.role === 'system') {
      format = readFormat(excerpt(m.content), format);
      defaultTask = systemTask(excerpt(m.content)) ?? defaultTask;
      for (const [t, w] of topicsOf(excerpt(m.content), 2, STYLE_TOPICS)) systemStyles.set(t, w);
      continue;
    }
    if (m.role === 'assistant') {
      plan.previous = m.content;
      continue;
    }
    format = readFormat(excerpt(m.content), format);
    plan.request = excerpt(m.content);
    const intent = readIntent(excerpt(m.content), plan.subject !== undefined || plan.previous !== undefined);
    if (intent.kind === 'refine') {
      applyRefinement(plan, intent.body);
      if (intent.another && plan.previous) for (const w of wordsOf(plan.previous)) plan.avoid.add(w);
      plan.task = lastTask ?? defaultTask;
      continue;
    }
    plan.task = intent.task === 'prompt' ? defaultTask : intent.task;
    plan.count = intent.count;
    plan.category = intent.category;
    plan.unsupported = intent.unsupported;
    const subject = subjectFor(intent.task, intent.body, intent.category);
    if (subject) {
      plan.subject = subject;
      plan.additions = [];
      plan.excluded = new Set();
      plan.literalStyle = undefined;
      plan.topics = topicsOf(subject.text, 1);
      // The rest of the message ("for my blog post about winter hiking") colours the scene a little.
      for (const [t, w] of topicsOf(contextOf(m.content), 0.5)) if (!plan.topics.has(t)) plan.topics.set(t, w);
      for (const [t, w] of topicsOf(excerpt(m.content), 2, STYLE_TOPICS)) plan.topics.set(t, w);
    }
    if (!subject && !plan.subject) {
      // No subject anywhere yet ("make it darker" as an opening line): how it should look still counts.
      for (const [t, w] of topicsOf(excerpt(m.content), 2, MODIFIER_TOPICS)) plan.topics.set(t, w);
    }
    if (intent.task === 'negative') {
      // "rewrite as a negative prompt" speaks of the previous answer: let its topics count too.
      for (const [t, w] of topicsOf(excerpt(plan.previous ?? ''), 0.5)) if (!plan.topics.has(t)) plan.topics.set(t, w);
    }
    lastTask = plan.task;
  }
  for (const [t, w] of systemStyles) if (![...plan.topics.keys()].some((k) => STYLE_TOPICS.has(k))) plan.topics.set(t, w);
  plan.format = format;
  return plan;
}

function subjectFor(task: Task, body: string, category: string | undefined): Subject | undefined {
  switch (task) {
    case 'prompt': case 'describe': return findSubject(body);
    case 'list': return findSubject(listSubjectText(body, category));
    case 'answer': case 'negative': case 'title': case 'caption': return findQuestionSubject(body);
    default: return undefined;
  }
}

/** For "list three colours for a cabin at dusk", the subject is what follows "for". */
function listSubjectText(body: string, category: string | undefined): string {
  if (!category) return body;
  const m = /\b(?:for|about|of|that (?:suit|fit|match|go with|work (?:for|with))|to (?:use|go) (?:in|with|for)|in|on)\s+((?:an?|the|my|this|some)\s+.+)$/i.exec(body);
  return m?.[1] ?? '';
}
