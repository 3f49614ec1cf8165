// Proves "what if…": at a step of a request race, Cancel here re-runs with the user's cancel at
// that virtual time and the facts show the new ending; on reconnect, Drop connection here drops the
// connection then; Back to the scenario returns to the run and the step it was at.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

test('Cancel here turns C (a timeout) into a cancellation at the step’s time, and Back returns', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=C&step=10');
  await lab.waitForRun('C', 'stdio');
  await lab.waitForStep(10);
  const whatIf = page.getByRole('group', { name: 'What if' });
  // Keyboard: the button is reachable and pressed with Enter.
  await whatIf.getByRole('button', { name: 'Cancel here' }).focus();
  await page.keyboard.press('Enter');
  await expect(whatIf.getByRole('status')).toHaveText('What if: the user cancels at 410 ms');
  await lab.waitForRun('C', 'stdio');
  await expect(page).toHaveURL(/[?&]cancelAtMs=410(&|$)/);
  // The new run opens at the cancel (the last event at 410 ms), not at its end; End shows the ending.
  const step = await lab.step();
  const atCancel = await page.evaluate(() => document.querySelector('.lab-now')?.textContent ?? '');
  expect(atCancel).toContain('410 ms');
  expect(step).toBeLessThan(await lab.eventCount());
  await page.locator('body').focus();
  await page.keyboard.press('End');
  await lab.waitForStep(await lab.eventCount());
  const facts = await lab.readFacts();
  expect(facts.terminalState).toContain('cancelled');
  expect(facts.clientOutcome).toContain('cancelled');

  await whatIf.getByRole('button', { name: 'Back to the scenario' }).click();
  await lab.waitForRun('C', 'stdio');
  await lab.waitForStep(10);
  await expect(whatIf.getByRole('status')).toHaveCount(0);
  await expect(page).not.toHaveURL(/cancelAtMs=/);
  await page.locator('body').focus();
  await page.keyboard.press('End');
  await lab.waitForStep(34);
  expect((await lab.readFacts()).terminalState).toContain('timeout-max');
});

test('Drop connection here drops the reconnect scenario’s connection at the step’s time', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=reconnect-listen&step=11');
  await lab.waitForRun('reconnect-listen', 'http');
  await lab.waitForStep(11);
  const outcome = page.getByRole('group', { name: 'Run outcome' });
  const before = await outcome.textContent();
  const whatIf = page.getByRole('group', { name: 'What if' });
  await whatIf.getByRole('button', { name: 'Drop connection here' }).click();
  await expect(whatIf.getByRole('status')).toHaveText('What if: the connection drops at 610 ms');
  await lab.waitForRun('reconnect-listen', 'http');
  await expect(page).toHaveURL(/[?&]dropAtMs=610(&|$)/);
  // The new ending: the client reconnects after a drop at 610 ms, not 1,000 ms.
  await expect(outcome).not.toHaveText(before ?? '');

  await whatIf.getByRole('button', { name: 'Back to the scenario' }).click();
  await lab.waitForRun('reconnect-listen', 'http');
  await lab.waitForStep(11);
  await expect(outcome).toHaveText(before ?? '');
  await expect(page).not.toHaveURL(/dropAtMs=/);
});

test('Drop connection here on the herd: the clients connected at the step’s time reconnect again, and Back returns', async ({
  page,
}) => {
  const lab = new LabPage(page);
  // Step 15 is window 9's summary at 1,000 ms (after the traced listen's send, its arrival, the stream
  // and the acknowledgement): 5,000 clients are connected, the traced one among them.
  await lab.open('?scenario=herd&step=15');
  await lab.waitForRun('herd', 'http');
  await lab.waitForStep(15);
  const outcome = page.getByRole('group', { name: 'Run outcome' });
  const before = await outcome.textContent();
  const whatIf = page.getByRole('group', { name: 'What if' });
  await whatIf.getByRole('button', { name: 'Drop connection here' }).focus();
  await page.keyboard.press('Enter');
  await expect(whatIf.getByRole('status')).toHaveText('What if: the connection drops at 1000 ms');
  await lab.waitForRun('herd', 'http');
  await expect(page).toHaveURL(/[?&]dropAtMs=1000(&|$)/);
  await expect(outcome).not.toHaveText(before ?? '');
  // The run shows the drop and the traced client's stream going, then its new listen request.
  const lines = await lab.timelineLines();
  expect(lines.some((line) => /the connection drops at 1000 ms: 5000 of 10000 clients were connected/.test(line))).toBe(
    true,
  );
  expect(lines.some((line) => /traced client 9999: its stream dropped at 1000 ms; attempt 0 waits/.test(line))).toBe(
    true,
  );

  await whatIf.getByRole('button', { name: 'Back to the scenario' }).click();
  await lab.waitForRun('herd', 'http');
  await lab.waitForStep(15);
  await expect(outcome).toHaveText(before ?? '');
  await expect(page).not.toHaveURL(/dropAtMs=/);
});
