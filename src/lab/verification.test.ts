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
  it('all twelve VF statements and the issue #12 statements hold, each with the moment that shows it', () => {
    const results = verify(run);
    expect(results.map((r) => r.id)).toEqual([...Array.from({ length: 12 }, (_, i) => `VF-${i + 1}`), 'RC-7', 'RC-8', 'RC-9', 'BF-5', 'LG-P5']);
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
  it('RC-8 fails when the client outcome hides the divergence', () => {
    const r = results(tampered('B', (t) => ({ ...t, outcome: { ...t.outcome, clientOutcome: 'completed', viewsDiverge: false } }) as Transcript));
    expect(r['RC-8']?.holds).toBe(false);
  });
  it('BF-5 fails when a refused push is not followed by the producer’s wait', () => {
    const r = results(tampered('buffer-overload', (t) => ({ ...t, events: t.events.filter((e) => !(e.kind === 'buffer' && e.action === 'released')) })));
    expect(r['BF-5']?.holds).toBe(false);
  });
  it('LG-P5 fails when the payment token is stored', () => {
    const r = results(tampered('inventory-retry', (t) => ({ ...t, outcome: { ...t.outcome, paymentTokenInLedger: true } }) as Transcript));
    expect(r['LG-P5']?.problems).toEqual(['inventory-retry/http: the payment token was found in the ledger']);
  });
  it('RC-9 fails when the server cancels a request other than the listen', () => {
    const r = results(tampered('listen-server-cancel', (t) => ({ ...t, outcome: { ...t.outcome, serverCancelled: [1, 2] } }) as Transcript));
    expect(r['RC-9']?.holds).toBe(false);
  });
  it('BF-5 evidence links to the run that shows it, with its settings', () => {
    const bf5 = verify(run).find((r) => r.id === 'BF-5');
    expect(bf5?.evidence[0]).toMatchObject({ scenario: 'buffer-overload', settings: { capacity: 1 } });
  });
  it('VF-12 fails when the ack is treated as final', () => {
    const r = results(tampered('task-cancel-ack', (t) => ({ ...t, outcome: { ...t.outcome, statusAfterAck: 'cancelled' } }) as Transcript));
    expect(r['VF-12']?.holds).toBe(false);
  });
});
