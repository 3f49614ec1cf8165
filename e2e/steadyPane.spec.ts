// The diagram pane stands still while the replay steps: the step sentence above it has two lines
// reserved, so one that wraps to a second line does not push the pane down.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

for (const width of [1280]) {
  test(`at ${width}×720 the diagram pane keeps its place at every step of B`, async ({ page }) => {
    await page.setViewportSize({ width, height: 720 });
    const lab = new LabPage(page);
    await lab.open('?scenario=B&step=0');
    await lab.waitForRun('B', 'stdio');
    const total = await lab.eventCount();
    const pane = page.locator('.lab-results > .lab-diagram');
    const lines = new Set<number>();
    const tops = new Set<number>();
    for (let step = 0; step <= total; step++) {
      await lab.waitForStep(step);
      tops.add(Math.round((await pane.boundingBox())?.y ?? -1));
      lines.add(await page.locator('.lab-now').evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))));
      if (step < total) await lab.stepForward.click();
    }
    // The sentence took more than one line at some step, and the pane never moved.
    expect(Math.max(...lines)).toBeGreaterThanOrEqual(2);
    expect([...tops]).toHaveLength(1);
  });
}
