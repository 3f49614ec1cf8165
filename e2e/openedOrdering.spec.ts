// An ordering opened from an exploration's results at 1280×720 and 1440×900: the panel shows its heading
// with the ordering it shows and the way back, whole, in the column the panel scrolls in.
import { expect, test } from '@playwright/test';
import { ExplorePanel } from './pages/ExplorePanel';
import { shown, whole } from './pages/geometry';
import { LabPage } from './pages/LabPage';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test("ledger-race-unsafe explored, its shortest ordering opened: the panel's heading and the ordering it shows read whole", async ({
      page,
    }) => {
      const lab = new LabPage(page);
      const explorer = new ExplorePanel(page);
      await lab.open('?scenario=ledger-race-unsafe');
      await lab.waitForRun('ledger-race-unsafe', 'http');
      await explorer.run();
      await explorer.shortest.first().click();
      await expect(explorer.current).toContainText('Showing explored ordering');
      await lab.waitForStep(17);
      const heading = explorer.region.getByRole('heading', { name: 'Every ordering' });
      for (const [what, part] of [
        ['the heading', heading],
        ['the ordering shown', explorer.current],
        ['the way back', explorer.backToSeeded],
      ] as const) {
        await expect.poll(async () => whole(await shown(part)), `${what} whole in view`).toBe(true);
      }
    });
  });
}
