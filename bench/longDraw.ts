/**
 * The long run's draw as the page benchmarks time it (bench/ui.bench.ts, bench/drawTrace.ts): the
 * page's long tasks, watched from its first script on, and the moment a run is drawn.
 */
import type { Page } from '@playwright/test';

/** From the next load on, `window.longTasks` lists the duration of each main-thread task over 50 ms. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The long tasks watched since the page loaded (watchLongTasks). */
export function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
}

/** Waits until the run is done and its diagram drawn (a wire on screen), then for the frame that shows it. */
export async function drawn(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('main')?.dataset.status === 'done' &&
      document.querySelector('.lab-flow .react-flow__edge') !== null,
    undefined,
    { timeout: 120_000, polling: 50 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
