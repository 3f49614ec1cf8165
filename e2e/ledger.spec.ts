// Proves every scenario in the picker runs in the browser (the ledger ones on sql.js loaded inside the Web Worker), and that the ledger kept in IndexedDB survives a reload, exports as a standard SQLite file, and refuses a corrupt, foreign or oversized import without changing (an oversized one by its size, before the page reads it).
import { readFile } from 'node:fs/promises';
import { expect, test, type Page, type Response } from '@playwright/test';
import initSqlJs from 'sql.js';
import { findScenario, scenarios } from '../src/scenarios/index';
import { LEDGER_BYTES_MAX } from '../src/worker/ledgerLimits';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';
import { storedByteCount } from './pages/storage';

const SQLITE_HEADER = 'SQLite format 3\0';

async function openLedgerScenario(page: Page, id: string): Promise<{ lab: LabPage; ledger: LedgerPanel }> {
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  await lab.open();
  await lab.pickScenario(id);
  await lab.waitForRun(id, findScenario(id).defaultTransport);
  await ledger.waitIdle();
  return { lab, ledger };
}

/** Ticks "Keep ledger between runs" on ledger-keyed-retry, which re-runs on the stored ledger and saves one key. */
async function keepOneKey(page: Page): Promise<{ lab: LabPage; ledger: LedgerPanel }> {
  const opened = await openLedgerScenario(page, 'ledger-keyed-retry');
  await opened.ledger.keepLedger.check();
  await expect(opened.ledger.table('Idempotency keys').getByRole('row')).toHaveCount(2);
  await opened.lab.waitForRun('ledger-keyed-retry', 'http');
  await opened.ledger.waitIdle();
  return opened;
}

test('every scenario in the picker runs, with sql.js fetched by the worker from the built asset', async ({ page }) => {
  test.slow(); // one run per scenario, the herd among them
  const wasm: Response[] = [];
  page.on('response', (response) => {
    if (/\/assets\/sql-wasm[^/]*\.wasm$/.test(response.url())) wasm.push(response);
  });
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  for (const { id, defaultTransport } of scenarios) {
    await lab.pickScenario(id);
    await lab.waitForRun(id, defaultTransport);
    await expect(lab.alert, id).toHaveCount(0);
    expect((await lab.timelineLines()).length, id).toBeGreaterThan(0);
  }
  expect(wasm.map((response) => [response.status(), response.headers()['content-type']])).toEqual([
    [200, 'application/wasm'],
  ]);
});

test('ledger-race-keyed: two connections race, SQLITE_BUSY on the timeline, one execution', async ({ page }) => {
  const { lab, ledger } = await openLedgerScenario(page, 'ledger-race-keyed');

  await expect(ledger.outcome).toBeVisible();
  expect(await ledger.readCounts()).toMatchObject({ Executions: '1', Replayed: '1', Rejected: '0' });
  await expect(lab.facts).toHaveCount(0);
  const lines = await lab.timelineLines();
  expect(lines.filter((line) => line.includes('SQLITE_BUSY')).length).toBeGreaterThan(0);
  expect(lines.some((line) => line.includes('conn-1: BEGIN IMMEDIATE → ok'))).toBe(true);
  expect(lines.some((line) => line.includes('conn-2: BEGIN IMMEDIATE → SQLITE_BUSY'))).toBe(true);
  await expect(ledger.responses.locator('tbody').getByRole('row')).toHaveText([
    /#41\s*conn-1\s*executed/,
    /#42\s*conn-2\s*replayed/,
  ]);

  // A fresh run (the default) stores nothing; the scope notes (LG-8) sit next to the ledger.
  await expect(ledger.keepLedger).not.toBeChecked();
  await expect(ledger.info).toContainText('Nothing is stored in this browser yet');
  expect(await ledger.readRows('Idempotency keys')).toEqual([]);
  await expect(ledger.scopeNotes).toHaveCount(3);
  await expect(ledger.scopeNotes.nth(1)).toContainText('transactional outbox');
  await expect(lab.alert).toHaveCount(0);
});

