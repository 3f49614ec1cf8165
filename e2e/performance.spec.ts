// Proves the page stays responsive: a long run computes in the worker, reporting progress, while the page handles a click; a run with 1,000 messages draws only what is on screen, also after stepping. (Times are npm run bench:ui's: tests assert behaviour.)
import { expect, test } from '@playwright/test';
import { Diagram } from './pages/Diagram';
import { LabPage } from './pages/LabPage';

// A trace records DOM snapshots on the page's thread, and the page's thread is what these tests measure.
test.use({ trace: 'off', screenshot: 'off' });

test('a long run reports progress from the worker and the page answers input meanwhile', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  await page.addInitScript(() => {
    const w = window as unknown as { progressAt: number[]; tabChosenWhile: string[] };
    w.progressAt = [];
    w.tabChosenWhile = [];
    new MutationObserver((records) => {
      const busy = document.querySelector('.lab-busy');
      if (busy?.textContent?.includes('engine events so far')) w.progressAt.push(performance.now());
      // What the run was doing when the page handled the click on a tab.
      for (const record of records)
        if (
          record.type === 'attributes' &&
          record.target instanceof HTMLElement &&
          record.target.getAttribute('role') === 'tab' &&
          record.target.getAttribute('aria-selected') === 'true'
        )
          w.tabChosenWhile.push(document.querySelector('main')?.dataset.status ?? '');
    }).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-selected'],
    });
  });
  await lab.open('?scenario=herd');
  await lab.waitForRun('herd', 'http');
  const clients = await lab.setting('clients');
  // Only what happens from here on counts (the first, short run reported progress too).
  await page.evaluate(() => {
    const w = window as unknown as { progressAt: number[]; tabChosenWhile: string[] };
    w.progressAt = [];
    w.tabChosenWhile = [];
  });
  await clients.fill('100000');
  await clients.press('Enter');
  await page.waitForFunction(() => (window as unknown as { progressAt: number[] }).progressAt.length > 0, undefined, {
    polling: 50,
    timeout: 60_000,
  });
  // The page's thread is free while the worker computes: a click on a tab is handled before the run ends.
  // (Backoff is the herd's own tab: the top bar, which follows the tab, keeps the herd run going.)
  await page.getByRole('tab', { name: 'Backoff' }).click();
  await expect(page.getByRole('tab', { name: 'Backoff' })).toHaveAttribute('aria-selected', 'true');
  await page.waitForFunction(() => document.querySelector('main')?.dataset.status === 'done', undefined, {
    polling: 1000,
    timeout: 60_000,
  });
  await lab.waitForRun('herd', 'http');
  const { progressAt, tabChosenWhile } = await page.evaluate(() => {
    const w = window as unknown as { progressAt: number[]; tabChosenWhile: string[] };
    return { progressAt: w.progressAt, tabChosenWhile: w.tabChosenWhile };
  });
  expect(progressAt.length).toBeGreaterThan(1);
  expect(tabChosenWhile).toHaveLength(1);
  expect(tabChosenWhile[0]).not.toBe('done');
});

test('1,000 messages: only what is on screen is drawn, before and after stepping back', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=C&progressEveryMs=2');
  await lab.waitForRun('C', 'stdio');
  const counts = await diagram.counts();
  expect(counts.messagesTotal).toBeGreaterThanOrEqual(1000);
  expect(counts.messages).toBe(counts.messagesTotal);
  const drawn = await diagram.wires().count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(60);
  expect(await diagram.pane.locator('.react-flow__node').count()).toBeLessThan(150);

  // Stepping back keeps drawing only what is on screen (the time a step takes is npm run bench:ui's to report).
  const total = await lab.eventCount();
  for (let i = 0; i < 30; i++) await lab.stepBack.click();
  await lab.waitForStep(total - 30);
  const after = await diagram.wires().count();
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThan(60);
});
