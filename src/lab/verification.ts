import type { RunOptions } from '../engine';
import { PAYMENT_TOKEN } from '../engine';
import type { LabEvent, MessageEvent, Settings, Transcript, Transport } from '../engine';

/**
 * SPEC §8: the verification statements VF-1 … VF-12, each computed from the transcripts of the
 * scenarios that demonstrate it — never asserted by hand. Each result names the moment (scenario,
 * transport, event seq) that shows it, so the page can link to it in the diagram.
 */
export type Runner = (scenarioId: string, options?: RunOptions) => Transcript;

export interface Evidence {
  scenario: string;
  transport: Transport;
  /** The event that shows the statement (null when the statement is about the whole outcome). */
  seq: number | null;
  detail: string;
  /** Settings that differ from the scenario's defaults in the run that shows it (absent: the defaults). */
  settings?: Settings;
}

export interface VerificationResult {
  id: string;
  statement: string;
  holds: boolean;
  evidence: Evidence[];
  /** What failed, when it does not hold. */
  problems: string[];
}

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (m: MessageEvent): string => ('method' in m.message ? m.message.method : 'result' in m.message ? 'response' : 'error');
/** A run's transcript of the kind its scenario is, its outcome typed: a scenario that changed kind fails loudly here. */
function ofKind<K extends Transcript['kind']>(t: Transcript, kind: K): Transcript<K> {
  if (t.kind !== kind) throw new Error(`scenario ${t.scenario} is a ${t.kind} scenario, not ${kind}`);
  return t as Transcript<K>;
}
const find = <K extends LabEvent['kind']>(t: Transcript, kind: K, where: (e: LabEvent & { kind: K }) => boolean = () => true) =>
  t.events.find((e): e is LabEvent & { kind: K } => e.kind === kind && where(e as LabEvent & { kind: K }));

class Check {
  readonly problems: string[] = [];
  readonly evidence: Evidence[] = [];
  constructor(
    private readonly t: Transcript,
    private readonly settings?: Settings,
  ) {}
  that(condition: boolean, problem: string): this {
    if (!condition) this.problems.push(`${this.t.scenario}/${this.t.transport}: ${problem}`);
    return this;
  }
  shows(seq: number | null | undefined, detail: string): this {
    const evidence: Evidence = { scenario: this.t.scenario, transport: this.t.transport, seq: seq ?? null, detail };
    if (this.settings !== undefined) evidence.settings = this.settings;
    this.evidence.push(evidence);
    return this;
  }
}

type Statement = { id: string; statement: string; check: (run: Runner) => Check[] };

