/**
 * Parts of the editor that load on first use instead of at start: the credential scanner a copy
 * or a save runs, and the page's asset store. Each test imports fresh modules, as a page that
 * has just started has them.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { registry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';

const KEY = 'sk-proj-Q3x9Vb7Lm2Tn8Rw4Ky6Pz1Hd5Fj0Gs3A';

function withKey(): Workflow {
  return {
    format: 'atelier.workflow', version: 1,
    metadata: { title: 'Borrowed', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
    nodes: [{ id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: { prompt: `castle ${KEY}`, seed: 7 } }],
    edges: [],
  };
}

beforeEach(() => {
  vi.resetModules();
});

describe('the credential scanner, loaded on first use', () => {
  it('says it cannot answer yet before it has loaded, then finds what it finds', async () => {
    const { scanNow } = await import('../../src/files/export-check');
    // A copy event cannot wait: "not yet" sends the copy down the path that checks first.
    expect(scanNow(withKey(), registry)).toBeUndefined();
    await vi.waitFor(() => expect(scanNow(withKey(), registry)).toHaveLength(1));
  });

  it('starts loading at the first key or pointer press, once', async () => {
    const { scanNow, warmExportCheck } = await import('../../src/files/export-check');
    const page = new EventTarget();
    const remove = vi.spyOn(page, 'removeEventListener');
    warmExportCheck(page);
    page.dispatchEvent(new Event('keydown'));
    expect(remove).toHaveBeenCalledWith('keydown', expect.any(Function), { capture: true });
    expect(remove).toHaveBeenCalledWith('pointerdown', expect.any(Function), { capture: true });
    // Once the module has arrived, the very first scan answers (it would say "not yet" unwarmed).
    await import('../../workflow/export-scan');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(scanNow(withKey(), registry)).toHaveLength(1);
  });

  it('is waited for by a save, which finds the credential on its first try', async () => {
    const { checkBeforeExport, exportCheckStore } = await import('../../src/files/export-check');
    const asked = new Promise<number>((resolve) => {
      const stop = exportCheckStore.subscribe(() => {
        const check = exportCheckStore.get();
        if (!check) return;
        stop();
        resolve(check.findings.length);
        check.decide(true);
      });
    });
    const checked = await checkBeforeExport(withKey(), 'save', registry);
    expect(await asked).toBe(1);
    expect(JSON.stringify(checked)).not.toContain(KEY);
  });
});

describe('the page\'s asset store, loaded on first use', () => {
  it('has nothing at hand before its first use, and keeps what it is given after', async () => {
    const { pageAssets } = await import('../../src/files/assets');
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const { assetRefOf } = await import('../../assets/ref');
    const ref = assetRefOf(bytes);
    expect(pageAssets.peek(ref)).toBeUndefined();
    expect(await pageAssets.put(bytes, 'image/png')).toBe(ref);
    expect(pageAssets.peek(ref)?.mime).toBe('image/png');
    expect(Array.from((await pageAssets.get(ref))!.bytes)).toEqual(Array.from(bytes));
  });
});
