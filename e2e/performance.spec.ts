// Proves the page stays responsive: a long run computes in the worker, reporting progress, while no task on the page's thread runs over 50 ms; a run with 1,000 messages draws only what is on screen and steps quickly.
import { expect, test } from '@playwright/test';
import { Diagram } from './pages/Diagram';
import { LabPage } from './pages/LabPage';

// A trace records DOM snapshots on the page's thread, and the page's thread is what these tests measure.
test.use({ trace: 'off', screenshot: 'off' });

test('a long run reports progress from the worker and the page stays responsive meanwhile', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: Array<{ start: number; ms: number }>; progressAt: number[] };
    w.longTasks = [];
    w.progressAt = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push({ start: entry.startTime, ms: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    new MutationObserver(() => {
      const busy = document.querySelector('.lab-busy');
      if (busy?.textContent?.includes('engine events so far')) w.progressAt.push(performance.now());
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await lab.open('?scenario=herd');
  await lab.waitForRun('herd', 'http');
  const clients = await lab.setting('clients');
  // Only what happens from here on counts (the first, short run reported progress too).
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: unknown[]; progressAt: number[] };
    w.longTasks = [];
    w.progressAt = [];
  });
  await clients.fill('100000');
  await clients.press('Enter');
  // Wait inside the page, so the test itself puts no work on the page's thread meanwhile.
  await page.waitForFunction(() => document.querySelector('main')?.dataset.status === 'done' && (window as unknown as { progressAt: number[] }).progressAt.length > 0, undefined, {
    polling: 1000,
    timeout: 60_000,
  });
  await lab.waitForRun('herd', 'http');
  const { longTasks, progressAt } = await page.evaluate(() => {
    const w = window as unknown as { longTasks: Array<{ start: number; ms: number }>; progressAt: number[] };
    return { longTasks: w.longTasks, progressAt: w.progressAt };
  });
  expect(progressAt.length).toBeGreaterThan(1);
  const from = progressAt[0] as number;
  const to = progressAt[progressAt.length - 1] as number;
  // While the worker computed (between its first and last progress report), no task on the page's thread ran over 50 ms.
  expect(longTasks.filter((task) => task.start >= from && task.start <= to && task.ms > 50)).toEqual([]);
});

test('1,000 messages: only what is on screen is drawn, and stepping stays quick', async ({ page }) => {
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

  const total = await lab.eventCount();
  const times = await page.evaluate(async () => {
    const back = [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Step back');
    const spent: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      back?.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      spent.push(performance.now() - started);
    }
    return spent;
  });
  await lab.waitForStep(total - 30);
  const sorted = [...times].sort((a, b) => a - b);
  // A step (React, React Flow and a frame) takes well under a tenth of a second, even on a slow runner.
  expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
});
