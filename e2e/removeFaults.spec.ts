// Proves the way back from a run whose fault was refused: a fault the model does not follow (losing the
// answer to a reconnecting listen) leaves no diagram but an alert (LAB023) that says which faults the run
// had, and its Remove faults button runs the scenario again without them (and takes them out of the link).
import { expect, test } from '@playwright/test';
import { Diagram } from './pages/Diagram';
import { LabPage } from './pages/LabPage';

/** In reconnect-listen on stdio, message 24 is the server's acknowledgement of the new listen stream. */
const ACK_SEQ = 24;
/** The step at which the client receives it (the view keeps the current event in the pane, so its wire is in view there). */
const ACK_STEP = 26;

test('a refused fault: the alert names it, and Remove faults runs without it', async ({ page }) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=reconnect-listen&transport=stdio');
  await lab.waitForRun('reconnect-listen', 'stdio');
  const events = await lab.main.getAttribute('data-events');
  await lab.setStepTo(ACK_STEP);
  await diagram.wire(ACK_SEQ).locator('.dg-wire-hit').click({ button: 'right' });
  await page
    .getByRole('menu', { name: `Faults for message ${ACK_SEQ}` })
    .getByRole('menuitem', { name: 'Drop' })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]faults=drop%3A${ACK_SEQ}(&|$)`));
  await expect(lab.alert).toContainText('LAB023');
  await expect(lab.alert).toContainText(`The run had faults drop:${ACK_SEQ}.`);

  await lab.alert.getByRole('button', { name: 'Remove faults' }).click();
  await lab.waitForRun('reconnect-listen', 'stdio');
  await expect(page).not.toHaveURL(/faults=/);
  await expect(lab.alert).toHaveCount(0);
  await expect(lab.main).toHaveAttribute('data-events', events ?? '');
});
