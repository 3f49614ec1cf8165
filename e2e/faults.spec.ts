// Proves faults from the diagram: a message's context menu offers Drop, Delay and Duplicate;
// choosing one re-runs from the same seed with that fault, the transcript records it on the message, the
// link carries it (and reopens it), and the inspector's buttons do the same from the keyboard.
import { expect, test } from '@playwright/test';
import { Diagram } from './pages/Diagram';
import { LabPage } from './pages/LabPage';

/** In C on stdio, message 7 is the first progress notification (sent at 405 ms, arrives 410 ms). */
const PROGRESS_SEQ = 7;

test('Drop from the context menu loses the progress, and C times out idle; the link carries it', async ({ page }) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=C&step=9');
  await lab.waitForRun('C', 'stdio');
  await diagram.wire(PROGRESS_SEQ).locator('.dg-wire-hit').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: `Faults for message ${PROGRESS_SEQ}` });
  await expect(menu.getByRole('menuitem')).toHaveText(['Drop', 'Delay', 'Duplicate']);
  await menu.getByRole('menuitem', { name: 'Drop' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]faults=drop%3A${PROGRESS_SEQ}(&|$)`));
  await lab.waitForRun('C', 'stdio');
  await lab.waitForStep(PROGRESS_SEQ + 1);
  await expect(page.getByRole('group', { name: 'What if' }).getByRole('status')).toHaveText(
    `Faults: drop:${PROGRESS_SEQ}`,
  );
  await page.locator('body').focus();
  await page.keyboard.press('End');
  // The inspector still shows the faulted message, now known lost.
  await expect(diagram.inspector).toContainText(`lost: the network dropped this message (fault drop:${PROGRESS_SEQ})`);
  expect((await lab.readFacts()).terminalState).toContain('timeout-idle');
  const events = await lab.main.getAttribute('data-events');

  // The link reopens the same faulted run.
  await page.goto(page.url());
  await lab.waitForRun('C', 'stdio');
  await expect(lab.main).toHaveAttribute('data-events', events ?? '');
  await expect(page.getByRole('group', { name: 'What if' }).getByRole('status')).toHaveText(
    `Faults: drop:${PROGRESS_SEQ}`,
  );

  await page.getByRole('button', { name: 'Remove faults' }).click();
  await lab.waitForRun('C', 'stdio');
  await expect(page).not.toHaveURL(/faults=/);
  await expect(lab.main).not.toHaveAttribute('data-events', events ?? '');
});

test('the context menu works from the keyboard, and the inspector offers the same faults', async ({ page }) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=C&step=9');
  await lab.waitForRun('C', 'stdio');
  await diagram.wire(PROGRESS_SEQ).locator('.dg-wire-hit').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: `Faults for message ${PROGRESS_SEQ}` });
  await expect(menu.getByRole('menuitem', { name: 'Drop' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Delay' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  // Keyboard only: the inspector shows the picked message with Drop, Delay, Duplicate.
  const faults = diagram.inspector.getByRole('group', { name: 'Inject a fault on this message' });
  await faults.getByRole('button', { name: 'Duplicate' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]faults=duplicate%3A${PROGRESS_SEQ}(&|$)`));
  await lab.waitForRun('C', 'stdio');
  await expect(diagram.inspector).toContainText(`Fault`);
  await expect(diagram.inspector).toContainText(`duplicate:${PROGRESS_SEQ}`);

  await faults.getByRole('button', { name: 'Delay' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]faults=delay%3A${PROGRESS_SEQ}%3A500(&|$)`));
  await lab.waitForRun('C', 'stdio');
  await expect(diagram.inspector).toContainText(`delay:${PROGRESS_SEQ}:500`);
});

test('on a task scenario a server response offers Crash after COMMIT: the task row survives the restart', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  // In task-http-close, message 7 is the CreateTaskResult, sent right after the COMMIT of the task row.
  await lab.open('?scenario=task-http-close&step=9');
  await lab.waitForRun('task-http-close', 'http');
  await diagram.wire(7).locator('.dg-wire-hit').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Faults for message 7' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Drop', 'Delay', 'Duplicate', 'Crash after COMMIT']);
  await menu.getByRole('menuitem', { name: 'Crash after COMMIT' }).click();
  await expect(page).toHaveURL(/[?&]faults=crash%3A7(&|$)/);
  await lab.waitForRun('task-http-close', 'http');
  await expect(page.getByRole('group', { name: 'What if' }).getByRole('status')).toHaveText('Faults: crash:7');
  await lab.waitForStep(8);
  await page.locator('body').focus();
  await page.keyboard.press('End');
  await lab.waitForStep(await lab.eventCount());
  const lines = await lab.timelineLines();
  expect(
    lines.some((line) => /task task-7f3a crashed: the server crashed after COMMIT, before message 7/.test(line)),
  ).toBe(true);
  expect(
    lines.some((line) => /the restarted server opens its SQLite file: task task-7f3a survived, working/.test(line)),
  ).toBe(true);
  expect(lines.some((line) => /task task-7f3a completed/.test(line))).toBe(true);
});

test('a lost request in the ledger race is unknown to the client, not a failed run: the keyed retry reconciles it', async ({
  page,
}) => {
  const lab = new LabPage(page);
  // Message 2 of ledger-race-keyed on Streamable HTTP is request #42's tools/call: dropped, its deadline passes,
  // it is unknown to the client, and the retry with the same key is replayed.
  await lab.open('?scenario=ledger-race-keyed&transport=http&faults=drop:2');
  await lab.waitForRun('ledger-race-keyed', 'http');
  await page.locator('body').focus();
  await page.keyboard.press('End');
  const record = page.getByRole('table', { name: 'What the client knows' });
  await expect(record.getByRole('row', { name: /#42/ })).toContainText('reconciled by #43 (it was unknown)');
  await expect(record.getByRole('row', { name: /#42/ })).toContainText('not-received');
  await expect(page.getByTestId('ledger-duplicate')).toContainText('none');
});
