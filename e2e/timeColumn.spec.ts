// Proves the diagram's time column is never read cut: at 1280×720, where C's lanes are a little wider
// than the pane, every time label drawn in the pane lies whole inside it, for A–D at the end of the run,
// for C in Predict at the race point, and presenting (where the column is given up whole, never cut, and
// the playback bar's time is whole);
// and in the normal view the column pinned at the pane's edge covers no deadline bar.
import { expect, test, type Page } from '@playwright/test';
import { LabPage, type TransportValue } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

/** The time labels drawn in the pane's height, each with whether its box is whole inside the pane, and whether any covers a deadline bar. */
async function timeColumn(page: Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const bars = [...pane.querySelectorAll('.dg-bar')].map((bar) => bar.getBoundingClientRect());
    const labels = [...pane.querySelectorAll<HTMLElement>('.dg-time')].flatMap((label) => {
      const r = label.getBoundingClientRect();
      // Not drawn (presenting, the column given up), or wholly outside the pane: not read. Partly inside: read cut.
      if (
        r.width === 0 ||
        getComputedStyle(label).visibility === 'hidden' ||
        r.bottom <= box.top ||
        r.top >= box.bottom ||
        r.right <= box.left ||
        r.left >= box.right
      )
        return [];
      const whole = r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      const covers = bars.some(
        (bar) =>
          bar.width > 0 && r.right > bar.left + 0.5 && r.left < bar.right && r.bottom > bar.top && r.top < bar.bottom,
      );
      return [{ text: label.textContent ?? '', left: Math.round(r.left), right: Math.round(r.right), whole, covers }];
    });
    return { paneLeft: Math.round(box.left), labels };
  });
}

const cut = (column: Awaited<ReturnType<typeof timeColumn>>) =>
  column.labels
    .filter((label) => !label.whole)
    .map((label) => `${label.text} at ${label.left}–${label.right} (pane from ${column.paneLeft})`);
const covering = (column: Awaited<ReturnType<typeof timeColumn>>) =>
  column.labels.filter((label) => label.covers).map((label) => label.text);

for (const [id, transport] of [
  ['A', 'stdio'],
  ['B', 'stdio'],
  ['C', 'stdio'],
  ['C', 'http'],
  ['D', 'http'],
] as Array<[string, TransportValue]>) {
  test(`${id} on ${transport} at the end: every time label in the pane is whole, and none covers a deadline bar`, async ({
    page,
  }) => {
    const lab = new LabPage(page);
    await lab.open(`?scenario=${id}&transport=${transport}`);
    await lab.waitForRun(id, transport);
    // The view glides to the last event: the labels are read once it has settled.
    await expect.poll(async () => cut(await timeColumn(page))).toEqual([]);
    const column = await timeColumn(page);
    expect(column.labels.length).toBeGreaterThan(3);
    expect(covering(column)).toEqual([]);
  });
}

test('C in Predict at the race point (1610 ms): every time label in the pane is whole, and none covers a deadline bar', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=C&transport=stdio&step=22&instructor=predict');
  await lab.waitForRun('C', 'stdio');
  await lab.waitForStep(22);
  await expect(page.locator('[data-predict="asking"]')).toBeVisible();
  await expect.poll(async () => cut(await timeColumn(page))).toEqual([]);
  const column = await timeColumn(page);
  // The race point's own instant and the one before it are read in the pane.
  expect(column.labels.map((label) => label.text)).toEqual(expect.arrayContaining(['1605 ms', '1610 ms']));
  expect(covering(column)).toEqual([]);
});

test('C presenting, at the end and in Predict: a time label is whole in the pane or not drawn', async ({ page }) => {
  const lab = new LabPage(page);
  for (const query of [
    '?scenario=C&transport=stdio&instructor=presentation',
    '?scenario=C&transport=stdio&step=22&instructor=presentation+predict',
  ]) {
    // Presenting, the page's title is not shown: the lab is open once its run is.
    await page.goto(`/${query}`);
    await lab.waitForRun('C', 'stdio');
    await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
    await expect.poll(async () => cut(await timeColumn(page)), query).toEqual([]);
    // With the column given up, the playback bar says the time: whole, under none of the instructor's buttons.
    const covered = await page.evaluate(() => {
      const time = document.querySelector('.lab-position-time')?.getBoundingClientRect();
      if (time === undefined || time.width === 0) return ['no time shown'];
      return [...document.querySelectorAll('.lab-top button')].flatMap((button) => {
        const r = button.getBoundingClientRect();
        return r.width > 0 && r.left < time.right && r.right > time.left && r.top < time.bottom && r.bottom > time.top
          ? [button.textContent ?? '']
          : [];
      });
    });
    expect(covered, query).toEqual([]);
  }
});

test('C panned right by the user past the time column: the column is pinned at the pane edge, every label whole', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=C&transport=stdio&step=22');
  await lab.waitForRun('C', 'stdio');
  await lab.waitForStep(22);
  const pane = page.locator('.lab-flow');
  const box = await pane.boundingBox();
  if (box === null) throw new Error('no pane');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(300, 0);
  // The view has moved right well past the column's own room (the lanes' left edge is off the pane).
  await expect
    .poll(async () =>
      pane.evaluate(
        (element) =>
          new DOMMatrixReadOnly(getComputedStyle(element.querySelector('.react-flow__viewport') as Element).transform)
            .e,
      ),
    )
    .toBeLessThan(-100);
  await expect(page.locator('.dg-time-column')).toHaveAttribute('data-pinned', 'true');
  const column = await timeColumn(page);
  expect(cut(column)).toEqual([]);
  expect(column.labels.map((label) => label.text)).toEqual(expect.arrayContaining(['1605 ms', '1610 ms']));
});
