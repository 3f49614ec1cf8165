// Proves the Exercises tab: pick the buffer exercise, Check its starter (it fails, its statements
// shown with their requirement ids, how many orderings were checked and how long it took), open a
// broken statement's shortest failing ordering in the sequence diagram with the student's component
// in place (the step where it broke marked, the calls into the student's code listed), type a partial
// fix and then the reference from the keyboard until every statement holds; an endless loop ends with
// the budget error beside the editor (its line marked) while the page stays usable; a reload keeps the
// code; Download, Upload (a bad file refused, the code kept) and Reset to starter with its Undo.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { CHECK_MS, ExercisesPage } from './pages/ExercisesPage';
import { LabPage } from './pages/LabPage';
import { Panels } from './pages/Panels';

const solution = (name: string): string =>
  readFileSync(new URL(`../src/exercise/solutions/${name}.js`, import.meta.url), 'utf8');
const REFERENCE = solution('buffer');
const EVICTS_FINAL = solution('buffer-evicts-final');
/** The buffer starter's first line (no solution begins with it). */
const STARTER_FIRST_LINE = '// Exercise: the bounded SSE buffer';
/** The reference with an endless loop in offer(): the sandbox's budget ends it. */
const ENDLESS = REFERENCE.replace('offer(item) {', 'offer(item) {\n      while (true) {}');
/** The reference, throwing at the first final response it is offered. */
const THROWS = REFERENCE.replace(
  'offer(item) {',
  "offer(item) {\n      if (item.kind === 'final') throw new Error('no finals here');",
);
const THROW_LINE = THROWS.split('\n').findIndex((line) => line.includes('no finals here')) + 1;

/** Serious or critical accessibility findings on the page as it stands. */
async function serious(page: Page): Promise<string[]> {
  return (
    await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  ).violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
    );
}

test('the starter fails, a broken statement opens its failing ordering in the diagram, and the reference passes', async ({
  page,
}) => {
  test.setTimeout(CHECK_MS * 3 + 60_000);
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  await lab.open();
  await exercises.open();
  await expect(exercises.picker).toHaveValue('buffer');
  await expect(exercises.editor).toContainText('export function createBuffer(capacity)');
  // Every statement is listed before any Check, with its requirement ids.
  await expect(exercises.statement('final-never-dropped')).toContainText('BF-4');
  await expect(exercises.statement('within-capacity')).toContainText('not checked yet');

  // The starter: unbounded, so the capacity statement is broken.
  await exercises.check.click();
  await expect(page.getByRole('status').filter({ hasText: 'Checking every ordering' })).toBeVisible();
  await expect(exercises.progress).toBeVisible();
  await expect(page.locator('.exercise-panel')).toHaveAttribute('data-checks', '1', { timeout: CHECK_MS });
  await expect(exercises.verdict).toHaveAttribute('data-passed', 'false');
  await expect(exercises.verdict).toContainText(/orderings checked .* in \d/);
  await expect(exercises.statement('within-capacity')).toHaveAttribute('data-holds', 'false');
  await expect(exercises.statement('within-capacity')).toContainText('broken');
  await expect(exercises.statement('final-never-dropped')).toHaveAttribute('data-holds', 'true');

  // Its shortest failing ordering, replayed with the starter in place, cut at the event where it broke.
  await exercises.showFailing('within-capacity').click();
  const flow = exercises.failingFlow('within-capacity');
  await expect(flow).toBeVisible();
  const breakStep = await page.locator('.exercise-ordering').getAttribute('data-break-step');
  await expect(flow).toHaveAttribute('data-step', breakStep ?? '');
  await expect(page.getByTestId('exercise-break')).toContainText(/Broke at event \d+/);
  await expect(exercises.calls).toContainText('offer(');
  await expect(exercises.calls).toContainText('"queued"');
  expect(await serious(page)).toEqual([]);
  await page
    .getByRole('group', { name: 'Failing ordering playback' })
    .getByRole('button', { name: 'Whole run' })
    .click();
  await expect(flow).not.toHaveAttribute('data-step', breakStep ?? '');

  // A partial fix, typed in: bounded now, but it evicts final responses.
  await exercises.replaceCode(EVICTS_FINAL);
  await exercises.runCheck();
  await expect(exercises.statement('within-capacity')).toHaveAttribute('data-holds', 'true');
  await expect(exercises.statement('final-never-dropped')).toHaveAttribute('data-holds', 'false');
  await exercises.showFailing('final-never-dropped').click();
  await expect(exercises.failingFlow('final-never-dropped')).toBeVisible();
  await expect(exercises.calls).toContainText('"kind":"final"');

  // The reference: every statement holds.
  await exercises.replaceCode(REFERENCE);
  await exercises.runCheck();
  await expect(exercises.verdict).toHaveAttribute('data-passed', 'true');
  await expect(exercises.verdict).toContainText('All statements hold.');
  await expect(exercises.statements.locator('tr[data-holds="false"]')).toHaveCount(0);
  await expect(exercises.statements.locator('tr[data-holds="true"]')).toHaveCount(
    await exercises.statements.locator('tbody tr').count(),
  );
});

