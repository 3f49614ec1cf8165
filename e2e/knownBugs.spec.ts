// Proves the Known bugs list (a section of the Compare tab): each entry names its package, upstream reference, spec sentence and workaround, and opens its real package's run in the diagram (the SDK 1.x run of request id 0, its ignored cancellation drawn) and in Compare beside the lab's model, by keyboard; the server entry opens the committed probe recording.
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/LabPage';

test('an entry opens on the real SDK in the diagram and beside the model in Compare, by keyboard', async ({ page }) => {
  // Three runs, two of them real SDKs, computed in the page's worker.
  test.setTimeout(90_000);
  const lab = new LabPage(page);
  await lab.open('?tab=compare');
  const list = page.getByRole('region', { name: 'Known bugs' });
  await expect(list.getByRole('listitem')).toHaveCount(5, { timeout: 20_000 });
  const entry = list.getByRole('listitem').filter({ hasText: 'bug-cancel-request-id-0' });
  await expect(entry).toContainText('@modelcontextprotocol/sdk 1.32.2');
  await expect(entry.getByRole('link', { name: 'modelcontextprotocol/typescript-sdk#2283' })).toBeVisible();
  await expect(entry).toContainText('2025-11-25 basic/utilities/cancellation, SHOULD:');
  await expect(entry).toContainText('Workaround:');

  // The diagram: the real SDK 1.x, its tool call request 0 over HTTP, the cancellation ignored while the tool runs.
  await entry.getByRole('link', { name: 'modelcontextprotocol/typescript-sdk#2283' }).focus();
  await page.keyboard.press('Tab');
  await expect(list.getByRole('button', { name: 'Open bug-cancel-request-id-0 in the diagram' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Race' })).toHaveAttribute('aria-selected', 'true');
  await lab.waitForRun('A', 'http');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  await expect(lab.timeline).toContainText('treats request id 0 as absent');
  await expect(lab.facts).toContainText('completed');

  // Compare: the model, SDK 1.x and v2 on one time axis.
  await page.getByRole('tab', { name: 'Compare' }).click();
  const compare = list.getByRole('button', { name: 'Open bug-cancel-request-id-0 in Compare' });
  await compare.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Run B' })).toHaveValue('A:impl=ts-sdk,transport=http,requestId=0');
  await expect(page.getByRole('heading', { name: 'Run C: A:impl=ts-sdk-v2', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  const facts = page.getByRole('table', { name: 'Facts of the three runs' });
  const terminal = facts.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^terminal state/ }) });
  await expect(terminal).toContainText('cancelled');
  await expect(terminal).toContainText('completed');
  await expect(page.locator('.compare-panel .lab-flow')).toHaveCount(3);
});

test('the server entry opens the committed probe recording of server-everything, and Compare puts it beside the model', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const lab = new LabPage(page);
  await lab.open('?tab=compare');
  const list = page.getByRole('region', { name: 'Known bugs' });
  await list.getByRole('button', { name: 'Open bug-work-after-cancel in the diagram' }).click();
  await expect(page.getByRole('tab', { name: 'Race' })).toHaveAttribute('aria-selected', 'true');
  await expect(lab.main).toHaveAttribute('data-impl', 'probe');
  await expect(lab.timeline).toContainText('notifications/cancelled');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await list.getByRole('button', { name: 'Open bug-work-after-cancel in Compare' }).click();
  await expect(page.getByRole('textbox', { name: 'Run A' })).toHaveValue(/^recorded cancel-during-work/);
  await expect(page.getByRole('textbox', { name: 'Run B' })).toHaveValue('A:transport=stdio');
  await expect(page.locator('.compare-panel .lab-flow')).toHaveCount(2, { timeout: 60_000 });
});
