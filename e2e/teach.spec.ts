// A page that names what it shows: a first visit opens at step 0 with the card that says what is
// about to race; the top bar follows the tab (its scenario and menu), and a control that does not
// apply there stays focusable with its reason on hover and focus; Predict's race point never reveals
// by a step forward before a guess; Run says what it did.
import { expect, test, type Locator } from '@playwright/test';
import { locateRace, type RaceLocation, type RaceQuestion } from '../src/engine';
import { findScenario, runScenarioById } from '../src/scenarios/index';
import { LabPage } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

async function optionValues(menu: Locator): Promise<string[]> {
  return menu.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
}

test('a first visit opens at step 0 with the card; a link opens at its step, or at the end when it names none', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  await lab.waitForStep(0);
  const total = await lab.eventCount();
  expect(total).toBeGreaterThan(0);
  const card = page.getByTestId('intro-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('What is about to race');
  // Nothing of the ending is on screen: no timeline rows, the facts still pending.
  await expect(lab.timeline.getByRole('listitem')).toHaveCount(0);
  await expect(page.locator('.lab-facts-cell td').first()).toHaveText('pending');
  // → unfolds the run from the start.
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(1);
  // The address now names the step: a reload keeps it.
  await expect(page).toHaveURL(/[?&]step=1(&|$)/);

  await lab.open('?scenario=A&step=5');
  await lab.waitForRun('A', 'stdio');
  await lab.waitForStep(5);
  await expect(page.getByTestId('intro-card')).toHaveCount(0);

  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  await lab.waitForStep(total);
});

test('the top bar follows the tab: each own-scenario tab selects one of its scenarios and the menu offers its family only', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&transport=stdio');
  await lab.waitForRun('A', 'stdio');
  const tabs = page.getByRole('tablist', { name: 'Lab sections' });
  const all = await optionValues(lab.scenario);
  expect(all.length).toBeGreaterThan(20);

  const families: ReadonlyArray<readonly [string, string, string[]]> = [
    ['Tasks', 'task-cancel-ack', ['task-cancel-ack', 'task-cancel-too-late', 'task-http-close']],
    ['Buffer', 'buffer-overload', ['buffer-overload']],
    ['Backoff', 'herd', ['herd']],
    ['Proxy & reconnect', 'proxy-buffering', ['proxy-buffering', 'reconnect-listen']],
  ];
  for (const [label, selected, family] of families) {
    await tabs.getByRole('tab', { name: label, exact: true }).click();
    await expect(lab.scenario).toHaveValue(selected);
    await expect(lab.main).toHaveAttribute('data-scenario', selected);
    expect(await optionValues(lab.scenario)).toEqual(family);
    // The menu keeps its accessible name and the scenario ids.
    await expect(page).toHaveURL(new RegExp(`[?&]scenario=${selected}(&|$)`));
  }

  // Tasks: the menu and the tab's own Task scenario choice are one choice, both ways.
  await tabs.getByRole('tab', { name: 'Tasks', exact: true }).click();
  await lab.pickScenario('task-http-close');
  await expect(page.getByLabel('Task scenario')).toHaveValue('task-http-close');
  await page.getByLabel('Task scenario').selectOption('task-cancel-too-late');
  await expect(lab.scenario).toHaveValue('task-cancel-too-late');

  // Ledger: a ledger scenario, the ledger family only.
  await tabs.getByRole('tab', { name: 'Ledger', exact: true }).click();
  await expect(lab.scenario).toHaveValue('ledger-race-keyed');
  const ledgerFamily = await optionValues(lab.scenario);
  expect(ledgerFamily).toContain('ledger-new-id-retry');
  expect(ledgerFamily).toContain('inventory-race');
  expect(ledgerFamily).not.toContain('A');
  expect(ledgerFamily).not.toContain('herd');

  // Race: every scenario again; back from an own-scenario tab, the Race tab's scenario returns.
  await tabs.getByRole('tab', { name: 'Race', exact: true }).click();
  expect(await optionValues(lab.scenario)).toEqual(all);
  // On Race the menu picks any scenario, an own-scenario tab's included, and it stays picked.
  await lab.pickScenario('herd');
  await lab.waitForRun('herd', 'http');
  await expect(lab.scenario).toHaveValue('herd');
  await lab.pickScenario('B');
  await lab.waitForRun('B', 'stdio');
  await tabs.getByRole('tab', { name: 'Buffer', exact: true }).click();
  await expect(lab.scenario).toHaveValue('buffer-overload');
  await tabs.getByRole('tab', { name: 'Race', exact: true }).click();
  await lab.waitForRun('B', 'stdio');
  await expect(lab.scenario).toHaveValue('B');
});

