// Proves a valid ledger of 200,000 rows imports and displays without freezing the page (issue #14): only one page of
// rows is in the DOM, the caption counts all 200,000, the pages step, and an import with a trigger is refused with
// LAB010 leaving the stored ledger as it was. The import-to-display time is printed for the report.
import { expect, test } from '@playwright/test';
import initSqlJs from 'sql.js';
import { LEDGER_PAGE_ROWS } from '../src/ui/components/LedgerPanel';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';
import { LedgerFile } from '../src/engine';

const ROWS = 200_000;

async function bigLedger(): Promise<Uint8Array> {
  const sql = await initSqlJs();
  const file = LedgerFile.open(sql, null);
  const db = file.connect('fill');
  db.run('BEGIN');
  for (let i = 0; i < ROWS; i++) {
    db.run('INSERT INTO ledger.effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', ['charge', `customer-${i}`, 1200 + (i % 100), 'acme', `req-${i}`, 'fill', i]);
  }
  db.run('COMMIT');
  const bytes = file.export();
  file.close();
  return bytes;
}

test('a 200,000-row ledger imports and shows one page of rows', async ({ page }) => {
  test.slow();
  const bytes = await bigLedger();
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  await lab.open('?scenario=ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await ledger.waitIdle();

  const started = Date.now();
  await ledger.importFile('big.sqlite', 'application/vnd.sqlite3', bytes);
  const effects = ledger.table('Effects');
  await expect(effects.locator('caption')).toContainText('(200,000 rows)', { timeout: 30_000 });
  const importMs = Date.now() - started;
  await expect(effects.locator('tbody tr')).toHaveCount(LEDGER_PAGE_ROWS);
  await expect(page.getByText(`Rows 1–${LEDGER_PAGE_ROWS} of 200,000`)).toBeVisible();
  await expect(page.getByText('the first 1,000 are shown here')).toBeVisible();
  await page.getByRole('button', { name: 'Effects: next rows' }).click();
  await expect(page.getByText(`Rows ${LEDGER_PAGE_ROWS + 1}–${2 * LEDGER_PAGE_ROWS} of 200,000`)).toBeVisible();

  const reloadStarted = Date.now();
  await page.reload();
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await expect(ledger.table('Effects').locator('caption')).toContainText('(200,000 rows)', { timeout: 30_000 });
  const reloadMs = Date.now() - reloadStarted;
  console.info(`200,000-row ledger (${bytes.length} bytes): import to display ${importMs} ms, reload to display ${reloadMs} ms`);

  // A file with a trigger is refused; the big ledger stays.
  const sql = await initSqlJs();
  const tampered = new sql.Database(bytes);
  tampered.exec('CREATE TRIGGER forever BEFORE INSERT ON effects BEGIN SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n); END');
  const withTrigger = tampered.export();
  tampered.close();
  await ledger.importFile('trigger.sqlite', 'application/vnd.sqlite3', withTrigger);
  await expect(ledger.alert).toContainText('LAB010');
  await expect(ledger.alert).toContainText('trigger forever');
  await expect(ledger.table('Effects').locator('caption')).toContainText('(200,000 rows)');
});
