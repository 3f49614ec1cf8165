// Proves a genuine 200,000-row lab ledger imports, displays one page of rows at a time and can be browsed to its very
// last row: the pager's buttons (axe finds nothing serious in them) and the row field are reached and worked by keyboard, the position is
// announced, a reload shows it again, and an import with a trigger is refused with LAB010 leaving the stored ledger as
// it was. How long the import takes is measured by npm run bench:ui (bench/ledgerImport.bench.ts), not here.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import initSqlJs from 'sql.js';
import { LEDGER_PAGE_ROWS } from '../src/ui/components/LedgerPanel';
import { BIG_LEDGER_ROWS, bigLedgerBytes, bigLedgerKey, bigLedgerSubject } from '../src/testing/bigLedger';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';

const EFFECTS = BIG_LEDGER_ROWS.effects;
const KEYS = BIG_LEDGER_ROWS.keys;
const n = (value: number) => value.toLocaleString('en');

test('a 200,000-row ledger imports, shows a page at a time, and every row is reachable by keyboard', async ({
  page,
}) => {
  test.slow();
  const sql = await initSqlJs();
  const bytes = bigLedgerBytes(sql);
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  await lab.open('?scenario=ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await ledger.waitIdle();

  await ledger.importFile('big.sqlite', 'application/vnd.sqlite3', bytes);
  const effects = ledger.table('Effects');
  await expect(effects.locator('caption')).toContainText(`(${n(EFFECTS)} rows)`);
  await expect(ledger.table('Idempotency keys').locator('caption')).toContainText(`(${n(KEYS)} rows)`);
  await expect(effects.locator('tbody tr')).toHaveCount(LEDGER_PAGE_ROWS);
  const effectsPager = ledger.pager('Effects');
  await expect(effectsPager.position).toHaveText(`Rows 1–${LEDGER_PAGE_ROWS} of ${n(EFFECTS)}`);
  await expect(effectsPager.first).toBeDisabled();
  await expect(effectsPager.previous).toBeDisabled();
  const axe = await new AxeBuilder({ page })
    .include('.lab-ledger')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help}`),
  ).toEqual([]);

  // Last, by keyboard: the very last effect, and the position says so.
  await effectsPager.last.focus();
  await page.keyboard.press('Enter');
  await expect(effectsPager.position).toHaveText(
    `Rows ${n(EFFECTS - LEDGER_PAGE_ROWS + 1)}–${n(EFFECTS)} of ${n(EFFECTS)}`,
  );
  await expect(effects.getByRole('cell', { name: bigLedgerSubject(EFFECTS), exact: true })).toBeVisible();
  await expect(effects.locator('tbody tr')).toHaveCount(LEDGER_PAGE_ROWS);
  await expect(effectsPager.next).toBeDisabled();
  // Focus stays on the key just pressed, though it now leads nowhere.
  await expect(effectsPager.last).toBeFocused();

  // Previous, with the space bar: the page before the last.
  await effectsPager.previous.focus();
  await page.keyboard.press('Space');
  await expect(effectsPager.position).toHaveText(
    `Rows ${n(EFFECTS - 2 * LEDGER_PAGE_ROWS + 1)}–${n(EFFECTS - LEDGER_PAGE_ROWS)} of ${n(EFFECTS)}`,
  );
  await expect(
    effects.getByRole('cell', { name: bigLedgerSubject(EFFECTS - LEDGER_PAGE_ROWS), exact: true }),
  ).toBeVisible();

  // A row that does not exist is refused in words, and the page stays where it is.
  await effectsPager.rowNumber.fill(String(EFFECTS + 1));
  await expect(effectsPager.rowNumber).toHaveAttribute('aria-invalid', 'true');
  await expect(effectsPager.rowNumber).toHaveAccessibleDescription(`A whole number from 1 to ${n(EFFECTS)}`);
  await expect(effectsPager.show).toBeDisabled();

  // Straight to a row past the first 1,000: type its number, press Enter.
  await effectsPager.rowNumber.fill('123457');
  await effectsPager.rowNumber.press('Enter');
  await expect(effectsPager.position).toHaveText('Rows 123,451–123,500 of 198,000');
  await expect(effects.getByRole('cell', { name: bigLedgerSubject(123_457), exact: true })).toBeVisible();

  // Next from there, then First.
  await effectsPager.next.click();
  await expect(effectsPager.position).toHaveText('Rows 123,501–123,550 of 198,000');
  await expect(effects.getByRole('cell', { name: bigLedgerSubject(123_501), exact: true })).toBeVisible();
  await effectsPager.first.click();
  await expect(effects.getByRole('cell', { name: bigLedgerSubject(1), exact: true })).toBeVisible();
  await expect(effectsPager.position).toHaveText(`Rows 1–${LEDGER_PAGE_ROWS} of ${n(EFFECTS)}`);

  // The keys table pages on its own, in committed order, to its last key.
  const keysPager = ledger.pager('Idempotency keys');
  await keysPager.last.click();
  await expect(keysPager.position).toHaveText(`Rows ${n(KEYS - LEDGER_PAGE_ROWS + 1)}–${n(KEYS)} of ${n(KEYS)}`);
  await expect(
    ledger.table('Idempotency keys').getByRole('cell', { name: bigLedgerKey(KEYS), exact: true }),
  ).toBeVisible();
  await expect(effectsPager.position).toHaveText(`Rows 1–${LEDGER_PAGE_ROWS} of ${n(EFFECTS)}`);

  // A reload shows the stored ledger again, and its last row is still reachable.
  await page.reload();
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await expect(ledger.table('Effects').locator('caption')).toContainText(`(${n(EFFECTS)} rows)`);
  await ledger.pager('Effects').last.click();
  await expect(
    ledger.table('Effects').getByRole('cell', { name: bigLedgerSubject(EFFECTS), exact: true }),
  ).toBeVisible();

  // A file with a trigger is refused; the big ledger stays, on the page it was showing.
  const tampered = new sql.Database(bytes);
  tampered.exec(
    'CREATE TRIGGER forever BEFORE INSERT ON effects BEGIN SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n); END',
  );
  const withTrigger = tampered.export();
  tampered.close();
  await ledger.importFile('trigger.sqlite', 'application/vnd.sqlite3', withTrigger);
  await expect(ledger.alert).toContainText('LAB010');
  await expect(ledger.alert).toContainText('trigger forever');
  await expect(ledger.table('Effects').locator('caption')).toContainText(`(${n(EFFECTS)} rows)`);
  await expect(
    ledger.table('Effects').getByRole('cell', { name: bigLedgerSubject(EFFECTS), exact: true }),
  ).toBeVisible();
});
