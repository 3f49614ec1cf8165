// Proves two tabs keeping one ledger lose none of each other's runs: with "Keep ledger between runs" ticked in
// two real pages of one browser, Run pressed in both at once six times stores every run's effects (the
// workers take turns with the stored ledger through the Web Locks API).
import { expect, test, type Page } from '@playwright/test';
import initSqlJs from 'sql.js';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';
import { storedBytes } from './pages/storage';

const SCENARIO = 'ledger-new-id-retry';
/** ledger-new-id-retry charges twice per run: the retry without a key runs the effect again. */
const EFFECTS_PER_RUN = 2;

async function storedEffects(page: Page): Promise<number> {
  const bytes = await storedBytes(page);
  if (bytes === null) return 0;
  const SQL = await initSqlJs();
  const db = new SQL.Database(bytes);
  try {
    return Number(db.exec('SELECT count(*) FROM effects')[0]?.values[0]?.[0]);
  } finally {
    db.close();
  }
}

async function keeping(page: Page): Promise<LabPage> {
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  await lab.open(`?scenario=${SCENARIO}`);
  await lab.waitForRun(SCENARIO, 'http');
  await ledger.keepLedger.check();
  await lab.waitForRun(SCENARIO, 'http');
  await ledger.waitIdle();
  return lab;
}

test('two tabs pressing Run at once on a kept ledger store every effect', async ({ context }) => {
  test.slow();
  const [pageA, pageB] = [await context.newPage(), await context.newPage()];
  const a = await keeping(pageA);
  await expect.poll(() => storedEffects(pageA)).toBe(EFFECTS_PER_RUN);
  const b = await keeping(pageB);
  await expect.poll(() => storedEffects(pageA)).toBe(2 * EFFECTS_PER_RUN);
  let expected = 2 * EFFECTS_PER_RUN;
  for (let round = 1; round <= 6; round++) {
    await Promise.all([a.runButton.click(), b.runButton.click()]);
    expected += 2 * EFFECTS_PER_RUN;
    await expect.poll(() => storedEffects(pageB), { message: `round ${round}` }).toBe(expected);
    await a.waitForRun(SCENARIO, 'http');
    await b.waitForRun(SCENARIO, 'http');
  }
  await expect(a.alert).toHaveCount(0);
  await expect(b.alert).toHaveCount(0);
});

/** Puts `value` where the worker keeps the ledger, as another program (or an old version) could have. */
async function storeRaw(page: Page, kind: 'string' | 'object' | 'blob' | 'arraybuffer'): Promise<void> {
  await page.evaluate(
    (kind) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('mcp-reliability-lab');
        open.onupgradeneeded = () => open.result.createObjectStore('ledger');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const value =
            kind === 'string'
              ? 'not a ledger'
              : kind === 'object'
                ? { bytes: [1, 2, 3] }
                : kind === 'blob'
                  ? new Blob(['x'])
                  : new ArrayBuffer(8);
          const put = db.transaction('ledger', 'readwrite').objectStore('ledger').put(value, 'lab-ledger.sqlite');
          put.onerror = () => reject(put.error);
          put.onsuccess = () => {
            db.close();
            resolve();
          };
        };
      }),
    kind,
  );
}

test('an unreadable stored ledger leaves Reset ledger enabled, and Reset is the way out', async ({ page }) => {
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  await lab.open();
  for (const kind of ['string', 'object', 'blob', 'arraybuffer'] as const) {
    await storeRaw(page, kind);
    await lab.open(`?scenario=${SCENARIO}`);
    await expect(ledger.alert, kind).toContainText('Reset ledger');
    await expect(ledger.info, kind).toContainText('cannot be read');
    await expect(ledger.resetButton, kind).toBeEnabled();
    await ledger.resetButton.click();
    await ledger.waitIdle();
    await expect(ledger.alert, kind).toHaveCount(0);
    await expect(ledger.info, kind).toContainText('Nothing is stored in this browser yet');
  }
});
