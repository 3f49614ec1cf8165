// Proves the built lab runs under its strict Content-Security-Policy without a single violation and
// without one request to another origin, across a session that visits every tab, runs every scenario
// (every family: race, ledger on sql.js's WASM, tasks, flow control, recovery), reviews a design,
// downloads the reviewer skill and exports evidence and the ledger; and that the policy, nosniff and no-referrer are what the server
// sends and the page carries, with no source maps shipped.
import { expect, test } from '@playwright/test';
import { scenarios } from '../src/scenarios/index';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../scripts/securityPolicy';
import { LabPage } from './pages/LabPage';
import { LedgerPanel } from './pages/LedgerPanel';
import { Panels, type TabName } from './pages/Panels';
import { PolicyWatch } from './pages/PolicyWatch';
import { CHECK_MS, ExercisesPage } from './pages/ExercisesPage';

const TABS: TabName[] = [
  'Race',
  'Ledger',
  'Tasks',
  'Buffer',
  'Backoff',
  'Proxy & reconnect',
  'Verification',
  'Reviewer',
  'Exercises',
];

test('a whole session breaks no rule of the security policy and never leaves the origin', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  test.slow(); // every scenario, every tab, three downloads
  const origin = new URL(baseURL ?? '').origin;
  const watch = new PolicyWatch(context, origin);
  await watch.start();
  const scripts: { url: string; body: Promise<string> }[] = [];
  page.on('response', (response) => {
    if (/\.js$/.test(new URL(response.url()).pathname)) scripts.push({ url: response.url(), body: response.text() });
  });

  const lab = new LabPage(page);
  const panels = new Panels(page);
  const ledger = new LedgerPanel(page);
  try {
    const opened = await page.goto('/');
    await expect(lab.heading).toBeVisible();
    await lab.waitForRun('A', 'stdio');

    // The headers and the meta tag say what scripts/securityPolicy.ts says.
    const headers = opened?.headers() ?? {};
    expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(headers['x-content-type-options']).toBe(SECURITY_HEADERS['X-Content-Type-Options']);
    expect(headers['referrer-policy']).toBe(SECURITY_HEADERS['Referrer-Policy']);
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
      'content',
      META_CONTENT_SECURITY_POLICY,
    );

    // Every scenario, on its default transport.
    for (const { id, defaultTransport } of scenarios) {
      await lab.pickScenario(id);
      await lab.waitForRun(id, defaultTransport);
      await expect(lab.alert, id).toHaveCount(0);
    }
    // The replay's controls, the inspector and presentation mode.
    await lab.pickScenario('B');
    await lab.waitForRun('B', 'stdio');
    await lab.reset.click();
    await lab.play.click();
    await lab.pause.click();
    await lab.stepForward.click();
    await page.keyboard.press('p');
    await page.keyboard.press('Escape');

    // Every tab, waiting for what each computes in the tools worker.
    for (const tab of TABS) {
      await panels.openTab(tab);
      await panels.waitIdle();
    }
    await panels.openTab('Buffer');
    await expect(panels.text('buffer-final')).toHaveText('survived');
    await panels.slide(panels.capacity, 4);
    await panels.openTab('Backoff');
    await expect(panels.text('herd-main-total')).toHaveText(/\d/);
    await panels.slide(panels.clients, 2000);

    // The reviewer validates with its precompiled schema (no code generated at run time).
    await panels.openTab('Reviewer');
    await panels.reviewInput.fill('{"transport": "pigeon"}');
    await panels.reviewButton.click();
    await expect(page.getByRole('list', { name: 'Field errors' })).toContainText('/transport');
    const skill = page.waitForEvent('download');
    await panels.downloadSkill.click();
    expect((await skill).suggestedFilename()).toBe('mcp-reliability-reviewer.zip');

    // Exports: the evidence zip and the ledger file (blob: downloads).
    await panels.openTab('Verification');
    await panels.waitVerified();
    await expect(panels.text('vf-summary')).toHaveText('17 of 17 statements hold');
    const evidence = page.waitForEvent('download');
    await panels.exportEvidence.click();
    expect((await evidence).suggestedFilename()).toBe('mcp-lab-evidence.zip');
    await lab.pickScenario('ledger-keyed-retry');
    await lab.waitForRun('ledger-keyed-retry', 'http');
    await ledger.waitIdle();
    expect((await ledger.export()).suggestedFilename()).toBe('lab-ledger.sqlite');
  } finally {
    // Checked even when the session broke off: a refused eval in a worker shows up here first.
    expect(await watch.violations(page)).toEqual([]);
    expect(watch.consoleProblems).toEqual([]);
    expect(watch.uncaughtErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  }
  expect(watch.requests.some((url) => url.endsWith('.wasm'))).toBe(true);

  // No source maps: no script points at one, and none is served.
  expect(scripts.length).toBeGreaterThan(2);
  for (const script of scripts) expect(await script.body, script.url).not.toContain('sourceMappingURL');
  const mapUrl = `${scripts.find((script) => script.url.includes('/assets/'))?.url ?? ''}.map`;
  const map = await page.request.get(mapUrl);
  expect(map.headers()['content-type'] ?? '', mapUrl).not.toContain('json');
});

test('the Exercises tab breaks no rule either: CodeMirror styles itself without inline <style>, and QuickJS compiles its WebAssembly in the worker', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(CHECK_MS + 60_000);
  const origin = new URL(baseURL ?? '').origin;
  const watch = new PolicyWatch(context, origin);
  await watch.start();
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  try {
    await lab.open();
    await exercises.open();
    // CodeMirror's own styles are in force (its gutter is laid out beside the text, not above it).
    await expect(page.locator('.cm-gutters')).toHaveCSS('display', 'flex');
    await exercises.runCheck();
    await expect(exercises.statement('within-capacity')).toHaveAttribute('data-holds', 'false');
    await exercises.showFailing('within-capacity').click();
    await expect(exercises.failingFlow('within-capacity')).toBeVisible();
  } finally {
    expect(await watch.violations(page)).toEqual([]);
    expect(watch.consoleProblems).toEqual([]);
    expect(watch.uncaughtErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  }
  expect(watch.requests.some((url) => /emscripten-module-[\w-]+\.wasm$/.test(url))).toBe(true);
});

test('the watch does catch violations: an inline script and a fetch to another origin are both refused and reported', async ({
  page,
  context,
  baseURL,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  const watch = new PolicyWatch(context, origin);
  await watch.start();
  const lab = new LabPage(page);
  await lab.open();
  await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
    await fetch('http://192.0.2.1:9/').catch(() => null);
  });
  // Each is reported once per policy that refuses it: the header's and the meta tag's.
  await expect
    .poll(async () => [...new Set((await watch.violations(page)).map((violation) => violation.directive))].sort())
    .toEqual(['connect-src', 'script-src-elem']);
  expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  // Chromium also logs each refusal, which is how a worker's would show.
  expect(watch.consoleProblems.filter((line) => line.includes('Content Security Policy')).length).toBeGreaterThan(0);
});
