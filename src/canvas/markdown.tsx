/**
 * A small, safe Markdown for notes: paragraphs (line breaks kept), `#` headings, `-`/`1.` lists,
 * `**strong**`, `*emphasis*`, `` `code` ``, fenced code blocks, `[links](https://…)` and bare
 * http(s) URLs. It builds React elements, never HTML strings, so any HTML in a note is shown as
 * the text it is. A link is made only for an absolute http(s) or mailto address; anything else
 * (`javascript:`, `data:`, relative or obfuscated addresses) stays plain text.
 */
import { Fragment, type ReactNode } from 'react';

/** Emphasis nested deeper than this is shown as written. */
const MAX_DEPTH = 8;
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const ESCAPABLE = /[\\`*_[\]()#+\-.!<>~|{}]/;
const BARE_URL = /^https?:\/\/[^\s<>()[\]"'`]*[^\s<>()[\]"'`.,;:!?*_]/;

/** The address a link may point to, or undefined when it must not be a link. */
export function safeHref(raw: string): string | undefined {
  const href = raw.trim();
  // Control characters and spaces are how "java\tscript:" hides from simple checks.
  if (href === '' || /[\s\p{Cc}]/u.test(href)) return undefined;
  if (!/^(?:https?:\/\/|mailto:)/i.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

function Link({ href, children }: { href: string; children: ReactNode }) {
  return <a href={href} target="_blank" rel="noopener noreferrer" className="md-link nodrag">{children}</a>;
}

interface Inline {
  nodes: ReactNode[];
  key: number;
}

/** Inline Markdown of `text` as React nodes. */
function inline(text: string, depth: number, allowLinks: boolean): ReactNode[] {
  const out: Inline = { nodes: [], key: 0 };
  if (depth > MAX_DEPTH) return [text];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.nodes.push(plain);
    plain = '';
  };
  const push = (node: ReactNode) => {
    flush();
    out.nodes.push(<Fragment key={out.key++}>{node}</Fragment>);
  };
  // Delimiters with no closer further on: later searches for them are skipped (linear on "****…").
  const unclosed = new Set<string>();
  const closer = (delimiter: string, from: number): number => {
    if (unclosed.has(delimiter)) return -1;
    const at = text.indexOf(delimiter, from);
    if (at < 0) unclosed.add(delimiter);
    return at;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && ESCAPABLE.test(next)) {
      plain += next;
      i += 2;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const fence = '`'.repeat(run);
      const end = closer(fence, i + run);
      if (end > i + run) {
        push(<code className="md-code">{text.slice(i + run, end)}</code>);
        i = end + run;
      } else {
        plain += fence;
        i += run;
      }
      continue;
    }
    if (c === '[' && allowLinks) {
      const link = readLink(text, i);
      if (link) {
        const href = safeHref(link.href);
        if (href) push(<Link href={href}>{inline(link.label, depth + 1, false)}</Link>);
        else plain += text.slice(i, link.end);
        i = link.end;
        continue;
      }
    }
    if (c === '*' || c === '_') {
      const strong = next === c;
      const delimiter = strong ? c + c : c;
      const before = text[i - 1];
      // `snake_case_names` are words, not emphasis.
      const wordInside = c === '_' && before !== undefined && /[\p{L}\p{N}]/u.test(before);
      const start = i + delimiter.length;
      const end = wordInside || /\s/.test(text[start] ?? ' ') ? -1 : closer(delimiter, start + 1);
      const after = end >= 0 ? text[end + delimiter.length] : undefined;
      const closesWord = c === '_' && after !== undefined && /[\p{L}\p{N}]/u.test(after);
      if (end > start && !/\s/.test(text[end - 1]!) && !closesWord) {
        const content = inline(text.slice(start, end), depth + 1, allowLinks);
        push(strong ? <strong>{content}</strong> : <em>{content}</em>);
        i = end + delimiter.length;
        continue;
      }
      plain += delimiter;
      i += delimiter.length;
      continue;
    }
    if (c === 'h' && allowLinks && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? ' ')) {
      const match = BARE_URL.exec(text.slice(i, i + 2048));
      const href = match && safeHref(match[0]);
      if (match && href) {
        push(<Link href={href}>{match[0]}</Link>);
        i += match[0].length;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
  return out.nodes;
}

/** `[label](href)` starting at `at`, or undefined when the text there is not one. */
function readLink(text: string, at: number): { label: string; href: string; end: number } | undefined {
  let i = at + 1;
  while (i < text.length && text[i] !== ']' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  if (text[i] !== ']' || text[i + 1] !== '(') return undefined;
  const label = text.slice(at + 1, i);
  let depth = 0;
  let j = i + 2;
  for (; j < text.length && text[j] !== '\n'; j++) {
    if (text[j] === '(') depth++;
    else if (text[j] === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (text[j] !== ')' || label === '') return undefined;
  return { label, href: text.slice(i + 2, j), end: j + 1 };
}

/** Lines of one paragraph, with their breaks kept. */
function lines(text: readonly string[], depth: number): ReactNode[] {
  return text.flatMap((line, i) => (i === 0 ? inline(line, depth, true) : [<br key={`br${i}`} />, ...inline(line, depth, true)]));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,3})\s+(.*?)\s*#*\s*$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const CONTINUATION = /^ {2,}\S/;

/** A note's text as React elements (a fragment of paragraphs, headings, lists and code blocks). */
export function renderMarkdown(source: string): ReactNode {
  const all = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push(<p key={blocks.length}>{lines(paragraph, 0)}</p>);
    paragraph = [];
  };

  for (let i = 0; i < all.length; i++) {
    const line = all[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      const body: string[] = [];
      for (i++; i < all.length && !all[i]!.trimStart().startsWith(fence[1]!); i++) body.push(all[i]!);
      blocks.push(<pre key={blocks.length} className="md-pre nowheel"><code>{body.join('\n')}</code></pre>);
      continue;
    }
    if (line.trim() === '') {
      endParagraph();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push(<p key={blocks.length} className={`md-heading md-h${heading[1]!.length}`}>{inline(heading[2]!, 0, true)}</p>);
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      endParagraph();
      const pattern = bullet ? BULLET : NUMBERED;
      const items: string[][] = [];
      for (; i < all.length; i++) {
        const current = all[i]!;
        const item = pattern.exec(current);
        if (item) items.push([(bullet ? item[1] : item[2]) ?? '']);
        else if (CONTINUATION.test(current) && items.length > 0) items[items.length - 1]!.push(current.trim());
        else break;
      }
      i--;
      const children = items.map((item, k) => <li key={k}>{lines(item, 0)}</li>);
      const start = numbered ? Number(numbered[1]) : 1;
      blocks.push(bullet
        ? <ul key={blocks.length}>{children}</ul>
        : <ol key={blocks.length} {...(start !== 1 ? { start } : {})}>{children}</ol>);
      continue;
    }
    paragraph.push(line);
  }
  endParagraph();
  return <>{blocks}</>;
}