test('an endless loop ends with the budget error beside the editor, the page stays usable, and a reload keeps the code', async ({
  page,
}) => {
  test.setTimeout(CHECK_MS + 90_000);
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  await lab.open();
  await exercises.open();

  // A syntax error names its line; the editor's cursor and marker go to it.
  // Checked from the keyboard, in the editor: Ctrl+Enter.
  await exercises.replaceCode(
    'export function createBuffer(capacity) {\n  return {\n    offer(item) { return ; ; ) },\n  };\n}\n',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('.exercise-panel')).toHaveAttribute('data-checks', '1', { timeout: CHECK_MS });
  await expect
    .poll(() => exercises.code())
    .toBe('export function createBuffer(capacity) {\n  return {\n    offer(item) { return ; ; ) },\n  };\n}\n');
  await expect(exercises.codeError).toHaveAttribute('data-kind', 'syntax');
  await expect(exercises.codeError).toContainText('Line 3');
  await expect(page.locator('.cm-error-line')).toHaveCount(1);
  await expect(page.locator('.cm-error-line')).toContainText('offer(item)');
  await expect(page.locator('.cm-activeLine, .cm-line').filter({ hasText: 'offer(item)' })).toBeVisible();

  // An exception names its message and line; the ordering where it happened replays up to the throw, and the run's failure is shown instead of a diagram.
  await exercises.replaceCode(THROWS);
  await exercises.runCheck();
  await expect(exercises.codeError).toHaveAttribute('data-kind', 'exception');
  await expect(exercises.codeError).toContainText(`Line ${THROW_LINE}`);
  await expect(exercises.codeError).toContainText('no finals here');
  await expect(exercises.statement('final-never-dropped')).toContainText('not graded');
  await expect(page.locator('.cm-error-line')).toContainText('no finals here');
  await page.getByRole('button', { name: 'Show the ordering where it failed' }).click();
  await expect(page.getByTestId('exercise-run-failure')).toContainText('no finals here');
  await expect(exercises.calls).toContainText('threw');
  await expect(page.locator('.exercise-failing .lab-flow')).toHaveCount(0);

  await exercises.replaceCode(ENDLESS);
  await exercises.runCheck();
  await expect(exercises.codeError).toHaveAttribute('data-kind', 'budget');
  await expect(exercises.codeError).toContainText('budget');
  await expect(exercises.verdict).toContainText('Not graded');
  await expect.poll(() => exercises.code()).toBe(ENDLESS);
  await expect(exercises.editor).toContainText('while (true) {}');

  // The page still works: another tab runs and steps, and the tab comes back with the code.
  const panels = new Panels(page);
  await panels.openTab('Race');
  await lab.waitForRun('A', 'stdio');
  await lab.stepForward.click();
  await panels.openTab('Exercises');
  await expect.poll(() => exercises.code()).toBe(ENDLESS);

  // A reload keeps it (IndexedDB).
  await page.reload();
  await expect(lab.heading).toBeVisible();
  await exercises.open();
  await expect.poll(() => exercises.code()).toBe(ENDLESS);
  await expect(exercises.editor).toContainText('while (true) {}');
});

test('Download, Upload (a bad file refused, the code kept) and Reset to starter with Undo', async ({ page }) => {
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  await lab.open();
  await exercises.open();
  // The starter's first line (the editor's DOM holds only the lines in view, fewer in a narrower column).
  await expect(exercises.editor).toContainText(STARTER_FIRST_LINE);
  await exercises.replaceCode(EVICTS_FINAL);

  const downloading = page.waitForEvent('download');
  await exercises.download.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('buffer.js');
  expect(readFileSync((await download.path()) ?? '', 'utf8')).toBe(EVICTS_FINAL);

  // A binary file is refused with its reason; the editor keeps its code.
  await exercises.uploadInput.setInputFiles({
    name: 'picture.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x00]),
  });
  await expect(page.getByRole('alert').filter({ hasText: 'The file was not used' })).toContainText(
    'picture.png is not a text file',
  );
  await expect(exercises.editor).toContainText('Planted wrong');
  expect(await exercises.code()).toBe(EVICTS_FINAL);

  // A good file replaces the code.
  await exercises.uploadInput.setInputFiles({
    name: 'mine.js',
    mimeType: 'text/javascript',
    buffer: Buffer.from(REFERENCE),
  });
  await expect.poll(() => exercises.code()).toBe(REFERENCE);
  await expect(page.getByRole('alert').filter({ hasText: 'The file was not used' })).toHaveCount(0);

  // Reset to starter, then Undo.
  await exercises.reset.click();
  await expect(exercises.editor).toContainText(STARTER_FIRST_LINE);
  await expect.poll(() => exercises.code()).toContain('This starter is the failure mode');
  await exercises.undoReset.click();
  await expect.poll(() => exercises.code()).toBe(REFERENCE);
  await expect(exercises.undoReset).toHaveCount(0);
});

test('offline after one visit, the tab still checks: the service worker precached the editor, the worker and QuickJS’s WebAssembly', async ({
  page,
  context,
}) => {
  test.setTimeout(CHECK_MS + 60_000);
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  await lab.open();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null)).toBe('activated');

  await context.setOffline(true);
  const fromWorker: string[] = [];
  page.on('response', (response) => {
    if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
  });
  await page.reload();
  await expect(lab.heading).toBeVisible();
  await exercises.open();
  await exercises.replaceCode(REFERENCE);
  await exercises.runCheck();
  await expect(exercises.verdict).toHaveAttribute('data-passed', 'true');
  expect(fromWorker.some((path) => /emscripten-module-[\w-]+\.wasm$/.test(path))).toBe(true);
  await context.setOffline(false);
});
