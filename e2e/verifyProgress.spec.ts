// Proves the Verification tab shows how far its checklist got while the tools worker computes it: a
// named progress bar with a value above zero and the statement being checked, before any checklist
// item shows, gone once the checklist is there; and Stop checking ends it, with Check again to restart.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { Panels } from './pages/Panels';

async function openVerification(page: import('@playwright/test').Page): Promise<Panels> {
  await new LabPage(page).open('');
  const panels = new Panels(page);
  await panels.openTab('Verification');
  return panels;
}

/** The bar's value once it is above zero, read while no checklist item is on the page yet. */
async function progressBeforeChecklist(
  page: import('@playwright/test').Page,
): Promise<{ value: number; max: number; items: number; text: string }> {
  const bar = page.getByRole('progressbar', { name: 'Verification progress' });
  await expect(bar).toBeVisible({ timeout: 30_000 });
  let seen = { value: 0, max: 0, items: 0, text: '' };
  await expect
    .poll(
      async () => {
        seen = await page.evaluate(() => {
          const progress = document.querySelector<HTMLProgressElement>('[data-testid="vf-progress"] progress');
          return {
            value: progress?.value ?? 0,
            max: progress?.max ?? 0,
            items: document.querySelectorAll('ol[aria-label="Verification checklist"] > li').length,
            text: document.querySelector('[data-testid="vf-progress"] p')?.textContent ?? '',
          };
        });
        return seen.value;
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBeGreaterThan(0);
  return seen;
}

test('the checklist shows its progress while it computes, then the bar gives way to the checklist', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const panels = await openVerification(page);
  const seen = await progressBeforeChecklist(page);
  expect(seen.items).toBe(0);
  expect(seen.max).toBeGreaterThan(1_000);
  expect(seen.value).toBeLessThanOrEqual(seen.max);
  expect(seen.text).toMatch(/^Checking (VF|RC|BF|LG)-[\w]+ … [\d,]+ of [\d,]+ runs$/);
  await expect(panels.checklist.locator(':scope > li')).toHaveCount(17, { timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Verification progress' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stop checking' })).toHaveCount(0);
});

test('Stop checking ends the checklist in its worker, and Check again starts it afresh', async ({ page }) => {
  test.setTimeout(180_000);
  const panels = await openVerification(page);
  await progressBeforeChecklist(page);
  await page.getByRole('button', { name: 'Stop checking' }).click();
  await expect(page.getByRole('alert')).toContainText('Stopped');
  await expect(page.getByRole('progressbar', { name: 'Verification progress' })).toHaveCount(0);
  await expect(panels.checklist.locator(':scope > li')).toHaveCount(0);
  await page.getByRole('button', { name: 'Check again' }).click();
  const again = await progressBeforeChecklist(page);
  expect(again.items).toBe(0);
  await expect(panels.checklist.locator(':scope > li')).toHaveCount(17, { timeout: 120_000 });
});
