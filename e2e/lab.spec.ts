// Proves the lab replays a run exactly: A–D stepped event by event grow the sequence diagram one wire at a time and fill the four facts; D flips transport and only the signal changes; stepping back and forth and reopening a copied link return the same view; a tampered link opens with a notice; the keyboard alone drives it; axe finds nothing serious. (Responsiveness: performance.spec.ts.)
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ExpectedOutcome } from '../src/engine';
import type { LabEvent, Transcript, Transport } from '../src/engine';
import { findScenario, runRaceById } from '../src/scenarios/index';
import { URL_WRITE_EVERY_MS } from '../src/store/url';
import { Diagram } from './pages/Diagram';
import { LabPage, type Facts } from './pages/LabPage';

const PENDING = 'pending';

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

function expectedOf(id: string, transport: Transport): ExpectedOutcome {
  const scenario = findScenario(id);
  if (scenario.kind !== 'request-race') throw new Error(`${id} is not a request race`);
  return scenario.expected[transport];
}

/** The engine's own transcript, run here in Node: what the page must replay. */
function transcriptOf(id: string, transport: Transport, settings: Record<string, unknown> = {}): Transcript {
  return runRaceById(id, { transport, settings }) as unknown as Transcript;
}

/** Everything a user sees of the replay at one step, to compare two views. */
/** The page writes the address bar at most every URL_WRITE_EVERY_MS: waits until it has stopped changing. */
async function urlSettled(page: Page): Promise<void> {
  let last: string | null = null;
  await expect
    .poll(
      () => {
        const now = page.url();
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [URL_WRITE_EVERY_MS * 2] },
    )
    .toBe(true);
}

async function viewOf(page: Page) {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  return {
    url: new URL(page.url()).search,
    step: await lab.step(),
    facts: await lab.readFacts(),
    announced: (await lab.announcer.textContent())?.trim(),
    counts: await diagram.counts(),
    wires: (await diagram.drawnWires()).sort((a, b) => a.seq - b.seq),
    current: (await diagram.currentMarker().allTextContents()).map((text) => text.trim()),
    inspector: (await diagram.inspector.textContent())?.trim(),
    timeline: await lab.timelineLines(),
  };
}

for (const [id, transport] of [
  ['A', 'stdio'],
  ['B', 'stdio'],
  ['C', 'stdio'],
  ['D', 'http'],
] as const) {
  test(`${id}: stepped event by event, the diagram grows one wire at a time and the facts fill in`, async ({
    page,
  }) => {
    // One step and several reads per event: C's 34 events take 15–25 s on a loaded two-core machine.
    test.setTimeout(60_000);
    const lab = new LabPage(page);
    const diagram = new Diagram(page);
    const transcript = transcriptOf(id, transport);
    const { events } = transcript;
    await lab.open(`?scenario=${id}`);
    await lab.waitForRun(id, transport);
    expect(await diagram.counts()).toMatchObject({
      step: events.length,
      messages: events.filter((e) => e.kind === 'message').length,
      lanes: ['client', 'server', 'worker'],
    });

    await lab.reset.click();
    await lab.waitForStep(0);
    expect(await lab.readFacts()).toEqual({
      terminalState: PENDING,
      finalResponse: PENDING,
      cancellationSignal: PENDING,
      clientIgnores: PENDING,
      clientOutcome: PENDING,
    });
    await expect(diagram.wires()).toHaveCount(0);
    await expect(lab.announcer).toContainText(`Step 0 of ${events.length}`);

    const sentSeqs = new Set<number>();
    for (let step = 1; step <= events.length; step++) {
      const event = events[step - 1] as LabEvent;
      await lab.stepForward.click();
      await lab.waitForStep(step);
      await expect(lab.announcer).toContainText(`Step ${step} of ${events.length}, ${event.atMs} ms`);
      if (event.kind === 'message') sentSeqs.add(event.seq);
      expect((await diagram.counts()).messages, `step ${step}`).toBe(sentSeqs.size);

      if (event.kind === 'message') {
        // Just sent: drawn from its sender to its receiver, still in flight.
        await expect(diagram.wire(event.seq)).toHaveAttribute('data-status', 'in-flight');
        await expect(diagram.wire(event.seq)).toHaveAttribute('data-from', event.from);
        await expect(diagram.wire(event.seq)).toHaveAttribute('data-to', event.to);
        await expect(diagram.messageJson).toHaveText(JSON.stringify(event.message, null, 2));
      } else if (event.kind === 'delivered') {
        // Arrived: the wire shows what the receiver did with it.
        await expect(diagram.wire(event.messageSeq)).toHaveAttribute(
          'data-status',
          event.ignoredBy === undefined ? 'delivered' : 'ignored',
        );
      } else if (event.kind === 'stream-closed') {
        await expect(diagram.wire(event.seq)).toHaveAttribute('data-kind', 'stream-close');
      } else if (event.kind !== 'deadline' || event.action !== 'reset') {
        await expect(diagram.marker(event.seq).locator('.dg-marker')).toHaveAttribute('data-current', 'true');
      }
    }
    await expect(lab.stepForward).toHaveAttribute('aria-disabled', 'true');
    expect(await lab.readFacts()).toEqual(shown(expectedOf(id, transport)));
    expect((await diagram.counts()).inFlight).toBe(0);
  });
}