test('with "Keep ledger between runs" on, the stored key survives a page reload (IndexedDB)', async ({ page }) => {
  const { lab, ledger } = await keepOneKey(page);
  const keys = await ledger.readRows('Idempotency keys');
  expect(keys.map((row) => [row.key, row.operation, row.request_id])).toEqual([['checkout-7', 'charge_account', '41']]);
  expect(await ledger.readRows('Executions')).toEqual([{ operation: 'charge_account', count: '1' }]);
  await expect(ledger.info).toContainText('Stored in this browser (IndexedDB)');
  const bytes = await storedByteCount(page);
  expect(bytes).toBeGreaterThan(0);

  // Run again on the kept ledger: the key is recorded, so both requests replay and nothing executes.
  await lab.runButton.click();
  await expect(ledger.outcome.locator('tbody').getByRole('cell').first()).toHaveText('0');
  await ledger.waitIdle();
  expect(await ledger.readRows('Effects')).toHaveLength(1);

  await page.reload();
  await expect(lab.heading).toBeVisible();
  await lab.pickScenario('ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await ledger.waitIdle();
  await expect(ledger.keepLedger).not.toBeChecked();
  expect(await ledger.readRows('Idempotency keys')).toEqual(keys);
  await expect(ledger.info).toContainText(`${(bytes ?? 0).toLocaleString('en-US')} bytes`);
  expect(await storedByteCount(page)).toBe(bytes);
});

test('a corrupt or foreign import shows LAB010 and leaves the stored ledger untouched', async ({ page }) => {
  const { ledger } = await keepOneKey(page);
  const before = {
    keys: await ledger.readRows('Idempotency keys'),
    effects: await ledger.readRows('Effects'),
    info: await ledger.info.textContent(),
  };
  expect(before.keys).toHaveLength(1);
  const unchanged = async () => {
    expect(await ledger.readRows('Idempotency keys')).toEqual(before.keys);
    expect(await ledger.readRows('Effects')).toEqual(before.effects);
    await expect(ledger.info).toHaveText(before.info ?? '');
  };

  await ledger.importFile('notes.txt', 'text/plain', new TextEncoder().encode('These are my notes, not a database.\n'));
  await expect(ledger.alert).toContainText('Could not import “notes.txt”.');
  await expect(ledger.alert).toContainText('LAB010');
  await expect(ledger.alert).toContainText('not a SQLite database');
  await expect(ledger.alert).toContainText('the current ledger is unchanged');
  await unchanged();

  const SQL = await initSqlJs();
  const foreign = new SQL.Database();
  foreign.exec(
    `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada')`,
  );
  const foreignBytes = foreign.export();
  foreign.close();
  expect(new TextDecoder().decode(foreignBytes.slice(0, 16))).toBe(SQLITE_HEADER);

  await ledger.importFile('customers.sqlite', 'application/vnd.sqlite3', foreignBytes);
  await expect(ledger.alert).toContainText('LAB010');
  await expect(ledger.alert).toContainText('no lab_meta table');
  await expect(ledger.alert).toContainText('customers');
  await unchanged();
});

test('a file over the ledger bound is refused by its size, never read nor sent to the worker, and the ledger stays', async ({
  page,
}) => {
  const { ledger } = await keepOneKey(page);
  const before = {
    keys: await ledger.readRows('Idempotency keys'),
    effects: await ledger.readRows('Effects'),
    info: await ledger.info.textContent(),
  };
  // Counts what the page reads of a picked file and what it hands the worker: reading a 2 GB file whole is what froze the tab.
  await page.evaluate(() => {
    const seen = { reads: 0, imports: 0 };
    (window as unknown as { importSeen: typeof seen }).importSeen = seen;
    const read = Blob.prototype.arrayBuffer;
    Blob.prototype.arrayBuffer = function (this: Blob) {
      seen.reads += 1;
      return read.call(this);
    };
    const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: Transferable[]) => void;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: Transferable[]) {
      if ((message as { type?: unknown } | null)?.type === 'ledger-import') seen.imports += 1;
      post.call(this, message, transfer ?? []);
    } as Worker['postMessage'];
  });

  await ledger.importFile('huge.sqlite', 'application/vnd.sqlite3', new Uint8Array(LEDGER_BYTES_MAX + 1));
  await expect(ledger.alert).toContainText('Could not import “huge.sqlite”.');
  await expect(ledger.alert).toContainText('LAB010');
  await expect(ledger.alert).toContainText(
    `the file is ${(LEDGER_BYTES_MAX + 1).toLocaleString('en')} bytes, more than a lab ledger's ${LEDGER_BYTES_MAX.toLocaleString('en')}`,
  );
  await expect(ledger.alert).toContainText('the current ledger is unchanged');
  expect(
    await page.evaluate(() => (window as unknown as { importSeen: { reads: number; imports: number } }).importSeen),
  ).toEqual({ reads: 0, imports: 0 });
  expect(await ledger.readRows('Idempotency keys')).toEqual(before.keys);
  expect(await ledger.readRows('Effects')).toEqual(before.effects);
  await expect(ledger.info).toHaveText(before.info ?? '');
});

test('Export ledger downloads a standard SQLite file that imports back after a reset', async ({ page }) => {
  const { ledger } = await keepOneKey(page);
  const keys = await ledger.readRows('Idempotency keys');

  const download = await ledger.export();
  expect(download.suggestedFilename()).toBe('lab-ledger.sqlite');
  const file = new Uint8Array(await readFile(await download.path()));
  expect(new TextDecoder().decode(file.slice(0, 16))).toBe(SQLITE_HEADER);
  // Plain sql.js, no lab code, reads it.
  const SQL = await initSqlJs();
  const db = new SQL.Database(file);
  expect(db.exec('SELECT key, operation FROM idempotency_keys')[0]?.values).toEqual([['checkout-7', 'charge_account']]);
  db.close();

  await ledger.resetButton.click();
  await ledger.waitIdle();
  await expect(ledger.info).toContainText('Nothing is stored in this browser yet');
  expect(await ledger.readRows('Idempotency keys')).toEqual([]);
  expect(await storedByteCount(page)).toBeNull();

  await ledger.importFile('lab-ledger.sqlite', 'application/vnd.sqlite3', file);
  await expect(ledger.alert).toHaveCount(0);
  expect(await ledger.readRows('Idempotency keys')).toEqual(keys);
  expect(await storedByteCount(page)).toBe(file.length);
});
