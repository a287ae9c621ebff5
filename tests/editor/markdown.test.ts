/** The notes' Markdown: the subset it draws, and hostile input that must stay text. */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeHref } from '../../src/canvas/markdown';

const html = (text: string) => renderToStaticMarkup(renderMarkdown(text) as ReactElement);
const LINK = 'target="_blank" rel="noopener noreferrer" class="md-link nodrag"';

describe('notes markdown: what it draws', () => {
  it('paragraphs with their line breaks, emphasis, strong and code', () => {
    expect(html('first line\nsecond *line*\n\n**bold** and `a * b` and __also__ _it_'))
      .toBe('<p>first line<br/>second <em>line</em></p><p><strong>bold</strong> and <code class="md-code">a * b</code> and <strong>also</strong> <em>it</em></p>');
  });

  it('leaves snake_case, lone stars and unclosed delimiters as written', () => {
    expect(html('use seed_mode_fixed, 2 * 3 * 4, **open and `tick')).toBe('<p>use seed_mode_fixed, 2 * 3 * 4, **open and `tick</p>');
    expect(html('\\*not emphasis\\*')).toBe('<p>*not emphasis*</p>');
  });

  it('lists, numbered from where they start, with continuation lines', () => {
    expect(html('- one\n- two\n  more\n\n3. three\n4. four')).toBe(
      '<ul><li>one</li><li>two<br/>more</li></ul><ol start="3"><li>three</li><li>four</li></ol>',
    );
  });

  it('headings and fenced code, whose content is never formatted', () => {
    expect(html('# Title\n```\n**x** <b>\n```')).toBe('<p class="md-heading md-h1">Title</p><pre class="md-pre nowheel"><code>**x** &lt;b&gt;</code></pre>');
  });

  it('links to http(s) and mailto open in a new tab without an opener or referrer', () => {
    expect(html('[docs](https://example.com/a?b=1) or mail [us](mailto:hi@example.com)')).toBe(
      `<p><a href="https://example.com/a?b=1" ${LINK}>docs</a> or mail <a href="mailto:hi@example.com" ${LINK}>us</a></p>`,
    );
    expect(html('see https://example.com/x.')).toBe(`<p>see <a href="https://example.com/x" ${LINK}>https://example.com/x</a>.</p>`);
  });
});

describe('notes markdown: hostile input stays text', () => {
  const hostile = [
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click]( javascript:alert(1))',
    '[click](java\tscript:alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[click](vbscript:msgbox(1))',
    '[click](//evil.example/x)',
    '[click](/relative/path)',
    '[click](&#106;avascript:alert(1))',
    '[click](https:/\u0000/evil)',
    '[click](file:///etc/passwd)',
  ];

  it.each(hostile)('%s is not a link', (text) => {
    const out = html(text);
    expect(out).not.toContain('<a');
    expect(out).not.toMatch(/href=/);
  });

  it('HTML in a note is shown as text, never parsed', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:x">y</a>');
    expect(out).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; &lt;a href=&quot;javascript:x&quot;&gt;y&lt;/a&gt;</p>');
  });

  it('a link cannot carry anything but its address: quotes in it stay inside the href', () => {
    const out = html('[[inner](https://a.example)](https://b.example) [x](https://a.example/"onmouseover="alert(1))');
    const tags = out.match(/<a [^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toMatch(new RegExp(`^<a href="https://[^"\\s]*" ${LINK}>$`));
    expect(out).toContain('href="https://a.example/%22onmouseover=%22alert(1)"');
  });

  // Catastrophic backtracking would not finish at all: the test's own time limit catches it,
  // without a figure that a loaded machine can miss (speed is measured in benchmarks).
  it('deep nesting and long runs of delimiters finish and stay bounded', () => {
    const deep = `${'*a '.repeat(2000)}${'_'.repeat(5000)}${'['.repeat(3000)}${'**'.repeat(3000)}`;
    const out = html(deep);
    expect(out.startsWith('<p>')).toBe(true);
    expect(out.length).toBeLessThan(deep.length * 20);
    expect(html('*'.repeat(40) + 'x' + '*'.repeat(40))).not.toContain('<script');
  }, 60_000);

  it('safeHref accepts only absolute http(s) and mailto addresses', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://EXAMPLE.com/A')).toBe('http://example.com/A');
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example');
    for (const bad of ['javascript:alert(1)', 'data:,x', 'ftp://x', 'https://', 'example.com', ' https://a b', '']) {
      expect(safeHref(bad)).toBeUndefined();
    }
  });
});
