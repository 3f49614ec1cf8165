// The tasks exercise (docs/requirements.md#durable-tasks-tk, TK-1, TK-2, VF-12): the starter (the acknowledgement taken for the
// cancellation) breaks what the lesson predicts; the reference holds every statement; each planted wrong
// solution breaks exactly its statements; a failing ordering replays to the same breach, and the run
// follows the store's answers (the transcript shows them).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { loadSqlJs } from '../cli/sqlite';
import { ComponentProbe, parseSchedule, runScenario, type SqlModule } from '../engine';
import type { LabEvent, Transcript } from '../engine/transcript';
import { findScenario } from '../scenarios';
import { Caller } from './caller';
import { tasksExercise as def } from './exercises/tasks';
import { grade, RUNS_TO_END } from './grade';
import { findExercise } from './registry';
import type { ComponentSource } from './runtime';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { CheckReport, FailingRun } from './types';

const solution = (name: string) => readFileSync(new URL(`./solutions/${name}.js`, import.meta.url), 'utf8');

let qjs: QuickJSWASMModule;
let sql: SqlModule;
const opened: ComponentSource[] = [];

beforeAll(async () => {
  qjs = await loadQuickJs();
  sql = await loadSqlJs();
});

afterAll(() => {
  for (const source of opened) source.close();
});

function open(code: string): ComponentSource {
  const source = sandboxSource(qjs, code, def.exports);
  opened.push(source);
  return source;
}

function check(code: string): CheckReport {
  return grade(def, open(code), { ledger: { sql } });
}

const broken = (report: CheckReport) =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

/** Runs one ordering with a fresh instance of the code: its transcript and the breaches it reports. */
function runWith(code: string, run: Pick<FailingRun, 'scenario' | 'transport' | 'settings'> & { schedule?: string }) {
  const instance = open(code).open();
  try {
    const probe = new ComponentProbe();
    const caller = new Caller(instance, null, probe);
    const transcript = runScenario(findScenario(run.scenario), {
      transport: run.transport,
      settings: run.settings,
      schedule: run.schedule === undefined ? undefined : parseSchedule(run.schedule),
      ledger: { sql },
      components: { probe, ...def.components(caller, probe) },
    }) as Transcript;
    return { transcript, breaches: probe.breaches };
  } finally {
    instance.dispose();
  }
}

const taskEvents = (t: Transcript) =>
  t.events.filter((e): e is Extract<LabEvent, { kind: 'task' }> => e.kind === 'task');

