import { expect, type Download, type Locator, type Page } from '@playwright/test';

// Page object for the ledger parts of the page: the "Keep ledger between runs" choice, the ledger
// outcome of a run, and the Ledger section (its tables, its actions, its alert), found by the
// accessible names a user sees.

export type LedgerTableName = 'Idempotency keys' | 'Effects' | 'Executions';

export interface LedgerPager {
  first: Locator;
  previous: Locator;
  next: Locator;
  last: Locator;
  /** The row field: a row's number, then Enter (or Show), shows its page. */
  rowNumber: Locator;
  show: Locator;
  /** "Rows 1–50 of 198,000" (a status region). */
  position: Locator;
}

export class LedgerPanel {
  readonly keepLedger: Locator;
  readonly outcome: Locator;
  readonly responses: Locator;
  readonly section: Locator;
  readonly info: Locator;
  readonly exportButton: Locator;
  readonly importInput: Locator;
  readonly resetButton: Locator;
  readonly alert: Locator;
  readonly scopeNotes: Locator;

  constructor(readonly page: Page) {
    this.keepLedger = page.getByRole('checkbox', { name: 'Keep ledger between runs' });
    this.outcome = page.getByRole('table', { name: 'Outcome' });
    this.responses = page.getByRole('table', { name: 'Responses' });
    this.section = page.getByRole('region', { name: 'Ledger', exact: true });
    this.info = this.section.locator('.lab-ledger-info');
    this.exportButton = this.section.getByRole('button', { name: 'Export ledger' });
    this.importInput = this.section.getByLabel('Import ledger');
    this.resetButton = this.section.getByRole('button', { name: 'Reset ledger' });
    this.alert = this.section.getByRole('alert');
    this.scopeNotes = this.section.getByRole('complementary').getByRole('listitem');
  }

  table(name: LedgerTableName): Locator {
    return this.section.getByRole('table', { name, exact: true });
  }

  /** The pager below a table of more than one page: its buttons, its row field and its announced position. */
  pager(name: LedgerTableName): LedgerPager {
    const nav = this.section.getByRole('navigation', { name: `${name} pages` });
    const button = (which: string): Locator => nav.getByRole('button', { name: `${name}: ${which}`, exact: true });
    return {
      first: button('first rows'),
      previous: button('previous rows'),
      next: button('next rows'),
      last: button('last rows'),
      rowNumber: nav.getByRole('spinbutton', { name: `${name}: row number` }),
      show: button('show row'),
      position: nav.getByRole('status'),
    };
  }

  /** Waits until no ledger request is pending (the section's aria-busy clears). */
  async waitIdle(): Promise<void> {
    await expect(this.section).toHaveAttribute('data-status', 'idle');
  }

  /** The outcome's counts by column header ("Executions" → "1"). */
  async readCounts(): Promise<Record<string, string>> {
    const headers = (await this.outcome.getByRole('columnheader').allTextContents()).map((text) => text.trim());
    const cells = (await this.outcome.locator('tbody').getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells).toHaveLength(headers.length);
    return Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? '']));
  }

  /** A ledger table's rows as column → shown text; an empty table has none. */
  async readRows(name: LedgerTableName): Promise<Array<Record<string, string>>> {
    const table = this.table(name);
    const headers = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
    if (headers.length === 0) return [];
    const rows = table.locator('tbody').getByRole('row');
    const result: Array<Record<string, string>> = [];
    for (const row of await rows.all()) {
      const cells = (await row.getByRole('cell').allTextContents()).map((text) => text.trim());
      result.push(Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? ''])));
    }
    return result;
  }

  async importFile(name: string, mimeType: string, bytes: Uint8Array): Promise<void> {
    await this.importInput.setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
    await this.waitIdle();
  }

  async export(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.exportButton.click();
    return download;
  }
}
