// The lane headers' band is pinned over the top of the diagram's pane and the diagram scrolls under it:
// at the end of task-cancel-ack (and of A on stdio), at 1280×720 and 1440×900, no text is cut by the
// band's lower edge (each is whole below it or wholly behind it), and none is at step 4 (the first
// wire's label drawn). The geometry test (src/diagram/geometry/labels.test.ts) tries every pan of every run.
// The Exercises tab's failing orderings are fitted to their pane at zooms under 1 too: after Check of
// the coordinator's, the ledger's and the buffer's starters, the opened ordering's diagram has no text cut
// by the band, at the break and at the whole run, and at its top (where each opens) none under the band:
// the first wire label, "tools/call #41" in the ledger's, is whole below it. src/exercise/orderingDiagram.test.ts tries every step.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { CHECK_MS, ExercisesPage } from './pages/ExercisesPage';
import { LabPage } from './pages/LabPage';

/** The diagram's texts the band's lower edge cuts (a text straddling it shows half under a lane header). */
async function cutByBand(page: Page): Promise<string[]> {
  return cutIn(page.locator('.lab-flow'));
}

/**
 * The texts of one diagram pane the band's lower edge cuts and, while the diagram's top is in view (its
 * pan not above 0), any text under the band (there a label would sit under a lane header, unread). A wire's
 * label and fate word (SVG text) are measured by their glyphs' ink, as the canvas measures them in their
 * font at the view's zoom: their box is the font's line, a few pixels taller than the ink; a marker's chip
 * and a time label by their box, one pixel either way.
 */
async function cutIn(flow: Locator): Promise<string[]> {
  return flow.evaluate((pane) => {
    // The headers are drawn once the pane has its size: until then, say so (the poll asks again).
    const headers = pane.querySelector('.dg-lane-headers');
    if (headers === null) return ['no lane headers drawn yet'];
    const band = headers.getBoundingClientRect();
    const viewport = pane.querySelector('.react-flow__viewport');
    const matrix = new DOMMatrixReadOnly(viewport === null ? 'none' : getComputedStyle(viewport).transform);
    const atTop = viewport !== null && matrix.f >= 0;
    const context = document.createElement('canvas').getContext('2d');
    /** A text's rows on screen: its ink for SVG text, else its box less a pixel either way. */
    const rows = (text: Element): [number, number] => {
      const r = text.getBoundingClientRect();
      if (!(text instanceof SVGTextElement) || context === null) return [r.top + 1, r.bottom - 1];
      const style = getComputedStyle(text);
      context.font = `${style.fontStyle} ${style.fontWeight} ${parseFloat(style.fontSize) * matrix.a}px ${style.fontFamily}`;
      const m = context.measureText(text.textContent ?? '');
      // The box's top is the font's ascent above the baseline (its height the font's line: else the measure is not this text's).
      const line = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
      if (Math.abs(r.height - line) > 1) return [-Infinity, Infinity];
      const baseline = r.top + m.fontBoundingBoxAscent;
      return [baseline - m.actualBoundingBoxAscent, baseline + m.actualBoundingBoxDescent];
    };
    const cut: string[] = [];
    for (const text of pane.querySelectorAll('.dg-wire-label, .dg-wire-fate, .dg-marker-text, .dg-time')) {
      const r = text.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const [top, bottom] = rows(text);
      const at = `"${text.textContent ?? ''}" ${top.toFixed(1)}–${bottom.toFixed(1)}`;
      if (top < band.bottom && bottom > band.bottom) cut.push(`${at} across ${band.bottom.toFixed(1)}`);
      else if (atTop && top < band.bottom) cut.push(`${at} under the band (${band.bottom.toFixed(1)}) at the top`);
    }
    return cut;
  });
}

/** Waits until the view has stopped moving: its transform the same over a second (the fit settles, then the view glides). */
async function settled(flow: Locator): Promise<void> {
  const transform = () =>
    flow.locator('.react-flow__viewport').evaluate((viewport) => getComputedStyle(viewport).transform);
  let last = await transform();
  let still = 0;
  for (let tries = 0; still < 4 && tries < 100; tries++) {
    await flow.page().waitForTimeout(250);
    const now = await transform();
    still = now === last && now !== 'none' ? still + 1 : 0;
    last = now;
  }
  expect(still, 'the view stopped moving').toBe(4);
}

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });
    test("the exercises' failing orderings: no text cut by the band, none under it at the top", async ({ page }) => {
      test.setTimeout(CHECK_MS * 3 + 60_000);
      const exercises = new ExercisesPage(page);
      await new LabPage(page).open();
      await exercises.open();
      for (const [exercise, statement] of [
        ['coordinator', 'nothing-after-cancel'],
        ['ledger', 'one-execution-per-key'],
        ['buffer', 'within-capacity'],
      ] as const) {
        await exercises.open(exercise);
        const checks = Number((await page.locator('.exercise-panel').getAttribute('data-checks')) ?? 0);
        await exercises.check.click();
        await expect(page.locator('.exercise-panel')).toHaveAttribute('data-checks', String(checks + 1), {
          timeout: CHECK_MS,
        });
        if ((await exercises.failingFlow(statement).count()) === 0) await exercises.showFailing(statement).click();
        const flow = exercises.failingFlow(statement);
        await expect(flow.locator('.dg-lane-headers')).toBeVisible();
        await settled(flow);
        expect(await cutIn(flow), `${exercise} at the break`).toEqual([]);
        // Opened at the break, these orderings show their top (so the check above found none under the band there).
        const pan = await flow
          .locator('.react-flow__viewport')
          .evaluate((viewport) => new DOMMatrixReadOnly(getComputedStyle(viewport).transform).f);
        expect(pan, `${exercise}: the top in view at the break`).toBeGreaterThanOrEqual(0);
        await page
          .getByRole('group', { name: 'Failing ordering playback' })
          .getByRole('button', { name: 'Whole run' })
          .click();
        await settled(flow);
        expect(await cutIn(flow), `${exercise}, the whole run`).toEqual([]);
      }
    });

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
