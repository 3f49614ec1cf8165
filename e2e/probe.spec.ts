// A `lab probe --json` transcript of a real server (server-everything, recorded with the CLI and
// committed as fixtures) opened in the page: with the file picker and by a drop on the page, labelled
// with the server and the time, stepped like a run with its verdicts filling in, put beside the lab's
// model of the same ordering in Compare; a malformed or oversized file (by its bytes or its events) is
// refused with the check that failed, and nothing else on the page changes; a big one shows the worker's
// progress while it opens.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { bigRecordingText } from '../src/testing/bigRecording';
import { RECORDING_EVENTS_MAX } from '../src/engine/core/recordingLimits';

const FIXTURES = 'e2e/fixtures';
const STDIO = `${FIXTURES}/probe-everything-stdio.json`;
const HTTP = `${FIXTURES}/probe-everything-http.json`;
const MALFORMED = `${FIXTURES}/probe-malformed.json`;

interface Fixture {
  startedAt: string;
  server: { name: string; version: string };
  verdicts: Array<{ probe: string; check: string; result: string }>;
  events: Array<{ probe: string; kind: string; message?: { method?: string } }>;
}
const fixture = (path: string): Fixture => JSON.parse(readFileSync(path, 'utf8')) as Fixture;
/** "2026-12-02 15:45:21 UTC", as the page words the probe's start. */
const recordedAt = (startedAt: string) => `${startedAt.slice(0, 10)} ${startedAt.slice(11, 19)} UTC`;
const label = (path: string) => {
  const f = fixture(path);
  return `recorded from ${f.server.name} ${f.server.version} at ${recordedAt(f.startedAt)}`;
};

async function pick(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open recorded transcript' }).click();
  await (await chooser).setFiles(file);
}

async function drop(page: Page, path: string): Promise<void> {
  const name = path.split('/').at(-1) ?? 'probe.json';
  const dataTransfer = await page.evaluateHandle(
    ({ text, name }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/json' }));
      return transfer;
    },
    { text: readFileSync(path, 'utf8'), name },
  );
  for (const type of ['dragenter', 'dragover', 'drop'])
    await page.dispatchEvent('.lab-workbench', type, { dataTransfer });
}

