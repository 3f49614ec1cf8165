// The timeline is one Tab stop (roving tabindex: ↑ ↓ move between rows, Enter opens one) and a
// 1280×720 projector shows whole rows of it, the current event among them, docked at the foot of the side
// column (the diagram keeps its height beside it), and more rows as the resize handle opens the dock.
// Every row and the scenario's description read whole at 1280×720: no row needs a hover to say what it
// is, and the description opens whole from the keyboard.
import { expect, test, type Page } from '@playwright/test';
import { wholeOnTop } from './pages/geometry';
import { LabPage } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

test('the timeline is one Tab stop; ↑ ↓ move inside it and Enter opens a row', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  const total = await lab.eventCount();
  expect(total).toBeGreaterThan(10);
  const rows = lab.timeline.getByRole('button');
  await expect(rows).toHaveCount(total);
  // Exactly one row is in the Tab order.
  await expect(lab.timeline.locator('button[tabindex="0"]')).toHaveCount(1);
  await expect(lab.timeline.locator('button[tabindex="-1"]')).toHaveCount(total - 1);

  // Tab into the list lands on one row; one more Tab leaves the list.
  await page.getByRole('separator', { name: 'Resize the timeline' }).focus();
  await page.keyboard.press('Tab'); // the Timeline toggle
  await page.keyboard.press('Tab');
  const inList = () => page.evaluate(() => document.activeElement?.closest('ol[aria-label="Timeline"]') != null);
  expect(await inList()).toBe(true);
  await page.keyboard.press('Tab');
  expect(await inList()).toBe(false);

  // Back in: ↑ moves to the row above, Enter opens it in the inspector.
  await page.keyboard.press('Shift+Tab');
  expect(await inList()).toBe(true);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  const focusedText = await page.evaluate(() => document.activeElement?.textContent ?? '');
  await expect(rows.nth(total - 3)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab.timeline.locator('li.is-selected')).toHaveText(focusedText);
  await expect(lab.timeline.locator('button[tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(total - 2)).toBeFocused();
});

test('at 1280×720 the timeline shows whole rows with the current event, stays inside the window and resizes, and the diagram keeps half the height', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B');
  await lab.waitForRun('B', 'stdio');
  const scroll = page.locator('.lab-dock .lab-timeline-scroll');
  /** Rows in the list's view: whole, or (whole false) at least partly. */
  const visibleRows = (whole = true) =>
    scroll.evaluate((box, whole) => {
      const frame = box.getBoundingClientRect();
      return [...box.querySelectorAll('li')].filter((row) => {
        const r = row.getBoundingClientRect();
        return whole
          ? r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1
          : r.bottom > frame.top + 4 && r.top < frame.bottom - 4;
      }).length;
    }, whole);
  // Rows wrap to read whole, so fewer fit than one-line rows did (B ends on its two longest): the current
  // row whole and the one before it in view.
  const rowsBefore = await visibleRows();
  expect(rowsBefore).toBeGreaterThanOrEqual(1);
  expect(await visibleRows(false)).toBeGreaterThanOrEqual(2);
  await expect(scroll.locator('li.is-current')).toBeVisible();
  expect(
    await scroll.evaluate((box) => {
      const frame = box.getBoundingClientRect();
      const row = box.querySelector('li.is-current')?.getBoundingClientRect();
      return row !== undefined && row.top >= frame.top - 1 && row.bottom <= frame.bottom + 1;
    }),
    'the current row whole in view',
  ).toBe(true);
  // Beside the diagram, not under it: the pane keeps more than half the window's height.
  const pane = await page.locator('.lab-flow').boundingBox();
  expect((pane?.height ?? 0) / 720).toBeGreaterThanOrEqual(0.5);
  // The whole dock is inside the window.
  const box = await scroll.boundingBox();
  expect(box !== null && box.y + box.height <= 720).toBe(true);

  const before = box?.height ?? 0;
  const handle = page.getByRole('separator', { name: 'Resize the timeline' });
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await scroll.boundingBox())?.height ?? 0).toBeGreaterThan(before + 40);
  const taller = (await scroll.boundingBox())?.height ?? 0;
  expect(await visibleRows()).toBeGreaterThan(rowsBefore);
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await scroll.boundingBox())?.height ?? 0).toBeLessThan(taller - 10);
});

/** Text in `selector` cut short: wider than its box, or held to one line by an ellipsis. */
async function cutShort(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements
      .filter((element) => {
        const style = getComputedStyle(element);
        return (
          element.scrollWidth > element.clientWidth + 1 ||
          style.textOverflow === 'ellipsis' ||
          style.whiteSpace === 'nowrap' ||
          style.webkitLineClamp !== 'none'
        );
      })
      .map((element) => (element.textContent ?? '').trim().slice(0, 60)),
  );
}

