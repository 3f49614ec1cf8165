// Proves Export evidence shows how far it got while the tools worker builds the zip: a named progress
// bar above zero and what it builds, gone once the zip is downloaded; and Stop exporting (reached by
// keyboard) ends it and its worker with no download and a message, after which the next export starts
// afresh; a Stop after an export that finished keeps that export's list of files.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { LabPage } from './pages/LabPage';
import { Panels } from './pages/Panels';

async function openVerification(page: Page): Promise<Panels> {
  await new LabPage(page).open('');
  const panels = new Panels(page);
  await panels.openTab('Verification');
  // The checklist runs when the tab opens; the export is measured on its own.
  await expect(panels.checklist.locator(':scope > li')).toHaveCount(17, { timeout: 120_000 });
  return panels;
}

/** The export bar's value once it is above zero, with its total and its text. */
async function exportProgress(page: Page, above = 0): Promise<{ value: number; max: number; text: string }> {
  await expect(page.getByRole('progressbar', { name: 'Evidence export progress' })).toBeVisible({ timeout: 30_000 });
  let seen = { value: 0, max: 0, text: '' };
  await expect
    .poll(
      async () => {
        seen = await page.evaluate(() => {
          const progress = document.querySelector<HTMLProgressElement>('[data-testid="evidence-progress"] progress');
          return {
            value: progress?.value ?? 0,
            max: progress?.max ?? 0,
            text: document.querySelector('[data-testid="evidence-progress"] p')?.textContent ?? '',
          };
        });
        return seen.value;
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBeGreaterThan(above);
  return seen;
}

test('the export shows its progress while it computes, then downloads the zip and the bar is gone', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const panels = await openVerification(page);
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  const startedAt = Date.now();
  await panels.exportEvidence.click();
  const seen = await exportProgress(page);
  expect(seen.max).toBeGreaterThan(1_000);
  expect(seen.value).toBeLessThanOrEqual(seen.max);
  expect(seen.text).toMatch(
    /^Exporting: (building [\w-]+\.json|checking (VF|RC|BF|LG)-[\w]+) … [\d,]+ of [\d,]+ runs$/,
  );
  const download = await downloading;
  test.info().annotations.push({ type: 'export time', description: `${Date.now() - startedAt} ms to the download` });
  expect(download.suggestedFilename()).toBe('mcp-lab-evidence.zip');
  const unzipped = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(Object.keys(unzipped)).toContain('verification.json');
  await expect(page.getByRole('progressbar', { name: 'Evidence export progress' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stop exporting' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Exported files' })).toContainText('verification.json');
});

test('Stop exporting, pressed from the keyboard, ends the export with no download; the next export starts afresh', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const panels = await openVerification(page);
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await panels.exportEvidence.focus();
  // The export starts a tools worker of its own (the checklist's is already running): the one worker that starts now.
  const starting = page.waitForEvent('worker');
  await page.keyboard.press('Enter');
  const exportWorker = await starting;
  let workerEnded = false;
  exportWorker.on('close', () => (workerEnded = true));
  const first = await exportProgress(page);
  // The next stop in the tab order after the (now disabled) Export evidence button is Stop exporting.
  await page.keyboard.press('Tab');
  const stop = page.getByRole('button', { name: 'Stop exporting' });
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Stopped');
  await expect(page.getByRole('alert')).toContainText('nothing was downloaded');
  await expect(page.getByRole('progressbar', { name: 'Evidence export progress' })).toHaveCount(0);
  await expect(panels.exportEvidence).toBeEnabled();
  // Stop ends the export's worker, so nothing of it runs on (the worker's side of it: src/worker/verifyProgress.test.ts).
  await expect.poll(() => workerEnded, { timeout: 10_000 }).toBe(true);
  expect(downloads).toEqual([]);
  await expect(page.getByRole('list', { name: 'Exported files' })).toHaveCount(0);

  // Afresh: the bar starts again from the beginning, and this export downloads.
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await panels.exportEvidence.click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const again = await exportProgress(page);
  expect(again.max).toBe(first.max);
  expect((await downloading).suggestedFilename()).toBe('mcp-lab-evidence.zip');
  expect(downloads).toEqual(['mcp-lab-evidence.zip']);
  const exported = page.getByRole('list', { name: 'Exported files' });
  await expect(exported).toContainText('verification.json');

  // A Stop after an export that finished keeps that export's list, and says whose it is.
  await panels.exportEvidence.click();
  await exportProgress(page);
  await page.getByRole('button', { name: 'Stop exporting' }).click();
  await expect(page.getByRole('alert')).toContainText('The files listed are those of the last export that finished');
  await expect(exported).toContainText('verification.json');
  expect(downloads).toEqual(['mcp-lab-evidence.zip']);
});

test('an export started at the foot of the window shows its progress and Stop exporting without a scroll', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const panels = await openVerification(page);
  // Where a user leaves the page after reading down to the button: the button on the window's last line.
  await panels.exportEvidence.evaluate((button) => button.scrollIntoView({ block: 'end' }));
  await panels.exportEvidence.click();
  const stop = page.getByRole('button', { name: 'Stop exporting' });
  await expect(stop).toBeVisible();
  // Nearly whole (the panel's last pixel row may round away); without the reveal both sit wholly below the fold.
  await expect(stop).toBeInViewport({ ratio: 0.9 });
  await expect(page.locator('[data-testid="evidence-progress"] p[aria-hidden="true"]')).toBeInViewport({ ratio: 0.9 });
  await stop.click();
  await expect(page.getByRole('alert')).toContainText('Stopped');
});
