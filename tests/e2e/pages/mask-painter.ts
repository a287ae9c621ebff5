/** The inpaint mask painter as a person drives it: by its buttons, its keys and the mouse. */
import type { Locator, Page } from 'playwright-core';
import type { NodeObject } from './node';

/** A point in the painting area as fractions of its width and height (0..1). */
export interface AreaPoint {
  x: number;
  y: number;
}

export class MaskPainterDialog {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: /^Paint mask: / });
  }

  /** Opens the painter from an inpaint node's "Paint mask…" / "Edit mask…" button. */
  static async open(node: NodeObject): Promise<MaskPainterDialog> {
    await node.root.getByRole('button', { name: /^(Paint|Edit) mask…$/ }).click();
    const painter = new MaskPainterDialog(node.page);
    await painter.dialog.waitFor();
    return painter;
  }

  /** The canvas painted on. */
  get area(): Locator {
    return this.dialog.getByRole('img', { name: /^Mask painting area/ });
  }

  /** The picture under the mask, when one is known. */
  get picture(): Locator {
    return this.dialog.locator('img.mask-picture');
  }

  /** "Repaints 12% of the image", "Repaints none of the image"… */
  get status(): Locator {
    return this.dialog.getByRole('status');
  }

  async coverage(): Promise<string> {
    return ((await this.status.textContent()) ?? '').replace(/^Repaints (.*) of the image$/, '$1');
  }

  button(name: string): Locator {
    return this.dialog.getByRole('button', { name, exact: true });
  }

  /** Paints (or erases) a straight stroke with the mouse between two points of the area. */
  async stroke(from: AreaPoint, to: AreaPoint, steps = 12): Promise<void> {
    const box = await this.area.boundingBox();
    if (!box) throw new Error('the painting area is not on screen');
    const at = (p: AreaPoint) => ({ x: box.x + p.x * box.width, y: box.y + p.y * box.height });
    const a = at(from);
    const b = at(to);
    const { mouse } = this.page;
    await mouse.move(a.x, a.y);
    await mouse.down();
    await mouse.move(b.x, b.y, { steps });
    await mouse.up();
  }

  async save(): Promise<void> {
    await this.button('Save mask').click();
    await this.dialog.waitFor({ state: 'detached' });
  }

  async cancel(): Promise<void> {
    await this.button('Cancel').click();
    await this.dialog.waitFor({ state: 'detached' });
  }
}