describe('the tasks exercise', () => {
  it('is registered, and its statements are the contract', () => {
    expect(findExercise('tasks')).toBe(def);
    expect(def.statements.map((statement) => statement.id)).toEqual([
      'cancel-only-acknowledges',
      'working-until-checkpoint',
      'checkpoint-observes-cancel',
      'late-cancel-keeps-completed',
      'terminal-stable',
      RUNS_TO_END,
    ]);
    expect(def.starter).toContain('export function createTaskStore()');
    for (const name of [
      'create(taskId)',
      'onCancelRequest(taskId)',
      'checkpoint(taskId)',
      'complete(taskId)',
      'status(taskId)',
    ])
      expect(def.starter).toContain(name);
  });

  it('the starter ("task ack treated as final cancellation") says cancelled at the acknowledgement while the worker runs on', () => {
    const report = check(def.starter);
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    // What the lesson predicts: the ack is taken for the cancellation, and tasks/get says so while the worker runs.
    expect(broken(report)).toContain('cancel-only-acknowledges');
    expect(broken(report)).toContain('working-until-checkpoint');
    // Marking cancelled at once, then completing over it when the work wins; and overwriting completed with a late cancel.
    expect(broken(report)).toEqual([
      'cancel-only-acknowledges',
      'working-until-checkpoint',
      'late-cancel-keeps-completed',
      'terminal-stable',
    ]);
    const ack = report.statements.find((statement) => statement.id === 'cancel-only-acknowledges');
    expect(ack?.explanation).toContain('onCancelRequest("task-7f3a") answered "cancelled" while the worker still runs');
    expect(ack?.failing?.scenario).toBe('task-cancel-ack');
    // The ordering that breaks it soonest: the cancellation lands before the worker's first checkpoint.
    expect(ack?.calls?.map((call) => call.call)).toEqual([
      'createTaskStore()',
      'create("task-7f3a")',
      'status("task-7f3a")',
      'status("task-7f3a")',
      'status("task-7f3a")',
      'onCancelRequest("task-7f3a")',
      'checkpoint("task-7f3a")',
    ]);
  });

  it('the reference holds every statement, every ordering of every run explored', () => {
    const report = check(solution('tasks'));
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(broken(report)).toEqual([]);
    expect(report.passed).toBe(true);
    // The cancel timed onto a checkpoint and onto the work's end: both orders of each race are met.
    expect(report.orderings).toBeGreaterThanOrEqual(def.runs.length + 2);
  });

  it('each planted wrong solution breaks exactly its statements', () => {
    expect(broken(check(solution('tasks-late-overwrite')))).toEqual(['late-cancel-keeps-completed', 'terminal-stable']);
    expect(broken(check(solution('tasks-checkpoint-ignores')))).toEqual(['checkpoint-observes-cancel']);
    expect(broken(check(solution('tasks-cancels-at-once')))).toEqual([
      'cancel-only-acknowledges',
      'working-until-checkpoint',
      'late-cancel-keeps-completed',
    ]);
  });

  it('a bug only one order of an instant shows is found by exploring: the cancel just before the checkpoint', () => {
    const code = solution('tasks-checkpoint-waits-poll');
    const report = check(code);
    expect(broken(report)).toEqual(['checkpoint-observes-cancel']);
    const failing = report.statements.find((statement) => statement.id === 'checkpoint-observes-cancel')
      ?.failing as FailingRun;
    expect(failing.scenario).toBe('task-cancel-ack');
    // Not the first ordering: the run taken without choices (checkpoint first, then the cancel) breaks nothing.
    expect(failing.schedule).toBe('c1');
    expect(
      runWith(code, { scenario: failing.scenario, transport: failing.transport, settings: failing.settings }).breaches,
    ).toEqual([]);
    expect(runWith(code, failing).breaches.map((breach) => `${breach.statement}@${breach.step}`)).toEqual([
      `checkpoint-observes-cancel@${failing.step}`,
    ]);
  });

  it('a failing ordering replays: the same breach, at the same step', () => {
    let replayed = 0;
    for (const code of [def.starter, solution('tasks-late-overwrite'), solution('tasks-checkpoint-ignores')]) {
      const report = check(code);
      for (const statement of report.statements.filter((candidate) => !candidate.holds)) {
        expect(statement.failing, statement.id).toBeDefined();
        const failing = statement.failing as FailingRun;
        const { breaches } = runWith(code, failing);
        const same = breaches.find((breach) => breach.statement === statement.id && breach.step === failing.step);
        expect(same?.explanation, `${statement.id} in ${failing.scenario}`).toBe(statement.explanation);
        replayed += 1;
      }
    }
    expect(replayed).toBe(4 + 2 + 1);
  });

  it('the run follows the store: the cancelled answer reaches the row, the ack event and the client', () => {
    const run = { scenario: 'task-cancel-ack', transport: 'http' as const, settings: { latencyJitterMs: 0 } };
    const wrong = runWith(def.starter, run).transcript;
    const ack = taskEvents(wrong).find((event) => event.action === 'cancel-acknowledged');
    expect(ack?.status).toBe('cancelled');
    expect(
      wrong.events.some(
        (event) =>
          event.kind === 'sql' &&
          event.sql.startsWith('UPDATE tasks SET status = ?') &&
          JSON.stringify(event.params).includes('cancelled'),
      ),
    ).toBe(true);
    // The client polls cancelled while the worker has not yet reached its checkpoint.
    const polled = taskEvents(wrong).find((event) => event.action === 'polled' && event.status === 'cancelled');
    const stopped = taskEvents(wrong).find((event) => event.action === 'cancelled');
    expect(polled && stopped && polled.seq < stopped.seq).toBe(true);

    const right = runWith(solution('tasks'), run).transcript;
    expect(taskEvents(right).find((event) => event.action === 'cancel-acknowledged')?.status).toBe('working');
    expect(right.outcome).toMatchObject({
      taskStatus: 'cancelled',
      statusAfterAck: 'working',
      clientReported: 'cancelled',
    });
  });

  it("with the reference store in place each run ends as the lab's own logic does", () => {
    for (const run of def.runs) {
      const own = runScenario(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
        ledger: { sql },
      });
      const { transcript, breaches } = runWith(solution('tasks'), {
        scenario: run.scenario,
        transport: run.transport,
        settings: { ...run.settings },
      });
      expect(breaches).toEqual([]);
      expect(transcript.outcome).toEqual(own.outcome);
      expect(taskEvents(transcript).map((event) => `${event.action}:${String(event.status)}`)).toEqual(
        taskEvents(own).map((event) => `${event.action}:${String(event.status)}`),
      );
    }
  });

  it('a status outside the tasks extension ends the check with a shape error', () => {
    const report = check(solution('tasks').replace("return 'working';", "return 'running';"));
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toContain('create() returned "running"');
    expect(report.passed).toBe(false);
  });
});
