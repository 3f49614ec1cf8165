// Proves the lab's panels work (and pass axe) in the browser on views computed in the worker: the buffer and herd sliders move the charts and their numbers, the evidence zip holds buildEvidence's files, the reviewer flags an unkeyed retried mutation and its Download skill zip holds buildSkill's folder, the checklist shows VF-1 … VF-12 holding with links into the diagram, and presentation and predict modes run by keyboard alone.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { loadSqlJs } from '../src/cli/sqlite';
import { buildEvidence } from '../src/lesson/evidence';
import { buildSkill } from '../src/lesson/skill';
import { runScenarioById } from '../src/scenarios/index';
import { LabPage } from './pages/LabPage';
import { Panels } from './pages/Panels';

const unsafeChargeText = (): Promise<string> =>
  readFile(new URL('../src/lesson/examples/unsafe-charge.json', import.meta.url), 'utf8');

async function openLab(page: import('@playwright/test').Page, query = ''): Promise<{ lab: LabPage; panels: Panels }> {
  const lab = new LabPage(page);
  await lab.open(query);
  return { lab, panels: new Panels(page) };
}

test('every part of the requirements is one click from the tab bar', async ({ page }) => {
  const { panels } = await openLab(page);
  for (const name of [
    'Race',
    'Ledger',
    'Tasks',
    'Buffer',
    'Backoff',
    'Proxy & reconnect',
    'Verification',
    'Reviewer',
  ] as const) {
    await panels.openTab(name);
  }
  await panels.openTab('Tasks');
  await panels.waitIdle();
  await expect(page.getByRole('table', { name: 'Task status over time' })).toContainText('cancel-acknowledged');
  await panels.openTab('Proxy & reconnect');
  await panels.waitIdle();
  await expect(panels.text('reconnect-plan')).toContainText('tools/list');
  await expect(panels.text('sse-headers')).toContainText('X-Accel-Buffering');
});

test('the capacity slider changes the drops while the final response survives', async ({ page }) => {
  const { panels } = await openLab(page);
  await panels.openTab('Buffer');
  await panels.waitIdle();
  await expect(panels.text('buffer-dropped')).toHaveText(/^\d+$/);
  const droppedAt8 = Number(await panels.text('buffer-dropped').textContent());
  await panels.slide(panels.capacity, 4);
  await expect(panels.text('buffer-dropped')).not.toHaveText(String(droppedAt8));
  const droppedAt4 = Number(await panels.text('buffer-dropped').textContent());
  expect(droppedAt4).toBeGreaterThan(droppedAt8);
  await expect(panels.text('buffer-final')).toHaveText('survived');
  await panels.slide(panels.capacity, 64);
  await expect.poll(async () => Number(await panels.text('buffer-dropped').textContent())).toBeLessThan(droppedAt8);
  await expect(panels.text('buffer-final')).toHaveText('survived');
  await expect(page.getByRole('img', { name: /Buffer occupancy over time, capacity 64/ })).toBeVisible();
});

test('moving the backoff sliders changes the herd plot and its numbers', async ({ page }) => {
  const { panels } = await openLab(page);
  await panels.openTab('Backoff');
  await panels.waitIdle();
  await expect(panels.text('herd-main-total')).toHaveText(/\d/);
  await expect(panels.text('herd-compare-total')).toHaveText(/\d/);
  const before = {
    total: await panels.text('herd-main-total').textContent(),
    label: await page.getByRole('img', { name: /Attempts per/ }).getAttribute('aria-label'),
  };
  await panels.slide(panels.baseDelay, 1000);
  await expect(panels.text('herd-main-total')).not.toHaveText(before.total ?? '');
  await expect(page.getByRole('img', { name: /Attempts per/ })).not.toHaveAttribute('aria-label', before.label ?? '');
  const recover = await panels.text('herd-main-recover').textContent();
  await panels.slide(panels.clients, 2000);
  await expect(panels.text('herd-main-recover')).not.toHaveText(recover ?? '');
  await panels.slide(panels.cap, 2000);
  await panels.policy.selectOption('exponential');
  await panels.waitIdle();
  await expect(page.getByTestId('herd-main')).toContainText('exponential');
});