test('D: flipping Streamable HTTP to stdio changes the cancellation signal on the wire and nothing else', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=D');
  await lab.waitForRun('D', 'http');
  await diagram.fitAll();
  const overHttp = await lab.readFacts();
  const httpWires = await diagram.drawnWires();
  expect(httpWires.filter((wire) => wire.kind === 'stream-close').map((wire) => [wire.from, wire.to])).toEqual([
    ['client', 'server'],
  ]);
  expect(httpWires.some((wire) => wire.label.startsWith('notifications/cancelled'))).toBe(false);

  await lab.pickTransport('stdio');
  await lab.waitForRun('D', 'stdio');
  await diagram.fitAll();
  const overStdio = await lab.readFacts();
  const stdioWires = await diagram.drawnWires();
  expect(stdioWires.some((wire) => wire.kind === 'stream-close')).toBe(false);
  expect(
    stdioWires
      .filter((wire) => wire.label.startsWith('notifications/cancelled'))
      .map((wire) => [wire.from, wire.to, wire.status]),
  ).toEqual([['client', 'server', 'delivered']]);

  expect(overHttp.cancellationSignal).toBe('stream-close');
  expect(overStdio.cancellationSignal).toBe('notifications/cancelled');
  expect({ ...overStdio, cancellationSignal: overHttp.cancellationSignal }).toEqual(overHttp);
});

test('step back then forward, and scrubbing away and back, return exactly the same view', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B&step=15');
  await lab.waitForRun('B', 'stdio');
  await lab.waitForStep(15);
  // The view is compared with its link too: take it once the app has written the address bar.
  await urlSettled(page);
  const before = await viewOf(page);
  expect(before.wires.length).toBeGreaterThan(0);

  for (let i = 0; i < 4; i++) await lab.stepBack.click();
  await lab.waitForStep(11);
  expect(await viewOf(page)).not.toEqual(before);
  for (let i = 0; i < 4; i++) await lab.stepForward.click();
  await lab.waitForStep(15);
  await expect.poll(async () => (await viewOf(page)).url).toBe(before.url);
  expect(await viewOf(page)).toEqual(before);

  // The scrubber over virtual time: to the start, then to the instant of step 15.
  const transcript = transcriptOf('B', 'stdio');
  const atMs = transcript.events[14]?.atMs ?? 0;
  const sameInstant = transcript.events.filter((event) => event.atMs <= atMs).length;
  await lab.scrubber.fill('0');
  await expect.poll(() => lab.step()).toBeLessThan(15);
  await lab.scrubber.fill(String(atMs));
  await lab.waitForStep(sameInstant);
  await lab.setStepTo(15);
  expect({ ...(await viewOf(page)), url: before.url }).toEqual(before);
});

