// Proves the first page runs each scenario in the Web Worker engine and shows exactly the facts its data file expects, on both transports.
import path from 'node:path';
import { expect, test, type Worker } from '@playwright/test';
import type { ExpectedOutcome } from '../src/engine';
import { findScenario, scenarios } from '../src/scenarios/index';
import { FACT_HEADERS, LabPage, TRANSPORT_LABELS, type Facts } from './pages/LabPage';

/** How the page words an expected outcome (the table's display contract). */
function shown(expected: ExpectedOutcome): Facts {
  return {
    terminalState: expected.terminalState,
    finalResponse: expected.finalResponse ? 'yes' : 'no',
    cancellationSignal: expected.cancellationSignal ?? 'none',
    clientIgnores: expected.clientIgnores.length === 0 ? 'nothing' : expected.clientIgnores.join(', '),
    // RC-8: the server completed and sent its response, the client ended otherwise.
    clientOutcome:
      expected.finalResponse && expected.clientOutcome !== 'completed'
        ? `${expected.clientOutcome} (views diverge)`
        : expected.clientOutcome,
  };
}

/** The request-race scenarios this page shows facts for (later kinds bring their own tests). */
const RACE_IDS = ['A', 'B', 'C', 'D'] as const;

function scenario(id: string) {
  const found = findScenario(id);
  if (found.kind !== 'request-race') throw new Error(`scenario ${id} is not a request race`);
  return found;
}

/** "<atMs> ms · <kind> · <description>" */
const TIMELINE_LINE = /^\d+ ms · [a-z-]+ · \S.*$/;

test('shows the controls and describes the selected scenario', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await expect(page).toHaveTitle('MCP Reliability Lab');
  await lab.waitForRun('A', 'stdio');

  await expect(lab.scenario.getByRole('option')).toHaveText(scenarios.map((s) => s.title));
  await expect(lab.scenario).toHaveValue('A');
  await expect(lab.transportRadio('stdio')).toBeChecked();
  await expect(lab.transportRadio('http')).not.toBeChecked();
  await expect(lab.seed).toHaveValue('1');
  await expect(lab.runButton).toBeEnabled();

  const a = scenario('A');
  // Beside a run the paragraph is folded to one whole line that opens it whole.
  await page
    .getByRole('region', { name: 'Scenario description' })
    .getByText('What happens in this scenario', { exact: true })
    .click();
  await expect(page.getByText(a.summary, { exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Requirements' }).getByRole('listitem')).toHaveText([...a.requirements]);
  expect(await lab.factHeaders()).toEqual([...FACT_HEADERS]);
  await expect(lab.alert).toHaveCount(0);
});

test('each scenario on its default transport shows the facts its data file expects', async ({ page }, testInfo) => {
  const lab = new LabPage(page);
  await lab.open();

  for (const { id, defaultTransport, expected, requirements } of RACE_IDS.map(scenario)) {
    await test.step(`${id} on ${TRANSPORT_LABELS[defaultTransport]}`, async () => {
      await lab.pickScenario(id);
      await lab.waitForRun(id, defaultTransport);
      await expect(lab.transportRadio(defaultTransport)).toBeChecked();
      expect(await lab.readFacts()).toEqual(shown(expected[defaultTransport]));
      await expect(page.getByRole('list', { name: 'Requirements' }).getByRole('listitem')).toHaveText([
        ...requirements,
      ]);

      const lines = await lab.timelineLines();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(TIMELINE_LINE);
      // Every message the client ignored is marked on its timeline line, with the reason.
      for (const summary of expected[defaultTransport].clientIgnores) {
        expect(lines.some((line) => line.includes(summary) && line.includes('(ignored by client: '))).toBe(true);
      }
    });

    if (id === 'A') {
      const file = path.join(testInfo.project.outputDir, 'scenario-A.png');
      await page.screenshot({ path: file, fullPage: true });
      await testInfo.attach('scenario-A', { path: file, contentType: 'image/png' });
    }
  }
});

test('D: closing the stream cancels on Streamable HTTP; stdio sends notifications/cancelled', async ({ page }) => {
  const lab = new LabPage(page);
  const d = scenario('D');
  await lab.open();

  await lab.pickScenario('D');
  await lab.waitForRun('D', 'http');
  const overHttp = await lab.readFacts();
  expect(overHttp).toEqual(shown(d.expected.http));
  expect(overHttp.cancellationSignal).toBe('stream-close');

  await lab.pickTransport('stdio');
  await lab.waitForRun('D', 'stdio');
  const overStdio = await lab.readFacts();
  expect(overStdio).toEqual(shown(d.expected.stdio));
  expect(overStdio.cancellationSignal).toBe('notifications/cancelled');
  // Only the signal on the wire changed.
  expect({ ...overStdio, cancellationSignal: overHttp.cancellationSignal }).toEqual(overHttp);

  await lab.pickTransport('http');
  await lab.waitForRun('D', 'http');
  expect(await lab.readFacts()).toEqual(overHttp);
});

test('the engine runs in the Web Worker, not on the page', async ({ page }) => {
  const workers: Worker[] = [];
  page.on('worker', (worker) => workers.push(worker));
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  // A first visit opens at step 0: the end shows every event's line.
  await lab.toEnd();

  expect(workers.map((worker) => worker.url())).toEqual([expect.stringMatching(/engine\.worker[^/]*\.js$/)]);
  const workerUrl = workers[0]?.url() ?? '';

  // Nothing of the engine is reachable from the page's global scope.
  const globals = await page.evaluate(() =>
    ['runScenario', 'runScenarioById', 'scenarios', 'findScenario', 'RequestRace', 'LabError', 'engine'].filter(
      (name) => name in window,
    ),
  );
  expect(globals).toEqual([]);

  // The timeline shows text only the engine writes; the page's own scripts do not contain it, the worker's does.
  const marker = 'each chunk is uninterruptible';
  expect((await lab.timelineLines()).some((line) => line.includes(marker))).toBe(true);
  const scripts = await page.evaluate(async (exclude) => {
    const urls = new Set<string>();
    for (const script of document.querySelectorAll<HTMLScriptElement>('script[src]')) urls.add(script.src);
    for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')) urls.add(link.href);
    for (const entry of performance.getEntriesByType('resource'))
      if (/\.m?js(\?|$)/.test(entry.name)) urls.add(entry.name);
    urls.delete(exclude);
    return Promise.all([...urls].map(async (url) => ({ url, text: await (await fetch(url)).text() })));
  }, workerUrl);
  expect(scripts.length).toBeGreaterThan(0);
  for (const { url, text } of scripts) expect(text.includes(marker), url).toBe(false);
  const workerSource = await page.evaluate(async (url) => (await fetch(url)).text(), workerUrl);
  expect(workerSource).toContain(marker);
});

test('an invalid seed shows the engine’s error; a valid one recovers', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');

  await lab.setSeed('-1');
  await expect(lab.main).toHaveAttribute('data-status', 'error');
  await expect(lab.alert).toContainText('LAB003');
  await expect(lab.facts).toHaveCount(0);

  await lab.setSeed('7');
  await lab.waitForRun('A', 'stdio', 7);
  await expect(lab.alert).toHaveCount(0);
  expect(await lab.readFacts()).toEqual(shown(scenario('A').expected.stdio));

  await lab.runButton.click();
  await lab.waitForRun('A', 'stdio', 7);
  expect(await lab.readFacts()).toEqual(shown(scenario('A').expected.stdio));
});
