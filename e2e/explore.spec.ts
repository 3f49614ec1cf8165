// Proves the page's Explore: the worker explores every ordering while the page stays
// responsive, the page shows the count of orderings, the endings with their counts and the violations,
// a click opens that ordering in the diagram (schedule= in the link) at the violating step, a link with
// schedule= reopens it, Back to the seeded run returns, and Stop ends a long exploration.
import { expect, test } from '@playwright/test';
import { ExplorePanel } from './pages/ExplorePanel';
import { LabPage } from './pages/LabPage';

test('A with 300 ms of jitter: both endings, each opens its ordering, and the link reopens it', async ({ page }) => {
  const lab = new LabPage(page);
  const explorer = new ExplorePanel(page);
  await lab.open('?scenario=A&latencyJitterMs=300');
  await lab.waitForRun('A', 'stdio');
  await explorer.run();
  await expect(explorer.summary).toContainText('every ordering explored');
  await expect(explorer.summary).toContainText('Every invariant holds in every ordering.');
  await expect(explorer.endings.filter({ hasText: 'Terminal state cancelled' }).first()).toBeVisible();
  const completed = explorer.endings.filter({ hasText: 'Terminal state completed' }).first();
  await expect(completed).toBeVisible();

  await completed.click();
  await expect(page).toHaveURL(/[?&]schedule=[cj0-9.]+/);
  await lab.waitForRun('A', 'stdio');
  await expect(explorer.current).toBeVisible();
  await expect(lab.facts).toContainText('completed');
  const url = page.url();
  const events = await lab.main.getAttribute('data-events');

  // The link carries the ordering: a fresh page opens the same run.
  await page.goto(url);
  await lab.waitForRun('A', 'stdio');
  await expect(lab.main).toHaveAttribute('data-events', events ?? '');
  await expect(explorer.current).toBeVisible();
  await expect(lab.facts).toContainText('completed');

  await explorer.backToSeeded.click();
  await lab.waitForRun('A', 'stdio');
  await expect(explorer.current).toHaveCount(0);
  await expect(page).not.toHaveURL(/schedule=/);
});

test('afterCancel=respond: the violation opens its ordering at the violating step', async ({ page }) => {
  const lab = new LabPage(page);
  const explorer = new ExplorePanel(page);
  await lab.open('?scenario=A&afterCancel=respond');
  await lab.waitForRun('A', 'stdio');
  await explorer.run();
  await expect(explorer.summary).toContainText('1 violation');
  const violation = explorer.violations.filter({ hasText: 'nothing-after-accepted-cancel' });
  await expect(violation).toHaveCount(1);
  const step = Number(/at event (\d+)/.exec((await violation.textContent()) ?? '')?.[1]);
  expect(Number.isInteger(step)).toBe(true);
  // Keyboard: the violation is a button.
  await violation.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]schedule=/);
  await lab.waitForStep(step + 1);
  await expect(page).toHaveURL(new RegExp(`[?&]step=${step + 1}(&|$)`));
});

test('a long exploration reports progress, the page stays responsive, and Stop ends it', async ({ page }) => {
  const lab = new LabPage(page);
  const explorer = new ExplorePanel(page);
  // At its defaults the buffer now explores completely in about a second; eight requests of 60 progress each take minutes.
  await lab.open('?scenario=buffer-overload&requests=8&progressPerRequest=60');
  await lab.waitForRun('buffer-overload', 'http');
  await explorer.explore.click();
  await expect(explorer.progress).toBeVisible();
  await expect(explorer.region.getByRole('status').filter({ hasText: /states, .* orderings/ })).toBeVisible({
    timeout: 15_000,
  });
  // The replay still steps while the worker explores.
  const before = Number(await lab.main.getAttribute('data-step'));
  await lab.stepBack.click();
  await lab.waitForStep(before - 1);
  await explorer.stop.click();
  await expect(explorer.region.getByRole('alert')).toContainText('Exploration stopped');
  await expect(explorer.stop).toHaveCount(0);
  // The fresh worker runs what comes next.
  await lab.pickScenario('B');
  await lab.waitForRun('B', 'stdio');
});

test('B at its defaults: one ordering, the panel says why, and Explore with jitter finds the race (a visible, reversible setting)', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const explorer = new ExplorePanel(page);
  await lab.open('?scenario=B');
  await lab.waitForRun('B', 'stdio');
  await explorer.run();
  await expect(explorer.summary).toContainText('1 ordering');
  const hint = explorer.region.getByTestId('explore-one-ordering');
  await expect(hint).toContainText('no latency jitter');
  await expect(hint).toContainText('fixed time');
  await hint.getByRole('button', { name: 'Explore with 20 ms of jitter' }).click();
  await expect(page).toHaveURL(/[?&]latencyJitterMs=20(&|$)/);
  await expect(explorer.summary).toContainText('every ordering explored', { timeout: 30_000 });
  expect(Number(/(\d+) orderings/.exec((await explorer.summary.textContent()) ?? '')?.[1])).toBeGreaterThan(1);
  await expect(hint).toHaveCount(0);
  await expect(explorer.region.getByTestId('explore-jitter')).toContainText('20 ms');
  expect(await (await lab.setting('latencyJitterMs')).inputValue()).toBe('20');

  // Endings read as the facts do, with their counts: no raw field names.
  await expect(explorer.endings).toHaveCount(2);
  for (const text of await explorer.endings.allTextContents()) {
    expect(text).toMatch(/^\d+ orderings? Terminal state (completed|cancelled) · Client outcome /);
    expect(text).toContain('Client ignores');
    expect(text).not.toMatch(/terminalState|clientOutcome|viewsDiverge|clientIgnores/);
  }
  const cancelled = explorer.endings.filter({ hasText: 'Terminal state cancelled' });
  await cancelled.click();
  await lab.waitForRun('B', 'stdio');
  await expect(explorer.current).toContainText('Terminal state cancelled');
  await expect(explorer.backToSeeded).toBeInViewport();
  expect((await lab.readFacts()).terminalState).toContain('cancelled');
  // The title follows the ordering on screen: the menu names it an explored ordering that ends cancelled,
  // not the seeded run's "B — complete, then …"; and nothing lies over the way back.
  const title = lab.scenario.locator('option:checked');
  await expect(title).toHaveText('B — an explored ordering: ends cancelled');
  await expect(lab.scenario).toHaveValue('B');
  await expect(page.locator('.lab-run-info')).toContainText('an explored ordering');
  const uncovered = await explorer.backToSeeded.evaluate((button) => {
    const box = button.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && button.contains(top);
  });
  expect(uncovered, 'Back to the seeded run is not covered by the facts or anything else').toBe(true);

  // Reversible: the reset clears the setting from the link and the page.
  await explorer.backToSeeded.click();
  await lab.waitForRun('B', 'stdio');
  await expect(title).not.toContainText('explored ordering');
  await explorer.region.getByRole('button', { name: 'Reset latency jitter' }).click();
  await lab.waitForRun('B', 'stdio');
  await expect(page).not.toHaveURL(/latencyJitterMs=/);
  await expect(explorer.region.getByTestId('explore-jitter')).toHaveCount(0);
});
