// Proves one lazily loaded part that fails shows its error in its own place while the rest of the page keeps
// working: the Ledger tab's and the Reviewer's code never arrive (as after a deploy that removed them), and
// the Race tab still runs, the Compare tab still opens.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

// The service worker would answer from its cache; the test plays the network's part.
test.use({ serviceWorkers: 'block' });

test('a lazy part whose code does not load fails in place, not the whole page', async ({ page }) => {
  await page.route(/\/assets\/(LedgerTab|ReviewerPanel)-[^/]*\.js$/, (route) => route.abort('failed'));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const lab = new LabPage(page);
  await lab.open('?scenario=ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', 'http');

  await page.getByRole('tab', { name: 'Reviewer' }).click();
  const reviewer = page.locator('[data-part-error="the Reviewer tab"]');
  await expect(reviewer).toContainText('The Reviewer tab could not be shown');
  await expect(reviewer).toContainText('its code did not load');
  await expect(reviewer.getByRole('button', { name: 'Reload the page' })).toBeVisible();
  await expect(lab.heading).toBeVisible();

  await page.getByRole('tab', { name: 'Ledger' }).click();
  await expect(page.locator('[data-part-error="the Ledger tab"]')).toContainText('could not be shown');
  // The workbench beside it still runs.
  await lab.setSeed('2');
  await lab.runButton.click();
  await lab.waitForRun('ledger-keyed-retry', 'http', 2);
  expect((await lab.timelineLines()).length).toBeGreaterThan(0);

  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByRole('heading', { name: 'Compare two runs' })).toBeVisible();
  expect(errors).toEqual([]);
});
