/**
 * Measurements taken in the page, the same way for the editor and for bare React Flow: frames
 * counted by requestAnimationFrame while real (CDP) mouse input pans the canvas, time until a
 * graph is painted and the main thread answers, the JS heap after a garbage collection, and the
 * gzipped JavaScript a fresh load fetches.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named functions inside the
 * callbacks given to page.evaluate in a `__name(...)` helper the page does not have; pages the
 * bench opens get a do-nothing one (`context.addInitScript(NAME_SHIM)`).
 */
export const NAME_SHIM = 'globalThis.__name = (f) => f;';

export interface FpsFigure {
  fps: number;
  /** 95th percentile of the time between frames, in ms. */
  p95FrameMs: number;
}

/** Drags the empty canvas back and forth for `ms` with the mouse, counting frames meanwhile. */
export async function panFps(page: Page, ms = 3000): Promise<FpsFigure> {
  // Grab the canvas where nothing covers it (no node, panel or control), nearest the top-left.
  const start = await page.locator('.react-flow__pane').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    for (let y = box.top + 8; y < box.bottom - 8; y += 13) {
      for (let x = box.left + 8; x < box.right - 8; x += 17) {
        if (document.elementFromPoint(x, y) === pane) return { x, y };
      }
    }
    return null;
  });
  if (!start) throw new Error('no bare canvas to grab on the page');
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __counting: boolean };
    w.__frames = [];
    w.__counting = true;
    const tick = (t: number) => {
      if (!w.__counting) return;
      w.__frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const x0 = start.x;
  const y0 = start.y;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  const started = Date.now();
  let step = 0;
  while (Date.now() - started < ms) {
    // A slow circle: the view keeps moving without drifting away from the graph.
    step++;
    await page.mouse.move(x0 + 60 + 50 * Math.cos(step / 10), y0 + 60 + 50 * Math.sin(step / 10));
  }
  await page.mouse.up();
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __counting: boolean };
    w.__counting = false;
    return w.__frames;
  });
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!).sort((a, b) => a - b);
  const span = (frames.at(-1)! - frames[0]!) / 1000;
  return { fps: (frames.length - 1) / span, p95FrameMs: gaps[Math.floor(gaps.length * 0.95)] ?? Number.NaN };
}

/** Starts recording long tasks (over 50 ms) in the page, for `paintedAndIdle`. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { start: number; end: number }[]; __longTaskObserver: PerformanceObserver };
    w.__longTasks = [];
    const record = (entries: PerformanceEntryList) => {
      for (const e of entries) w.__longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
    };
    w.__longTaskObserver = new PerformanceObserver((list) => record(list.getEntries()));
    w.__longTaskObserver.observe({ type: 'longtask' });
  });
}

/**
 * Time from `since` (page clock) until the graph is painted and interactive: the first frame
 * showing the final set of React Flow nodes, at least `minNodes` of them (the same for three
 * frames), or the end of the last long task after it if the main thread was still busy, plus
 * however long a task queued then waits to run. Nodes count once React Flow shows them (it keeps
 * a node hidden until it has measured it). Pass the number of nodes expected, or the id of a node
 * of the graph being opened (`marker`) that must be shown: otherwise the graph already on the page
 * can pass for the one being opened. Needs `watchLongTasks` first.
 */
export async function paintedAndIdle(page: Page, since: number, minNodes: number, marker?: string): Promise<number> {
  return page.evaluate(async ({ since, minNodes, marker }) => {
    const w = window as unknown as { __longTasks?: { start: number; end: number }[]; __longTaskObserver?: PerformanceObserver };
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const shown = () => {
      let n = 0;
      for (const node of document.querySelectorAll<HTMLElement>('.react-flow__node')) if (node.style.visibility !== 'hidden') n++;
      return n;
    };
    let last = -1;
    let settledAt = 0;
    let stable = 0;
    while (stable < 3) {
      const t = await frame();
      const count = shown();
      const opened = marker === undefined || document.querySelector(`.react-flow__node[data-id="${marker}"]`) !== null;
      if (opened && count >= minNodes && count === last) stable++;
      else {
        stable = 0;
        settledAt = t;
      }
      last = count;
    }
    // Long tasks the observer has not reported yet count too.
    for (const e of w.__longTaskObserver?.takeRecords() ?? []) w.__longTasks?.push({ start: e.startTime, end: e.startTime + e.duration });
    const busyUntil = Math.max(settledAt, ...(w.__longTasks ?? []).filter((l) => l.end > settledAt).map((l) => l.end));
    const queued = performance.now();
    await new Promise<void>((r) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => r();
      port2.postMessage(null);
    });
    return busyUntil - since + (performance.now() - queued);
  }, { since, minNodes, marker });
}

/** JS heap in use after a full garbage collection, in MB. */
export async function jsHeapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value;
  if (used === undefined) throw new Error('Chromium reported no JSHeapUsedSize');
  return used / 1e6;
}

export interface ScriptLoad {
  url: string;
  bytes: number;
  gzipped: number;
  /** Fetched as a web worker's entry script: it runs off the main thread. */
  worker: boolean;
}

/** Every script a fresh page load fetches until the network is quiet, with gzipped sizes. */
export async function initialScripts(browser: Browser, url: string): Promise<ScriptLoad[]> {
  const context = await browser.newContext();
  await context.addInitScript(NAME_SHIM);
  const page = await context.newPage();
  const pending: Promise<Omit<ScriptLoad, 'worker'> | undefined>[] = [];
  const workers = new Set<string>();
  page.on('worker', (worker) => workers.add(worker.url()));
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const isJs = type === 'script' || /\.m?js(\?|$)/.test(new URL(response.url()).pathname) || (response.headers()['content-type'] ?? '').includes('javascript');
    if (!isJs) return;
    pending.push(response.body().then(
      (body) => ({ url: response.url(), bytes: body.length, gzipped: gzipSync(body).length }),
      () => undefined,
    ));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const scripts = (await Promise.all(pending)).filter((s) => s !== undefined).map((s) => ({ ...s, worker: workers.has(s.url) }));
  await context.close();
  return scripts;
}
