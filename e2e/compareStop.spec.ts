// Proves a long comparison in the page can be stopped and never starves the Reviewer: Compare runs in a
// tools worker of its own, shows Stop comparing while it computes, and the Reviewer answers meanwhile.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { Panels } from './pages/Panels';

const LONG = 'C:workMs=249000,progressEveryMs=1,idleTimeoutMs=3600000,maxTimeoutMs=86400000,eventsMax=10000000';

test('a comparison of millions of events: the Reviewer answers meanwhile, and Stop comparing ends it', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const panels = new Panels(page);
  await lab.open(`?tab=compare&runA=${LONG}&runB=${LONG}`);
  const busy = page.locator('.compare-panel .panel-busy');
  await expect(busy).toHaveAttribute('data-busy', 'true');
  const stop = page.getByRole('button', { name: 'Stop comparing' });
  await expect(stop).toBeVisible();

  await panels.openTab('Reviewer');
  await panels.reviewButton.click();
  await expect(page.getByRole('list', { name: 'Flags' }).locator('li[data-severity="unsafe"]').first()).toBeVisible({
    timeout: 15_000,
  });

  await panels.openTab('Compare');
  await expect(stop).toBeVisible();
  await stop.click();
  await expect(page.locator('.compare-panel').getByRole('alert')).toContainText('Stopped');
  await expect(busy).toHaveAttribute('data-busy', 'false');
  await expect(stop).toHaveCount(0);

  // A new comparison starts a new worker.
  await page.getByRole('button', { name: 'D: stdio vs Streamable HTTP' }).click();
  await expect(page.getByRole('table', { name: /facts/i }).or(page.locator('.compare-facts'))).toBeVisible({
    timeout: 20_000,
  });
});