test('RV-4/RV-5: the first window and the retry waves are apart, and the panel says why no backoff ends sooner', async ({
  page,
}) => {
  const { panels } = await openLab(page);
  await panels.openTab('Backoff');
  await panels.waitIdle();
  // Full jitter (main) against no backoff (compare), at the defaults: attempt 0 waits too.
  await expect(panels.text('herd-main-first')).not.toHaveText('10,000');
  await expect(panels.text('herd-compare-first')).toHaveText('10,000');
  await expect(panels.text('herd-why')).toContainText('Sooner on the clock is not gentler on the server');
  await expect(panels.text('herd-why')).toContainText(/none: last client in at [\d,]+ ms \(at the floor\)/);
});

test('export produces the files buildEvidence lists', async ({ page }) => {
  test.setTimeout(300_000);
  const { panels } = await openLab(page);
  await panels.openTab('Verification');
  const downloading = page.waitForEvent('download');
  await panels.exportEvidence.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('mcp-lab-evidence.zip');
  const path = await download.path();
  const unzipped = unzipSync(new Uint8Array(await readFile(path)));
  const sql = await loadSqlJs();
  const expected = buildEvidence(
    (id, options = {}) => runScenarioById(id, { ...options, ledger: options.ledger ?? { sql } }),
    sql,
  );
  expect(Object.keys(unzipped)).toEqual(expected.map((f) => f.path));
  expect(new TextDecoder().decode(unzipped['verification.json'])).toBe(
    expected.find((f) => f.path === 'verification.json')?.contents,
  );
});

test('the reviewer flags an unsafe mutation retried without a key, and answers invalid input field by field', async ({
  page,
}) => {
  const { panels } = await openLab(page);
  await panels.openTab('Reviewer');
  const unsafeCharge = JSON.parse(await unsafeChargeText()) as Record<string, unknown>;
  await panels.reviewInput.fill(JSON.stringify(unsafeCharge, null, 2));
  await panels.reviewButton.click();
  const flags = page.getByRole('list', { name: 'Flags' });
  await expect(flags.locator('li[data-severity="unsafe"]').filter({ hasText: '/retry' }).first()).toBeVisible();
  await panels.reviewInput.fill(JSON.stringify({ ...unsafeCharge, transport: 'pigeon' }));
  await panels.reviewButton.click();
  await expect(page.getByRole('list', { name: 'Field errors' })).toContainText('/transport');
});

test('Download skill in the Reviewer tab gives the skill folder, SKILL.md with its front matter first', async ({
  page,
}) => {
  const { panels } = await openLab(page);
  await panels.openTab('Reviewer');
  const downloading = page.waitForEvent('download');
  await panels.downloadSkill.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('mcp-reliability-reviewer.zip');
  const unzipped = unzipSync(new Uint8Array(await readFile(await download.path())));
  const expected = buildSkill();
  expect(Object.keys(unzipped)).toEqual(expected.map((f) => f.path));
  const skillMd = new TextDecoder().decode(unzipped['mcp-reliability-reviewer/SKILL.md']);
  expect(skillMd).toMatch(/^---\nname: mcp-reliability-reviewer\ndescription: .+\n---\n/);
  expect(skillMd).toBe(expected.find((f) => f.path === 'mcp-reliability-reviewer/SKILL.md')?.contents);
});

test('the verification checklist shows 17 passing items and a link opens the right scenario', async ({ page }) => {
  test.setTimeout(300_000);
  const { lab, panels } = await openLab(page);
  await panels.openTab('Verification');
  const tookMs = await panels.waitVerified();
  test.info().annotations.push({ type: 'verification-ms', description: String(tookMs) });
  console.log(`the Verification tab computed its checklist in ${tookMs} ms`);
  await expect(panels.text('vf-summary')).toHaveText('17 of 17 statements hold');
  await expect(panels.checklist.locator(':scope > li[data-holds="true"]')).toHaveCount(17);
  // The id links to its definition; the evidence links follow, under the statement.
  const definition = panels.checklist
    .locator(':scope > li[data-vf="VF-1"]')
    .getByRole('link', { name: 'VF-1', exact: true });
  await expect(definition).toHaveAttribute('href', 'requirements.html#vf-1');
  const link = panels.checklist.locator(':scope > li[data-vf="VF-1"] .panel-evidence').getByRole('link').first();
  const href = (await link.getAttribute('href')) ?? '';
  const query = new URLSearchParams(href.slice(1));
  await link.click();
  const scenario = query.get('scenario') ?? '';
  const transport = (query.get('transport') ?? '') as 'stdio' | 'http';
  await lab.waitForRun(scenario, transport);
  await expect(lab.main).toHaveAttribute('data-step', query.get('step') ?? '');
  // BF-5's evidence opens the buffer run at capacity 1, at the refusal.
  await panels.openTab('Verification');
  await panels.waitVerified();
  const bf5 = panels.checklist.locator(':scope > li[data-vf="BF-5"] .panel-evidence').getByRole('link').first();
  expect(new URLSearchParams(((await bf5.getAttribute('href')) ?? '').slice(1)).get('capacity')).toBe('1');
});

