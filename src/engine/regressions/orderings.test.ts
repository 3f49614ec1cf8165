// Every ordering a seeded jitter or a fault produces tells a story true to MCP 2026-07-28: a server
// restarted under a request in progress ends that request (it never touches a closed connection), a
// lost response on stdio means the server process died and came back from its file.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario } from '../../scenarios/index';
import { validateTranscriptMessages } from '../../testing/mcpSchema';
import {
  LabError,
  parseFaults,
  runScenario,
  settingsSpecFor,
  usesSqlite,
  type SqlModule,
  type Transcript,
} from '../index';

const faultsOf = (text: string | undefined) => (text === undefined ? undefined : parseFaults(text));
import { scenarios } from '../../scenarios/index';
import { checkTranscript } from '../explore/invariants';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const ledgerRun = (
  id: string,
  options: { transport?: 'stdio' | 'http'; seed?: number; settings?: Record<string, unknown>; faults?: string } = {},
): Transcript => runScenario(findScenario(id), { ...options, faults: faultsOf(options.faults), ledger: { sql } });

describe('a server restarted while a request is in progress', () => {
  it.each(['ledger-reopen', 'inventory-reopen-reconcile'])(
    '%s runs to a valid transcript at seeds 1–100 with jitter 150 ms (seeds 1–30 at 300 and 1000 ms)',
    (id) => {
      for (const jitterMs of [150, 300, 1000]) {
        for (let seed = 1; seed <= (jitterMs === 150 ? 100 : 30); seed += 1) {
          const t = ledgerRun(id, { seed, settings: { latencyJitterMs: jitterMs } });
          expect(validateTranscriptMessages(t).problems, `${id} seed ${seed} jitter ${jitterMs}`).toEqual([]);
        }
      }
    },
  );

  it('ledger-reopen seed 11 jitter 150: the restart ends #41 where it was, and the retry runs it once', () => {
    const t = ledgerRun('ledger-reopen', { seed: 11, settings: { latencyJitterMs: 150 } });
    const outcome = t.outcome as { executions: number };
    expect(outcome.executions).toBe(1);
  });
});

describe('stdio: a lost response means the server process died', () => {
  const ledgerIds = [
    'ledger-keyed-retry',
    'ledger-key-mismatch',
    'ledger-new-id-retry',
    'ledger-reopen',
    'inventory-retry',
    'inventory-no-key',
    'inventory-reconcile',
    'inventory-reopen-reconcile',
    'inventory-subscription-drop',
    'inventory-changed-quantity',
    'inventory-key-binding',
  ];
  it.each(ledgerIds)(
    '%s on stdio: the process that lost the response is launched again from its file before the next request',
    (id) => {
      const t = ledgerRun(id, { transport: 'stdio' });
      const lostAt = t.events.findIndex((e) => e.kind === 'message' && e.lost === true);
      expect(lostAt).toBeGreaterThanOrEqual(0);
      const lost = t.events[lostAt] as { reason?: string };
      expect(lost.reason).toContain('server process died');
      const after = t.events.slice(lostAt);
      const reopened = after.findIndex((e) => e.kind === 'ledger' && e.action === 'reopened');
      const nextRequest = after.findIndex((e) => e.kind === 'message' && e.from === 'client');
      expect(reopened).toBeGreaterThan(0);
      // inventory-no-key does not retry: no request follows.
      if (nextRequest >= 0) expect(reopened).toBeLessThan(nextRequest);
      expect(validateTranscriptMessages(t).problems).toEqual([]);
    },
  );

  it.each(ledgerIds)(
    '%s on stdio with jitter 300 ms, seeds 1–20: a request the dead process never answered is sent again, so every request ends',
    (id) => {
      for (let seed = 1; seed <= 20; seed += 1) {
        const t = ledgerRun(id, { transport: 'stdio', seed, settings: { latencyJitterMs: 300 } });
        expect(validateTranscriptMessages(t).problems, `${id} seed ${seed}`).toEqual([]);
      }
    },
  );

  it('on HTTP the connection breaks and the server keeps running', () => {
    const t = ledgerRun('ledger-keyed-retry', { transport: 'http' });
    expect(t.events.some((e) => e.kind === 'ledger' && e.action === 'reopened')).toBe(false);
  });
});

