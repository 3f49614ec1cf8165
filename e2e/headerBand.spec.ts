// The lane headers' band is pinned over the top of the diagram's pane and the diagram scrolls under it:
// at the end of task-cancel-ack (and of A on stdio), at 1280×720 and 1440×900, no text is cut by the
// band's lower edge (each is whole below it or wholly behind it), and none is at step 4 (the first
// wire's label drawn). The geometry test (src/diagram/geometry/labels.test.ts) tries every pan of every run.
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

/** The diagram's texts the band's lower edge cuts (a text straddling it shows half under a lane header). */
async function cutByBand(page: Page): Promise<string[]> {
  return page.locator('.lab-flow').evaluate((pane) => {
    // The headers are drawn once the pane has its size: until then, say so (the poll asks again).
    const headers = pane.querySelector('.dg-lane-headers');
    if (headers === null) return ['no lane headers drawn yet'];
    const band = headers.getBoundingClientRect();
    const cut: string[] = [];
    for (const text of pane.querySelectorAll('.dg-wire-label, .dg-wire-fate, .dg-marker-text, .dg-time')) {
      const r = text.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // One pixel either way: a glyph's box is a little taller than its ink.
      if (r.top < band.bottom - 1 && r.bottom > band.bottom + 1)
        cut.push(
          `"${text.textContent ?? ''}" ${Math.round(r.top)}–${Math.round(r.bottom)} across ${Math.round(band.bottom)}`,
        );
    }
    return cut;
  });
}

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });
    for (const query of [
      '?scenario=task-cancel-ack&transport=http',
      '?scenario=task-cancel-ack&transport=stdio',
      '?scenario=ledger-race-unsafe&transport=stdio',
    ]) {
      test(`${query}: no text cut by the lane headers' band four steps in and at the end`, async ({ page }) => {
        const lab = new LabPage(page);
        await lab.open(`${query}&step=4`);
        await expect(lab.main).toHaveAttribute('data-status', 'done');
        await expect.poll(() => cutByBand(page)).toEqual([]);
        await lab.toEnd();
        // The view glides to the end: measured once it has settled.
        await expect
          .poll(async () =>
            page.locator('.react-flow__viewport').evaluate((viewport) => getComputedStyle(viewport).transform),
          )
          .not.toBe('none');
        await page.waitForTimeout(800);
        await expect.poll(() => cutByBand(page)).toEqual([]);
      });
    }
  });
}
