import { expect, type Locator, type Page } from '@playwright/test';

// Page object for the lab's tab bar, its panels and the instructor modes, by accessible names.

export type TabName =
  | 'Race'
  | 'Ledger'
  | 'Tasks'
  | 'Buffer'
  | 'Compare'
  | 'Backoff'
  | 'Proxy & reconnect'
  | 'Verification'
  | 'Reviewer'
  | 'Exercises';

export class Panels {
  readonly capacity: Locator;
  readonly baseDelay: Locator;
  readonly cap: Locator;
  readonly clients: Locator;
  readonly policy: Locator;
  readonly presentation: Locator;
  readonly predict: Locator;
  readonly exportEvidence: Locator;
  readonly reviewInput: Locator;
  readonly reviewButton: Locator;
  readonly downloadSkill: Locator;
  readonly checklist: Locator;

  constructor(readonly page: Page) {
    this.capacity = page.getByRole('slider', { name: 'Queue capacity' });
    this.baseDelay = page.getByRole('slider', { name: 'Base delay' });
    this.cap = page.getByRole('slider', { name: 'Cap', exact: true });
    this.clients = page.getByRole('slider', { name: 'Clients' });
    this.policy = page.getByRole('combobox', { name: 'Policy' });
    this.presentation = page.getByRole('button', { name: 'Presentation' });
    this.predict = page.getByRole('button', { name: 'Predict' });
    this.exportEvidence = page.getByRole('button', { name: 'Export evidence' });
    this.reviewInput = page.getByRole('textbox', { name: 'Design to review (JSON)' });
    this.reviewButton = page.getByRole('button', { name: 'Review', exact: true });
    this.downloadSkill = page.getByRole('button', { name: 'Download skill' });
    this.checklist = page.getByRole('list', { name: 'Verification checklist' });
  }

  tab(name: TabName): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openTab(name: TabName): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
  }

  /** Waits until no panel is computing in the worker (the Verification tab's checklist can take tens of seconds). */
  async waitIdle(): Promise<void> {
    await expect(this.page.locator('.panel-busy[data-busy="true"]')).toHaveCount(0, { timeout: 120_000 });
  }

  /**
   * Waits for the Verification tab's checklist: it is computed in the tools worker from about 1,200 runs
   * (every statement over both transports, seeds 1-20 and a jittered variant), so it may take tens of
   * seconds on a loaded machine. Returns how long it took, in ms.
   */
  async waitVerified(): Promise<number> {
    const started = Date.now();
    await expect(this.page.locator('.panel-busy[data-busy="true"]')).toHaveCount(0, { timeout: 120_000 });
    await expect(this.text('vf-summary')).toBeVisible({ timeout: 120_000 });
    return Date.now() - started;
  }

  /** Moves a range input to `value` the way dragging does (input events), then waits for the worker. */
  async slide(slider: Locator, value: number): Promise<void> {
    await slider.fill(String(value));
    await expect(slider).toHaveValue(String(value));
    await this.waitIdle();
  }

  text(testId: string): Locator {
    return this.page.getByTestId(testId);
  }
}