const statements: Statement[] = [
  {
    id: 'VF-1',
    statement: 'stdio cancellation sends notifications/cancelled and receives no response.',
    check: (run) => {
      const t = ofKind(run('A', { transport: 'stdio' }), 'request-race');
      const cancel = messages(t).find((m) => m.from === 'client' && method(m) === 'notifications/cancelled');
      const reply = messages(t).find((m) => m.from === 'server' && cancel !== undefined && m.seq > cancel.seq);
      return [new Check(t).that(cancel !== undefined, 'no notifications/cancelled from the client').that(reply === undefined, 'the server sent something after the cancellation').shows(cancel?.seq, 'the client sends notifications/cancelled; nothing answers it')];
    },
  },
  {
    id: 'VF-2',
    statement: 'Streamable HTTP cancellation closes the request’s stream and POSTs no cancellation.',
    check: (run) =>
      ['A', 'D'].map((id) => {
        const t = run(id, { transport: 'http' });
        const close = find(t, 'stream-closed', (e) => e.by === 'client');
        const posted = messages(t).some((m) => m.from === 'client' && method(m) === 'notifications/cancelled');
        return new Check(t).that(close !== undefined, 'the client never closed the stream').that(!posted, 'the client POSTed notifications/cancelled').shows(close?.seq, 'the client closes the response stream; nothing is POSTed');
      }),
  },
  {
    id: 'VF-3',
    statement: 'Cancel before complete suppresses the final response.',
    check: (run) =>
      (['stdio', 'http'] as const).map((transport) => {
        const t = ofKind(run('A', { transport }), 'request-race');
        const suppressed = find(t, 'suppressed', (e) => e.what === 'response');
        return new Check(t).that(suppressed !== undefined, 'no suppressed response').that(t.outcome.finalResponse === false, 'a final response reached the wire').shows(suppressed?.seq, 'complete() after the accepted cancellation returns no response');
      }),
  },
  {
    id: 'VF-4',
    statement: 'Complete before cancel keeps the response and ignores the late cancellation.',
    check: (run) =>
      (['stdio', 'http'] as const).map((transport) => {
        const t = ofKind(run('B', { transport }), 'request-race');
        const ignored = find(t, 'cancel-ignored', (e) => e.by === 'server');
        return new Check(t).that(t.outcome.terminalState === 'completed', `terminal state is ${String(t.outcome.terminalState)}`).that(t.outcome.finalResponse === true, 'no final response').that(ignored !== undefined, 'the server did not ignore the late cancellation').shows(ignored?.seq, 'the server ignores the cancellation that arrives after completion');
      }),
  },
  {
    id: 'VF-5',
    statement: 'Progress may reset the idle timeout but never the maximum timeout.',
    check: (run) => {
      const t = ofKind(run('C'), 'request-race');
      const resets = t.events.filter((e) => e.kind === 'deadline' && e.deadline === 'idle' && e.action === 'reset');
      const maxMoved = t.events.some((e) => e.kind === 'deadline' && e.deadline === 'max' && e.action === 'reset');
      const fired = find(t, 'deadline', (e) => e.action === 'fired');
      const maxTimeoutMs = Number(t.settings.maxTimeoutMs);
      return [
        new Check(t)
          .that(resets.length > 0, 'progress never reset the idle deadline')
          .that(!maxMoved, 'the maximum deadline moved')
          .that(fired?.deadline === 'max' && fired.atMs === maxTimeoutMs, `the maximum deadline did not fire at ${maxTimeoutMs} ms`)
          .shows(fired?.seq, `after ${resets.length} idle resets the maximum deadline fires at ${maxTimeoutMs} ms`),
      ];
    },
  },
  {
    id: 'VF-6',
    statement: 'A new JSON-RPC id alone runs the mutation again.',
    check: (run) => {
      const t = ofKind(run('ledger-new-id-retry'), 'ledger');
      const second = find(t, 'ledger', (e) => e.action === 'executed' && e.requestId === 42);
      return [new Check(t).that(t.outcome.executions === 2, `executions = ${String(t.outcome.executions)}`).shows(second?.seq, 'request 42 (same charge, new id) executes a second time')];
    },
  },
  {
    id: 'VF-7',
    statement: 'An idempotency key with identical arguments runs once in a concurrent two-connection race.',
    check: (run) => {
      const t = ofKind(run('ledger-race-keyed'), 'ledger');
      const busy = find(t, 'sql', (e) => e.error?.code === 'SQLITE_BUSY');
      return [new Check(t).that(t.outcome.executions === 1, `executions = ${String(t.outcome.executions)}`).that(busy !== undefined, 'no SQLITE_BUSY: the connections did not race').shows(busy?.seq, 'SQLite answers the second connection SQLITE_BUSY; it waits and replays')];
    },
  },
  {
    id: 'VF-8',
    statement: 'A committed record survives reopen, and replay returns a defensive copy.',
    check: (run) => {
      const t = ofKind(run('ledger-reopen'), 'ledger');
      const reopened = find(t, 'ledger', (e) => e.action === 'reopened');
      const replayed = find(t, 'ledger', (e) => e.action === 'replayed');
      const alias = ofKind(run('ledger-alias'), 'ledger');
      return [
        new Check(t).that(reopened !== undefined && replayed !== undefined && reopened.seq < replayed.seq, 'no replay after a reopen').shows(replayed?.seq, 'after the reopen the retry replays the committed result'),
        new Check(alias).that(alias.outcome.aliasIntact === true, 'the replay was not a defensive copy').shows(find(alias, 'ledger', (e) => e.action === 'replayed')?.seq, 'the replay is rebuilt from stored JSON'),
      ];
    },
  },
  {
    id: 'VF-9',
    statement: 'Mutating a returned result cannot alter the stored result.',
    check: (run) => {
      const t = ofKind(run('ledger-alias'), 'ledger');
      const mutated = find(t, 'ledger', (e) => e.action === 'caller-mutated');
      return [new Check(t).that(mutated !== undefined, 'nothing mutated a returned result').that(t.outcome.aliasIntact === true, 'the stored result changed').shows(mutated?.seq, 'the caller mutates its copy; the stored result stays as committed')];
    },
  },
  {
    id: 'VF-10',
    statement: 'The bounded buffer stays within capacity and keeps the final response.',
    check: (run) => {
      const t = ofKind(run('buffer-overload'), 'buffer');
      const o = t.outcome;
      return [new Check(t).that(Number(o.maxOccupancy) <= Number(o.capacity), `occupancy ${String(o.maxOccupancy)} > capacity ${String(o.capacity)}`).that(o.finalDelivered === true, 'a final response was not delivered').that(Number(o.dropped) > 0, 'nothing was dropped: the buffer was never under pressure').shows(null, `capacity ${String(o.capacity)}, max occupancy ${String(o.maxOccupancy)}, ${String(o.dropped)} progress dropped, finals delivered`)];
    },
  },
  {
    id: 'VF-11',
    statement: 'Reconnect uses a new request, sends no Last-Event-ID, and refetches affected state.',
    check: (run) => {
      const t = ofKind(run('reconnect-listen'), 'reconnect');
      const plan = t.outcome.reconnectPlan;
      const ids = t.outcome.listenRequestIds;
      // No request header and no message field may carry Last-Event-ID (the explanations may name it).
      const lastEventId = t.events.some(
        (e) =>
          (e.kind === 'http-request' && Object.keys(e.headers).some((h) => h.toLowerCase() === 'last-event-id')) ||
          (e.kind === 'message' && JSON.stringify(e.message).toLowerCase().includes('last-event-id')),
      );
      const refetched = t.outcome.refetchedMethods;
      return [
        new Check(t)
          .that(ids.length >= 2 && new Set(ids).size === ids.length, 'the reconnect reused a request id')
          .that(plan.sendLastEventId === false && !lastEventId, 'Last-Event-ID was sent or planned')
          .that(refetched.length > 0, 'nothing was refetched')
          .shows(find(t, 'reconnect-plan')?.seq, `new listen id ${String(ids.at(-1))}, refetched ${refetched.join(', ')}`),
      ];
    },
  },
  {
    id: 'VF-12',
    statement: 'A tasks/cancel acknowledgement leaves the task non-terminal until the worker observes it.',
    check: (run) => {
      const t = ofKind(run('task-cancel-ack'), 'task');
      const ack = find(t, 'task', (e) => e.action === 'cancel-acknowledged');
      return [new Check(t).that(t.outcome.statusAfterAck === 'working', `status after the ack was ${String(t.outcome.statusAfterAck)}`).that(t.outcome.taskStatus === 'cancelled', 'the task never became cancelled').shows(ack?.seq, 'acknowledged while still working; cancelled at the next checkpoint')];
    },
  },
  // ── issue #12: the lesson's statements beyond VF, each from the scenario that now shows it ──
  {
    id: 'RC-7',
    statement: 'Malformed cancellations, cancellations of unknown requests and of finished requests are ignored without error and without reply.',
    check: (run) => {
      const t = ofKind(run('cancel-ignored', { transport: 'stdio' }), 'request-race');
      const ignored = t.events.filter((e) => e.kind === 'cancel-ignored' && e.by === 'server');
      const cancelSeqs = messages(t).filter((m) => m.from === 'client' && method(m) === 'notifications/cancelled').map((m) => m.seq);
      const replies = messages(t).filter((m) => m.from === 'server' && method(m) !== 'notifications/progress' && method(m) !== 'response');
      const malformed = messages(t).find((m) => m.malformed !== undefined);
      return [
        new Check(t)
          .that(ignored.length === 3 && cancelSeqs.length === 3, `${ignored.length} of ${cancelSeqs.length} cancellations ignored`)
          .that(replies.length === 0, 'the server replied to a cancellation')
          .that(malformed !== undefined, 'no malformed cancellation was sent')
          .that(t.outcome.terminalState === 'completed', 'an ignored cancellation stopped the request')
          .shows(ignored[0]?.seq, 'a cancellation without requestId, one for #99 and a late one for the finished #41: each ignored, none answered'),
      ];
    },
  },
  {
    id: 'RC-8',
    statement: 'One terminal state is stored, and the client’s own ending is kept beside it: when they cross, the views diverge.',
    check: (run) =>
      (['stdio', 'http'] as const).map((transport) => {
        const t = ofKind(run('B', { transport }), 'request-race');
        const diverge = find(t, 'views-diverge');
        return new Check(t)
          .that(t.events.filter((e) => e.kind === 'terminal').length === 1, 'not exactly one terminal state')
          .that(t.outcome.terminalState === 'completed' && t.outcome.clientOutcome === 'cancelled', `terminal ${String(t.outcome.terminalState)}, client ${String(t.outcome.clientOutcome)}`)
          .that(t.outcome.viewsDiverge === true && diverge !== undefined, 'the divergence is not marked')
          .shows(diverge?.seq, 'the server completed; the client cancelled and never uses the response');
      }),
  },
  {
    id: 'RC-9',
    statement: 'A server cancels only a subscriptions/listen call, on a path apart from the client’s cancellations.',
    check: (run) => {
      const t = ofKind(run('listen-server-cancel', { transport: 'stdio' }), 'listen');
      const serverCancels = messages(t).filter((m) => m.from === 'server' && method(m) === 'notifications/cancelled');
      const listenIds = messages(t).filter((m) => m.from === 'client' && method(m) === 'subscriptions/listen').map((m) => ('id' in m.message ? m.message.id : null));
      const named = serverCancels.map((m) => ('params' in m.message ? m.message.params.requestId : null));
      const serverCancelled = t.outcome.serverCancelled;
      const clientCancelled = t.outcome.clientCancelled;
      return [
        new Check(t)
          .that(named.length === 1 && named.every((id) => listenIds.includes(id as number)), 'the server’s notifications/cancelled named a request that is not a listen call')
          .that(serverCancelled.every((id) => listenIds.includes(id as number)), 'the server cancelled a request that is not a listen call')
          .that(clientCancelled.length > 0 && clientCancelled.every((id) => !listenIds.includes(id as number)), 'the client’s cancellations and the server’s are not apart')
          .shows(serverCancels[0]?.seq, 'the server ends listen #1 with its own notifications/cancelled; the client cancelled #2 on its own path'),
      ];
    },
  },
  {
    id: 'BF-5',
    statement: 'The buffer refuses a push that would drop another final response, and the producer waits until a slot is free.',
    check: (run) => {
      const settings = { capacity: 1 };
      const t = ofKind(run('buffer-overload', { settings }), 'buffer');
      const refused = t.events.filter((e) => e.kind === 'buffer' && e.action === 'refused');
      const released = t.events.filter((e) => e.kind === 'buffer' && e.action === 'released');
      return [
        new Check(t, settings)
          .that(refused.length > 0, 'nothing was refused at capacity 1')
          .that(released.length === refused.length, 'a refused push was not followed by the producer’s wait and release')
          .that(t.outcome.finalDelivered === true, 'a final response was lost')
          .that(Number(t.outcome.producerHeldMs) > 0, 'the producer was never held back')
          .shows(refused[0]?.seq, `${refused.length} push(es) refused; the producer was held ${String(t.outcome.producerHeldMs)} ms; every final delivered`),
      ];
    },
  },
  {
    id: 'LG-P5',
    statement: 'The stored and returned result holds no secret: the payment token the call carried is absent from the ledger.',
    check: (run) => {
      const t = ofKind(run('inventory-retry'), 'ledger');
      const carried = messages(t).some((m) => m.from === 'client' && JSON.stringify(m.message).includes(PAYMENT_TOKEN));
      const stored = find(t, 'sql', (e) => e.sql.includes('INTO ledger.idempotency_keys'));
      return [
        new Check(t)
          .that(carried, 'the call carried no payment token to keep out')
          .that(t.outcome.paymentTokenInLedger === false, 'the payment token was found in the ledger')
          .that(!JSON.stringify(t.outcome.storedResult).includes(PAYMENT_TOKEN), 'the stored result holds the payment token')
          .shows(stored?.seq, 'the reservation is stored with key, fingerprint and result; the paymentToken on the wire is in none of them'),
      ];
    },
  },
];

export function verify(run: Runner): VerificationResult[] {
  return statements.map(({ id, statement, check }) => {
    const checks = check(run);
    const problems = checks.flatMap((c) => c.problems);
    return { id, statement, holds: problems.length === 0, evidence: checks.flatMap((c) => c.evidence), problems };
  });
}
