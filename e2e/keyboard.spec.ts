// The presenter's keys reach the replay whatever has focus except a text field: after a click on a
// transport radio or on the Virtual time slider, → steps the run instead of flipping the transport
// or moving the slider by 1 ms, and the focus is back on the replay.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

test('after a click on the Streamable HTTP radio, the arrow keys step the replay and the transport stays', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&step=0');
  await lab.waitForRun('A', 'stdio');
  await lab.transportRadio('http').click();
  await lab.waitForRun('A', 'http');
  await expect(page.locator('#lab-replay')).toBeFocused();
  const start = await lab.step();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(start + 2);
  await page.keyboard.press('ArrowLeft');
  await lab.waitForStep(start + 1);
  await expect(lab.transportRadio('http')).toBeChecked();
  await expect(page.locator('main')).toHaveAttribute('data-transport', 'http');

  // Focused by the keyboard (no change yet), the radio still gives ← → to the replay.
  await lab.transportRadio('http').focus();
  await page.keyboard.press('ArrowLeft');
  await lab.waitForStep(start);
  await page.keyboard.press('End');
  await lab.waitForStep(await lab.eventCount());
  await page.keyboard.press('Home');
  await lab.waitForStep(0);
  await expect(lab.transportRadio('http')).toBeChecked();
  await expect(page.locator('main')).toHaveAttribute('data-transport', 'http');
});

test('after the Virtual time slider, → steps the replay (not 1 ms) and Space plays', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B');
  await lab.waitForRun('B', 'stdio');
  const total = await lab.eventCount();
  // Click the slider's middle: the replay jumps to about half-way and the focus returns to it.
  const box = await lab.scrubber.boundingBox();
  if (box === null) throw new Error('the slider has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('#lab-replay')).toBeFocused();
  const step = await lab.step();
  expect(step).toBeGreaterThan(0);
  expect(step).toBeLessThan(total);
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(step + 1);

  // Even with the slider focused, → is a step of the replay, never 1 ms of the slider.
  await lab.scrubber.focus();
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(step + 2);
  await page.keyboard.press('ArrowLeft');
  await lab.waitForStep(step + 1);
  await page.keyboard.press('Space');
  await expect(lab.pause).toBeVisible();
  await page.keyboard.press('Space');
  await expect(lab.play).toBeVisible();
});

test('a text field keeps its keys: → in the seed moves the caret, not the replay', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&step=3');
  await lab.waitForRun('A', 'stdio');
  await lab.seed.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Home');
  await lab.waitForStep(3);
});
