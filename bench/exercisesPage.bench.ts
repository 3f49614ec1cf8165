/**
 * `npm run bench:exercises:page`: how long a Check takes in the page, for every exercise, beside the
 * command line's figure for the same code measured in the same run. A script, not a test.
 *
 * It builds the lab, serves the production build (vite preview) and drives it in Chromium at 1280×720
 * (the browser the e2e tests use: scripts/check-chromium.mjs, LAB_BROWSER picks it). For each exercise in
 * the registry: first its reference solution (src/exercise/solutions/<id>.js) graded 5 times by grade()
 * in this process, as bench:exercises does; then, in a fresh browser context, the Exercises tab opened on
 * the exercise, the reference typed into the editor (as the e2e page object does) and Check pressed 5
 * times. A page Check is timed in the page from the click to the commit that bumps the panel's
 * `data-checks` (the verdict renders in the same commit); the verdict's own figure ("… in 1.2 s", the
 * report's elapsedMs as the worker measured it, shown to 0.1 s above a second) is read beside it. The
 * first Check of a page also loads the worker's QuickJS: it is in the median's five, and printed apart.
 *
 * Printed per exercise: the CLI median, the page's wall median, the page's own median, page/CLI (wall
 * over CLI) and whether each is under the 5 s goal. An exercise's page part is abandoned after 120 s (its
 * browser context closed), and its CLI part stops repeating once 120 s have gone.
 */
import { readFileSync } from 'node:fs';
import { expect, type BrowserContext } from '@playwright/test';
import { ExercisesPage } from '../e2e/pages/ExercisesPage';
import { LabPage } from '../e2e/pages/LabPage';
import { loadSqlJs } from '../src/cli/sqlite';
import type { ExerciseDef } from '../src/exercise/exercise';
import { grade } from '../src/exercise/grade';
import { EXERCISES } from '../src/exercise/registry';
import { loadQuickJs, sandboxSource } from '../src/exercise/sandbox';
import { budgetMark, budgetSummary } from './budget';
import { servedBuild } from './servedBuild';

const REPEATS = 5;
const GOAL_MS = 5_000;
const EXERCISE_MS = 120_000;
const PORT = Number(process.env.LAB_BENCH_PORT ?? 4191);
const VIEWPORT = { width: 1280, height: 720 };

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const seconds = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);

/** The verdict's own figure: "… in 845 ms." or "… in 1.2 s." (the last "in <n> <unit>" of the line). */
function reportedMs(verdict: string): number {
  const found = [...verdict.matchAll(/\bin (\d+(?:\.\d+)?) (ms|s)\b/g)].pop();
  if (found === undefined) return Number.NaN;
  return Number(found[1]) * (found[2] === 's' ? 1000 : 1);
}

interface CliResult {
  times: number[];
  passed: boolean | null;
  orderings: number;
}

/** The reference graded by grade() in this process, as bench/exercises.bench.ts does. */
function cliChecks(
  def: ExerciseDef,
  code: string,
  qjs: Awaited<ReturnType<typeof loadQuickJs>>,
  ledger: { sql: Awaited<ReturnType<typeof loadSqlJs>> },
): CliResult {
  const result: CliResult = { times: [], passed: null, orderings: 0 };
  const started = performance.now();
  for (let repeat = 0; repeat < REPEATS && performance.now() - started < EXERCISE_MS; repeat += 1) {
    const begun = performance.now();
    const source = sandboxSource(qjs, code, def.exports);
    try {
      const report = grade(def, source, { ledger });
      result.passed = report.passed && report.error === undefined;
      result.orderings = report.orderings;
    } finally {
      source.close();
    }
    result.times.push(performance.now() - begun);
  }
  return result;
}

interface PageResult {
  wall: number[];
  reported: number[];
  verdicts: string[];
  passed: boolean[];
  aborted: string | null;
}

interface CheckTiming {
  clickAt: number;
  settledAt: number;
}

/** Opens the tab on the exercise, types the reference into the editor and checks it REPEATS times. */
async function pageChecks(context: BrowserContext, id: string, code: string, into: PageResult): Promise<void> {
  const page = await context.newPage();
  const lab = new LabPage(page);
  const exercises = new ExercisesPage(page);
  await lab.open();
  await exercises.open(id);
  // The editor shows once the exercise's code has been read (a "Reading your code…" placeholder before).
  await expect(page.locator('.exercise-editor [data-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  await expect(exercises.editor).toBeVisible({ timeout: 30_000 });
  // ExercisesPage.replaceCode's steps, waiting on this exercise's stored code (its own wait reads the buffer's).
  await exercises.editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
  await expect.poll(() => exercises.code(id), { timeout: 30_000 }).toBe(code);

  const panel = page.locator('.exercise-panel');
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const before = Number(await panel.getAttribute('data-checks'));
    // Stamped in the page: the click as the document first hears it, the commit that bumps data-checks.
    await page.evaluate((settled) => {
      const target = document.querySelector('.exercise-panel');
      if (target === null) throw new Error('no exercise panel');
      const timing = { clickAt: Number.NaN, settledAt: Number.NaN };
      document.addEventListener('click', () => (timing.clickAt = performance.now()), { capture: true, once: true });
      (window as unknown as { benchCheck: Promise<CheckTiming> }).benchCheck = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (Number(target.getAttribute('data-checks')) <= settled) return;
          timing.settledAt = performance.now();
          observer.disconnect();
          resolve(timing);
        });
        observer.observe(target, { attributes: true, attributeFilter: ['data-checks'] });
      });
    }, before);
    await exercises.check.click();
    const timing = await page.evaluate(() => (window as unknown as { benchCheck: Promise<CheckTiming> }).benchCheck);
    into.wall.push(timing.settledAt - timing.clickAt);
    const verdictShown = (await exercises.verdict.count()) > 0;
    const verdict = verdictShown
      ? ((await exercises.verdict.first().textContent()) ?? '').trim()
      : ((await page.locator('.exercise-results').textContent()) ?? '').trim().slice(0, 200);
    into.verdicts.push(verdict);
    into.reported.push(reportedMs(verdict));
    into.passed.push(verdictShown && (await exercises.verdict.first().getAttribute('data-passed')) === 'true');
  }
}

