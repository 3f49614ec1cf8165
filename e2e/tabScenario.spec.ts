// Every tab shows the scenario the top bar names: the Ledger tab opened over a race picks a ledger
// scenario; a tab that runs its own scenarios (Tasks, Buffer, Backoff, Proxy & reconnect) says which in
// the top bar, and Transport, Seed, Implementation, Run and Predict are off there with that reason on
// hover (title) and focus (aria-describedby).
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

const OWN: ReadonlyArray<readonly [string, RegExp]> = [
  ['Tasks', /task scenario/],
  ['Buffer', /buffer-overload/],
  ['Backoff', /herd/],
  ['Proxy & reconnect', /proxy-buffering, reconnect-listen/],
];

test('every tab names the scenario it shows', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  const tabs = page.getByRole('tablist', { name: 'Lab sections' });
  const note = page.locator('#lab-tab-scenario-note');
  const run = page.getByRole('button', { name: 'Run', exact: true });
  const predict = page.getByRole('button', { name: 'Predict', exact: true });

  // Race: the menu's scenario, every control live.
  await expect(note).toHaveCount(0);
  await expect(run).not.toHaveAttribute('aria-disabled', 'true');

  for (const [label, names] of OWN) {
    await tabs.getByRole('tab', { name: label, exact: true }).click();
    await expect(note).toContainText(names);
    await expect(note).toContainText('not the scenario in the menu');
    for (const control of [run, predict]) {
      await expect(control).toHaveAttribute('aria-disabled', 'true');
      await expect(control).toHaveAttribute('aria-describedby', 'lab-tab-scenario-note');
      await expect(control).toHaveAttribute('title', /not the scenario in the menu/);
      await expect(control).toHaveAccessibleDescription(/not the scenario in the menu/);
    }
    await expect(lab.transportRadio('http')).toBeDisabled();
    await expect(lab.seed).toBeDisabled();
    await expect(lab.seed).toHaveAttribute('title', /not the scenario in the menu/);
    // Run there runs nothing: the workbench's run is unchanged.
    const events = await lab.main.getAttribute('data-events');
    await run.click({ force: true });
    await expect(lab.main).toHaveAttribute('data-events', events ?? '');
  }

  // Ledger over a race: a ledger scenario is picked and named in the menu.
  await tabs.getByRole('tab', { name: 'Ledger', exact: true }).click();
  await lab.waitForRun('ledger-race-keyed', 'http');
  await expect(lab.scenario).toHaveValue('ledger-race-keyed');
  await expect(note).toHaveCount(0);
  await expect(run).not.toHaveAttribute('aria-disabled', 'true');

  // Back on Race, the controls are live again.
  await tabs.getByRole('tab', { name: 'Race', exact: true }).click();
  await expect(lab.seed).toBeEnabled();
  await expect(predict).not.toHaveAttribute('aria-disabled', 'true');
});
