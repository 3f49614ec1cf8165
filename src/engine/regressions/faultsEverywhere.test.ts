// Proves that a fault on any message of any scenario ends in one of two ways, never a crash: a run whose
// messages validate against the MCP schema and that replays byte-identically, or a refusal (LAB023) that
// names the fault. A lost request or response never leaves a request unanswered (LAB021): the client's
// deadline passes and its outcome is unknown, or it re-issues the request (unknownOutcomes.test.ts). The page offers Drop, Delay and Duplicate on every message, so a learner can ask for
// any of them. Also the two cases where an untrue story is easiest to tell:
// - a request the network lost never reached the server, so the server cannot "accept its cancellation";
// - a request delivered twice is run once (an id names one request), not twice.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario, scenarios } from '../../scenarios/index';
import { validateTranscriptMessages } from '../../testing/mcpSchema';
import {
  LabError,
  parseFaults,
  runScenario,
  usesSqlite,
  type MessageEvent,
  type SqlModule,
  type Transcript,
} from '../index';
import { checkTranscript } from '../explore/invariants';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const messages = (t: Transcript) => t.events.filter((event): event is MessageEvent => event.kind === 'message');
/**
 * The faults a model does not follow, by where its own assertion stops it (refused with LAB023):
 * - a crash while the other connection is still mid-transaction (the restart closes that connection
 *   under it; the model restarts only a server whose connections are idle);
 * - losing the server's answer to a reconnecting `subscriptions/listen` (the reconnect plan assumes
 *   the new stream is acknowledged).
 */
const NOT_FOLLOWED: Record<string, readonly string[]> = {
  'ledger-race-keyed': ['connection conn-2 is closed'],
  'inventory-race': ['connection conn-2 is closed'],
  'reconnect-listen': ['the new listen stream was acknowledged'],
};

const FAULTS = (seq: number) => [
  `drop:${seq}`,
  `delay:${seq}:50`,
  `duplicate:${seq}`,
  `stream-drop:${seq}`,
  `crash:${seq}`,
];

describe('a fault on any message', () => {
  // The herd sends its one traced client's messages only; it is covered by its own tests.
  it.each(scenarios.filter((scenario) => scenario.kind !== 'herd').map((scenario) => scenario.id))(
    '%s: every fault on every message runs to a valid transcript or is refused with LAB023',
    (id) => {
      const scenario = findScenario(id);
      let ran = 0;
      let refused = 0;
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
        } catch (error) {
          // A scenario made for one transport refuses the other one.
          expect(error).toBeInstanceOf(LabError);
          continue;
        }
        for (const message of messages(plain)) {
          for (const fault of FAULTS(message.seq)) {
            let transcript: Transcript;
            try {
              transcript = run(fault);
            } catch (error) {
              expect(error, `${id} ${transport} ${fault}`).toBeInstanceOf(LabError);
              // LAB023: the fault is refused, naming it.
              expect((error as LabError).code, `${id} ${transport} ${fault}: ${(error as Error).message}`).toBe(
                'LAB023',
              );
              expect((error as Error).message).toContain(fault);
              // Where a model's own assertion stopped the run, it must be one of the known places it does not
              // go (a new one is a crash the refusal would otherwise hide).
              const stoppedAt = /it stops at: (.*)\); try another/.exec((error as Error).message)?.[1];
              if (stoppedAt !== undefined)
                expect(NOT_FOLLOWED[id] ?? [], `${id} ${transport} ${fault}`).toContain(stoppedAt);
              // A crash applies to the response a server with a SQLite file is about to send: elsewhere it is refused by design.
              if (!fault.startsWith('crash:')) refused += 1;
              continue;
            }
            ran += 1;
            expect(transcript.faults, `${id} ${transport} ${fault}`).toBe(fault);
            expect(validateTranscriptMessages(transcript).problems, `${id} ${transport} ${fault}`).toEqual([]);
            // Causality: nobody acts on a request, listen or cancellation it has not received (or the fault lost).
            expect(
              checkTranscript(transcript).filter((breach) => breach.invariant === 'causality'),
              `${id} ${transport} ${fault}`,
            ).toEqual([]);
            expect(JSON.stringify(run(fault)), `${id} ${transport} ${fault} replays`).toBe(JSON.stringify(transcript));
          }
        }
      }
      // Faults are followed in every scenario.
      expect(ran, `${ran} faults followed, ${refused} refused`).toBeGreaterThan(0);
    },
  );
});

