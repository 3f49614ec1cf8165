// Proves the Compare tab: two runs side by side — the spec model and the real SDK by default — as two diagrams cut at one virtual time that the controls move for both, the facts of both with each difference marked, the first instant at which they part, and both runs (and the time) in the address; a malformed run is refused with its code and the runs on screen stay.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { runRaceById } from '../src/scenarios/index';
import { LabPage } from './pages/LabPage';

class ComparePage {
  readonly runA: Locator;
  readonly runB: Locator;
  readonly compare: Locator;
  readonly facts: Locator;
  readonly time: Locator;
  readonly now: Locator;
  readonly divergence: Locator;

  constructor(readonly page: Page) {
    this.runA = page.getByRole('textbox', { name: 'Run A' });
    this.runB = page.getByRole('textbox', { name: 'Run B' });
    this.compare = page.getByRole('button', { name: 'Compare', exact: true });
    this.facts = page.getByRole('table', { name: 'Facts of both runs' });
    const playback = page.getByRole('region', { name: 'Compare playback' });
    this.time = playback.getByRole('slider', { name: 'Virtual time' });
    this.now = playback.locator('output');
    this.divergence = page.getByRole('group', { name: 'First difference' });
  }

  playbackButton(name: string): Locator {
    return this.page.getByRole('region', { name: 'Compare playback' }).getByRole('button', { name, exact: true });
  }

  /** The diagram headed `title` (its pane carries the step it shows). */
  flow(heading: string): Locator {
    return this.page.getByRole('region', { name: heading }).locator('.lab-flow');
  }

  fact(name: string): Locator {
    return this.facts
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  }

  async settledUrl(): Promise<URL> {
    let last = '';
    await expect
      .poll(async () => {
        const now = this.page.url();
        const same = now === last;
        last = now;
        await this.page.waitForTimeout(300);
        return same;
      })
      .toBe(true);
    return new URL(this.page.url());
  }
}

