// Proves that after one visit the built lab works with the network off (the service worker precached
// the page, its scripts, both workers, the styles and sql.js's WASM): a reload offline still runs
// scenario A and a ledger scenario on SQLite. And that a new build is installed beside the running one
// and announced, and taken into use on request.
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { findScenario } from '../src/scenarios/index';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';

const SW_FILE = new URL('../dist/sw.js', import.meta.url);

/** Waits until the service worker has precached everything and controls the page. */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null)).toBe('activated');
}

function serviceWorkerVersion(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        navigator.serviceWorker.addEventListener(
          'message',
          (event: MessageEvent<{ type: string; version: string }>) => {
            if (event.data.type === 'version') resolve(event.data.version);
          },
        );
        navigator.serviceWorker.controller?.postMessage({ type: 'version' });
      }),
  );
}

test('after the first visit the lab runs offline: a reload runs A and a ledger scenario on sql.js', async ({
  page,
  context,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  await waitForServiceWorker(page);

  await context.setOffline(true);
  // Offline really is offline, for the service worker too: what it did not precache cannot be fetched.
  expect(
    await page.evaluate(() =>
      fetch('/not-precached.txt').then(
        () => 'fetched',
        () => 'failed',
      ),
    ),
  ).toBe('failed');

  const fromWorker: string[] = [];
  page.on('response', (response) => {
    if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
  });
  await page.reload();
  await expect(lab.heading).toBeVisible();
  await lab.waitForRun('A', 'stdio');
  // The reload keeps the first visit's step 0 (the link names it): the end shows A's facts.
  await lab.toEnd();
  expect(await lab.readFacts()).toMatchObject({ terminalState: 'cancelled' });

  const ledger = new LedgerPanel(page);
  await lab.pickScenario('ledger-keyed-retry');
  await lab.waitForRun('ledger-keyed-retry', findScenario('ledger-keyed-retry').defaultTransport);
  await ledger.waitIdle();
  expect(await ledger.readCounts()).toMatchObject({ Executions: '1' });
  expect(fromWorker).toContain('/');
  expect(fromWorker.some((path) => path.endsWith('.wasm'))).toBe(true);
  await context.setOffline(false);
});

test('a new build is installed beside the running one, announced, and used on request', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  await waitForServiceWorker(page);
  const before = await serviceWorkerVersion(page);
  const notice = page.getByRole('status').filter({ hasText: 'A new version of the lab was loaded' });
  await expect(notice).toHaveCount(0);

  // A new deployment, as the browser sees one: the server's sw.js now has another version. (The
  // browser fetches sw.js itself, out of reach of Playwright's routing, so the built file is edited
  // in place, keeping its length, and put back afterwards; vite preview reads files per request.)
  const next = [...before].reverse().join('');
  const original = await readFile(SW_FILE, 'utf8');
  expect(original).toContain(`const VERSION = "${before}";`);
  try {
    await writeFile(SW_FILE, original.replace(`const VERSION = "${before}";`, `const VERSION = "${next}";`));
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(notice).toBeVisible();
  } finally {
    await writeFile(SW_FILE, original);
  }
  // The running page keeps working on its own version until asked.
  await lab.pickScenario('B');
  await lab.waitForRun('B', 'stdio');
  expect(await serviceWorkerVersion(page)).toBe(before);

  // The new worker takes over and the page reloads into it, on the same view.
  const reloaded = page.waitForEvent('load');
  await notice.getByRole('button', { name: 'Use the new version now' }).click();
  await reloaded;
  await lab.waitForRun('B', 'stdio');
  await expect(notice).toHaveCount(0);
  expect(await serviceWorkerVersion(page)).toBe(next);
  // Only the new version's cache is kept.
  expect(await page.evaluate(() => caches.keys())).toEqual([`mcp-reliability-lab-${next}`]);
});

test('when one tab switches to a new build, every other tab of the old one reloads itself into it', async ({
  context,
}) => {
  const [pageA, pageB] = [await context.newPage(), await context.newPage()];
  const [labA, labB] = [new LabPage(pageA), new LabPage(pageB)];
  await labA.open();
  await labA.waitForRun('A', 'stdio');
  await waitForServiceWorker(pageA);
  await labB.open('?scenario=B');
  await labB.waitForRun('B', 'stdio');
  await waitForServiceWorker(pageB);
  const before = await serviceWorkerVersion(pageB);
  const noticeA = pageA.getByRole('status').filter({ hasText: 'A new version of the lab was loaded' });

  const next = [...before].reverse().join('');
  const original = await readFile(SW_FILE, 'utf8');
  try {
    await writeFile(SW_FILE, original.replace(`const VERSION = "${before}";`, `const VERSION = "${next}";`));
    await pageA.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(noticeA).toBeVisible();
  } finally {
    await writeFile(SW_FILE, original);
  }
  // B never pressed anything: A's new worker claims it, and B reloads instead of running on with chunks of a
  // version whose cache was just deleted.
  const reloadedA = pageA.waitForEvent('load');
  const reloadedB = pageB.waitForEvent('load');
  await noticeA.getByRole('button', { name: 'Use the new version now' }).click();
  await Promise.all([reloadedA, reloadedB]);
  await labB.waitForRun('B', 'stdio');
  expect(await serviceWorkerVersion(pageB)).toBe(next);
  // B's lazy parts load from the new version: the Ledger tab opens, no part fails.
  await pageB.getByRole('tab', { name: 'Ledger' }).click();
  await labB.pickScenario('ledger-keyed-retry');
  await labB.waitForRun('ledger-keyed-retry', 'http');
  await expect(pageB.getByRole('region', { name: 'Ledger', exact: true })).toBeVisible();
  await expect(pageB.locator('[data-part-error]')).toHaveCount(0);
});
