// Proves the VF-1 … VF-12 checklist is computed from real transcripts: every statement holds for the lab's scenarios, and each check fails when its transcript shows the opposite.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runScenarioById } from '../scenarios/index';
import type { RunOptions } from '../engine';
import type { SqlModule } from '../engine';
import type { Transcript } from '../engine';
import { verify, type Runner } from './verification';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});
const run: Runner = (id, options: RunOptions = {}) => runScenarioById(id, { ...options, ledger: { sql } });

describe('SPEC §8 verification statements', () => {
  it('all twelve hold, each with the moment that shows it', () => {
    const results = verify(run);
    expect(results.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => `VF-${i + 1}`));
    for (const result of results) {
      expect(result.problems, result.id).toEqual([]);
      expect(result.holds).toBe(true);
      expect(result.evidence.length).toBeGreaterThan(0);
    }
  });

  /** A runner that changes what one scenario shows, to prove the check can fail. */
  const tampered = (id: string, change: (t: Transcript) => Transcript): Runner => (scenario, options) => {
    const t = run(scenario, options);
    return scenario === id ? change(t) : t;
  };
  const results = (runner: Runner) => Object.fromEntries(verify(runner).map((r) => [r.id, r]));

  it('VF-1 fails when the server answers after a stdio cancellation', () => {
    const r = results(tampered('A', (t) => ({ ...t, events: [...t.events, { ...t.events.find((e) => e.kind === 'message' && e.from === 'server')!, seq: t.events.length }] })));
    expect(r['VF-1']?.holds).toBe(false);
  });
  it('VF-5 fails when the maximum deadline moves', () => {
    const r = results(tampered('C', (t) => ({ ...t, events: t.events.map((e) => (e.kind === 'deadline' && e.deadline === 'max' ? { ...e, action: 'reset' as const } : e)) })));
    expect(r['VF-5']?.holds).toBe(false);
  });
  it('VF-7 fails when the race executes twice', () => {
    const r = results(tampered('ledger-race-keyed', (t) => ({ ...t, outcome: { ...t.outcome, executions: 2 } }) as Transcript));
    expect(r['VF-7']?.problems).toEqual(['ledger-race-keyed/http: executions = 2']);
  });
  it('VF-11 fails when a reconnect POST carries Last-Event-ID', () => {
    const r = results(tampered('reconnect-listen', (t) => ({ ...t, events: t.events.map((e) => (e.kind === 'http-request' ? { ...e, headers: { ...e.headers, 'Last-Event-ID': '17' } } : e)) })));
    expect(r['VF-11']?.problems).toEqual(['reconnect-listen/http: Last-Event-ID was sent or planned']);
  });
  it('VF-12 fails when the ack is treated as final', () => {
    const r = results(tampered('task-cancel-ack', (t) => ({ ...t, outcome: { ...t.outcome, statusAfterAck: 'cancelled' } }) as Transcript));
    expect(r['VF-12']?.holds).toBe(false);
  });
});