const served = await servedBuild({ port: PORT });
const qjs = await loadQuickJs();
const ledger = { sql: await loadSqlJs() };
const rows: string[] = [];
const odd: string[] = [];
const browserVersion = served.browser.version();
console.log(
  `bench: exercise checks in the page (production build, Chromium ${browserVersion}, ${VIEWPORT.width}×${VIEWPORT.height}) beside grade() in node ${process.version}; median of ${REPEATS}; goal under ${GOAL_MS / 1000} s each`,
);
const header = `${'exercise'.padEnd(18)} ${'CLI'.padStart(8)} ${'page wall'.padStart(10)} ${'page says'.padStart(10)} ${'page/CLI'.padStart(9)} ${'1st page'.padStart(9)}  goal (CLI, page)`;
console.log(header);
try {
  for (const def of EXERCISES) {
    const code = readFileSync(new URL(`../src/exercise/solutions/${def.id}.js`, import.meta.url), 'utf8');
    const cli = cliChecks(def, code, qjs, ledger);
    if (cli.times.length < REPEATS)
      odd.push(`${def.id}: the CLI stopped after ${cli.times.length} of ${REPEATS} checks (120 s)`);
    if (cli.passed !== true) odd.push(`${def.id}: grade() did not pass the reference`);

    const result: PageResult = { wall: [], reported: [], verdicts: [], passed: [], aborted: null };
    const context = await served.browser.newContext({ viewport: VIEWPORT, baseURL: served.base });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        pageChecks(context, def.id, code, result),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`aborted after ${EXERCISE_MS / 1000} s`)), EXERCISE_MS);
        }),
      ]);
    } catch (error) {
      result.aborted = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => undefined);
    }
    if (result.aborted !== null)
      odd.push(`${def.id}: the page part stopped after ${result.wall.length} of ${REPEATS} checks: ${result.aborted}`);
    const failed = result.verdicts.filter((_, i) => result.passed[i] !== true);
    if (failed.length > 0)
      odd.push(`${def.id}: ${failed.length} page check(s) did not pass the reference: ${JSON.stringify(failed[0])}`);
    if (result.reported.some((ms) => Number.isNaN(ms))) odd.push(`${def.id}: a verdict without its own figure`);
    const pageOrderings = new Set(
      result.verdicts.map((verdict) => /([\d,]+) orderings checked/.exec(verdict)?.[1]?.replaceAll(',', '') ?? '?'),
    );
    if ([...pageOrderings].some((count) => count !== String(cli.orderings)))
      odd.push(`${def.id}: the page checked ${[...pageOrderings].join('/')} orderings, grade() ${cli.orderings}`);

    const cliMs = median(cli.times);
    const wallMs = median(result.wall);
    const saysMs = median(result.reported);
    const ratio = Number.isNaN(wallMs) ? '—' : `${(wallMs / Math.max(1, cliMs)).toFixed(2)}×`;
    const mark = (ms: number) => (Number.isNaN(ms) ? '—' : ms < GOAL_MS ? 'ok' : 'OVER');
    const row = `${def.id.padEnd(18)} ${seconds(cliMs).padStart(8)} ${seconds(wallMs).padStart(10)} ${seconds(saysMs).padStart(10)} ${ratio.padStart(9)} ${seconds(result.wall[0] ?? Number.NaN).padStart(9)}  ${mark(cliMs)}, ${mark(wallMs)}${budgetMark(`${def.id} CLI check`, !(cliMs >= GOAL_MS))}${budgetMark(`${def.id} page check`, !(wallMs >= GOAL_MS) && result.aborted === null)}`;
    rows.push(row);
    console.log(row);
    console.log(
      `${''.padEnd(18)} page walls ${result.wall.map((ms) => seconds(ms)).join(', ')}; page says ${result.reported.map((ms) => seconds(ms)).join(', ')}; CLI ${cli.times.map((ms) => seconds(ms)).join(', ')}; ${cli.orderings.toLocaleString('en-US')} orderings`,
    );
  }
} finally {
  await served.close();
}
for (const line of odd) console.log(`note: ${line}`);
console.log(budgetSummary('bench:exercises:page'));
