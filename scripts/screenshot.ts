/**
 * `npx tsx scripts/screenshot.ts [dir]`: the README's screenshots of the starter workflow, into
 * docs/ by default: at 1440×900 and at 1024×768, each as it opens (`starter-<size>.png`) and after
 * a run (`starter-<size>-run.png`). Builds the editor if dist/ is stale, serves that build from
 * the local server on a free port, opens it in headless Chromium with a fresh profile (so the
 * starter workflow opens), waits for the first estimate, shoots, runs it with Ctrl+Enter on the
 * local engines and, once the run summary says it finished and every image has decoded, shoots
 * again. Pictures are saved as palette PNGs (sharp) to keep the files small. Uses the same build
 * check, server start and Chromium as the e2e tests.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { PROJECT_ROOT, startServer } from '../tests/helpers/server-process';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/setup/browser-path';
import { buildEditorIfStale } from '../tests/e2e/setup/build';

const SIZES = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }];
const RUN_TIMEOUT_MS = 60_000;

/** Waits until every <img> on the page has loaded and decoded, so none is caught half drawn. */
async function imagesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const images = [...document.images];
    await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
    return images.filter((img) => img.complete && img.naturalWidth > 0).length;
  });
}

/** Saves the page as a palette PNG at `out`; returns its size in kB. */
async function shoot(page: Page, out: string): Promise<number> {
  // Nothing focused or hovered: no focus ring or tooltip in the picture.
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.mouse.move(width - 5, height - 5);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const shot = await page.screenshot({ type: 'png' });
  const png = await sharp(shot).png({ palette: true, colours: 256, dither: 0.6, compressionLevel: 9, effort: 10 }).toBuffer();
  writeFileSync(out, png);
  return Math.round(png.length / 1024);
}

/** The starter at one window size, before and after a run. */
async function starterAt(browser: Browser, url: string, dir: string, size: { width: number; height: number }): Promise<void> {
  const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.locator('.react-flow__node').first().waitFor();
    await page.getByRole('region', { name: 'Cost estimate' }).getByText('Price units').waitFor();
    const name = `starter-${size.width}x${size.height}`;
    const before = join(dir, `${name}.png`);
    const beforeKb = await shoot(page, before);
    await page.keyboard.press('Control+Enter');
    const lastRun = page.getByRole('region', { name: 'Run' }).getByRole('region', { name: 'Last run' });
    await lastRun.waitFor({ timeout: RUN_TIMEOUT_MS });
    const outcome = (await lastRun.getByRole('heading').textContent()) ?? '';
    if (outcome !== 'Run finished') throw new Error(`the starter workflow did not run cleanly: "${outcome}"`);
    const shown = await imagesDecoded(page);
    if (shown === 0) throw new Error('the run finished but no image is shown');
    if (errors.length > 0) throw new Error(`errors in the page: ${errors.join('; ')}`);
    const after = join(dir, `${name}-run.png`);
    const afterKb = await shoot(page, after);
    console.log(`screenshot: ${relative(process.cwd(), before) || before} (${beforeKb} kB), ${relative(process.cwd(), after) || after} (${afterKb} kB, ${shown} images shown)`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? join(PROJECT_ROOT, 'docs'));
  if (buildEditorIfStale(PROJECT_ROOT)) console.log('screenshot: built the editor (vite build) into dist/');
  // A copy of the build, as the e2e setup does: a rebuild meanwhile cannot pull files from under the page.
  const dist = mkdtempSync(join(tmpdir(), 'atelier-screenshot-dist-'));
  cpSync(join(PROJECT_ROOT, 'dist'), dist, { recursive: true });
  // Chat paced so it streams as it does for a person, image steps quick.
  const server = await startServer({ ATELIER_DIST_DIR: dist, ATELIER_LOCAL_TOKEN_MS: '10', ATELIER_LOCAL_STEP_MS: '1' });
  const browser = await chromium.launch({ executablePath: chromiumPath(PROJECT_ROOT), headless: true, args: CHROMIUM_ARGS });
  try {
    for (const size of SIZES) await starterAt(browser, server.url, dir, size);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dist, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`screenshot: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
