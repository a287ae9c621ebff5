/** One node on the canvas, found and driven by its accessible name ("<title> node"). */
import type { Locator, Page } from 'playwright-core';

export class NodeObject {
  readonly root: Locator;

  constructor(readonly page: Page, readonly title: string) {
    this.root = page.getByRole('group', { name: `${title} node`, exact: true });
  }

  /** An input port's handle, by its label ("Prompt"). */
  input(label: string): Locator {
    return this.root.getByLabel(new RegExp(`^${escape(label)} input, takes `));
  }

  /** An output port's handle, by its label ("Text"). */
  output(label: string): Locator {
    return this.root.getByLabel(new RegExp(`^${escape(label)} output, gives `));
  }

  /**
   * A parameter's control on the node, by its label in the form. The node shows its main fields;
   * call `moreOptions()` first for the others (or use the editor's inspector).
   */
  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  /** The node's "More options" part of the form. */
  get moreToggle(): Locator {
    return this.root.locator('details.more > summary');
  }

  /** Opens "More options" on the node (when closed), so every field of its form is on the node. */
  async moreOptions(): Promise<void> {
    const details = this.root.locator('details.more');
    await details.waitFor();
    if ((await details.getAttribute('open')) === null) await this.moreToggle.click();
    await this.root.locator('details.more[open]').waitFor();
  }

  /** The button that folds the node to its title bar and ports (or unfolds it). */
  get collapseButton(): Locator {
    return this.root.getByRole('button', { name: new RegExp(`^(Collapse|Expand) ${escape(this.title)}$`) });
  }

  /** Whether the node is drawn collapsed (its title bar and ports only). */
  async collapsed(): Promise<boolean> {
    return (await this.root.locator('.atelier-node.collapsed').count()) === 1;
  }

  /** Switches a parameter ("Prompt") to an input port, so a wire can supply it. */
  async takeFromInput(field: string): Promise<void> {
    await this.root.getByRole('button', { name: `${field} as input`, exact: true }).click();
    await this.input(field).waitFor();
  }

  /** The run badge: "Queued", "Running 1.2 s", "Done in 0.4 s", "Failed after…", … */
  get status(): Locator {
    return this.root.locator('.run-status__badge');
  }

  /** The whole run status under the title: the badge, its messages and links. */
  get runStatus(): Locator {
    return this.root.locator('.run-status');
  }

  /** The phase the run status shows (data-phase), or '' when there is none. */
  async phase(): Promise<string> {
    const el = this.root.locator('.run-status');
    return (await el.count()) === 0 ? '' : ((await el.getAttribute('data-phase')) ?? '');
  }

  /** Chat text while it streams in. */
  get streamedText(): Locator {
    return this.root.getByLabel(/^Text (streaming in|received before the node stopped)$/);
  }

  /** The node's results (images and text). */
  get results(): Locator {
    return this.root.getByRole('group', { name: new RegExp(`^Results of `) });
  }

  /** Result thumbnails: buttons that open the large viewer. */
  get images(): Locator {
    return this.results.getByRole('button', { name: /^Open image \d+ of / });
  }

  /** The SHA-256 (hex) of the bytes behind the node's `index`th result image, as the page holds them. */
  async imageSha256(index = 0): Promise<string> {
    const url = await this.results.locator('img').nth(index).getAttribute('src');
    if (!url) throw new Error(`${this.title} shows no image ${index + 1}`);
    return this.page.evaluate(async (src) => {
      const digest = await crypto.subtle.digest('SHA-256', await (await fetch(src)).arrayBuffer());
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    }, url);
  }

  /** A text result. */
  get textResult(): Locator {
    return this.results.locator('output');
  }

  /** The error pinned on a failed node. */
  get error(): Locator {
    return this.root.locator('.run-status__error');
  }

  /** Clicks the node's title bar, selecting it. */
  async select(): Promise<void> {
    await this.root.locator('.node-header .node-title').click();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
