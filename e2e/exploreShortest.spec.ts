// Proves the Explore panel's shortest failing ordering: per broken invariant a button opens the
// shortest ordering that breaks it (shrunk from the one the exploration kept) in the diagram at the
// breaking event, the link carries it (schedule=) and reopens the same run.
import { expect, test } from '@playwright/test';
import { ExplorePanel } from './pages/ExplorePanel';
import { LabPage } from './pages/LabPage';

// The buffer dropping any oldest item: the exploration keeps c0.c0.c0.c1 for final-never-dropped, the
// shortest ordering breaking it is c0.c1.c1 (event 23, as `lab explore` prints).
const BUFFER =
  '?scenario=buffer-overload&transport=stdio&requests=2&progressPerRequest=4&capacity=2&producerEveryMs=30&consumerEveryMs=60&queue=drop-oldest-any';

test('Open the shortest ordering opens c0.c1.c1 at its breaking event, and the link reopens it', async ({ page }) => {
  const lab = new LabPage(page);
  const explorer = new ExplorePanel(page);
  await lab.open(BUFFER);
  await lab.waitForRun('buffer-overload', 'stdio');
  await explorer.run();
  await expect(explorer.shortest).toHaveCount(1);
  const open = explorer.region.getByRole('button', {
    name: 'Open the shortest ordering that breaks final-never-dropped',
  });
  const entry = explorer.region.getByTestId('explore-shortest');
  await expect(entry).toContainText('final-never-dropped breaks at event 23');
  await expect(entry).toContainText('c0.c1.c1 (shrunk from c0.c0.c0.c1)');

  // Keyboard: the button opens it.
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]schedule=c0\.c1\.c1(&|$)/);
  await lab.waitForRun('buffer-overload', 'stdio');
  await lab.waitForStep(24);
  await expect(explorer.current).toContainText('Showing explored ordering c0.c1.c1');
  const events = await lab.main.getAttribute('data-events');

  // The link carries the ordering and the step: a fresh page opens the same run at the same step. The
  // page writes its link after the step lands, so the test reads the link once it names the step.
  await expect(page).toHaveURL(/[?&]step=24(&|$)/);
  await page.goto(page.url());
  await lab.waitForRun('buffer-overload', 'stdio');
  await expect(lab.main).toHaveAttribute('data-events', events ?? '');
  await lab.waitForStep(24);
  await expect(explorer.current).toContainText('c0.c1.c1');
});