test('a copied link opened in a new page restores the exact view', async ({ page, context }) => {
  test.slow(); // two pages, a reload and several runs
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  await lab.pickScenario('C');
  await lab.waitForRun('C', 'stdio');
  await lab.pickTransport('http');
  await lab.waitForRun('C', 'http');
  await lab.setSeed('5');
  await lab.waitForRun('C', 'http', 5);
  await (await lab.setting('progressEveryMs')).fill('300');
  await (await lab.setting('progressEveryMs')).press('Enter');
  await expect(lab.main).toHaveAttribute(
    'data-events',
    String(transcriptOf('C', 'http', { progressEveryMs: 300 }).events.length),
  );
  await lab.waitForRun('C', 'http', 5);
  await lab.setStepTo(9);
  await expect
    .poll(() => new URL(page.url()).search)
    .toBe('?scenario=C&transport=http&seed=5&progressEveryMs=300&step=9');
  await new Diagram(page).fitAll();
  const copied = await viewOf(page);

  const other = await context.newPage();
  const reopened = new LabPage(other);
  await other.goto(page.url());
  await reopened.waitForRun('C', 'http', 5);
  await reopened.waitForStep(9);
  await expect(reopened.notice).toHaveCount(0);
  // Where each page has scrolled the diagram differs (one got there by stepping); the whole diagram is the same.
  await new Diagram(other).fitAll();
  expect(await viewOf(other)).toEqual(copied);
  expect(await (await reopened.setting('progressEveryMs')).inputValue()).toBe('300');
  await expect(reopened.seed).toHaveValue('5');
  await expect(reopened.transportRadio('http')).toBeChecked();

  // And a reload of the same page.
  await page.reload();
  await lab.waitForRun('C', 'http', 5);
  await lab.waitForStep(9);
  await new Diagram(page).fitAll();
  expect(await viewOf(page)).toEqual(copied);
});

test('a tampered link shows a notice with the engine’s messages and opens the defaults, never a blank page', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=C&transport=pigeon&seed=-4&workMs=abc&color=red&step=99999');
  await lab.waitForRun('C', 'stdio', 1);
  await expect(lab.notice).toBeVisible();
  for (const text of [
    'transport=pigeon',
    'LAB002',
    'seed=-4',
    'LAB003',
    'workMs=abc',
    'LAB005',
    'color=red',
    'LAB004',
    'step=99999',
  ])
    await expect(lab.notice).toContainText(text);
  await expect(lab.alert).toHaveCount(0);
  expect(await lab.readFacts()).toEqual(shown(expectedOf('C', 'stdio')));
  expect((await diagram.counts()).messages).toBeGreaterThan(0);
  await expect(lab.main).toHaveAttribute('data-step', (await lab.main.getAttribute('data-events')) ?? '');
  await expect.poll(() => new URL(page.url()).search).toBe('?scenario=C&transport=stdio&seed=1');
  await lab.notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(lab.notice).toHaveCount(0);

  await lab.open('?scenario=no-such-scenario');
  await lab.waitForRun('A', 'stdio');
  await expect(lab.notice).toContainText('LAB001');
});

test('an invalid setting shows the engine’s LAB005 message; the default recovers', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=C');
  await lab.waitForRun('C', 'stdio');
  const workMs = await lab.setting('workMs');
  await workMs.fill('-20');
  await workMs.press('Enter');
  await expect(lab.alert).toContainText('LAB005');
  await expect(lab.alert).toContainText('workMs=-20');
  await expect(lab.facts).toHaveCount(0);
  await lab.settings.getByRole('button', { name: 'Use default settings' }).click();
  await lab.waitForRun('C', 'stdio');
  await expect(lab.alert).toHaveCount(0);
  expect(await lab.readFacts()).toEqual(shown(expectedOf('C', 'stdio')));
});

