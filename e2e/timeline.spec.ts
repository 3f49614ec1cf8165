// The timeline is one Tab stop (roving tabindex: ↑ ↓ move between rows, Enter opens one) and a
// 1280×720 projector shows four rows of it, the current event among them, docked at the foot of the side
// column (the diagram keeps its height beside it), and more rows as the resize handle opens the dock.
import { expect, test } from '@playwright/test';
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

test('at 1280×720 the timeline shows four rows with the current event, stays inside the window and resizes, and the diagram keeps half the height', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B');
  await lab.waitForRun('B', 'stdio');
  const scroll = page.locator('.lab-dock .lab-timeline-scroll');
  const visibleRows = () =>
    scroll.evaluate((box) => {
      const frame = box.getBoundingClientRect();
      return [...box.querySelectorAll('li')].filter((row) => {
        const r = row.getBoundingClientRect();
        return r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
      }).length;
    });
  const rowsBefore = await visibleRows();
  expect(rowsBefore).toBeGreaterThanOrEqual(4);
  await expect(scroll.locator('li.is-current')).toBeVisible();
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

test('at 1280×720 a docked row cut at one line shows its whole sentence on hover', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B&transport=stdio');
  await lab.waitForRun('B', 'stdio');
  const text = lab.timeline.locator('.lab-event-text', { hasText: 'VIEWS DIVERGE' });
  const full = (await text.textContent()) ?? '';
  expect(full).toMatch(/discards the response, whenever it arrives$/);
  expect(await text.evaluate((element) => element.scrollWidth > element.clientWidth), 'the row is cut').toBe(true);
  await expect(text).toHaveAttribute('title', full);
});
