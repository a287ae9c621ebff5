/** The App view (the workflow's app as a form and a gallery), driven by roles and labels. */
import type { Locator, Page } from 'playwright-core';

export class AppViewPage {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('main', { name: 'App view' });
  }

  /** The form of inputs. */
  get form(): Locator {
    return this.root.getByRole('form', { name: 'Inputs' });
  }

  /** An input's control, by its label in the form. */
  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  get runButton(): Locator {
    return this.form.getByRole('button', { name: 'Run', exact: true });
  }

  get estimate(): Locator {
    return this.root.getByRole('region', { name: 'Cost estimate' });
  }

  /** An output's place in the gallery, by its label. */
  output(label: string): Locator {
    return this.root.getByRole('region', { name: 'Outputs' }).getByRole('region', { name: label, exact: true });
  }

  get editGraph(): Locator {
    return this.root.getByRole('button', { name: 'Edit graph' });
  }
}