test('the model and the real SDK side by side on one virtual time, facts and first difference marked, both runs in the address', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const view = new ComparePage(page);
  // Compare opens on the scenario the link (the Scenario menu) names: C.
  await lab.open('?scenario=C&tab=compare');
  await expect(page.getByRole('heading', { name: 'Run A: C', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Run B: C:impl=ts-sdk', exact: true })).toBeVisible();
  await expect(view.runA).toHaveValue('C');
  await expect(view.runB).toHaveValue('C:impl=ts-sdk');

  // The facts of both; the differing ones marked in words, not colour alone.
  await expect(view.fact('client outcome')).toContainText('differs');
  await expect(view.fact('client outcome').getByRole('cell')).toHaveText([
    'timeout-max at 2000 ms',
    'timeout-max at 2010 ms',
  ]);
  await expect(view.fact('final response')).not.toContainText('differs');
  await expect(view.fact('protocol').getByRole('cell')).toHaveText(['2026-07-28', '2025-11-25']);
  await expect(view.fact('invariants broken').getByRole('cell').nth(1)).toContainText('RC-1/RC-2 maximum deadline');
  await expect(view.divergence).toContainText('They part at 2000 ms');
  await expect(view.divergence).toContainText('Run A: 2000 ms client state waiting → abandoned');
  await expect(view.divergence).toContainText('Run B: nothing else at that instant');

  // One virtual time for both diagrams: each shows exactly its events up to it.
  const model = runRaceById('C');
  const upTo = (atMs: number) => model.events.filter((event) => event.atMs <= atMs).length;
  const flowA = view.flow('Run A: C');
  const flowB = view.flow('Run B: C:impl=ts-sdk');
  await expect(flowA).toHaveAttribute('data-step', String(model.events.length));
  await view.playbackButton('First difference').click();
  await expect(view.now).toHaveText('2000 ms');
  await expect(flowA).toHaveAttribute('data-step', String(upTo(2000)));
  const atDivergence = Number(await flowB.getAttribute('data-step'));
  // Step forward goes to the next instant at which either run did something, for both at once.
  await view.playbackButton('Step forward').click();
  await expect(view.now).toHaveText('2005 ms');
  await expect(flowA).toHaveAttribute('data-step', String(upTo(2005)));
  await expect.poll(async () => Number(await flowB.getAttribute('data-step'))).toBeGreaterThan(atDivergence);
  await view.playbackButton('Step back').click();
  await expect(view.now).toHaveText('2000 ms');
  await expect(flowB).toHaveAttribute('data-step', String(atDivergence));

  // The address holds both runs and the time; reopening it shows the same.
  const url = await view.settledUrl();
  expect(url.searchParams.get('tab')).toBe('compare');
  expect(url.searchParams.get('runA')).toBe('C');
  expect(url.searchParams.get('runB')).toBe('C:impl=ts-sdk');
  expect(url.searchParams.get('compareMs')).toBe('2000');
  await page.reload();
  await expect(view.now).toHaveText('2000 ms', { timeout: 20_000 });
  await expect(flowA).toHaveAttribute('data-step', String(upTo(2000)));
});

test('Compare opens on the scenario the Scenario menu shows, and follows the menu until runs are chosen', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const view = new ComparePage(page);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  await page.getByRole('tab', { name: 'Compare', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Run A: A', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Run B: A:impl=ts-sdk', exact: true })).toBeVisible();
  await expect(view.runA).toHaveValue('A');
  await expect(view.runB).toHaveValue('A:impl=ts-sdk');

  // The menu picks D: Compare compares D.
  await lab.pickScenario('D');
  await expect(page.getByRole('heading', { name: 'Run A: D', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(view.runB).toHaveValue('D:impl=ts-sdk');
});

test('any two runs: typed in, compared, kept in the address; a malformed one is refused and the runs on screen stay', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const view = new ComparePage(page);
  await lab.open('?tab=compare&runA=D:transport=stdio&runB=D:transport=http');
  await expect(view.fact('cancellation signal').getByRole('cell')).toHaveText(
    ['notifications/cancelled', 'stream-close'],
    { timeout: 20_000 },
  );
  await expect(view.fact('cancellation signal')).toContainText('differs');
  await expect(view.divergence).toContainText('They part at 0 ms');

  // Typed, with the keyboard: Enter in a field compares.
  await view.runA.fill('C:seed=1,latencyJitterMs=20');
  await view.runB.fill('C:seed=2,latencyJitterMs=20');
  await view.runB.press('Enter');
  await expect(page.getByRole('heading', { name: 'Run B: C:seed=2,latencyJitterMs=20', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(view.fact('run')).toContainText('differs');
  const url = await view.settledUrl();
  expect(url.searchParams.get('runA')).toBe('C:seed=1,latencyJitterMs=20');
  expect(url.searchParams.get('runB')).toBe('C:seed=2,latencyJitterMs=20');

  await view.runB.fill('C:impl=fast');
  await view.compare.click();
  await expect(page.getByRole('alert')).toContainText('LAB024');
  await expect(page.getByText('The runs below are the last ones that ran.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Run B: C:seed=2,latencyJitterMs=20', exact: true })).toBeVisible();

  // An example, one click.
  await page
    .getByRole('group', { name: 'Examples' })
    .getByRole('button', { name: 'Ledger race: unsafe vs keyed' })
    .click();
  await expect(page.getByRole('heading', { name: 'Run B: ledger-race-keyed', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(view.fact('executions').getByRole('cell')).toHaveText(['2', '1']);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('axe finds no serious or critical violation in the Compare tab, nor beside a run of the real SDK', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const serious = async () =>
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    ).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
      );
  await lab.open('?tab=compare');
  await expect(page.getByRole('table', { name: 'Facts of both runs' })).toBeVisible({ timeout: 20_000 });
  expect(await serious()).toEqual([]);
  await lab.open('?scenario=C&impl=ts-sdk');
  await lab.waitForRun('C', 'stdio');
  await expect(page.getByRole('region', { name: 'Real SDK run' })).toBeVisible();
  expect(await serious()).toEqual([]);
});
