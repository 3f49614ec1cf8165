// Proves the Implementation choice: a learner flips C from the spec model to the real MCP TypeScript SDK and sees, on the same diagram and timeline, when the real client gives up (2331 ms) and when it tells the server (2498 ms); the SDK is fetched only when first chosen, its protocol revision is stated, the address keeps the choice, the worker's progress reports and Stop still work around an SDK run, and it runs offline after one visit.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

/** The reference measurement: progress every 333 ms, no latency. */
const ISSUE_RUN = '?scenario=C&latencyMs=0&progressEveryMs=333';

function implementation(page: Page) {
  return page.getByRole('combobox', { name: 'Implementation' });
}

/** Requests the page made for the SDK's chunk. */
function sdkRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/tsSdkRace-[\w-]+\.js$/.test(request.url())) seen.push(request.url());
  });
  return seen;
}

async function addressSettled(page: Page): Promise<URL> {
  let last = '';
  await expect
    .poll(async () => {
      const now = page.url();
      const same = now === last;
      last = now;
      await page.waitForTimeout(300);
      return same;
    })
    .toBe(true);
  return new URL(page.url());
}

test('C flipped from the model to the real SDK: when the client gives up and when it tells the server, on the same diagram', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const fetched = sdkRequests(page);
  await lab.open(ISSUE_RUN);
  await lab.waitForRun('C', 'stdio');
  await expect(lab.main).toHaveAttribute('data-impl', 'model');
  await expect(implementation(page)).toHaveValue('model');
  await expect(page.getByText('protocol 2026-07-28')).toBeVisible();
  expect((await lab.readFacts()).clientOutcome).toMatch(/^timeout-max/);
  // The model's run never fetched the SDK.
  expect(fetched).toEqual([]);

  await implementation(page).selectOption('ts-sdk');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  await lab.waitForRun('C', 'stdio');
  expect(fetched).toHaveLength(1);
  const sdk = page.getByRole('region', { name: 'Real SDK run' });
  await expect(sdk).toContainText('@modelcontextprotocol/sdk 1.32.2');
  await expect(sdk).toContainText('negotiated protocol 2025-11-25');
  await expect(sdk).toContainText('Invariants: 6 hold, 2 broken');
  await expect(sdk.getByRole('listitem').filter({ hasText: 'RC-1/RC-2 maximum deadline' })).toContainText(
    'the client ended at 2331 ms, 331 ms past its maximum (2000 ms)',
  );
  // Visible text, not a diagram mark's tooltip (an SVG <title>, never visible) that says the same.
  await expect(page.getByText('protocol 2025-11-25', { exact: false }).filter({ visible: true }).first()).toBeVisible();

  const lines = await lab.timelineLines();
  expect(lines.some((line) => /^0 ms.*initialize #0 \(offers protocol 2025-11-25\)/.test(line))).toBe(true);
  expect(
    lines.some((line) => /^2331 ms.*client state waiting → abandoned.*Maximum total timeout exceeded/.test(line)),
  ).toBe(true);
  expect(lines.some((line) => /^2498 ms.*client → server: notifications\/cancelled requestId=1/.test(line))).toBe(true);
  const facts = await lab.readFacts();
  expect(facts.terminalState).toBe('timeout-max');
  expect(facts.cancellationSignal).toBe('notifications/cancelled');
  expect(facts.clientOutcome).toMatch(/^timeout-max; cancel sent 167 ms later/);

  // The address keeps the choice; reopening it runs the SDK again (its chunk comes from the cache or once more).
  const url = await addressSettled(page);
  expect(url.searchParams.get('impl')).toBe('ts-sdk');
  await page.reload();
  await lab.waitForRun('C', 'stdio');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  await expect(implementation(page)).toHaveValue('ts-sdk');

  // Back to the model: the SDK's note goes, the model's revision returns, and the address drops impl.
  await implementation(page).selectOption('model');
  await expect(lab.main).toHaveAttribute('data-impl', 'model');
  await lab.waitForRun('C', 'stdio');
  await expect(sdk).toHaveCount(0);
  expect((await addressSettled(page)).searchParams.get('impl')).toBeNull();
});

test('the choice is offered for the request races only, stays chosen across them, and a link asking the SDK for another scenario says why it was not used', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&impl=ts-sdk');
  await lab.waitForRun('A', 'stdio');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  await lab.pickScenario('D');
  await lab.waitForRun('D', 'http');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  // On Streamable HTTP the SDK POSTs its cancellation: the facts say so, and so does the broken invariant.
  expect((await lab.readFacts()).cancellationSignal).toBe('notifications/cancelled');
  await expect(page.getByRole('region', { name: 'Real SDK run' })).toContainText('RC-5 HTTP signal');
  // The same run in Chromium's worker as on Node's command line: the same events at the same virtual times.
  const cli = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/lab.ts', 'run', 'D', '--impl', 'ts-sdk', '--json'], {
      encoding: 'utf8',
    }),
  ) as { events: Array<{ atMs: number }> };
  await expect(lab.main).toHaveAttribute('data-events', String(cli.events.length));
  const pageTimes = (await lab.timelineLines()).map((line) => Number(/^(\d+) ms/.exec(line)?.[1]));
  expect(pageTimes).toEqual(cli.events.map((event) => event.atMs));
  await lab.pickScenario('ledger-race-keyed');
  await lab.waitForRun('ledger-race-keyed', 'http');
  await expect(implementation(page)).toHaveCount(0);
  await expect(lab.main).toHaveAttribute('data-impl', 'model');

  await lab.open('?scenario=buffer-overload&impl=ts-sdk');
  await expect(lab.notice).toContainText('impl=ts-sdk');
  await expect(lab.notice).toContainText('LAB025');
  await expect(lab.main).toHaveAttribute('data-impl', 'model');
});

test('an SDK run reports progress and can be stopped; the fresh worker runs the model and the SDK again', async ({
  page,
}) => {
  test.slow();
  const lab = new LabPage(page);
  // Hundreds of thousands of SDK timer steps: long enough to see progress and press Stop.
  await lab.open(
    '?scenario=C&impl=ts-sdk&workMs=1000000&progressEveryMs=1&idleTimeoutMs=3600000&maxTimeoutMs=86400000&eventsMax=10000000',
  );
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  await expect(stop).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /engine events so far, virtual time/ })).toBeVisible({
    timeout: 20_000,
  });
  await stop.click();
  await expect(lab.alert).toContainText('STOPPED');
  await lab.pickScenario('A');
  await lab.waitForRun('A', 'stdio');
  await expect(lab.alert).toHaveCount(0);
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  expect((await lab.readFacts()).terminalState).toBe('cancelled');
  await implementation(page).selectOption('model');
  await expect(lab.main).toHaveAttribute('data-impl', 'model');
  await lab.waitForRun('A', 'stdio');
});

test('after the first visit the real SDK runs offline too: the service worker precached its chunk', async ({
  page,
  context,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null)).toBe('activated');
  await context.setOffline(true);
  await page.goto('/?scenario=A&impl=ts-sdk');
  await lab.waitForRun('A', 'stdio');
  await expect(lab.main).toHaveAttribute('data-impl', 'ts-sdk');
  expect((await lab.readFacts()).terminalState).toBe('cancelled');
  await context.setOffline(false);
});
