// Proves the VF-1 … VF-12 checklist is computed from real transcripts: every statement holds for the lab's scenarios, and each check fails when its transcript shows the opposite.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runScenarioById } from '../scenarios/index';
import type { RunOptions } from '../engine';
import type { SqlModule } from '../engine';
import type { MessageEvent, Transcript } from '../engine';
import { PAYMENT_TOKEN } from '../engine';
import { verify, type Runner, type VerifyProgress } from './verification';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});
const run: Runner = (id, options: RunOptions = {}) => runScenarioById(id, { ...options, ledger: { sql } });

describe('the verification statements of docs/requirements.md', () => {
  it('all twelve VF statements and the RC-7, RC-8, RC-9, BF-5 and LG-P5 statements hold, each with the moment that shows it', () => {
    const results = verify(run);
    expect(results.map((r) => r.id)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `VF-${i + 1}`),
      'RC-7',
      'RC-8',
      'RC-9',
      'BF-5',
      'LG-P5',
    ]);
    for (const result of results) {
      expect(result.problems, result.id).toEqual([]);
      expect(result.holds).toBe(true);
      expect(result.evidence.length).toBeGreaterThan(0);
    }
  });

  it('reports its progress: runs done never fall, end at the total, which is the runs actually made, statement by statement in order', () => {
    let made = 0;
    const counting: Runner = (id, options) => {
      made += 1;
      return run(id, options);
    };
    const reports: VerifyProgress[] = [];
    const only = ['VF-3', 'VF-1', 'RC-9', 'BF-5'];
    const results = verify(counting, only, (progress) => reports.push(progress));
    expect(results.map((r) => r.id)).toEqual(['VF-1', 'VF-3', 'RC-9', 'BF-5']);
    const total = reports[0]?.runsTotal;
    // VF-1 reads A–D on stdio only; VF-3 both transports (its stdio runs shared with VF-1); RC-9 and BF-5 their own.
    expect(total).toBe(made);
    expect(made).toBeGreaterThan(4 * 2 * 20 * 2);
    expect(reports[0]).toEqual({ runsDone: 0, runsTotal: total, statement: 'VF-1' });
    for (const [i, report] of reports.entries()) {
      expect(report.runsTotal).toBe(total);
      if (i > 0) expect(report.runsDone).toBeGreaterThanOrEqual(reports[i - 1]!.runsDone);
    }
    expect(reports.at(-1)?.runsDone).toBe(total);
    // Each statement is named before its runs, in the order the checklist shows them.
    expect([...new Set(reports.map((r) => r.statement))]).toEqual(['VF-1', 'VF-3', 'RC-9', 'BF-5']);
    // One report per run made and one per statement's start.
    expect(reports.length).toBe(made + only.length);
  });

  /** A runner that changes what one scenario's runs put on the wire, to prove the check can fail. */
  const tampered =
    (id: string, change: (t: Transcript) => Transcript): Runner =>
    (scenario, options) => {
      const t = run(scenario, options);
      return scenario === id ? change(t) : t;
    };
  const one = (statement: string, runner: Runner) => verify(runner, [statement])[0];
  const onWire = (t: Transcript, change: (e: MessageEvent) => MessageEvent): Transcript =>
    ({ ...t, events: t.events.map((e) => (e.kind === 'message' ? change(e) : e)) }) as Transcript;
  const serverText = (e: MessageEvent, from: string, to: string): MessageEvent =>
    e.from === 'server' && 'result' in e.message
      ? { ...e, message: JSON.parse(JSON.stringify(e.message).replace(from, to)) as MessageEvent['message'] }
      : e;

  it('computes each statement over both transports, seeds 1–20 and the jittered variant', () => {
    const [vf3] = verify(run, ['VF-3']);
    expect(vf3?.runs).toBe(4 * 2 * 20 * 2);
    expect(vf3?.scope).toContain('A, B, C, D on stdio and http, seeds 1–20');
    expect(vf3?.scope).toContain('latencyJitterMs=50');
    const [rc9] = verify(run, ['RC-9']);
    expect(rc9?.scope).toContain('stdio and http');
  });
  it('VF-1 fails when the server sends about the request after a stdio cancellation reached it', () => {
    const r = one(
      'VF-1',
      tampered('A', (t) => ({
        ...t,
        events: [
          ...t.events,
          { ...t.events.find((e) => e.kind === 'message' && e.from === 'server')!, seq: t.events.length },
        ],
      })),
    );
    expect(r?.holds).toBe(false);
  });
  it('VF-5 fails when the client gives up after its maximum', () => {
    const later = (t: Transcript): Transcript =>
      ({
        ...t,
        events: t.events.map((e) =>
          (e.kind === 'message' &&
            e.from === 'client' &&
            'method' in e.message &&
            e.message.method === 'notifications/cancelled') ||
          (e.kind === 'stream-closed' && e.by === 'client')
            ? { ...e, atMs: e.atMs + 1000 }
            : e,
        ),
      }) as Transcript;
    const r = one('VF-5', tampered('C', later));
    expect(r?.holds).toBe(false);
    expect(r?.problems.join('\n')).toContain('after the maximum');
  });
  it('VF-7 fails when the two connections are answered with two charges', () => {
    let first = true;
    const r = one(
      'VF-7',
      tampered('ledger-race-keyed', (t) => {
        first = true;
        return onWire(t, (e) => {
          if (e.from !== 'server' || !('result' in e.message)) return e;
          if (first) {
            first = false;
            return e;
          }
          return serverText(e, 'ch_1', 'ch_2');
        });
      }),
    );
    expect(r?.problems.join('\n')).toContain('it ran more than once');
  });
  it('VF-11 fails when a reconnect POST carries Last-Event-ID', () => {
    const r = one(
      'VF-11',
      tampered('reconnect-listen', (t) => ({
        ...t,
        events: t.events.map((e) =>
          e.kind === 'http-request' ? { ...e, headers: { ...e.headers, 'Last-Event-ID': '17' } } : e,
        ),
      })),
    );
    expect(r?.problems.join('\n')).toContain('reconnect-listen/http seed 1: Last-Event-ID was sent');
  });
  it('RC-8 fails when the client uses the response that crossed its cancellation', () => {
    const r = one(
      'RC-8',
      tampered(
        'B',
        (t) =>
          ({
            ...t,
            events: t.events.map((e) =>
              e.kind === 'delivered' && e.ignoredBy === 'client' ? { ...e, ignoredBy: undefined } : e,
            ),
          }) as Transcript,
      ),
    );
    expect(r?.holds).toBe(false);
  });
  it('BF-5 fails when a refused push is not followed by the producer’s wait', () => {
    const r = one(
      'BF-5',
      tampered('buffer-overload', (t) => ({
        ...t,
        events: t.events.filter((e) => !(e.kind === 'buffer' && e.action === 'released')),
      })),
    );
    expect(r?.holds).toBe(false);
  });
  it('LG-P5 fails when an answer carries the payment token', () => {
    const r = one(
      'LG-P5',
      tampered('inventory-retry', (t) =>
        onWire(t, (e) => serverText(e, '"resultType":"complete"', `"resultType":"complete","leak":"${PAYMENT_TOKEN}"`)),
      ),
    );
    expect(r?.problems.join('\n')).toContain('the server returned the payment token');
  });
  it('RC-9 fails when the server cancels a request other than the listen', () => {
    const r = one(
      'RC-9',
      tampered('listen-server-cancel', (t) =>
        onWire(t, (e) =>
          e.from === 'server' && 'method' in e.message && e.message.method === 'notifications/cancelled'
            ? { ...e, message: { ...e.message, params: { ...e.message.params, requestId: 999 } } }
            : e,
        ),
      ),
    );
    expect(r?.holds).toBe(false);
  });
  it('BF-5 evidence links to the run that shows it, with its settings', () => {
    const [bf5] = verify(run, ['BF-5']);
    expect(bf5?.evidence[0]).toMatchObject({ scenario: 'buffer-overload', settings: { capacity: 1 } });
  });
  it('VF-12 fails when the acknowledgement carries a status', () => {
    const r = one(
      'VF-12',
      tampered('task-cancel-ack', (t) => {
        const cancel = t.events.find(
          (e): e is MessageEvent =>
            e.kind === 'message' && 'method' in e.message && e.message.method === 'tasks/cancel',
        );
        return onWire(t, (e) =>
          e.from === 'server' &&
          cancel !== undefined &&
          'id' in cancel.message &&
          'result' in e.message &&
          e.message.id === cancel.message.id
            ? { ...e, message: { ...e.message, result: { ...e.message.result, status: 'cancelled' } } }
            : e,
        );
      }),
    );
    expect(r?.problems.join('\n')).toContain('it should be empty');
  });
});
