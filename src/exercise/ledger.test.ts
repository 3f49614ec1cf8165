// The ledger exercise: a student's execute(key, args, effect), written as SQL the lab runs on two real sql.js connections, graded in every interleaving.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { brokenStatements, gradeCode, replayCode } from './exercise.testkit';
import { ledgerExercise } from './exercises/ledger';
import { loadQuickJs } from './sandbox';
import type { CheckReport, StatementResult } from './types';

let qjs: QuickJSWASMModule;
let sql: SqlModule;
beforeAll(async () => {
  qjs = await loadQuickJs();
  sql = await loadSqlJs();
});

const solution = (name: string): string => readFileSync(new URL(`./solutions/${name}.js`, import.meta.url), 'utf8');

function check(code: string): CheckReport {
  return gradeCode(qjs, ledgerExercise, code, { ledger: { sql } });
}

const broken = brokenStatements;

/** Replays a failing ordering with a fresh component (as the page and `--show` do): the same statement breaks again. */
function replays(code: string, statement: StatementResult): void {
  const failing = statement.failing;
  expect(failing).toBeDefined();
  if (failing === undefined) return;
  const replayed = replayCode(qjs, ledgerExercise, code, failing, { ledger: { sql } });
  const transcript = replayed.transcript;
  if (transcript === null) throw new Error(`the ordering stopped part-way: ${replayed.stopped ?? ''}`);
  if (statement.id === 'one-execution-per-key') {
    expect(transcript.kind).toBe('ledger');
    expect((transcript.outcome as { executions: number }).executions).toBeGreaterThan(1);
  } else {
    expect(replayed.breaches.map((breach) => breach.statement)).toContain(statement.id);
    expect(replayed.breaches.find((breach) => breach.statement === statement.id)?.explanation).toBe(
      statement.explanation,
    );
  }
}

describe('ledger exercise', () => {
  it('the starter (check-then-act) runs the effect twice when two connections race on one key', () => {
    const report = check(ledgerExercise.starter);
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(broken(report)).toEqual(['one-execution-per-key']);
    const statement = report.statements.find((s) => s.id === 'one-execution-per-key') as StatementResult;
    expect(statement.failing?.scenario).toBe('ledger-race-keyed');
    replays(ledgerExercise.starter, statement);
  }, 120_000);

  it('the reference solution holds every statement in every ordering', () => {
    const report = check(solution('ledger'));
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.orderings).toBeGreaterThan(3);
  }, 120_000);

  const planted: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['ledger-no-fingerprint', ['changed-arguments-refused']],
    ['ledger-member-order', ['same-arguments-replayed']],
    // Keys in a per-connection TEMP table: the other connection and the reopened file never see them.
    ['ledger-temp-table', ['one-execution-per-key', 'changed-arguments-refused', 'survives-reopen']],
  ];
  for (const [name, expected] of planted) {
    it(`${name} breaks exactly ${expected.join(', ')}, each with an ordering that replays`, () => {
      const code = solution(name);
      const report = check(code);
      expect(report.error).toBeUndefined();
      expect(broken(report)).toEqual(expected);
      for (const statement of report.statements.filter((s) => !s.holds)) replays(code, statement);
    }, 120_000);
  }

  it('a transaction left open at return ends the check with a shape error naming the ordering', () => {
    const code = solution('ledger').replace("yield { sql: 'ROLLBACK', params: [], purpose: 'nothing to write' };", '');
    const report = check(code);
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toMatch(/transaction still open/);
    expect(report.error?.where?.scenario).toBe('ledger-race-keyed');
  }, 120_000);

  it('each call runs in a fresh copy of the module: a key remembered in module memory is forgotten', () => {
    const code = `const seen = new Map();
export function* execute(key, args, effect) {
  if (seen.has(key)) return { status: 'replayed', result: seen.get(key) };
  const done = yield effect;
  seen.set(key, done.result);
  return { status: 'executed', result: done.result };
}`;
    const report = check(code);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toContain('one-execution-per-key');
    expect(broken(report)).toContain('survives-reopen');
  }, 120_000);
});
