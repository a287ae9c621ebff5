/**
 * Records, in the page, every state of a node's streaming chat text: a MutationObserver sees each
 * chunk as React writes it, which polling from the test could miss at 5 ms a token.
 */
import type { Page } from 'playwright-core';

export interface StreamWatch {
  /** Each distinct text the node showed while it streamed, in order. */
  snapshots(): Promise<string[]>;
}

export async function watchStream(page: Page, nodeTitle: string): Promise<StreamWatch> {
  const key = `__stream_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(({ key, label }) => {
    const seen: string[] = [];
    (window as unknown as Record<string, string[]>)[key] = seen;
    const record = () => {
      const node = document.querySelector(`[aria-label="${CSS.escape(label)}"]`);
      const text = node?.querySelector('[aria-label="Text streaming in"]')?.textContent ?? '';
      if (text !== '' && text !== seen.at(-1)) seen.push(text);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, { key, label: `${nodeTitle} node` });
  return {
    snapshots: () => page.evaluate((k) => (window as unknown as Record<string, string[]>)[k] ?? [], key),
  };
}
