// Proves the page works whatever the browser's language and trips no rule of its security policy on any
// tab. A browser started under LANG=C reports navigator.language as `en-US@posix`, which is not a
// language tag Intl accepts: a module that builds a number format from it as it loads (uPlot did) makes
// every chart tab fail. And the SDK's zod, probing `new Function("")`, was refused by the policy and
// reported as a securitypolicyviolation in the page and in its workers, though the throw was caught.
import { expect, test, type Page, type Worker } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { Panels, type TabName } from './pages/Panels';
import type { Violation } from './pages/PolicyWatch';

const EVERY_TAB: TabName[] = [
  'Race',
  'Ledger',
  'Tasks',
  'Buffer',
  'Compare',
  'Backoff',
  'Proxy & reconnect',
  'Verification',
  'Reviewer',
];
const POSIX_LANGUAGE = 'en-US@posix';

/** Makes the page's navigator report `language` before any of its scripts run. */
async function reportLanguage(page: Page, language: string): Promise<void> {
  await page.addInitScript((tag) => {
    Object.defineProperty(Navigator.prototype, 'language', { get: () => tag, configurable: true });
    Object.defineProperty(Navigator.prototype, 'languages', { get: () => [tag], configurable: true });
  }, language);
}

/** Opens every tab in turn; each shows its panel (a heading, the charts drawn) and none shows an error. */
async function openEveryTab(page: Page): Promise<void> {
  const panels = new Panels(page);
  for (const tab of EVERY_TAB) {
    await panels.openTab(tab);
    await panels.waitIdle();
    const panel = page.getByRole('tabpanel');
    if (tab !== 'Race' && tab !== 'Ledger')
      await expect(panel.getByRole('heading', { level: 2 }).first(), tab).toBeVisible();
    await expect(panel.getByRole('alert'), tab).toHaveCount(0);
    await expect(panel.locator('.panel-error'), tab).toHaveCount(0);
  }
  await panels.openTab('Buffer');
  await expect(panels.text('buffer-final')).toHaveText('survived');
  await expect(page.locator('.panel-chart canvas').first()).toBeVisible();
  await panels.openTab('Backoff');
  await expect(panels.text('herd-main-total')).toHaveText(/\d/);
  await expect(page.locator('.panel-chart canvas').first()).toBeVisible();
}

test(`every tab opens and answers with navigator.language set to ${POSIX_LANGUAGE}`, async ({ page }) => {
  test.slow(); // every tab, the Compare tab's real-SDK run included
  const uncaught: string[] = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await reportLanguage(page, POSIX_LANGUAGE);
  const lab = new LabPage(page);
  await lab.open();
  // The page really does see the tag, and Intl really does refuse it: the test's premise.
  expect(await page.evaluate(() => navigator.language)).toBe(POSIX_LANGUAGE);
  expect(
    await page.evaluate(() => {
      try {
        new Intl.NumberFormat(navigator.language);
        return 'accepted';
      } catch (error) {
        return String(error);
      }
    }),
  ).toMatch(/RangeError/);
  await lab.waitForRun('A', 'stdio');
  await openEveryTab(page);
  // After every tab, the race still steps.
  await new Panels(page).openTab('Race');
  await lab.reset.click();
  await lab.waitForStep(0);
  await lab.stepForward.click();
  await lab.waitForStep(1);
  expect(uncaught).toEqual([]);
});

test('no tab, and no run of the real SDK, reports a securitypolicyviolation in the page or its workers', async ({
  page,
}) => {
  test.slow();
  // A worker's violations fire on its own global scope: listen there as each worker starts (the SDK
  // chunk loads later, on the first run that asks for it).
  const workers: Worker[] = [];
  page.on('worker', (worker) => {
    workers.push(worker);
    void worker
      .evaluate(() => {
        const scope = self as unknown as { __labViolations?: string[]; addEventListener: typeof addEventListener };
        scope.__labViolations = [];
        scope.addEventListener('securitypolicyviolation', (event) =>
          scope.__labViolations?.push(
            `${(event as SecurityPolicyViolationEvent).effectiveDirective} ${(event as SecurityPolicyViolationEvent).sourceFile}`,
          ),
        );
      })
      .catch(() => undefined);
  });
  await page.addInitScript(() => {
    (window as unknown as { __labViolations: Violation[] }).__labViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __labViolations: Violation[] }).__labViolations.push({
        directive: event.effectiveDirective,
        blockedURI: event.blockedURI,
        sourceFile: event.sourceFile,
        sample: event.sample,
      });
    });
  });
  const lab = new LabPage(page);
  // The real SDK on the race (the engine worker) …
  await lab.open('?scenario=C&impl=ts-sdk');
  await lab.waitForRun('C', 'stdio');
  // … and in the tools worker, where the Compare tab runs C against C on the SDK.
  await openEveryTab(page);
  await expect.poll(() => workers.length).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => (window as unknown as { __labViolations: Violation[] }).__labViolations)).toEqual(
    [],
  );
  for (const worker of workers) {
    const seen = await worker
      .evaluate(() => (self as unknown as { __labViolations?: string[] }).__labViolations ?? null)
      .catch(() => null);
    expect(seen ?? [], worker.url()).toEqual([]);
  }
});
