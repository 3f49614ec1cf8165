// Proves the third Implementation: D flipped to ts-sdk-v2 runs the official v2 packages in the worker, fetched only when first chosen (the model's runs and the 1.x SDK's never fetch its chunk), negotiates the lab's own revision 2026-07-28, and on Streamable HTTP cancels by closing the request's stream, as the model does.
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

/** Requests the page made for each SDK lane's chunk. */
function chunkRequests(page: Page): { v1: string[]; v2: string[] } {
  const seen = { v1: [] as string[], v2: [] as string[] };
  page.on('request', (request) => {
    if (/tsSdkV2Race-[\w-]+\.js$/.test(request.url())) seen.v2.push(request.url());
    else if (/tsSdkRace-[\w-]+\.js$/.test(request.url())) seen.v1.push(request.url());
  });
  return seen;
}

test('D on ts-sdk-v2: its chunk is fetched only when chosen, it negotiates 2026-07-28 and closes the stream to cancel', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const fetched = chunkRequests(page);
  await lab.open('?scenario=D');
  await lab.waitForRun('D', 'http');
  const implementation = page.getByRole('combobox', { name: 'Implementation' });
  await expect(implementation).toHaveValue('model');
  await expect(implementation.getByRole('option', { name: 'ts-sdk-v2 2.4.0' })).toHaveCount(1);
  expect(fetched).toEqual({ v1: [], v2: [] });

  await implementation.selectOption('ts-sdk-v2');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk-v2');
  await lab.waitForRun('D', 'http');
  expect(fetched.v2).toHaveLength(1);
  expect(fetched.v1).toEqual([]);
  const sdk = page.getByRole('region', { name: 'Real SDK run' });
  await expect(sdk).toContainText('@modelcontextprotocol/client + server 2.4.0');
  await expect(sdk).toContainText('negotiated protocol 2026-07-28');
  await expect(sdk).toContainText('all validate');
  await expect(sdk).toContainText('Invariants: 9 hold, 0 broken');
  const facts = await lab.readFacts();
  expect(facts.cancellationSignal).toMatch(/^stream-close/);
  const lines = await lab.timelineLines();
  expect(lines.some((line) => /^0 ms.*server\/discover/.test(line))).toBe(true);
  expect(lines.some((line) => /^150 ms.*closes the response stream of #0/.test(line))).toBe(true);
  expect(new URL(page.url()).searchParams.get('impl')).toBe('ts-sdk-v2');
});

test('Compare takes the preset model / SDK v1 / SDK v2: three diagrams on one virtual time, and stepping moves all three', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=C&tab=compare');
  await expect(page.getByRole('heading', { name: 'Run B: C:impl=ts-sdk', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole('group', { name: 'Examples' }).getByRole('button', { name: 'model / SDK v1 / SDK v2' }).click();
  await expect(page.getByRole('heading', { name: 'Run C: C:impl=ts-sdk-v2', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  const facts = page.getByRole('table', { name: 'Facts of the three runs' });
  const row = (name: string) =>
    facts.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  await expect(row('protocol').getByRole('cell')).toHaveText(['2026-07-28', '2025-11-25', '2026-07-28']);
  await expect(row('client outcome').getByRole('cell')).toHaveText([
    'timeout-max at 2000 ms',
    'timeout-max at 2010 ms',
    'timeout-max at 2010 ms',
  ]);
  await expect(page.getByRole('group', { name: 'Where each pair parts' })).toContainText('Run A and Run C part at');

  const flows = ['Run A: C', 'Run B: C:impl=ts-sdk', 'Run C: C:impl=ts-sdk-v2'].map((name) =>
    page.getByRole('region', { name }).locator('.lab-flow'),
  );
  const steps = async () => Promise.all(flows.map(async (flow) => Number(await flow.getAttribute('data-step'))));
  const atEnd = await steps();
  const playback = page.getByRole('region', { name: 'Compare playback' });
  await playback.getByRole('button', { name: 'First difference', exact: true }).click();
  await expect(playback.locator('output')).toHaveText('2000 ms');
  const atDivergence = await steps();
  atDivergence.forEach((step, index) => expect(step).toBeLessThan(atEnd[index] ?? 0));
  // Step forward to 2010 ms, where both SDKs give up: every diagram moves on.
  for (let i = 0; i < 5 && (await playback.locator('output').textContent()) !== '2010 ms'; i += 1)
    await playback.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(playback.locator('output')).toHaveText('2010 ms');
  const later = await steps();
  later.forEach((step, index) => expect(step).toBeGreaterThan(atDivergence[index] ?? Infinity));
  expect(new URL(page.url()).searchParams.get('runC')).toBe('C:impl=ts-sdk-v2');
});