test('the keyboard alone runs the lab: Space and "." play and pause, arrows step, ? lists the shortcuts', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  const total = await lab.eventCount();
  await page.locator('body').focus();

  await page.keyboard.press('Home');
  await lab.waitForStep(0);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(3);
  await page.keyboard.press('ArrowLeft');
  await lab.waitForStep(2);

  await page.keyboard.press('Space');
  await expect(lab.pause).toBeVisible();
  await expect.poll(() => lab.step()).toBeGreaterThan(2);
  await page.keyboard.press('Space');
  await expect(lab.play).toBeVisible();
  const paused = await lab.step();
  await page.keyboard.press('.');
  await expect(lab.pause).toBeVisible();
  await page.keyboard.press('.');
  await expect(lab.play).toBeVisible();
  expect(await lab.step()).toBeGreaterThanOrEqual(paused);
  await page.keyboard.press('End');
  await lab.waitForStep(total);

  await page.keyboard.press('?');
  await expect(lab.shortcutsDialog).toBeVisible();
  await expect(lab.shortcutsDialog).toContainText('Play or pause');
  await page.keyboard.press('Escape');
  await expect(lab.shortcutsDialog).toBeHidden();

  // Tab to the controls: every one is reachable and works from the keyboard.
  await lab.scenario.focus();
  await page.keyboard.press('ArrowDown');
  await lab.waitForRun('B', 'stdio');
  await lab.stepBack.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space'); // Space on a focused button presses that button, it does not play
  await lab.waitForStep((await lab.eventCount()) - 2);
  await expect(lab.play).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(lab.play).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(lab.stepForward).toBeFocused();
  await page.keyboard.press('Enter');
  await lab.waitForStep((await lab.eventCount()) - 1);
  await lab.shortcutsButton.focus();
  await page.keyboard.press('Enter');
  await expect(lab.shortcutsDialog).toBeVisible();
  await page.keyboard.press('Enter'); // Close has the focus
  await expect(lab.shortcutsDialog).toBeHidden();
});

test('prefers-reduced-motion: a message in flight does not animate', async ({ page }) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  const animation = () =>
    diagram
      .wires('message')
      .first()
      .locator('.dg-wire-line')
      .evaluate((line) => getComputedStyle(line).animationName);
  await lab.open('?scenario=A&step=2');
  await lab.waitForRun('A', 'stdio');
  await expect(diagram.wires('message').first()).toHaveAttribute('data-status', 'in-flight');
  expect(await animation()).toBe('dg-travel');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animation()).toBe('none');
});

test('selecting a message shows its exact JSON in the inspector', async ({ page }) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  const transcript = transcriptOf('A', 'stdio');
  const call = transcript.events.find((event) => event.kind === 'message');
  if (call?.kind !== 'message') throw new Error('A sends a message');
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  await diagram.fitAll();
  await diagram.pickWire(call.seq);
  await expect(diagram.messageJson).toHaveText(JSON.stringify(call.message, null, 2));
  await expect(diagram.wire(call.seq)).toHaveAttribute('data-status', 'delivered');
  await expect(diagram.inspector).toContainText('Picked');
  await diagram.inspector.getByRole('button', { name: 'Follow the current step' }).click();
  await expect(diagram.inspector).toContainText('Current');
  // The timeline rows pick events too (the keyboard way).
  await lab.timeline.getByRole('button', { name: /· message · client → server: tools\/call #41 on stdio/ }).click();
  await expect(diagram.messageJson).toHaveText(JSON.stringify(call.message, null, 2));
});

test('axe finds no serious or critical violation, mid-run, at the end, with settings and shortcuts open', async ({
  page,
}) => {
  test.slow(); // four full-page analyses
  const lab = new LabPage(page);
  const serious = async () =>
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    ).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
      );

  await lab.open('?scenario=B&step=14');
  await lab.waitForRun('B', 'stdio');
  await lab.settings.locator('summary').click();
  expect(await serious()).toEqual([]);
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  expect(await serious()).toEqual([]);
  await lab.shortcutsButton.click();
  await expect(lab.shortcutsDialog).toBeVisible();
  expect(await serious()).toEqual([]);
  await page.keyboard.press('Escape');
  await lab.open('?scenario=ledger-race-keyed');
  await lab.waitForRun('ledger-race-keyed', 'http');
  expect(await serious()).toEqual([]);
});

test('A at its end: the whole diagram, saved as a test artifact', async ({ page }, testInfo) => {
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await lab.open('?scenario=A');
  await lab.waitForRun('A', 'stdio');
  await diagram.fitAll();
  const wires = await diagram.drawnWires();
  expect(wires.filter((wire) => wire.kind === 'message')).toHaveLength(
    transcriptOf('A', 'stdio').events.filter((event) => event.kind === 'message').length,
  );
  const file = testInfo.outputPath('scenario-A-end.png');
  // The playback bar stays at the top of the picture instead of floating over the diagram.
  await lab.main
    .locator('.lab-results')
    .screenshot({ path: file, style: '.lab-sticky { position: static !important; }' });
  await testInfo.attach('scenario-A-end', { path: file, contentType: 'image/png' });
});
