/** The Settings dialog as a person drives it, by role and accessible name. */
import type { Locator, Page } from 'playwright-core';

export class SettingsDialog {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Settings' });
  }

  /** Opens the dialog from the toolbar's Settings button (the dialog loads when first opened). */
  static async open(page: Page): Promise<SettingsDialog> {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = new SettingsDialog(page);
    await settings.dialog.waitFor();
    return settings;
  }

  /** Picks where requests go, by the option's title ("Real endpoints, directly from the browser"). */
  async route(title: string): Promise<void> {
    await this.dialog.getByRole('radio', { name: new RegExp(`^${title}`) }).check();
  }

  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  /** Types into a field key by key, as a person does, without leaving it. */
  async type(label: string, text: string): Promise<void> {
    await this.field(label).click();
    await this.field(label).pressSequentially(text);
  }

  /** Settings → Image backend. */
  get imageBackend(): Locator {
    return this.dialog.getByRole('group', { name: 'Image backend', exact: true });
  }

  /** One backend choice: "All engines", or an engine's own ("SDXL v1.0") under Per engine. */
  backendSlot(slot = 'All engines'): Locator {
    return this.imageBackend.getByRole('group', { name: slot, exact: true });
  }

  /** Chooses the backend of a slot by its option's text ("ComfyUI", "OpenAI Images"). */
  async chooseBackend(option: string, slot = 'All engines'): Promise<void> {
    if (slot !== 'All engines') await this.openPerEngine();
    await this.backendSlot(slot).getByLabel('Backend', { exact: true }).selectOption({ label: option });
  }

  /** Opens "Per engine" under Image backend (no-op when open). */
  async openPerEngine(): Promise<void> {
    const details = this.imageBackend.locator('details.backend-engines');
    if (await details.getAttribute('open') === null) await details.locator('summary').click();
  }

  /** A field of a backend slot, by its label ("Base URL", "API key", "Checkpoint for SDXL v1.0"). */
  backendField(label: string, slot = 'All engines'): Locator {
    return this.backendSlot(slot).getByLabel(label, { exact: true });
  }

  /** Fills a backend field and leaves it (Tab), as a person finishing an entry does. */
  async enterBackendField(label: string, value: string, slot = 'All engines'): Promise<void> {
    await this.backendField(label, slot).fill(value);
    await this.backendField(label, slot).press('Tab');
  }

  /** The "Cached results" section. */
  get cache(): Locator {
    return this.dialog.getByRole('group', { name: 'Cached results' });
  }

  /** What the cache holds: "3 results · 1.2 MB of 512.0 MB, kept across reloads." */
  async cacheHolds(): Promise<string> {
    const line = this.cache.getByText(/^\d+ results? · /);
    await line.waitFor();
    return ((await line.textContent()) ?? '').trim();
  }

  get clearCacheButton(): Locator {
    return this.cache.getByRole('button', { name: 'Clear cached results…' });
  }

  /** The question asked before the cache is emptied. */
  get confirmClear(): Locator {
    return this.cache.getByRole('group', { name: 'Confirm clearing cached results' });
  }

  async close(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Done' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
}