const SIDE_RUNS = [
  ['A', 'stdio'],
  ['B', 'stdio'],
  ['C', 'http'],
  ['D', 'http'],
  ['herd', 'http'],
  ['ledger-race-unsafe', 'http'],
] as const;

test("at 1280×720 every docked row reads whole without a hover, and the current row stays in the list's view", async ({
  page,
}) => {
  const lab = new LabPage(page);
  for (const [id, transport] of SIDE_RUNS) {
    await lab.open(`?scenario=${id}&transport=${transport}`);
    await lab.waitForRun(id, transport);
    await expect(lab.timeline.getByRole('listitem').first()).toBeAttached();
    expect(await cutShort(page, '.lab-dock .lab-event-text'), `${id}: rows cut short`).toEqual([]);
  }
  // The longest row of B reads to its end in the list, the whole row inside the list's view once scrolled to.
  await lab.open('?scenario=B&transport=stdio');
  await lab.waitForRun('B', 'stdio');
  const text = lab.timeline.locator('.lab-event-text', { hasText: 'VIEWS DIVERGE' });
  expect((await text.textContent()) ?? '').toMatch(/discards the response, whenever it arrives$/);
  await text.scrollIntoViewIfNeeded();
  expect(
    await wholeOnTop(page.locator('.lab-dock .lab-event:has(.lab-event-text:text("VIEWS DIVERGE"))')),
    'the whole row in view',
  ).toBe(true);
  // Stepping back and forth keeps the current row whole in the list's view, taller rows and all.
  const currentInside = () =>
    page.locator('.lab-dock .lab-timeline-scroll').evaluate((scroll) => {
      const box = scroll.getBoundingClientRect();
      const row = scroll.querySelector('.lab-event.is-current')?.getBoundingClientRect();
      return row !== undefined && row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
    });
  const total = await lab.eventCount();
  await page.locator('body').focus();
  for (const step of [total - 1, total - 2, total - 3, total - 4, total - 5, total - 6]) {
    await page.keyboard.press('ArrowLeft');
    await lab.waitForStep(step);
    await expect.poll(currentInside, `step ${step}: the current row in view`).toBe(true);
  }
  await page.keyboard.press('Home');
  await lab.waitForStep(0);
  for (let step = 1; step <= 6; step++) {
    await page.keyboard.press('ArrowRight');
    await lab.waitForStep(step);
    await expect.poll(currentInside, `step ${step}: the current row in view`).toBe(true);
  }
});

test('at 1280×720 the scenario description reads whole: its line is whole, Enter opens the paragraph whole on screen, Escape closes it', async ({
  page,
}) => {
  const lab = new LabPage(page);
  for (const [id, transport] of SIDE_RUNS) {
    await lab.open(`?scenario=${id}&transport=${transport}`);
    await lab.waitForRun(id, transport);
    const description = page.getByRole('region', { name: 'Scenario description' });
    const opener = description.locator('.lab-about > summary');
    await expect(opener).toHaveText('What happens in this scenario');
    expect(
      await cutShort(page, '.lab-side .lab-scenario summary, .lab-side .lab-topic'),
      `${id}: the description's lines cut short`,
    ).toEqual([]);
    await opener.scrollIntoViewIfNeeded();
    expect(await wholeOnTop(page.locator('.lab-side .lab-about > summary')), `${id}: the opener whole in view`).toBe(
      true,
    );
    await opener.focus();
    await page.keyboard.press('Enter');
    const paragraph = description.locator('.lab-summary');
    await expect(paragraph).toBeVisible();
    expect((await paragraph.textContent())?.length ?? 0).toBeGreaterThan(100);
    expect(await cutShort(page, '.lab-side .lab-summary'), `${id}: the paragraph cut short`).toEqual([]);
    expect(
      await paragraph.evaluate((element) => element.scrollHeight <= element.clientHeight + 1),
      `${id}: the paragraph scrolls inside itself`,
    ).toBe(true);
    expect(
      await wholeOnTop(page.locator('.lab-side .lab-summary')),
      `${id}: the whole paragraph on screen, nothing over it`,
    ).toBe(true);
    const file = test.info().outputPath(`description-${id}.png`);
    await page.screenshot({ path: file });
    await test.info().attach(`description-${id}`, { path: file, contentType: 'image/png' });
    await page.keyboard.press('Escape');
    await expect(paragraph).toBeHidden();
    await expect(opener).toBeFocused();
  }
});
