// The classroom at 1280×720 and up: the zoom moves only when the user moves it (30 fast steps, normal
// and presenting, sampled every frame).
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

/** Records the diagram's scale (the viewport's zoom, and the lane names' size) every animation frame. */
async function sampleScale(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { scales: string[] };
    w.scales = [];
    const tick = () => {
      const viewport = document.querySelector('.lab-flow .react-flow__viewport');
      const header = document.querySelector('.lab-flow .dg-lane-header');
      if (viewport !== null && header !== null) {
        const scale = `${new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a.toFixed(4)} ${getComputedStyle(header).fontSize}`;
        if (w.scales.at(-1) !== scale) w.scales.push(scale);
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  for (const presenting of [false, true]) {
    test(`${viewport.width}×${viewport.height}${presenting ? ', presenting' : ''}: 30 fast steps to the end of C leave the diagram's scale where it was`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      const lab = new LabPage(page);
      await page.goto(`/?scenario=C&transport=stdio&step=4${presenting ? '&instructor=presentation' : ''}`);
      await lab.waitForRun('C', 'stdio');
      await lab.waitForStep(4);
      // The fit settles once after the run is drawn; from then on only the user moves the zoom.
      await page.waitForTimeout(800);
      await sampleScale(page);
      await expect.poll(() => page.evaluate(() => (window as unknown as { scales: string[] }).scales.length)).toBe(1);
      await page.locator('body').focus();
      for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowRight');
      for (let i = 0; i < 5; i++) await lab.stepForward.click();
      await lab.waitForStep(34);
      await page.waitForTimeout(800);
      const scales = await page.evaluate(() => (window as unknown as { scales: string[] }).scales);
      expect(scales, 'every scale the diagram was drawn at while stepping').toHaveLength(1);
    });
  }
}
