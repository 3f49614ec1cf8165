import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { grade } from './grade';
import { processSource } from './processRuntime';
import { findExercise } from './registry';
import type { CheckReport } from './types';

/**
 * The lesson's language: the Python references and planted wrong solutions, graded through `--cmd`'s
 * process protocol by the same checks as JavaScript (real python3, one process per check).
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/python/', import.meta.url));

async function check(exercise: string, file: string): Promise<CheckReport> {
  const def = findExercise(exercise);
  const ledger = def.sqlite === true ? { sql: await loadSqlJs() } : undefined;
  const source = processSource(`python3 ${FIXTURES}${file}`);
  try {
    return grade(def, source, { ledger });
  } finally {
    source.close();
  }
}

const broken = (report: CheckReport) =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

describe.each([
  { exercise: 'buffer', reference: 'buffer_ref.py', wrong: 'buffer_wrong.py', breaks: ['final-never-dropped'] },
  { exercise: 'backoff', reference: 'backoff_ref.py', wrong: 'backoff_wrong.py', breaks: ['spread-herd'] },
  {
    exercise: 'coordinator',
    reference: 'coordinator_ref.py',
    wrong: 'coordinator_wrong.py',
    breaks: ['nothing-after-cancel'],
  },
])('$exercise in Python', ({ exercise, reference, wrong, breaks }) => {
  it(`${reference} holds every statement`, async () => {
    const report = await check(exercise, reference);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.passed).toBe(true);
  }, 120_000);

  it(`${wrong} breaks exactly ${breaks.join(', ')}`, async () => {
    const report = await check(exercise, wrong);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual(breaks);
  }, 120_000);
});

describe('every exercise --cmd serves can be taken to all-hold in Python', () => {
  it.each([
    { exercise: 'deadlines', reference: 'deadlines_ref.py' },
    { exercise: 'tasks', reference: 'tasks_ref.py' },
  ])(
    '$exercise: $reference holds every statement',
    async ({ exercise, reference }) => {
      const report = await check(exercise, reference);
      expect(report.error).toBeUndefined();
      expect(broken(report)).toEqual([]);
    },
    120_000,
  );
});
