// Every tab shows the scenario the top bar names: the Ledger tab opened over a race picks a ledger
// scenario; a tab that runs its own scenarios (Tasks, Buffer, Backoff, Proxy & reconnect) selects one of
// them and says so in the top bar, and Transport, Seed, Implementation, Run and Predict are off there
// (focusable, aria-disabled) with that reason on hover (title) and focus (aria-describedby).
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

const OWN: ReadonlyArray<readonly [string, RegExp, string]> = [
  ['Tasks', /task scenario/, 'task-cancel-ack'],
  ['Buffer', /buffer-overload/, 'buffer-overload'],
  ['Backoff', /herd/, 'herd'],
  ['Proxy & reconnect', /proxy-buffering, reconnect-listen/, 'proxy-buffering'],
];
const REASON =
  /on its own settings, shown on the tab; Transport, Seed, Implementation, Run and Predict apply on the Race and Ledger tabs/;

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

  for (const [label, names, selected] of OWN) {
    await tabs.getByRole('tab', { name: label, exact: true }).click();
    // The top bar names what the tab shows.
    await expect(lab.scenario).toHaveValue(selected);
    await expect(note).toContainText(names);
    await expect(note).toContainText(REASON);
    for (const control of [run, predict]) {
      await expect(control).toHaveAttribute('aria-disabled', 'true');
      await expect(control).toHaveAttribute('aria-describedby', 'lab-tab-scenario-note');
      await expect(control).toHaveAttribute('title', REASON);
      await expect(control).toHaveAccessibleDescription(REASON);
    }
    // Off, yet focusable (a natively disabled control could not show its reason on focus).
    await expect(lab.transportRadio('http')).toHaveAttribute('aria-disabled', 'true');
    await expect(lab.seed).toHaveAttribute('aria-disabled', 'true');
    await expect(lab.seed).toHaveAttribute('title', REASON);
    // Run there runs nothing: the workbench's run is unchanged.
    await lab.waitForRun(selected, 'http');
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
  await expect(lab.seed).not.toHaveAttribute('aria-disabled', 'true');
  await expect(predict).not.toHaveAttribute('aria-disabled', 'true');
});
