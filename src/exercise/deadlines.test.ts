// The deadlines exercise (docs/requirements.md RC-1, RC-2, RC-4): the starter ("progress resets every deadline")
// breaks max-never-moves and only that; the reference holds every statement; each planted wrong
// solution breaks exactly its statement; a failing ordering replays to the same breach, and the run
// follows the student's deadlines (a moved maximum lets the work finish; no deadline, no timeout).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { ComponentProbe, parseSchedule, runScenario } from '../engine';
import { findScenario } from '../scenarios';
import { Caller } from './caller';
import { deadlinesExercise as def } from './exercises/deadlines';
import { grade, RUNS_TO_END } from './grade';
import type { ComponentSource } from './runtime';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { CheckReport, FailingRun } from './types';

const solution = (name: string) => readFileSync(new URL(`./solutions/${name}.js`, import.meta.url), 'utf8');

let qjs: QuickJSWASMModule;
const opened: ComponentSource[] = [];

beforeAll(async () => {
  qjs = await loadQuickJs();
});

afterAll(() => {
  for (const source of opened) source.close();
});

function open(code: string): ComponentSource {
  const source = sandboxSource(qjs, code, def.exports);
  opened.push(source);
  return source;
}

const check = (code: string): CheckReport => grade(def, open(code));
const broken = (report: CheckReport) =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

/** One run with a fresh instance of `code` in the client's place: its transcript and the breaches reported. */
function runWith(
  code: string,
  run: Pick<FailingRun, 'scenario' | 'transport'> & { settings?: FailingRun['settings']; schedule?: string },
) {
  const instance = open(code).open();
  try {
    const probe = new ComponentProbe();
    const caller = new Caller(instance, null, probe);
    const transcript = runScenario(findScenario(run.scenario), {
      transport: run.transport,
      settings: run.settings,
      schedule: run.schedule === undefined ? undefined : parseSchedule(run.schedule),
      components: { probe, ...def.components(caller, probe) },
    });
    return { transcript, breaches: probe.breaches };
  } finally {
    instance.dispose();
  }
}

const example = { scenario: 'C', transport: 'stdio', settings: { latencyMs: 0, workMs: 2_400 } } as const;
const outcomeOf = (transcript: { outcome: unknown }) =>
  transcript.outcome as { terminalState: string; terminalAtMs: number };

describe('the deadlines exercise', () => {
  it('the statements are the contract', () => {
    expect(def.statements.map((statement) => statement.id)).toEqual([
      'armed-at-start',
      'idle-reset-by-progress',
      'max-never-moves',
      'token-keeps-deadlines',
      RUNS_TO_END,
    ]);
  });

  it('the starter ("progress resets every deadline") breaks max-never-moves only, at the first progress, and its ordering replays', () => {
    const report = check(def.starter);
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(broken(report)).toEqual(['max-never-moves']);
    const statement = report.statements.find((entry) => entry.id === 'max-never-moves');
    expect(statement?.explanation).toMatch(
      /^onProgress\(\d+\) answered max \d+ ms; the maximum deadline counts from the start/,
    );
    expect(statement?.calls?.at(-1)?.call).toMatch(/^onProgress\(\d+\)$/);
    const failing = statement!.failing!;
    const { breaches } = runWith(def.starter, failing);
    expect(breaches.map((breach) => [breach.statement, breach.explanation, breach.step, breach.atMs])).toContainEqual([
      'max-never-moves',
      statement?.explanation,
      failing.step,
      failing.atMs,
    ]);
  });

  it('the reference holds every statement in every ordering, and ends the lesson’s example exactly as the lab’s own deadlines do', () => {
    const report = check(solution('deadlines'));
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.passed).toBe(true);
    for (const run of def.runs) {
      const own = runScenario(findScenario(run.scenario), { transport: run.transport, settings: run.settings });
      const student = runWith(solution('deadlines'), run);
      expect(student.breaches).toEqual([]);
      expect(student.transcript.outcome).toEqual(own.outcome);
      expect(student.transcript.events.filter((event) => event.kind === 'deadline')).toEqual(
        own.events.filter((event) => event.kind === 'deadline'),
      );
    }
  });

  it('the run follows the student’s deadlines: the starter’s moving maximum lets the work finish in the example, where the spec ends it at 2000 ms', () => {
    expect(outcomeOf(runScenario(findScenario('C'), { transport: 'stdio', settings: example.settings }))).toMatchObject(
      { terminalState: 'timeout-max', terminalAtMs: 2_000 },
    );
    const { transcript } = runWith(def.starter, example);
    expect(outcomeOf(transcript).terminalState).toBe('completed');
    const maxMoves = transcript.events.filter(
      (event) => event.kind === 'deadline' && event.deadline === 'max' && event.action === 'reset',
    );
    expect(maxMoves.map((event) => (event as { dueAtMs: number }).dueAtMs)).toEqual([
      2_400, 2_800, 3_200, 3_600, 4_000,
    ]);
  });

  it('never resetting the idle deadline breaks idle-reset-by-progress only: steady progress ends at 500 ms', () => {
    const report = check(solution('deadlines-idle-never-reset'));
    expect(broken(report)).toEqual(['idle-reset-by-progress']);
    expect(report.statements.find((entry) => entry.id === 'idle-reset-by-progress')?.explanation).toBe(
      'onProgress(400) answered idle 500 ms; progress restarts the idle deadline: due idleTimeoutMs (500 ms) after it, at 900 ms',
    );
    expect(outcomeOf(runWith(solution('deadlines-idle-never-reset'), example).transcript)).toMatchObject({
      terminalState: 'timeout-idle',
      terminalAtMs: 500,
    });
  });

  it('a progress token taken as "no timeout" breaks token-keeps-deadlines only; with no progress sent the request waits for the work', () => {
    const code = solution('deadlines-token-no-timeout');
    const report = check(code);
    expect(broken(report)).toEqual(['token-keeps-deadlines']);
    const statement = report.statements.find((entry) => entry.id === 'token-keeps-deadlines');
    expect(statement?.explanation).toContain('progressToken "progress-41"');
    expect(statement?.failing?.step).toBe(0);
    const silent = def.runs.find((run) => run.settings?.serverSendsProgress === false)!;
    const { transcript } = runWith(code, silent);
    // The work's 1600 ms and the response's latency: past the 1000 ms budget, since nothing was armed.
    expect(outcomeOf(transcript).terminalState).toBe('completed');
    expect(outcomeOf(transcript).terminalAtMs).toBeGreaterThan(1_600);
    expect(transcript.events.some((event) => event.kind === 'deadline' && event.action === 'armed')).toBe(false);
  });

  it('a start that is off breaks armed-at-start', () => {
    const report = check(`export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs }) {
  let last = startedAtMs;
  return {
    dueAtMs() { return { idle: last + idleTimeoutMs, max: startedAtMs + maxTimeoutMs + 1 }; },
    onProgress(atMs) { last = atMs; return { idle: last + idleTimeoutMs, max: startedAtMs + maxTimeoutMs }; },
  };
}`);
    expect(broken(report)).toEqual(['armed-at-start']);
  });

  it('an answer of the wrong shape is the student’s shape error, where it happened', () => {
    const report = check(
      `export function createDeadlines() { return { dueAtMs() { return [1, 2]; }, onProgress() { return null; } }; }`,
    );
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toContain('dueAtMs() returned [1,2]');
    expect(report.error?.where?.scenario).toBe('C');
  });
});