test('a control that does not apply on a tab is off yet focusable, with its reason on hover and on focus', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&transport=stdio');
  await lab.waitForRun('A', 'stdio');
  await page.getByRole('tablist', { name: 'Lab sections' }).getByRole('tab', { name: 'Buffer', exact: true }).click();
  await lab.waitForRun('buffer-overload', 'http');
  const note = page.locator('#lab-tab-scenario-note');
  await expect(note).toBeVisible();
  const controls = [
    lab.transportRadio('stdio'),
    lab.seed,
    page.getByRole('button', { name: 'Run', exact: true }),
    page.getByRole('button', { name: 'Predict', exact: true }),
  ];
  for (const control of controls) {
    await control.focus();
    await expect(control).toBeFocused();
    await expect(control).toHaveAttribute('aria-disabled', 'true');
    await expect(control).toHaveAttribute(
      'title',
      /Transport, Seed, Implementation, Run and Predict apply on the Race and Ledger tabs/,
    );
    await expect(control).toHaveAccessibleDescription(/runs buffer-overload .*on its own settings/);
  }
  // The accessible names stay as they were.
  await expect(lab.transportRadio('http')).toHaveAccessibleName('Streamable HTTP');
  await expect(lab.seed).toHaveAccessibleName('Seed');
  // Off means off: a click on the other transport and typing a seed change nothing.
  await lab.transportRadio('stdio').click({ force: true });
  await expect(lab.transportRadio('stdio')).not.toBeChecked();
  await expect(lab.transportRadio('http')).toBeChecked();
  await lab.seed.focus();
  await page.keyboard.type('7');
  await expect(lab.seed).toHaveValue('1');
  await expect(lab.main).toHaveAttribute('data-seed', '1');
  await expect(lab.main).toHaveAttribute('data-transport', 'http');
});

test('Predict: a step forward at the race point before a guess stays there and asks for one; after the guess it reveals', async ({
  page,
}) => {
  const transcript = runScenarioById('A', { transport: 'stdio' });
  const location = locateRace(findScenario('A').race as RaceQuestion, transcript.events) as RaceLocation;
  expect(location).not.toBeNull();
  const lab = new LabPage(page);
  await lab.open(`?scenario=A&transport=stdio&step=${location.point}&instructor=predict`);
  await lab.waitForRun('A', 'stdio');
  await lab.waitForStep(location.point);
  const asking = page.locator('[data-predict="asking"]');
  await expect(asking).toBeVisible();
  const nudge = page.getByTestId('predict-nudge');
  await expect(nudge).toHaveCount(0);

  await page.locator('body').focus();
  for (const move of ['ArrowRight', 'End', 'Space'] as const) {
    await page.keyboard.press(move);
    await expect(nudge).toContainText('make your guess');
    await expect(nudge).toContainText('Reveal');
    await lab.waitForStep(location.point);
    await expect(page.locator('[data-predict="revealed"]')).toHaveCount(0);
  }
  for (const button of [lab.stepForward, lab.play]) {
    await button.click();
    await lab.waitForStep(location.point);
    await expect(lab.play).toBeVisible(); // not playing
    await expect(page.locator('[data-predict="revealed"]')).toHaveCount(0);
  }
  // Half a second later the replay still waits (Play would have moved on by then).
  await page.waitForTimeout(600);
  await lab.waitForStep(location.point);

  // The guess takes the request away; then Step forward reveals at the deciding event.
  await page.locator('body').focus();
  await page.keyboard.press('1');
  await expect(nudge).toHaveCount(0);
  await expect(asking).toContainText('Both are under way now');
  await lab.stepForward.click();
  await lab.waitForStep(location.decidingIndex + 1);
  await expect(page.locator('[data-predict="revealed"]')).toBeVisible();
  await expect(lab.timeline.locator('[data-race="deciding"]')).toHaveCount(1);
});

test('Run says what it did: the same seed gives the same run again', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B&transport=stdio');
  await lab.waitForRun('B', 'stdio');
  const events = await lab.eventCount();
  const said = page.getByTestId('run-said');
  await expect(said).toHaveCount(0);
  await lab.runButton.click();
  await expect(said).toHaveText(
    `Ran B on stdio, seed 1 again: the same ${events} events, since a seed fixes the run. Change the seed or a setting, or Explore, for another.`,
  );
  await expect(said).toHaveAttribute('role', 'status');
  // A note over the page: the diagram pane does not move.
  const pane = page.locator('.lab-flow');
  const before = await pane.boundingBox();
  await lab.runButton.click();
  await expect(said).toBeVisible();
  expect(await pane.boundingBox()).toEqual(before);
});
