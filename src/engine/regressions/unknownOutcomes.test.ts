// Proves unknown outcomes. In the ledger and inventory scenarios a call whose response a fault lost (or made
// late) is unknown to the client, not failed; an unkeyed retry then runs the effect twice, reported with the
// two calls that prove it; a keyed retry (or a read by key) reconciles the unknown call. In the task
// scenarios a lost request passes the client's deadline and is re-issued under a new id (tasks/get,
// tasks/cancel) or, a tools/call without a key, left unknown. In listen-server-cancel a listen with no
// acknowledgement, or whose stream broke, is re-opened under a new id, and the server's notifications/cancelled
// ends a listen whose graceful response was lost. And no single fault the grammar offers, on any message of
// any scenario, leaves a request without an answer (LAB021) any more.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario, scenarios } from '../../scenarios/index';
import { validateTranscriptMessages } from '../../testing/mcpSchema';
import {
  LabError,
  parseFaults,
  runScenario,
  usesSqlite,
  type LedgerOutcome,
  type MessageEvent,
  type SqlModule,
  type Transcript,
} from '../index';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const messages = (t: Transcript) => t.events.filter((event): event is MessageEvent => event.kind === 'message');
/** The seq of the server's response to request `id` in a run. */
const responseSeq = (t: Transcript, id: number) =>
  messages(t).find((m) => m.from === 'server' && !('method' in m.message) && 'id' in m.message && m.message.id === id)
    ?.seq;
const ledgerOutcome = (t: Transcript): LedgerOutcome => {
  if (t.kind !== 'ledger') throw new Error(`${t.scenario} is not a ledger run`);
  return t.outcome;
};