test('presentation mode works by keyboard alone', async ({ page }) => {
  const { lab } = await openLab(page, '?scenario=A&transport=stdio&seed=1&step=0');
  await lab.waitForRun('A', 'stdio');
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
  await expect(lab.heading).toBeHidden();
  await expect(lab.facts).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(lab.main).toHaveAttribute('data-step', '2');
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-presentation', 'off');
  await expect(lab.heading).toBeVisible();
});

test('predict mode pauses at the race point and reveals the answer at the deciding event, by keyboard alone', async ({
  page,
}) => {
  const { lab } = await openLab(page, '?scenario=A&transport=stdio&seed=1&step=0');
  await lab.waitForRun('A', 'stdio');
  await page.keyboard.press('q');
  await expect(page.locator('[data-predict="waiting"]')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.locator('[data-predict="asking"]')).toBeVisible({ timeout: 20_000 });
  const paused = await lab.main.getAttribute('data-step');
  await page.waitForTimeout(1200);
  await expect(lab.main).toHaveAttribute('data-step', paused ?? '');
  await page.keyboard.press('1');
  await expect(page.getByRole('radio', { name: /Cancelled/ })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('[data-predict="revealed"]')).toBeVisible();
  await expect(page.getByTestId('predict-winner')).not.toBeEmpty();
  // The reveal jumps past the next step, to the event that decides the race.
  expect(Number(await lab.main.getAttribute('data-step'))).toBeGreaterThan(Number(paused) + 1);
});

test('BF-5: at capacity 1 the buffer refuses a push and the producer waits; the run is shown, not an error', async ({
  page,
}) => {
  const { panels } = await openLab(page);
  await panels.openTab('Buffer');
  await expect(panels.text('buffer-final')).toHaveText('survived');
  await panels.slide(panels.capacity, 1);
  await expect(panels.text('capacity-value')).toHaveText('1 event');
  await expect.poll(async () => Number(await panels.text('buffer-refused').textContent())).toBeGreaterThan(0);
  await expect(panels.text('buffer-held')).toHaveText(/^[1-9]\d* ms$/);
  await expect(page.getByRole('list', { name: 'Refused pushes' }).getByRole('listitem').first()).toContainText(
    'producer held back',
  );
  await expect(page.getByRole('img', { name: /capacity 1: .* refused \(producer held \d+ ms\)/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(panels.text('buffer-final')).toHaveText('survived');
});

test('axe finds no serious or critical violation on any panel, nor in presentation and predict modes', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Seven axe passes over large panels (the reviewer's cards, the 12-item checklist) take longer than one default test.
  test.setTimeout(120_000);
  const { lab, panels } = await openLab(page, '?scenario=A&transport=stdio&seed=1&step=0');
  await lab.waitForRun('A', 'stdio');
  const serious = async () =>
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    ).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
      );
  for (const name of ['Tasks', 'Buffer', 'Backoff', 'Proxy & reconnect', 'Verification', 'Reviewer'] as const) {
    await panels.openTab(name);
    await panels.waitIdle();
    if (name === 'Reviewer') await panels.reviewButton.click();
    expect(await serious(), name).toEqual([]);
  }
  await panels.openTab('Race');
  await page.keyboard.press('q');
  await page.keyboard.press('p');
  expect(await serious()).toEqual([]);
});

test('the Ledger tab shows what each key profile answers, with its source', async ({ page }) => {
  const { lab, panels } = await openLab(page);
  await panels.openTab('Ledger');
  await page.getByRole('button', { name: 'Reuse a key with other arguments' }).click();
  await lab.waitForRun('ledger-key-mismatch', 'http');
  await expect(page.getByTestId('key-profile')).toContainText('other arguments → 422-like');
  await page.getByRole('radio', { name: 'Stripe' }).click();
  await expect(page.getByTestId('key-profile')).toContainText('other arguments → 400-like');
  await expect(page.getByTestId('key-profile-source')).toContainText('stripe.com');
  await expect(page.getByRole('radio', { name: 'Stripe' })).toHaveAttribute('aria-checked', 'true');
});
