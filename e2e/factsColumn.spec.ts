// A ledger run's facts beside the diagram at 1280×720 and 1440×900 read whole across the column, measured
// as boxes against what clips them: the Responses table's four columns (its fourth was cut to a "W"),
// and what is stored for the key under its name.
import { expect, test, type Locator } from '@playwright/test';
import { LabPage } from './pages/LabPage';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** Every cell of a table whose text is cut across: past what is seen of it, or wider than its own box. */
function cutAcross(table: Locator): Promise<string[]> {
  return table.evaluate((element) => {
    const cut: string[] = [];
    for (const cell of element.querySelectorAll('th, td')) {
      const r = cell.getBoundingClientRect();
      let left = Math.max(r.left, 0);
      let right = Math.min(r.right, innerWidth);
      for (let node = cell.parentElement; node !== null; node = node.parentElement) {
        if (getComputedStyle(node).overflowX === 'visible') continue;
        const clip = node.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      const text = (cell.textContent ?? '').slice(0, 30);
      if (left > r.left + 1 || right < r.right - 1)
        cut.push(
          `"${text}" ${Math.round(r.left)}–${Math.round(r.right)} seen ${Math.round(left)}–${Math.round(right)}`,
        );
      else if (cell.scrollWidth > cell.clientWidth + 1)
        cut.push(`"${text}" ${cell.scrollWidth} px of text in ${cell.clientWidth} px`);
    }
    return cut;
  });
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    for (const scenario of ['ledger-race-keyed', 'ledger-race-unsafe']) {
      test(`${scenario} at its end: the Responses table beside the diagram reads whole across, every column`, async ({
        page,
      }) => {
        const lab = new LabPage(page);
        await lab.open(`?scenario=${scenario}`);
        await lab.waitForRun(scenario, 'http');
        const responses = page.locator('.lab-facts-cell').getByRole('table', { name: 'Responses' });
        await expect(responses.getByRole('columnheader')).toHaveText([
          'Request',
          'Connection',
          'Status',
          'What the client got',
        ]);
        await expect(responses.locator('tbody tr')).toHaveCount(2);
        expect(await cutAcross(responses)).toEqual([]);
        // Every table of the outcome fits the column: nothing of it waits off to the right.
        const cell = await page
          .locator('.lab-facts-cell')
          .evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
        expect(cell.scroll, 'the facts column scrolls sideways').toBeLessThanOrEqual(cell.client);
      });
    }

    test('ledger-alias and inventory-alias at their end: what is stored for the key reads inside the facts column', async ({
      page,
    }) => {
      const lab = new LabPage(page);
      for (const scenario of ['ledger-alias', 'inventory-alias']) {
        await lab.open(`?scenario=${scenario}`);
        await lab.waitForRun(scenario, 'http');
        const stored = page.locator('.lab-facts-cell .lab-stored');
        await expect(stored.locator('dt')).not.toHaveCount(0);
        const column = await page.locator('.lab-facts-cell').evaluate((element) => ({
          scroll: element.scrollWidth,
          client: element.clientWidth,
          right: element.getBoundingClientRect().right,
        }));
        expect(column.scroll, `${scenario}: the facts column scrolls sideways`).toBeLessThanOrEqual(column.client);
        for (const part of await stored.locator('dt, dd').all()) {
          const box = await part.boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0), `${scenario}: "${await part.textContent()}"`).toBeLessThanOrEqual(
            column.right + 1,
          );
        }
      }
    });
  });
}
