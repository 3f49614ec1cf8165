// The reserve-inventory exercise: the practice lab's reserve_inventory as a student's execute(key, args, effect) in SQL, graded over the inventory scenarios.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { brokenStatements, gradeCode, replayCode } from './exercise.testkit';
import { reserveInventoryExercise as exercise } from './exercises/reserveInventory';
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
  return gradeCode(qjs, exercise, code, { ledger: { sql } });
}

const broken = brokenStatements;

/** Replays a failing ordering with a fresh component (as the page and `--show` do): the same statement breaks again. */
function replays(code: string, statement: StatementResult): void {
  const failing = statement.failing;
  expect(failing).toBeDefined();
  if (failing === undefined) return;
  const replayed = replayCode(qjs, exercise, code, failing, { ledger: { sql } });
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

describe('reserve-inventory exercise', () => {
  it('the starter (no fingerprint) lets one key stand for another quantity and another tenant', () => {
    const report = check(exercise.starter);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual(['changed-arguments-refused']);
    const statement = report.statements.find((s) => s.id === 'changed-arguments-refused') as StatementResult;
    expect(['inventory-changed-quantity', 'inventory-key-binding']).toContain(statement.failing?.scenario);
    replays(exercise.starter, statement);
  }, 120_000);

  it('the reference solution holds every statement, reconciled by key before and after a reopen', () => {
    const report = check(solution('reserve-inventory'));
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.passed).toBe(true);
  }, 120_000);

  const planted: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['reserve-inventory-no-tenant', ['changed-arguments-refused']],
    ['reserve-inventory-token', ['no-secret-stored']],
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

  it('a record the reconcile cannot read by key (kept in a TEMP table) breaks reconcile-by-key', () => {
    const code = solution('reserve-inventory')
      .replace(
        'const fingerprint = canonical(intentOf(effect.operation, args));',
        "const fingerprint = canonical(intentOf(effect.operation, args));\n  yield { sql: 'CREATE TEMP TABLE IF NOT EXISTS keys (key TEXT PRIMARY KEY, fingerprint TEXT, result_json TEXT)', params: [] };",
      )
      .replace(
        'SELECT fingerprint, result_json FROM ledger.idempotency_keys WHERE key = ?',
        'SELECT fingerprint, result_json FROM temp.keys WHERE key = ?',
      )
      .replace(
        "'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)'",
        "'INSERT INTO temp.keys (key, fingerprint, result_json) VALUES (?, ?, ?)'",
      )
      .replace(
        'params: [key, effect.operation, fingerprint, JSON.stringify(done.result), effect.requestId, effect.connection, effect.atMs]',
        'params: [key, fingerprint, JSON.stringify(done.result)]',
      );
    expect(code).toContain('temp.keys (key, fingerprint');
    const report = check(code);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toContain('reconcile-by-key');
    const statement = report.statements.find((s) => s.id === 'reconcile-by-key') as StatementResult;
    replays(code, statement);
  }, 120_000);
});