describe('faults that used to tell an untrue story', () => {
  const A = findScenario('A');
  /** In A the client's tools/call is message seq 1. */
  const CALL = 1;

  it('stdio: the server ignores the cancellation of a request the network lost before it arrived; the client giving up ends it', () => {
    const t = runScenario(A, { transport: 'stdio', faults: parseFaults(`drop:${CALL}`) });
    expect(t.events.some((event) => event.kind === 'cancel-accepted')).toBe(false);
    expect(t.events.some((event) => event.kind === 'state' && event.side === 'server')).toBe(false);
    const ignored = t.events.find((event) => event.kind === 'cancel-ignored' && event.by === 'server');
    expect(ignored?.kind === 'cancel-ignored' && ignored.reason).toMatch(/never received request 41/);
    expect(t.kind === 'request-race' && [t.outcome.terminalState, t.outcome.clientOutcome]).toEqual([
      'cancelled',
      'cancelled',
    ]);
    // Ended when the client gave up (120 ms), not when the server later ignored the cancellation.
    expect(t.kind === 'request-race' && t.outcome.terminalAtMs).toBe(120);
  });

  it('stdio: a dropped pipe under the request loses the cancellation too; the client giving up still ends it', () => {
    const t = runScenario(A, { transport: 'stdio', faults: parseFaults(`stream-drop:${CALL}`) });
    expect(t.kind === 'request-race' && [t.outcome.terminalState, t.outcome.terminalAtMs]).toEqual(['cancelled', 120]);
    expect(t.events.some((event) => event.kind === 'cancel-accepted' || event.kind === 'cancel-ignored')).toBe(false);
  });

  it('ledger-race-keyed: when a fault loses #41 or its response, the client retries with the same key on its own connection and gets the stored result', () => {
    const race = findScenario('ledger-race-keyed');
    const plain = runScenario(race, { transport: 'http', ledger: { sql } });
    const call41 = messages(plain).find((m) => 'method' in m.message && 'id' in m.message && m.message.id === 41);
    const response41 = messages(plain).find(
      (m) => !('method' in m.message) && 'id' in m.message && m.message.id === 41,
    );
    for (const lost of [call41, response41]) {
      const t = runScenario(race, {
        transport: 'http',
        ledger: { sql },
        faults: parseFaults(`drop:${String(lost?.seq)}`),
      });
      expect(t.kind === 'ledger' && t.outcome.executions).toBe(1);
      const retry = t.events.find((event) => event.kind === 'ledger' && event.action === 'retry');
      expect(retry?.kind === 'ledger' && retry.requestId).toBe(43);
      const replayed = t.events.find(
        (event) => event.kind === 'ledger' && event.action === 'replayed' && event.requestId === 43,
      );
      expect(replayed?.kind === 'ledger' && replayed.connection).toBe('conn-3');
    }
  });

  it('proxy-buffering: a progress notification the network drops before the proxy is simply lost, on both transports', () => {
    const proxy = findScenario('proxy-buffering');
    for (const transport of ['stdio', 'http'] as const) {
      const progress = messages(runScenario(proxy, { transport })).find(
        (message) => 'method' in message.message && message.message.method === 'notifications/progress',
      );
      const t = runScenario(proxy, { transport, faults: parseFaults(`drop:${String(progress?.seq)}`) });
      expect(messages(t).find((message) => message.seq === progress?.seq)?.reason).toMatch(
        /the network dropped this message/,
      );
      expect(t.events.some((event) => event.kind === 'proxy' && event.reason.startsWith(`progress 1/`))).toBe(false);
    }
  });

  it('Streamable HTTP: the server observes no disconnect of a POST it never got', () => {
    const t = runScenario(A, { transport: 'http', faults: parseFaults(`drop:${CALL}`) });
    expect(t.events.some((event) => event.kind === 'disconnect-observed')).toBe(false);
    expect(t.events.some((event) => event.kind === 'cancel-accepted')).toBe(false);
    const terminal = t.events.find((event) => event.kind === 'terminal');
    expect(terminal?.kind === 'terminal' && terminal.reason).toMatch(/never reached the server/);
  });

  it.each(['B', 'cancel-ignored', 'proxy-buffering'])(
    '%s: a duplicated tools/call is ignored by the server, which runs the work once',
    (id) => {
      const scenario = findScenario(id);
      for (const transport of ['stdio', 'http'] as const) {
        const plain = runScenario(scenario, { transport });
        const call = messages(plain).find(
          (message) => 'method' in message.message && message.message.method === 'tools/call',
        );
        expect(call).toBeDefined();
        const t = runScenario(scenario, { transport, faults: parseFaults(`duplicate:${String(call?.seq)}`) });
        const copy = messages(t).find((message) => message.duplicateOf === call?.seq);
        expect(copy?.ignoredBy).toBe('server');
        expect(copy?.reason).toMatch(/second copy of request/);
        expect(t.events.filter((event) => event.kind === 'worker' && event.step === 'started')).toHaveLength(1);
      }
    },
  );
});
