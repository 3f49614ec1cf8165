import { expect, type Locator, type Page } from '@playwright/test';

// Page object for the race explorer's panel, by accessible names.
export class ExplorePanel {
  readonly region: Locator;
  readonly explore: Locator;
  readonly stop: Locator;
  readonly progress: Locator;
  readonly summary: Locator;
  readonly endings: Locator;
  readonly violations: Locator;
  /** Per broken invariant, the button that opens its shortest ordering. */
  readonly shortest: Locator;
  readonly backToSeeded: Locator;
  readonly current: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'Every ordering' });
    this.explore = this.region.getByRole('button', { name: 'Explore', exact: true });
    this.stop = this.region.getByRole('button', { name: 'Stop exploring' });
    this.progress = this.region.getByRole('progressbar', { name: 'Exploration progress' });
    this.summary = this.region.getByTestId('explore-summary');
    this.endings = this.region.getByRole('list', { name: 'Endings' }).getByRole('button');
    this.violations = this.region.getByRole('list', { name: 'Violations' }).getByRole('button');
    this.shortest = this.region.getByRole('button', { name: /^Open the shortest ordering/ });
    this.backToSeeded = this.region.getByRole('button', { name: 'Back to the seeded run' });
    this.current = this.region.getByRole('status').filter({ hasText: 'Showing explored ordering' });
  }

  /** Explores and waits for the result. */
  async run(): Promise<void> {
    await this.explore.click();
    await expect(this.summary).toBeVisible({ timeout: 30_000 });
  }
}
