/**
 * The editor as a person uses it: toolbar menus, the node palette, dragging wires between
 * handles, the run panel, undo and redo. Everything is found by role and accessible name.
 */
import { writeFileSync } from 'node:fs';
import type { Download, Locator, Page } from 'playwright-core';
import { NodeObject } from './node';

export class EditorPage {
  constructor(readonly page: Page, readonly baseUrl: string) {}

  async goto(search = ''): Promise<void> {
    await this.page.goto(`${this.baseUrl}${search}`);
    if (new URLSearchParams(search).get('view') === 'app') await this.appView.waitFor();
    else await this.pane.waitFor();
  }

  /** The empty canvas behind the nodes. */
  get pane(): Locator {
    return this.page.locator('.react-flow__pane');
  }

  /**
   * A point (page coordinates) where the bare canvas is on top: no node, wire, panel or
   * control there. Scans from the bottom-right, away from the toolbars.
   */
  async emptyCanvasPoint(): Promise<{ x: number; y: number }> {
    const point = await this.pane.evaluate((pane) => {
      const box = pane.getBoundingClientRect();
      for (let y = box.bottom - 90; y > box.top + 10; y -= 23) {
        for (let x = box.right - 200; x > box.left + 10; x -= 29) {
          if (document.elementFromPoint(x, y) === pane) return { x, y };
        }
      }
      return null;
    });
    if (!point) throw new Error('no bare canvas left to click');
    return point;
  }

  /** Clicks the bare canvas: fields lose focus, the selection is cleared. */
  async clickCanvas(): Promise<void> {
    const { x, y } = await this.emptyCanvasPoint();
    await this.page.mouse.click(x, y);
  }

  /** Every node on the canvas. */
  get nodes(): Locator {
    return this.page.locator('.react-flow__node');
  }

  /** Every wire on the canvas. */
  get wires(): Locator {
    return this.page.locator('.react-flow__edge');
  }

  node(title: string): NodeObject {
    return new NodeObject(this.page, title);
  }

  /** The inspector beside the canvas: every setting of the selected node. */
  get inspector(): Locator {
    return this.page.getByRole('region', { name: 'Inspector' });
  }

  /**
   * A setting of node `title` in the inspector, by its label: selects the node first and waits
   * for the inspector to show it.
   */
  async setting(title: string, label: string): Promise<Locator> {
    const node = this.node(title);
    await node.select();
    await this.inspector.getByRole('heading', { name: title, exact: true }).waitFor();
    const field = this.inspector.getByLabel(label, { exact: true });
    await field.waitFor();
    return field;
  }

  get workflowTitle(): Locator {
    return this.page.getByRole('textbox', { name: 'Workflow title' });
  }

