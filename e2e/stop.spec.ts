// Proves a run can always be ended from the page: while a long legitimate run computes, a keyboard-reachable
// Stop button terminates the worker and starts a fresh one; the page says so, the stored ledger keeps its bytes, and
// the next run works.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';
import { storedByteCount } from './pages/storage';

/** A herd of 100,000 clients behind a server that admits one per window: minutes of engine work. */
const LONG_RUN = '?scenario=herd&clients=100000&admitPerWindow=1&eventsMax=100000000&attemptsMax=1000000';

test('Stop ends a long run, restarts the worker and keeps the stored ledger', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  const ledger = new LedgerPanel(page);
  // Store a ledger first: one kept keyed retry.
  await lab.open('?scenario=ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await ledger.waitIdle();
  await ledger.keepLedger.check();
  await lab.waitForRun('ledger-keyed-retry', 'http');
  await ledger.waitIdle();
  const before = await storedByteCount(page);
  expect(before).toBeGreaterThan(0);

  await lab.open(LONG_RUN);
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  await expect(stop).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Running in the worker' })).toBeVisible();
  // Keyboard reachable: focus it and press Enter.
  await stop.focus();
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab.alert).toContainText('STOPPED');
  await expect(lab.alert).toContainText('fresh worker');
  await expect(lab.alert).toContainText('stored ledger is as it was');
  await expect(stop).toHaveCount(0);
  expect(await storedByteCount(page)).toBe(before);

  // The fresh worker answers the next run.
  await lab.pickScenario('A');
  await lab.waitForRun('A', 'stdio');
  await expect(lab.alert).toHaveCount(0);
});
