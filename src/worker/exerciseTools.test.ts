import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SqlModule } from '../engine';
import { loadSqlJs } from '../cli/sqlite';
import { createToolsHost } from './toolsHost';
import type { ToolResponse } from './protocol';
import { checkExercise, listExercises, runExercise } from './exerciseTools';
import { check, CheckReportSchema } from './schemas';

const noSql = (): Promise<SqlModule> => Promise.reject(new Error('no exercise here needs SQLite'));
const reference = readFileSync(new URL('../exercise/solutions/buffer.js', import.meta.url), 'utf8');

describe('the Exercises tab in the tools worker', () => {
  it('lists every exercise with its starter, and answers through the tools host (checked by the shared schemas)', async () => {
    const listed = listExercises();
    expect(listed.map((exercise) => exercise.id)).toContain('buffer');
    expect(listed.find((exercise) => exercise.id === 'buffer')?.starter).toContain('export function createBuffer');
    const host = createToolsHost(noSql);
    const reports: ToolResponse[] = [];
    const answer = await host.handleMessage(
      { type: 'exercise-check', requestId: 7, exercise: 'buffer', code: reference },
      (report) => reports.push(report),
    );
    expect(answer.type).toBe('exercise-report');
    if (answer.type !== 'exercise-report') return;
    expect(answer.report.passed).toBe(true);
    expect(reports.some((report) => report.type === 'verify-progress')).toBe(true);
  });

  it('a broken statement of the starter replays, with the student component, into a transcript that ran and the calls made', async () => {
    const starter = listExercises().find((exercise) => exercise.id === 'buffer')?.starter ?? '';
    const report = await checkExercise('buffer', starter, noSql);
    const broken = report.statements.find((statement) => !statement.holds && statement.failing !== undefined);
    expect(broken?.id).toBe('within-capacity');
    const failing = broken?.failing;
    if (failing === undefined) return;
    const run = await runExercise('buffer', starter, failing, noSql);
    expect(run.failure).toBeNull();
    expect(run.transcript?.scenario).toBe(failing.scenario);
    expect(run.transcript?.events.some((event) => event.seq === failing.step)).toBe(true);
    expect(run.wording).toHaveLength(run.transcript?.events.length ?? -1);
    expect(run.calls.some((call) => call.call.startsWith('offer('))).toBe(true);
  });

  it('every starter’s broken statements replay into a transcript: a part that opens copies of the component (the ledger’s replicas) opens them here too', async () => {
    const sql = (): Promise<SqlModule> => loadSqlJs();
    const replayed: string[] = [];
    for (const exercise of listExercises()) {
      const report = await checkExercise(exercise.id, exercise.starter, sql);
      for (const statement of report.statements) {
        if (statement.holds || statement.failing === undefined) continue;
        const run = await runExercise(exercise.id, exercise.starter, statement.failing, sql);
        expect(run.failure, `${exercise.id} ${statement.id}`).toBeNull();
        expect(run.transcript?.events.some((event) => event.seq === statement.failing?.step)).toBe(true);
        replayed.push(`${exercise.id}:${statement.id}`);
      }
    }
    expect(replayed).toContain('ledger:one-execution-per-key');
  }, 120_000);

  it('a syntax error is the report’s error with its line, and a run that the code breaks answers why instead of a transcript', async () => {
    const report = await checkExercise('buffer', 'export function createBuffer(capacity) {\n  return {\n', noSql);
    expect(report.error?.kind).toBe('syntax');
    expect(report.passed).toBe(false);
    const throwing =
      'export function createBuffer() { return { offer() { throw new Error("boom"); }, take() { return null; } }; }';
    const run = await runExercise(
      'buffer',
      throwing,
      {
        scenario: 'buffer-overload',
        transport: 'http',
        settings: { capacity: 2, progressPerRequest: 4 },
        schedule: '',
        step: 0,
        atMs: 0,
        events: 0,
      },
      noSql,
    );
    expect(run.transcript).toBeNull();
    expect(run.failure).toContain('boom');
  });
});

it('a report whose statement broke at the end of an ordering that could not finish still passes the schema', () => {
  const failing = {
    scenario: 'buffer-overload',
    transport: 'http',
    settings: { capacity: 1 },
    schedule: '-',
    step: Number.MAX_SAFE_INTEGER,
    atMs: Number.MAX_SAFE_INTEGER,
    events: Number.MAX_SAFE_INTEGER + 1,
  };
  const report = {
    exercise: 'buffer',
    statements: [
      { id: 'runs-to-end', holds: false, explanation: 'an ordering could not run to its end', failing, calls: [] },
    ],
    orderings: 3,
    states: 9,
    elapsedMs: 12,
    complete: true,
    passed: false,
  };
  expect(check(CheckReportSchema, report).ok).toBe(true);
  expect(check(CheckReportSchema, { ...report, statements: [{ id: 'x', holds: 'no' }] }).ok).toBe(false);
});