const verdictRow = (page: Page, check: string) =>
  page
    .getByTestId('recording-facts')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${check}`) }) });

test.describe('a recorded probe transcript in the page', () => {
  test('the file picker opens it in the diagram, labelled, and it steps like a run with its verdicts filling in', async ({
    page,
  }) => {
    const lab = new LabPage(page);
    await lab.open();
    await expect(lab.main).toHaveAttribute('data-status', 'done');
    await pick(page, STDIO);
    await expect(lab.main).toHaveAttribute('data-scenario', 'probe');
    await expect(lab.main).toHaveAttribute('data-impl', 'probe');
    await expect(page.getByTestId('recording-label')).toHaveText(label(STDIO));
    await expect(page.locator('.lab-run-info')).toContainText(`Recorded from ${fixture(STDIO).server.name}`);
    // The same diagram: its client and server lanes.
    const diagram = page.getByRole('region', { name: 'Sequence diagram' });
    await expect(diagram.getByText('Client', { exact: true })).toBeVisible();
    await expect(diagram.getByText('Server', { exact: true })).toBeVisible();
    // Every verdict of the recording is listed, each with its result once the replay has passed it.
    const { verdicts } = fixture(STDIO);
    await expect(page.getByTestId('recording-facts').getByRole('row')).toHaveCount(verdicts.length + 1);
    await expect(verdictRow(page, 'work stops after the cancellation')).toHaveAttribute('data-result', 'not followed');
    await expect(verdictRow(page, 'work stops after the cancellation').getByRole('cell')).toHaveText(
      'not followed (SHOULD)',
    );
    await expect(verdictRow(page, 'no response after an accepted cancellation').getByRole('cell')).toHaveText('holds');

    // Stepping: from the start every verdict is pending; the first fills in at the step the probe decided it.
    await lab.reset.click();
    await expect(lab.main).toHaveAttribute('data-step', '0');
    await expect(page.getByTestId('recording-facts').locator('tr[data-result="pending"]')).toHaveCount(verdicts.length);
    const { events } = fixture(STDIO);
    // The verdicts follow the last event of their probe: the first verdict is the event after it.
    const firstVerdictStep =
      events.length - [...events].reverse().findIndex((event) => event.probe === 'cancel-during-work') + 1;
    const cancelStep = events.findIndex((event) => event.message?.method === 'notifications/cancelled') + 1;
    for (let step = 1; step < firstVerdictStep; step++) {
      await lab.stepForward.click();
      // The probe's real cancellation, drawn as the lab draws a message, once the replay reaches it.
      if (step === cancelStep)
        await expect(diagram.getByText('notifications/cancelled #4', { exact: true })).toBeVisible();
    }
    await expect(lab.main).toHaveAttribute('data-step', String(firstVerdictStep - 1));
    await expect(verdictRow(page, 'no response after an accepted cancellation')).toHaveAttribute(
      'data-result',
      'pending',
    );
    await lab.stepForward.click();
    await expect(verdictRow(page, 'no response after an accepted cancellation')).toHaveAttribute(
      'data-result',
      'holds',
    );
    await expect(lab.announcer).toContainText('holds: no response after an accepted cancellation');
    await lab.stepForward.click();
    await expect(verdictRow(page, 'work stops after the cancellation')).toHaveAttribute('data-result', 'not followed');
    await expect(lab.announcer).toContainText('not followed (SHOULD): work stops after the cancellation');
    await expect(diagram.getByText('not followed: work stops after the cancellation')).toBeVisible();
    await lab.stepBack.click();
    await expect(verdictRow(page, 'work stops after the cancellation')).toHaveAttribute('data-result', 'pending');
    // A recording cannot be re-run: no What if.
    await expect(page.getByRole('group', { name: 'What if' })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('probe-recording-1280x720.png') });
  });

  test('a drop on the page opens it too (here the Streamable HTTP recording)', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.open();
    await expect(lab.main).toHaveAttribute('data-status', 'done');
    await drop(page, HTTP);
    await expect(lab.main).toHaveAttribute('data-scenario', 'probe');
    await expect(lab.main).toHaveAttribute('data-transport', 'http');
    await expect(page.getByTestId('recording-label')).toHaveText(label(HTTP));
    await expect(verdictRow(page, 'X-Accel-Buffering: no on SSE responses')).toHaveAttribute('data-result', 'holds');
    await expect(verdictRow(page, 'work stops after the cancellation')).toHaveAttribute('data-result', 'not followed');
  });

  test('Compare beside the model: the recorded cancel during work beside scenario A on stdio', async ({ page }) => {
    // The Compare panel and its tools worker load on first use.
    test.setTimeout(90_000);
    const lab = new LabPage(page);
    await lab.open();
    await pick(page, STDIO);
    await expect(page.getByTestId('recording-label')).toHaveText(label(STDIO));
    // At the end the replay stands in progress-and-deadlines (scenario C); from the start, in the first ordering the lab models.
    await expect(page.getByText("the recorded progress-and-deadlines beside the lab's C on stdio")).toBeVisible();
    await lab.reset.click();
    await expect(page.getByText("the recorded cancel-during-work beside the lab's A on stdio")).toBeVisible();
    await page.getByRole('button', { name: 'Compare beside the model' }).click();
    await expect(page.getByRole('tab', { name: 'Compare', selected: true })).toBeVisible();
    const { server } = fixture(STDIO);
    await expect(
      page.getByRole('heading', { name: `Run A: recorded cancel-during-work · ${server.name} ${server.version}` }),
    ).toBeVisible({ timeout: 45_000 });
    await expect(page.getByRole('heading', { name: 'Run B: A:transport=stdio' })).toBeVisible();
    const facts = page.getByRole('table', { name: 'Facts of both runs' });
    const fact = (name: string) =>
      facts.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
    await expect(fact('cancellation signal').getByRole('cell').first()).toHaveText(/^notifications\/cancelled at \d/);
    await expect(fact('cancellation signal').getByRole('cell').nth(1)).toHaveText('notifications/cancelled');
    await expect(fact('after the cancellation').getByRole('cell').first()).toHaveText(/\d+ × notifications\/progress/);
    await expect(fact('terminal state').getByRole('cell').first()).toHaveText(
      'not observable from outside (the server keeps it)',
    );
    await page.screenshot({ path: test.info().outputPath('probe-compare-1280x720.png') });
  });

  test('Compare opened from a link naming a recorded run says the link holds only its name, and opens the recording in the run the link named, the others kept', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { server } = fixture(STDIO);
    const spec = `recorded cancel-during-work · ${server.name} ${server.version}`;
    // The recording is Run B, between two runs that are neither the defaults nor the model the page would pick: opening it must keep both.
    await new LabPage(page).open(
      `?${new URLSearchParams({ tab: 'compare', runA: 'D:transport=stdio', runB: spec, runC: 'B:transport=stdio' }).toString()}`,
    );
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(`Run B is the recorded transcript “${spec}”, and a link holds only its name`);
    await expect(alert).not.toContainText('LAB024');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Open the recorded transcript' }).click();
    await (await chooser).setFiles(STDIO);
    await expect(page.getByRole('heading', { name: `Run B: ${spec}` })).toBeVisible({ timeout: 45_000 });
    await expect(page.getByRole('heading', { name: 'Run A: D:transport=stdio' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Run C: B:transport=stdio' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open the recorded transcript' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a malformed or oversized file gets a notice naming the failed check, and nothing else changes', async ({
    page,
  }) => {
    const lab = new LabPage(page);
    await lab.open();
    await expect(lab.main).toHaveAttribute('data-status', 'done');
    const before = async () => ({
      scenario: await lab.main.getAttribute('data-scenario'),
      step: await lab.main.getAttribute('data-step'),
      events: await lab.main.getAttribute('data-events'),
      facts: await lab.facts.innerText(),
    });
    const shown = await before();
    await pick(page, MALFORMED);
    const notice = page.getByRole('alert').filter({ hasText: 'Could not open' });
    await expect(notice).toContainText('LAB049');
    await expect(notice).toContainText('“probe-malformed.json”');
    await expect(notice).toContainText('events.12.atMs');
    expect(await before()).toEqual(shown);
    await expect(page.getByTestId('recording-facts')).toHaveCount(0);

    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await pick(page, {
      name: 'huge.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(24 * 1024 * 1024 + 1, 0x20),
    });
    await expect(notice).toContainText('more than a probe transcript');
    expect(await before()).toEqual(shown);

    // A recording on screen stays on screen when the next file is refused.
    await pick(page, STDIO);
    await expect(page.getByTestId('recording-label')).toHaveText(label(STDIO));
    await expect(notice).toHaveCount(0);
    const steps = await lab.main.getAttribute('data-events');
    await drop(page, MALFORMED);
    await expect(notice).toContainText('events.12.atMs');
    await expect(page.getByTestId('recording-label')).toHaveText(label(STDIO));
    await expect(lab.main).toHaveAttribute('data-events', steps ?? '');
  });
  test('a big recording shows how far the worker got while it opens; one of more events than a recording may hold is refused with LAB049, and nothing is lost', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const lab = new LabPage(page);
    await lab.open();
    await expect(lab.main).toHaveAttribute('data-status', 'done');
    // At the bound it opens, the worker's stages shown meanwhile.
    const big = {
      name: 'big.json',
      mimeType: 'application/json',
      buffer: Buffer.from(bigRecordingText(RECORDING_EVENTS_MAX)),
    };
    await pick(page, big);
    const progress = page.getByRole('status').filter({ hasText: 'Opening “big.json”' });
    await expect(progress).toHaveText(
      /Opening “big\.json”: (reading it…|(checking|reading|wording) its events… [\d,]+ of 50,000|laying out the diagram of its 50,0\d\d events…)/,
    );
    await expect(page.getByTestId('recording-label')).toHaveText(label(STDIO), { timeout: 90_000 });
    await expect(progress).toHaveCount(0);
    await expect(lab.main).toHaveAttribute(
      'data-events',
      String(RECORDING_EVENTS_MAX + fixture(STDIO).verdicts.length),
    );

    // One event more: refused, naming how many, and the recording on screen stays.
    const shown = {
      events: await lab.main.getAttribute('data-events'),
      label: await page.getByTestId('recording-label').innerText(),
    };
    await pick(page, {
      name: 'too-many.json',
      mimeType: 'application/json',
      buffer: Buffer.from(bigRecordingText(RECORDING_EVENTS_MAX + 1)),
    });
    const notice = page.getByRole('alert').filter({ hasText: 'Could not open' });
    await expect(notice).toContainText('LAB049');
    await expect(notice).toContainText(
      `“too-many.json”: not a probe transcript: the file holds ${(RECORDING_EVENTS_MAX + 1).toLocaleString('en')} events, more than a recording's ${RECORDING_EVENTS_MAX.toLocaleString('en')}`,
    );
    await expect(notice).toContainText('The page is unchanged.');
    expect({
      events: await lab.main.getAttribute('data-events'),
      label: await page.getByTestId('recording-label').innerText(),
    }).toEqual(shown);
  });
});