describe('a lost response in the ledger: unknown, not failed', () => {
  /** The scenario with its own lost response turned off, so the fault is what loses #41's answer. */
  const run = (id: string, settings: Record<string, unknown>, fault?: (plain: Transcript) => string) => {
    const options = {
      transport: 'http' as const,
      settings: { ...findScenario(id).settings, loseFirstResponse: false, ...settings },
      ledger: { sql },
    };
    const plain = runScenario(findScenario(id), options);
    const faults = fault?.(plain);
    return runScenario(findScenario(id), {
      ...options,
      faults: faults === undefined ? undefined : parseFaults(faults),
    });
  };
  const dropResponse41 = (plain: Transcript) => `drop:${String(responseSeq(plain, 41))}`;

  it('without a key: #41 is unknown to the client, the retry charges again, and the duplicate names #41 and #42', () => {
    const t = run('ledger-new-id-retry', {}, dropResponse41);
    const outcome = ledgerOutcome(t);
    expect(outcome.executions).toBe(2);
    expect(outcome.clientRecord).toEqual([
      { requestId: 41, tool: 'charge_account', state: 'unknown', server: 'executed' },
      { requestId: 42, tool: 'charge_account', state: 'answered', server: 'executed' },
    ]);
    expect(outcome.duplicateEffect?.requestIds).toEqual([41, 42]);
    expect(outcome.duplicateEffect?.detail).toMatch(/#41 \(unknown to the client\) and #42 \(answered\)/);
    expect(validateTranscriptMessages(t).problems).toEqual([]);
  });

  it('with the same key: the retry is replayed, which reconciles #41; the charge ran once', () => {
    const outcome = ledgerOutcome(run('ledger-keyed-retry', {}, dropResponse41));
    expect(outcome.executions).toBe(1);
    expect(outcome.clientRecord).toEqual([
      { requestId: 41, tool: 'charge_account', state: 'reconciled', reconciledBy: 42, server: 'executed' },
      { requestId: 42, tool: 'charge_account', state: 'answered', server: 'replayed' },
    ]);
    expect(outcome.duplicateEffect).toBeNull();
  });

  it('reconciling first: the read by key answers, #41 is reconciled by it, and nothing is retried', () => {
    const t = run('ledger-keyed-retry', { onLostResponse: 'reconcile' }, dropResponse41);
    const outcome = ledgerOutcome(t);
    expect(outcome.executions).toBe(1);
    expect(
      outcome.clientRecord?.map((call) => [call.requestId, call.tool, call.state, call.reconciledBy, call.server]),
    ).toEqual([
      [41, 'charge_account', 'reconciled', 43, 'executed'],
      [43, 'get_mutation_by_key', 'answered', undefined, 'read'],
    ]);
  });

  it('a lost retry is unknown too: the client retries again with the key and the charge still runs once', () => {
    const plain = run('ledger-keyed-retry', {}, dropResponse41);
    const t = run('ledger-keyed-retry', {}, (p) => `${dropResponse41(p)},drop:${String(responseSeq(plain, 42))}`);
    const outcome = ledgerOutcome(t);
    expect(
      t.events.some((event) => event.kind === 'ledger' && event.action === 'unknown' && event.requestId === 42),
    ).toBe(true);
    expect(outcome.executions).toBe(1);
    expect(outcome.clientRecord?.map((call) => call.state)).toEqual(['reconciled', 'reconciled', 'answered']);
  });

  it('a response a delay fault makes late is ignored: the client already acted on its unknown outcome', () => {
    const t = run('ledger-keyed-retry', {}, (plain) => `delay:${String(responseSeq(plain, 41))}:500`);
    const late = messages(t).find((m) => m.fault?.startsWith('delay:') === true);
    expect(late?.ignoredBy).toBe('client');
    expect(late?.reason).toMatch(/stopped waiting for #41/);
    expect(ledgerOutcome(t).clientRecord?.[0]?.state).toBe('reconciled');
  });

  it('a run without faults carries no client record (it is as it always was)', () => {
    const outcome = ledgerOutcome(runScenario(findScenario('ledger-new-id-retry'), { ledger: { sql } }));
    expect('clientRecord' in outcome).toBe(false);
    expect('duplicateEffect' in outcome).toBe(false);
  });
});

describe('no lost message leaves a ledger or inventory request unanswered', () => {
  const ledgerScenarios = scenarios.filter((scenario) => scenario.kind === 'ledger').map((scenario) => scenario.id);
  it.each(ledgerScenarios)(
    '%s: every drop and stream-drop runs to an ending, with every call answered, unknown or reconciled',
    (id) => {
      const scenario = findScenario(id);
      for (const transport of ['stdio', 'http'] as const) {
        const run = (faults?: string) =>
          runScenario(scenario, {
            transport,
            faults: faults === undefined ? undefined : parseFaults(faults),
            ledger: usesSqlite(scenario) ? { sql } : undefined,
          });
        for (const message of messages(run())) {
          for (const fault of [`drop:${message.seq}`, `stream-drop:${message.seq}`]) {
            let t: Transcript;
            try {
              t = run(fault);
            } catch (error) {
              expect(error, `${id} ${transport} ${fault}`).toBeInstanceOf(LabError);
              expect((error as LabError).code, `${id} ${transport} ${fault}: ${(error as Error).message}`).not.toBe(
                'LAB021',
              );
              continue;
            }
            const record = ledgerOutcome(t).clientRecord ?? [];
            // Every call the client made is in its record; the lost one is unknown or reconciled, never failed.
            expect(record.map((call) => call.requestId).sort(), `${id} ${transport} ${fault}`).toEqual(
              messages(t)
                .filter(
                  (m) =>
                    m.from === 'client' && 'method' in m.message && 'id' in m.message && m.duplicateOf === undefined,
                )
                .map((m) => ('id' in m.message ? m.message.id : null))
                .sort(),
            );
          }
        }
      }
    },
  );
});

describe('a lost request in the task scenarios: the deadline passes, and the client re-issues it or knows it does not know', () => {
  const run = (id: string, transport: 'stdio' | 'http', faults?: string) =>
    runScenario(findScenario(id), {
      transport,
      faults: faults === undefined ? undefined : parseFaults(faults),
      ledger: { sql },
    });
  const taskOutcome = (t: Transcript) => {
    if (t.kind !== 'task') throw new Error(`${t.scenario} is not a task run`);
    return t.outcome;
  };
  const requestSeq = (t: Transcript, method: string) =>
    messages(t).find((m) => m.from === 'client' && 'method' in m.message && m.message.method === method)?.seq;

  it('task-cancel-ack over HTTP with its first tasks/get dropped: re-issued with a new id, and the task is still seen cancelled', () => {
    const fault = `drop:${String(requestSeq(run('task-cancel-ack', 'http'), 'tasks/get'))}`;
    expect(fault).toBe('drop:9');
    const t = run('task-cancel-ack', 'http', fault);
    const outcome = taskOutcome(t);
    expect(outcome.lostRequests).toEqual([{ requestId: 2, method: 'tasks/get', reissuedAs: 3 }]);
    expect([outcome.taskStatus, outcome.clientReported, outcome.outcomeUnknown]).toEqual([
      'cancelled',
      'cancelled',
      false,
    ]);
    expect(
      t.events.some(
        (event) =>
          event.kind === 'task' &&
          event.action === 'retried' &&
          /re-issues it with a new request id, #3/.test(event.detail),
      ),
    ).toBe(true);
    expect(validateTranscriptMessages(t).problems).toEqual([]);
  });

  it('a lost tools/call: the client has no taskId, its outcome is unknown, and the unkeyed call is not re-issued', () => {
    const t = run('task-cancel-ack', 'stdio', 'drop:0');
    const outcome = taskOutcome(t);
    expect(outcome.lostRequests).toEqual([{ requestId: 1, method: 'tools/call', reissuedAs: null }]);
    expect(outcome.outcomeUnknown).toBe(true);
    // The request never reached the server: no task exists.
    expect(outcome.taskStatus).toBeNull();
  });

  it('a dropped stdio pipe loses every re-issue: the client gives up after three, and the outcome stays unknown', () => {
    const plain = run('task-cancel-too-late', 'stdio');
    const firstPoll = messages(plain).find(
      (m) => m.from === 'server' && !('method' in m.message) && 'id' in m.message && m.message.id === 2,
    )?.seq;
    const outcome = taskOutcome(run('task-cancel-too-late', 'stdio', `stream-drop:${String(firstPoll)}`));
    expect(outcome.lostRequests?.filter((lost) => lost.reissuedAs !== null)).toHaveLength(3);
    expect([outcome.clientReported, outcome.outcomeUnknown]).toEqual([null, true]);
  });

  it('a late answer (delayed past the deadline) is ignored: the client already re-issued the request', () => {
    const plain = run('task-cancel-ack', 'http');
    const answer = messages(plain).find(
      (m) => m.from === 'server' && !('method' in m.message) && 'id' in m.message && m.message.id === 2,
    )?.seq;
    const t = run('task-cancel-ack', 'http', `delay:${String(answer)}:500`);
    const late = messages(t).find((m) => m.fault?.startsWith('delay:') === true);
    expect(late?.ignoredBy).toBe('client');
    expect(late?.reason).toMatch(/stopped waiting for #2/);
  });

  it('a run without faults carries neither lostRequests nor outcomeUnknown', () => {
    expect(Object.keys(taskOutcome(run('task-cancel-ack', 'http')))).not.toContain('lostRequests');
  });
});

describe('no lost message leaves a task request unanswered', () => {
  it.each(scenarios.filter((scenario) => scenario.kind === 'task').map((scenario) => scenario.id))(
    '%s: every drop and stream-drop runs to an ending, with every lost request recorded',
    (id) => {
      const scenario = findScenario(id);
      for (const transport of ['stdio', 'http'] as const) {
        const run = (faults?: string) =>
          runScenario(scenario, {
            transport,
            faults: faults === undefined ? undefined : parseFaults(faults),
            ledger: { sql },
          });
        for (const message of messages(run())) {
          for (const fault of [`drop:${message.seq}`, `stream-drop:${message.seq}`]) {
            const t = run(fault);
            if (t.kind !== 'task') throw new Error('a task run');
            // Every request of the client whose answer never reached it is in lostRequests.
            const answered = new Set(
              messages(t)
                .filter(
                  (m) =>
                    m.from === 'server' &&
                    m.lost !== true &&
                    m.ignoredBy === undefined &&
                    'id' in m.message &&
                    !('method' in m.message),
                )
                .map((m) => ('id' in m.message ? m.message.id : null)),
            );
            const unanswered = messages(t)
              .filter(
                (m) => m.from === 'client' && 'method' in m.message && 'id' in m.message && !answered.has(m.message.id),
              )
              .map((m) => ('id' in m.message ? m.message.id : null));
            expect(
              t.outcome.lostRequests?.map((lost) => lost.requestId),
              `${id} ${transport} ${fault}`,
            ).toEqual(unanswered);
          }
        }
      }
    },
  );
});

describe('a lost listen: re-opened with a new id, never left waiting', () => {
  const run = (transport: 'stdio' | 'http', faults?: string) =>
    runScenario(findScenario('listen-server-cancel'), {
      transport,
      faults: faults === undefined ? undefined : parseFaults(faults),
    });
  const listenOutcome = (t: Transcript) => {
    if (t.kind !== 'listen') throw new Error('a listen run');
    return t.outcome;
  };

  it('its response stream broke (HTTP): the client sees it a latency later and opens #3, which the server ends', () => {
    const plain = run('http');
    const listChanged = messages(plain).find(
      (m) => 'method' in m.message && m.message.method === 'notifications/tools/list_changed',
    )?.seq;
    const t = run('http', `stream-drop:${String(listChanged)}`);
    const outcome = listenOutcome(t);
    expect(outcome.listensReissued).toEqual([3]);
    expect(outcome.serverCancelled).toEqual([1, 3]);
    const lost = t.events.find((event) => event.kind === 'state' && event.side === 'client' && event.to === 'lost');
    expect(lost?.kind === 'state' && lost.reason).toMatch(/response stream of listen #1 broke.*new request id, #3/);
    expect(validateTranscriptMessages(t).problems).toEqual([]);
  });

  it("its graceful response was lost: the server's notifications/cancelled already ended it for the client; nothing is re-opened", () => {
    const plain = run('http');
    const graceful = messages(plain).find(
      (m) => m.from === 'server' && !('method' in m.message) && 'id' in m.message && m.message.id === 1,
    )?.seq;
    const outcome = listenOutcome(run('http', `drop:${String(graceful)}`));
    expect(outcome.listensReissued).toEqual([]);
    expect(outcome.serverCancelled).toEqual([1]);
  });

  it('a run without faults opens one listen and carries no listensReissued', () => {
    expect('listensReissued' in listenOutcome(run('stdio'))).toBe(false);
  });
});

describe('the fault sweep: no single fault on any message of any scenario ends in LAB021', () => {
  // The faults the grammar offers, one per run, on every message of the run without faults (scripts/faultSweep.ts prints the counts).
  const FAULTS = (seq: number) => [
    `drop:${seq}`,
    `delay:${seq}:50`,
    `duplicate:${seq}`,
    `stream-drop:${seq}`,
    `crash:${seq}`,
  ];
  it.each(scenarios.filter((scenario) => scenario.kind !== 'herd').map((scenario) => scenario.id))('%s', (id) => {
    const scenario = findScenario(id);
    const left: string[] = [];
    for (const transport of ['stdio', 'http'] as const) {
      const run = (faults?: string) =>
        runScenario(scenario, {
          transport,
          faults: faults === undefined ? undefined : parseFaults(faults),
          ledger: usesSqlite(scenario) ? { sql } : undefined,
        });
      let plain: Transcript;
      try {
        plain = run();
      } catch {
        continue;
      }
      for (const message of messages(plain)) {
        for (const fault of FAULTS(message.seq)) {
          try {
            run(fault);
          } catch (error) {
            if (error instanceof LabError && error.code === 'LAB021')
              left.push(`${transport} ${fault}: ${error.message}`);
          }
        }
      }
    }
    expect(left).toEqual([]);
  });
});
