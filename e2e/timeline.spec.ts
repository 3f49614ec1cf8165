// The timeline is one Tab stop (roving tabindex: ↑ ↓ move between rows, Enter opens one) and a
// 1280×720 projector shows the current event (the height goes to the diagram, which must hold a whole
// race) and more rows as the resize handle opens the dock.
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

test('at 1280×720 the timeline shows the current event, stays inside the window and resizes', async ({ page }) => {
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
  expect(rowsBefore).toBeGreaterThanOrEqual(1);
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