  /** Chooses `item` from the toolbar menu `menu` ("File", "Examples"). */
  async menu(menu: string, item: string | RegExp): Promise<void> {
    await this.page.getByRole('button', { name: menu, exact: true }).click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  async newWorkflow(): Promise<void> {
    await this.menu('File', 'New workflow');
    await this.nodes.first().waitFor({ state: 'detached' });
    await this.viewSettled();
  }

  /**
   * Waits until the canvas stops moving (a fit or a reveal animates the view): the view must
   * stay the same for 300 ms counted from this call, so an animation that starts a frame after
   * the click that caused it is not missed.
   */
  async viewSettled(): Promise<void> {
    const since = await this.page.evaluate(() => performance.now());
    await this.page.waitForFunction((since) => {
      const w = window as unknown as { __view?: { value: string; at: number } };
      const value = document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '';
      const now = performance.now();
      if (!w.__view || w.__view.value !== value || w.__view.at < since) w.__view = { value, at: Math.max(now, since) };
      return now - w.__view.at > 300;
    }, since, { polling: 50 });
  }

  /**
   * Waits until nothing on the page has changed for `ms`: the first estimate, token counts and
   * the token counts have arrived, as they have by the time a person starts typing.
   */
  async quiet(ms = 300): Promise<void> {
    await this.page.evaluate((ms) => new Promise<void>((resolve) => {
      let timer = setTimeout(done, ms);
      const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(done, ms);
      });
      function done() {
        observer.disconnect();
        resolve();
      }
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    }), ms);
  }

  /** Opens an example from the Examples menu and waits for its nodes. */
  async openExample(title: string, options: { view?: 'app' | 'graph' } = {}): Promise<void> {
    await this.menu('Examples', new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await this.page.getByText(`Opened “${title}”`).waitFor();
    // An example with an app opens in App view; most tests are about the graph.
    if (options.view === 'app') await this.appView.waitFor();
    else await this.showGraph();
  }

  /** The App view (the workflow's app as a form), when shown. */
  get appView(): Locator {
    return this.page.getByRole('main', { name: 'App view' });
  }

  /** Back to the graph from App view ("Edit graph"), or nothing when it is shown already. */
  async showGraph(): Promise<void> {
    // The toolbar's switch says which view is on at once; the App view itself may still be loading.
    const graph = this.viewButton('Graph');
    if ((await graph.getAttribute('aria-pressed')) !== 'true') {
      await graph.click();
      await this.pane.waitFor();
    }
    await this.viewSettled();
  }

  /** The toolbar's view switch: 'Graph' or 'App view'. */
  viewButton(name: 'Graph' | 'App view'): Locator {
    return this.page.getByRole('group', { name: 'View' }).getByRole('button', { name, exact: true });
  }

  /** File → Save (download); resolves with the download. */
  async save(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.menu('File', /^Save/);
    return download;
  }

  /** File → Open…, choosing the file at `path`. */
  async open(path: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.menu('File', /^Open/);
    await (await chooser).setFiles(path);
  }

  /** Writes `workflow` to `path`, opens it and waits until it is open and in view. */
  async openWorkflow(workflow: { metadata: { title: string } }, path: string): Promise<void> {
    writeFileSync(path, JSON.stringify(workflow));
    await this.open(path);
    await this.page.getByText(`Opened “${workflow.metadata.title}”`).waitFor();
    await this.showGraph();
    await this.fitView();
  }

  /**
   * Double-clicks the canvas at `at` (relative to its top-left corner; somewhere empty) and
   * picks `title` from the palette by typing it, as a person does. The editor then brings the
   * new node into view, so the view may have moved when this returns.
   */
  async addNode(title: string, at: { x: number; y: number } | 'right-edge'): Promise<NodeObject> {
    if (at === 'right-edge') {
      const pane = await this.pane.boundingBox();
      if (!pane) throw new Error('the canvas is not on screen');
      at = { x: pane.width - 40, y: 60 };
    }
    await this.viewSettled();
    await this.pane.dblclick({ position: at });
    const { palette } = this;
    await this.paletteSearch.fill(title);
    await palette.getByRole('option', { name: new RegExp(`^${title}`) }).first().click();
    await palette.waitFor({ state: 'detached' });
    const node = this.node(title);
    await node.root.waitFor();
    await this.viewSettled();
    return node;
  }

  /** The node palette ("Add a node…"), while it is open. */
  get palette(): Locator {
    return this.page.getByRole('dialog', { name: /^Add a node/ });
  }

  /** The palette's search field. */
  get paletteSearch(): Locator {
    return this.palette.getByRole('combobox', { name: 'Search nodes' });
  }

  /** Drags a wire from an output handle to an input handle with the mouse. */
  async connect(from: NodeObject, output: string, to: NodeObject, input: string): Promise<void> {
    const source = await box(from.output(output));
    const target = await box(to.input(input));
    const { mouse } = this.page;
    await mouse.move(source.x, source.y);
    await mouse.down();
    await mouse.move((source.x + target.x) / 2, (source.y + target.y) / 2, { steps: 8 });
    await mouse.move(target.x, target.y, { steps: 8 });
    await mouse.up();
  }

  /** Fits the whole workflow in view. */
  async fitView(): Promise<void> {
    await this.page.getByRole('button', { name: 'Fit view', exact: true }).click();
    await this.viewSettled();
  }

  /** The canvas's zoom factor. */
  async zoom(): Promise<number> {
    const transform = await this.page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
    return Number(/scale\(([\d.]+)\)/.exec(transform)?.[1] ?? Number.NaN);
  }

  /**
   * Brings a node close enough to read its form and results, as a person does: the whole graph
   * in view, then the mouse wheel over the node's title until the canvas is at `zoom` or more.
   */
  async inspect(node: NodeObject, zoom = 0.8): Promise<void> {
    await this.fitView();
    const header = node.root.locator('.node-header');
    for (let i = 0; i < 20 && (await this.zoom()) < zoom; i++) {
      const b = await header.boundingBox();
      if (!b) throw new Error(`${node.title} is not on screen`);
      await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await this.page.mouse.wheel(0, -120);
      await this.page.waitForTimeout(60);
    }
    await this.viewSettled();
  }

  async undo(): Promise<void> {
    await this.page.getByRole('button', { name: /^Undo/ }).click();
  }

  async redo(): Promise<void> {
    await this.page.getByRole('button', { name: /^Redo/ }).click();
  }

  /**
   * The boxes (page pixels) of the nodes and notes drawn on the canvas, by their accessible
   * name. Group frames are left out: they are meant to hold nodes.
   */
  async itemBoxes(): Promise<{ name: string; x: number; y: number; width: number; height: number }[]> {
    return this.page.locator('.react-flow__node:not(.react-flow__node-frame)').evaluateAll((els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { name: el.getAttribute('aria-label') ?? el.getAttribute('data-id') ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
    }));
  }

  /** The pairs of nodes and notes whose boxes overlap (by name), none when nothing covers anything. */
  async overlaps(): Promise<string[]> {
    const boxes = await this.itemBoxes();
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5) out.push(`${a.name} / ${b.name}`);
      }
    }
    return out;
  }

  /** The canvas's box on the page. */
  async canvasBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.pane.boundingBox();
    if (!box) throw new Error('the canvas is not on screen');
    return box;
  }

  /** Whether `locator`'s whole box is inside the canvas's visible part. */
  async inView(locator: Locator): Promise<boolean> {
    const [box, canvas] = [await locator.boundingBox(), await this.canvasBox()];
    return box !== null && box.x >= canvas.x - 0.5 && box.y >= canvas.y - 0.5
      && box.x + box.width <= canvas.x + canvas.width + 0.5 && box.y + box.height <= canvas.y + canvas.height + 0.5;
  }

  /**
   * The smallest text drawn on screen in the nodes within the canvas's visible part: each text's
   * computed font size times the canvas's zoom, in CSS pixels, with the text it belongs to.
   */
  async smallestNodeText(): Promise<{ px: number; text: string }> {
    const zoom = await this.zoom();
    return this.page.evaluate((zoom) => {
      const canvas = document.querySelector('.react-flow__pane')!.getBoundingClientRect();
      let best = { px: Number.POSITIVE_INFINITY, text: '' };
      const consider = (el: Element, text: string) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.right < canvas.left || r.left > canvas.right || r.bottom < canvas.top || r.top > canvas.bottom) return;
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible' || Number(style.opacity) === 0) return;
        const px = parseFloat(style.fontSize) * zoom;
        if (px < best.px) best = { px, text: text.slice(0, 60) };
      };
      for (const node of document.querySelectorAll('.react-flow__node-atelier, .react-flow__node-unknown')) {
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          if (t.textContent?.trim() && t.parentElement) consider(t.parentElement, t.textContent.trim());
        }
        for (const control of node.querySelectorAll('input:not([type=checkbox]):not([type=radio]):not([type=range]), select, textarea')) {
          consider(control, (control as HTMLInputElement).value || control.getAttribute('aria-label') || 'a field');
        }
      }
      return best;
    }, zoom);
  }

  /** The run panel. */
  get runPanel(): Locator {
    return this.page.getByRole('region', { name: 'Run', exact: true });
  }

  get runButton(): Locator {
    return this.runPanel.getByRole('button', { name: 'Run', exact: true });
  }

  get cancelButton(): Locator {
    return this.runPanel.getByRole('button', { name: 'Cancel', exact: true });
  }

  /** The last run's summary ("Run finished", "Run cancelled"…). */
  get lastRun(): Locator {
    return this.runPanel.getByRole('region', { name: 'Last run' });
  }

  /** The list of problems that stopped a run. */
  get runProblems(): Locator {
    return this.runPanel.getByRole('region', { name: 'Problems to fix before running' });
  }

  async run(): Promise<void> {
    await this.runButton.click();
  }

  /** Runs and waits for the run's summary; returns its heading. */
  async runToEnd(timeout = 60_000): Promise<string> {
    // The previous run's summary stays on screen until the new run has started: wait for a
    // summary of another run, not just for one to be there.
    const previous = (await this.lastRun.count()) > 0 ? await this.lastRun.getAttribute('data-run-id') : null;
    await this.run();
    const summary =
      previous === null ? this.lastRun : this.runPanel.locator(`section[aria-label="Last run"]:not([data-run-id="${previous}"])`);
    await summary.waitFor({ timeout });
    return (await summary.getByRole('heading').textContent()) ?? '';
  }

  /** The dialog listing what is wrong with a file, or what to know about one that opened. */
  get problemsDialog(): Locator {
    return this.page.locator('dialog.problems-dialog');
  }
}

/** The centre of an element on screen. */
async function box(locator: Locator): Promise<{ x: number; y: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`not on screen: ${locator.toString()}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** The bytes of a finished download (the browser is remote: read its stream). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