const causality = (t: Transcript) => checkTranscript(t).filter((breach) => breach.invariant === 'causality');
const runAny = (
  id: string,
  options: { transport?: 'stdio' | 'http'; seed?: number; settings?: Record<string, unknown>; faults?: string } = {},
): Transcript => {
  const scenario = findScenario(id);
  return runScenario(scenario, {
    ...options,
    faults: faultsOf(options.faults),
    ledger: usesSqlite(scenario) ? { sql } : undefined,
  });
};

describe('causality: a party acts on a request, a listen or a cancellation only after it received it', () => {
  it('every scenario with jitter, both transports, seeds 1–20 at 300 ms of jitter', () => {
    let runs = 0;
    for (const scenario of scenarios) {
      if (scenario.kind === 'herd' || !('latencyJitterMs' in settingsSpecFor(scenario))) continue;
      for (const transport of ['stdio', 'http'] as const) {
        for (let seed = 1; seed <= 20; seed += 1) {
          let t: Transcript;
          try {
            t = runAny(scenario.id, { transport, seed, settings: { latencyJitterMs: 300 } });
          } catch (error) {
            // A scenario made for one transport refuses the other.
            expect(error).toBeInstanceOf(LabError);
            break;
          }
          runs += 1;
          expect(causality(t), `${scenario.id} ${transport} seed ${seed}`).toEqual([]);
        }
      }
    }
    expect(runs).toBeGreaterThan(400);
  });

  it.each(['stdio', 'http'] as const)(
    'listen-server-cancel on %s, seeds 2, 9, 12, 20 at 300 ms: the server ends the listen only after it received and acknowledged it',
    (transport) => {
      for (const seed of [2, 9, 12, 20]) {
        const t = runAny('listen-server-cancel', { transport, seed, settings: { latencyJitterMs: 300 } });
        const listenArrives = t.events.findIndex(
          (e) => e.kind === 'delivered' && e.to === 'server' && e.summary.startsWith('subscriptions/listen'),
        );
        const ended = t.events.findIndex(
          (e) => e.kind === 'state' && e.side === 'server' && e.to === 'cancelled' && e.requestId === 1,
        );
        expect(listenArrives, `seed ${seed}`).toBeGreaterThanOrEqual(0);
        expect(ended, `seed ${seed}`).toBeGreaterThan(listenArrives);
        expect(causality(t), `seed ${seed}`).toEqual([]);
      }
    },
  );

  it('buffer-overload on stdio with tools/call #1 dropped: nothing is produced for #1 and its final is not delivered', () => {
    const t = runAny('buffer-overload', { transport: 'stdio', faults: 'drop:0' });
    const forOne = t.events.filter(
      (e) =>
        e.kind === 'message' &&
        e.from === 'server' &&
        JSON.stringify(e.message).match(/"(id":1|progressToken":"progress-1")[,}]/) !== null,
    );
    expect(forOne).toEqual([]);
    expect((t.outcome as { finalDelivered: boolean }).finalDelivered).toBe(false);
    expect(causality(t)).toEqual([]);
  });

  it.each(['stdio', 'http'] as const)(
    'reconnect-listen on %s with the first listen dropped: no notification flows on a subscription the server never got',
    (transport) => {
      const t = runAny('reconnect-listen', { transport, faults: transport === 'stdio' ? 'drop:0' : 'drop:1' });
      expect(causality(t)).toEqual([]);
    },
  );

  it('listen-server-cancel with the listen dropped: the server never cancels #1 (it never got it); the client, with no acknowledgement, opens #3, and that is the listen the server ends', () => {
    const t = runAny('listen-server-cancel', { faults: 'drop:0' });
    expect(causality(t)).toEqual([]);
    expect(t.kind === 'listen' && [t.outcome.serverCancelled, t.outcome.listensReissued]).toEqual([[3], [3]]);
  });
});
