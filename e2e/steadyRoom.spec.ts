// The classroom at 1280×720 and up: the zoom moves only when the user moves it (30 fast steps, normal
// and presenting, sampled every frame); the side column's timeline rows and the scenario's description
// read whole, with no row cut short by an ellipsis that needs a hover.
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
    test(`${viewport.width}×${viewport.height}${presenting ? ', presenting' : ''}: 30 fast steps to the end of C leave the diagram's scale where it was`, async ({ page }) => {
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

/** Text in the side column cut short: a line that overflows its box, or one clipped by an ellipsis or a line clamp. */
async function cutShort(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements
      .filter((element) => {
        const style = getComputedStyle(element);
        const clipsX = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        const clipsY = style.overflowY !== 'visible' || style.webkitLineClamp !== 'none';
        return (clipsX && element.scrollWidth > element.clientWidth + 1) || (clipsY && element.scrollHeight > element.clientHeight + 1) || (style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap');
      })
      .map((element) => (element.textContent ?? '').trim().slice(0, 60)),
  );
}

test('1280×720: every timeline row and the scenario description read whole in the side column', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  for (const [id, transport] of [
    ['A', 'stdio'],
    ['B', 'stdio'],
    ['C', 'http'],
    ['D', 'http'],
    ['ledger-race-unsafe', 'http'],
  ] as const) {
    await lab.open(`?scenario=${id}&transport=${transport}`);
    await lab.waitForRun(id, transport);
    await expect(lab.timeline.getByRole('listitem').first()).toBeVisible();
    expect(await cutShort(page, '.lab-dock .lab-event-text, .lab-dock .lab-event-button'), `${id}: timeline rows cut short`).toEqual([]);
    expect(await cutShort(page, '.lab-side .lab-summary'), `${id}: the description cut short`).toEqual([]);
    // The row in view is whole too: the current one, at the end of the run, inside the list's view.
    const inside = await page.locator('.lab-dock .lab-timeline-scroll').evaluate((scroll) => {
      const box = scroll.getBoundingClientRect();
      const row = scroll.querySelector('.lab-event.is-current')?.getBoundingClientRect();
      return row !== undefined && row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
    });
    expect(inside, `${id}: the current row is whole in view`).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`side-${id}.png`) });
  }
});
