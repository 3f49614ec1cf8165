import type { RunOptions } from '../engine';
import { PAYMENT_TOKEN, TRANSPORTS } from '../engine';
import type { LabEvent, MessageEvent, Settings, Transcript, Transport } from '../engine';
/** A JSON-RPC request id as the wire carries it. */
type RequestId = string | number;
import { findScenario } from '../scenarios/index';
import type { RunLink } from './failureCards';

/**
 * docs/requirements.md#verification-statements-vf: the verification statements VF-1 … VF-12 (and the lesson's RC-7, RC-8, RC-9, BF-5, LG-P5),
 * each computed from the wire messages of every scenario it concerns, on both transports, over seeds
 * 1–20 at the scenario's settings and again with latencyJitterMs=50 (where the scenario has latency
 * jitter): never asserted by hand, never read from numbers the engine computed about itself. Each
 * result names the moment (scenario, transport, event seq, in the seed-1 run at the defaults) that
 * shows it, so the page can link to it in the diagram, and says how many runs it was computed from.
 */
export type Runner = (scenarioId: string, options?: RunOptions) => Transcript;

/**
 * The moment that shows a statement: a link to the run (`RunLink`, as a failure card links to one: its
 * `settings` are those that differ from the scenario's defaults, absent: the defaults), on its transport,
 * at its event.
 */
export interface Evidence extends RunLink {
  transport: Transport;
  /** The event that shows the statement (null when the statement is about the whole outcome). */
  seq: number | null;
  detail: string;
}

export interface VerificationResult {
  id: string;
  statement: string;
  holds: boolean;
  evidence: Evidence[];
  /** What failed, when it does not hold. */
  problems: string[];
  /** How many runs the statement was computed from, and which. */
  runs: number;
  scope: string;
}

/** The seeds every statement is computed over. */
export const VERIFY_SEEDS: readonly number[] = Array.from({ length: 20 }, (_, i) => i + 1);
/** The variant beside the scenario's own settings: messages cross in orders the defaults never show. */
export const VERIFY_JITTER: Settings = { latencyJitterMs: 50 };

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (m: MessageEvent): string =>
  'method' in m.message ? m.message.method : 'result' in m.message ? 'response' : 'error';
const find = <K extends LabEvent['kind']>(
  t: Transcript,
  kind: K,
  where: (e: LabEvent & { kind: K }) => boolean = () => true,
) => t.events.find((e): e is LabEvent & { kind: K } => e.kind === kind && where(e as LabEvent & { kind: K }));
const filterEvents = <K extends LabEvent['kind']>(
  t: Transcript,
  kind: K,
  where: (e: LabEvent & { kind: K }) => boolean = () => true,
) => t.events.filter((e): e is LabEvent & { kind: K } => e.kind === kind && where(e as LabEvent & { kind: K }));
const sameId = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const idOf = (m: MessageEvent): RequestId | undefined => ('id' in m.message ? m.message.id : undefined);
const paramsOf = (m: MessageEvent): Record<string, unknown> =>
  'params' in m.message && typeof m.message.params === 'object' && m.message.params !== null
    ? (m.message.params as Record<string, unknown>)
    : {};

/** The wire's view of one request: the call, what the server sent about it, its cancellation, its delivery. */
interface RequestOnWire {
  readonly call: MessageEvent;
  readonly id: RequestId;
  /** Server messages about it: its final response (or error), and progress carrying its token. */
  readonly fromServer: MessageEvent[];
  readonly finals: MessageEvent[];
  /** The client's cancellation as the wire carries it: notifications/cancelled on stdio, the stream's close on HTTP. */
  readonly cancelSentSeq: number | null;
  readonly cancelSentAtMs: number | null;
  /** When the server learned of the cancellation (the notification's delivery, or the close it observed). */
  readonly cancelReachedSeq: number | null;
  /** Seq of the final response's delivery to the client, unless lost or ignored. */
  readonly finalUsedSeq: number | null;
}

function requestOnWire(t: Transcript, call: MessageEvent): RequestOnWire {
  const id = idOf(call) as RequestId;
  const token = (paramsOf(call)._meta as Record<string, unknown> | undefined)?.progressToken;
  const fromServer = messages(t).filter(
    (m) =>
      m.from === 'server' &&
      ((sameId(idOf(m), id) && !('method' in m.message)) ||
        (method(m) === 'notifications/progress' && token !== undefined && sameId(paramsOf(m).progressToken, token))),
  );
  const finals = fromServer.filter((m) => !('method' in m.message));
  let cancelSentSeq: number | null = null;
  let cancelSentAtMs: number | null = null;
  let cancelReachedSeq: number | null = null;
  if (t.transport === 'stdio') {
    const cancel = messages(t).find(
      (m) =>
        m.from === 'client' &&
        method(m) === 'notifications/cancelled' &&
        m.malformed === undefined &&
        sameId(paramsOf(m).requestId, id),
    );
    if (cancel !== undefined) {
      cancelSentSeq = cancel.seq;
      cancelSentAtMs = cancel.atMs;
      cancelReachedSeq = find(t, 'delivered', (e) => e.messageSeq === cancel.seq)?.seq ?? null;
    }
  } else {
    const close = find(t, 'stream-closed', (e) => e.by === 'client' && sameId(e.requestId, id));
    if (close !== undefined) {
      cancelSentSeq = close.seq;
      cancelSentAtMs = close.atMs;
      cancelReachedSeq =
        find(t, 'disconnect-observed', (e) => e.by === 'server' && sameId(e.requestId, id))?.seq ?? null;
    }
  }
  const used = finals
    .map((f) => find(t, 'delivered', (e) => e.messageSeq === f.seq && e.ignoredBy === undefined))
    .find((d) => d !== undefined);
  return {
    call,
    id,
    fromServer,
    finals,
    cancelSentSeq,
    cancelSentAtMs,
    cancelReachedSeq,
    finalUsedSeq: used?.seq ?? null,
  };
}

/** The first tools/call of a run, on the wire. */
function toolCall(t: Transcript): RequestOnWire | null {
  const call = messages(t).find((m) => m.from === 'client' && method(m) === 'tools/call');
  return call === undefined ? null : requestOnWire(t, call);
}

/** The JSON a tool's text content carries (the ledger's charge), or null. */
function textResult(m: MessageEvent): Record<string, unknown> | null {
  if (!('result' in m.message)) return null;
  const content = (m.message.result as { content?: { type?: string; text?: string }[] }).content;
  const text = content?.find((c) => c.type === 'text')?.text;
  if (text === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** One run of a sweep: its transcript (which records the run: scenario, transport, seed, settings), and which variant of settings it ran. */
interface SweptRun {
  readonly t: Transcript;
  readonly variant: string;
  readonly where: string;
}

/**
 * The runs a verification reads: every scenario a statement concerns, on the transports given, over
 * VERIFY_SEEDS at the scenario's settings (plus `base`) and with VERIFY_JITTER where the scenario has
 * latency jitter. Runs are shared between statements (one run per scenario, transport, seed, settings).
 */
class Sweep {
  private readonly cache = new Map<string, Transcript>();
  /** Planning (no runner): `of` only records which runs a statement would read, and returns none. */
  readonly planned = new Set<string>();
  /** Hears each run the sweep makes (a run shared between statements is made once). */
  onRun: (() => void) | null = null;
  constructor(private readonly run: Runner | null) {}

  get runCount(): number {
    return this.cache.size;
  }

  of(ids: readonly string[], transports: readonly Transport[] = TRANSPORTS, base: Settings = {}): SweptRun[] {
    const runs: SweptRun[] = [];
    for (const id of ids) {
      const jitterable = Object.hasOwn(findScenario(id).settings, 'latencyJitterMs');
      const variants: { name: string; settings: Settings }[] = [{ name: 'defaults', settings: base }];
      if (jitterable) variants.push({ name: 'latencyJitterMs=50', settings: { ...base, ...VERIFY_JITTER } });
      for (const transport of transports)
        for (const variant of variants)
          for (const seed of VERIFY_SEEDS) {
            const key = JSON.stringify([id, transport, seed, variant.settings]);
            if (this.run === null) {
              this.planned.add(key);
              continue;
            }
            let t = this.cache.get(key);
            if (t === undefined) {
              t = this.run(id, { transport, seed, settings: variant.settings });
              this.cache.set(key, t);
              this.onRun?.();
            }
            const settingsText = Object.entries(variant.settings)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(' ');
            runs.push({
              t,
              variant: variant.name,
              where: `${id}/${transport} seed ${seed}${settingsText === '' ? '' : ` ${settingsText}`}`,
            });
          }
    }
    return runs;
  }
}

/** Collects a statement's problems over its runs and its evidence (the seed-1 run at the base settings of each scenario and transport). */
class Check {
  readonly problems: string[] = [];
  readonly evidence: Evidence[] = [];
  runs = 0;
  private readonly scenarios = new Set<string>();
  private readonly transports = new Set<Transport>();
  private readonly variants = new Set<string>();

  /** Checks every run; `each` returns its problems, and the evidence it offers for the seed-1 run at the base settings. */
  over(
    runs: readonly SweptRun[],
    each: (run: SweptRun) => { problems: string[]; seq?: number | null; detail?: string },
    base?: Settings,
  ): this {
    for (const run of runs) {
      this.runs += 1;
      this.scenarios.add(run.t.scenario);
      this.transports.add(run.t.transport);
      this.variants.add(run.variant);
      const found = each(run);
      for (const problem of found.problems)
        if (this.problems.length < 20) this.problems.push(`${run.where}: ${problem}`);
      if (run.t.seed === VERIFY_SEEDS[0] && run.variant === 'defaults' && found.detail !== undefined) {
        const evidence: Evidence = {
          scenario: run.t.scenario,
          transport: run.t.transport,
          seq: found.seq ?? null,
          detail: found.detail,
        };
        if (base !== undefined) evidence.settings = base;
        this.evidence.push(evidence);
      }
    }
    return this;
  }

  /** A statement that needs some run to show it (the lesson's moment), not only that no run breaks it. */
  shownIn(runs: readonly SweptRun[], shows: (run: SweptRun) => boolean, what: string): this {
    if (!runs.some(shows)) this.problems.push(`no run shows it: ${what}`);
    return this;
  }

  scope(): string {
    const variants = [...this.variants].map((v) => (v === 'defaults' ? 'the scenario’s settings' : v)).join(' and ');
    return `${this.runs} runs: ${[...this.scenarios].join(', ')} on ${[...this.transports].join(' and ')}, seeds 1–20, ${variants}`;
  }
}

type Statement = { id: string; statement: string; check: (sweep: Sweep) => Check };

const RACES = ['A', 'B', 'C', 'D'];
const NO_CALL = { problems: ['no tools/call on the wire'] };
const LEDGER_CHARGE = (runs: SweptRun['t']) =>
  messages(runs)
    .filter((m) => m.from === 'server' && 'result' in m.message)
    .map(textResult)
    .filter((r): r is Record<string, unknown> => r !== null && typeof r.chargeId === 'string');

const statements: Statement[] = [
  {
    id: 'VF-1',
    statement: 'stdio cancellation sends notifications/cancelled and receives no response.',
    check: (sweep) => {
      const runs = sweep.of(RACES, ['stdio']);
      return new Check()
        .over(runs, ({ t }) => {
          const r = toolCall(t);
          if (r === null) return NO_CALL;
          if (r.cancelSentSeq === null) return { problems: [] };
          const reached = r.cancelReachedSeq;
          const after = reached === null ? [] : r.fromServer.filter((m) => m.seq > reached);
          const problems = after.map(
            (m) => `the server sent ${method(m)} #${String(r.id)} (seq ${m.seq}) after the cancellation reached it`,
          );
          return {
            problems,
            seq: r.cancelSentSeq,
            detail:
              'the client sends notifications/cancelled; nothing about the request leaves the server once it arrives',
          };
        })
        .shownIn(runs, ({ t }) => toolCall(t)?.cancelSentSeq !== null, 'a client notifications/cancelled on stdio');
    },
  },
  {
    id: 'VF-2',
    statement: 'Streamable HTTP cancellation closes the request’s stream and POSTs no cancellation.',
    check: (sweep) => {
      const runs = sweep.of(RACES, ['http']);
      return new Check()
        .over(runs, ({ t }) => {
          const r = toolCall(t);
          if (r === null) return NO_CALL;
          const posted = messages(t).filter((m) => m.from === 'client' && method(m) === 'notifications/cancelled');
          const problems = posted.map((m) => `the client POSTed notifications/cancelled (seq ${m.seq})`);
          if (r.finalUsedSeq === null && r.cancelSentSeq === null)
            problems.push(`the client gave up #${String(r.id)} without closing its stream`);
          return { problems, seq: r.cancelSentSeq, detail: 'the client closes the response stream; nothing is POSTed' };
        })
        .shownIn(runs, ({ t }) => toolCall(t)?.cancelSentSeq !== null, 'a client closing a request’s stream');
    },
  },
  {
    id: 'VF-3',
    statement: 'Cancel before complete suppresses the final response.',
    check: (sweep) => {
      const runs = sweep.of(RACES);
      const cancelFirst = (r: RequestOnWire | null) =>
        r !== null && r.cancelReachedSeq !== null && r.finals.every((f) => f.seq > (r.cancelReachedSeq ?? 0));
      return new Check()
        .over(runs, ({ t }) => {
          const r = toolCall(t);
          if (r === null) return NO_CALL;
          if (!cancelFirst(r)) return { problems: [] };
          return {
            problems: r.finals.map(
              (f) =>
                `a final response #${String(r.id)} (seq ${f.seq}) left the server after the cancellation reached it`,
            ),
            seq: find(t, 'suppressed', (e) => e.what === 'response')?.seq ?? r.cancelReachedSeq,
            detail: 'the cancellation reaches the server first; no final response is ever on the wire',
          };
        })
        .shownIn(
          runs.filter(({ t }) => t.transport === 'stdio'),
          ({ t }) => cancelFirst(toolCall(t)),
          'a cancellation reaching the server first on stdio',
        )
        .shownIn(
          runs.filter(({ t }) => t.transport === 'http'),
          ({ t }) => cancelFirst(toolCall(t)),
          'a cancellation reaching the server first on HTTP',
        );
    },
  },
  {
    id: 'VF-4',
    statement: 'Complete before cancel keeps the response and ignores the late cancellation.',
    check: (sweep) => {
      const runs = sweep.of(RACES);
      const completeFirst = (r: RequestOnWire | null) =>
        r !== null && r.cancelReachedSeq !== null && r.finals.some((f) => f.seq < (r.cancelReachedSeq ?? 0));
      return new Check()
        .over(runs, ({ t }) => {
          const r = toolCall(t);
          if (r === null) return NO_CALL;
          const problems = r.finals.length > 1 ? [`${r.finals.length} final responses for #${String(r.id)}`] : [];
          if (!completeFirst(r)) return { problems };
          const reached = r.cancelReachedSeq ?? 0;
          problems.push(
            ...messages(t)
              .filter((m) => m.from === 'server' && m.seq > reached && (sameId(idOf(m), r.id) || method(m) === 'error'))
              .map((m) => `the server answered after the late cancellation (seq ${m.seq})`),
          );
          return {
            problems,
            seq: find(t, 'cancel-ignored', (e) => e.by === 'server')?.seq ?? reached,
            detail: 'the response left first; the late cancellation gets nothing back',
          };
        })
        .shownIn(
          runs.filter(({ t }) => t.transport === 'stdio'),
          ({ t }) => completeFirst(toolCall(t)),
          'a response leaving before the cancellation arrives on stdio',
        )
        .shownIn(
          runs.filter(({ t }) => t.transport === 'http'),
          ({ t }) => completeFirst(toolCall(t)),
          'a response leaving before the cancellation arrives on HTTP',
        );
    },
  },
  {
    id: 'VF-5',
    statement: 'Progress may reset the idle timeout but never the maximum timeout.',
    check: (sweep) => {
      const runs = sweep.of(['C']);
      // From the wire: when the request left, the progress that reached the client, and when the client gave up.
      const timing = (t: Transcript) => {
        const r = toolCall(t);
        if (r === null || r.cancelSentAtMs === null) return null;
        const before = r.cancelSentSeq ?? 0;
        const heard = r.fromServer
          .filter((m) => method(m) === 'notifications/progress')
          .map((m) => find(t, 'delivered', (e) => e.messageSeq === m.seq && e.seq < before))
          .filter((d) => d !== undefined)
          .map((d) => d.atMs);
        return {
          r,
          sent: r.call.atMs,
          gaveUp: r.cancelSentAtMs,
          lastHeard: Math.max(r.call.atMs, ...heard),
          idle: Number(t.settings.idleTimeoutMs),
          max: Number(t.settings.maxTimeoutMs),
        };
      };
      return new Check()
        .over(runs, ({ t }) => {
          const w = timing(t);
          if (w === null) return { problems: ['the client never gave the request up'] };
          const problems: string[] = [];
          if (w.gaveUp > w.sent + w.max)
            problems.push(
              `the client gave up at ${w.gaveUp} ms, after the maximum (${w.sent} + ${w.max} ms): progress moved it`,
            );
          if (w.gaveUp < w.sent + w.max && w.gaveUp < w.lastHeard + w.idle)
            problems.push(
              `the client gave up at ${w.gaveUp} ms, ${w.gaveUp - w.lastHeard} ms after the last progress it heard, before the idle timeout`,
            );
          return {
            problems,
            seq: w.r.cancelSentSeq,
            detail: `progress kept the request alive past ${w.idle} ms of idle timeout; the client gives up at ${w.gaveUp - w.sent} ms, its ${w.max} ms maximum`,
          };
        })
        .shownIn(
          runs,
          ({ t }) => {
            const w = timing(t);
            return w !== null && w.gaveUp - w.sent > w.idle && w.gaveUp === w.sent + w.max;
          },
          'progress carrying the request past its idle timeout until the maximum ends it',
        );
    },
  },
  {
    id: 'VF-6',
    statement: 'A new JSON-RPC id alone runs the mutation again.',
    check: (sweep) => {
      const runs = sweep.of(['ledger-new-id-retry']);
      return new Check().over(runs, ({ t }) => {
        const calls = messages(t).filter((m) => m.from === 'client' && method(m) === 'tools/call');
        const ids = new Set(calls.map((m) => JSON.stringify(idOf(m))));
        const args = new Set(calls.map((m) => JSON.stringify(paramsOf(m).arguments)));
        const charges = new Set(LEDGER_CHARGE(t).map((c) => c.chargeId));
        const problems: string[] = [];
        if (calls.length < 2 || ids.size !== calls.length || args.size !== 1)
          problems.push('not one charge sent again under a new id');
        if (charges.size !== 2)
          problems.push(
            `${charges.size} distinct charge ids answered: the retry ${charges.size < 2 ? 'did not run again' : 'ran more than twice'}`,
          );
        const second = messages(t).filter((m) => m.from === 'server' && textResult(m) !== null)[1];
        return {
          problems,
          seq: second?.seq,
          detail: `the same charge under id ${[...ids].join(' and ')} is answered with two charge ids (${[...charges].join(', ')}): it ran twice`,
        };
      });
    },
  },
  {
    id: 'VF-7',
    statement: 'An idempotency key with identical arguments runs once in a concurrent two-connection race.',
    check: (sweep) => {
      const runs = sweep.of(['ledger-race-keyed']);
      return new Check()
        .over(runs, ({ t }) => {
          const calls = messages(t).filter((m) => m.from === 'client' && method(m) === 'tools/call');
          const args = new Set(calls.map((m) => JSON.stringify(paramsOf(m).arguments)));
          const charges = LEDGER_CHARGE(t);
          const problems: string[] = [];
          if (calls.length < 2 || args.size !== 1) problems.push('not two calls with one key and identical arguments');
          if (charges.length < 2) problems.push(`${charges.length} successful answers for ${calls.length} calls`);
          if (new Set(charges.map((c) => c.chargeId)).size !== 1)
            problems.push(`charge ids ${charges.map((c) => String(c.chargeId)).join(', ')}: it ran more than once`);
          const busy = find(t, 'sql', (e) => e.error?.code === 'SQLITE_BUSY');
          return {
            problems,
            seq: busy?.seq,
            detail: `both connections are answered with charge ${String(charges[0]?.chargeId)}: one execution; SQLite answered the second SQLITE_BUSY and it replayed`,
          };
        })
        .shownIn(
          runs,
          ({ t }) => find(t, 'sql', (e) => e.error?.code === 'SQLITE_BUSY') !== undefined,
          'the two connections racing (SQLITE_BUSY)',
        );
    },
  },
  {
    id: 'VF-8',
    statement: 'A committed record survives reopen, and replay returns a defensive copy.',
    check: (sweep) => {
      const check = new Check().over(sweep.of(['ledger-reopen']), ({ t }) => {
        const reopened = find(t, 'ledger', (e) => e.action === 'reopened');
        const replayed = find(t, 'ledger', (e) => e.action === 'replayed');
        const charges = new Set(LEDGER_CHARGE(t).map((c) => c.chargeId));
        const problems: string[] = [];
        if (!(reopened !== undefined && replayed !== undefined && reopened.seq < replayed.seq))
          problems.push('no replay after a reopen');
        if (charges.size !== 1)
          problems.push(
            `answers carry ${charges.size} charge ids: the retry after the reopen did not return the committed record`,
          );
        return {
          problems,
          seq: replayed?.seq,
          detail: 'after the reopen the retry is answered with the committed charge',
        };
      });
      return check.over(sweep.of(['ledger-alias']), ({ t }) => {
        const answers = LEDGER_CHARGE(t);
        const replayed = find(t, 'ledger', (e) => e.action === 'replayed');
        const problems =
          answers.length < 2 || new Set(answers.map((a) => JSON.stringify(a))).size !== 1
            ? ['the replay on the wire is not the committed result']
            : [];
        if (t.kind === 'ledger' && t.outcome.aliasIntact !== true) problems.push('the replay was not a defensive copy');
        return { problems, seq: replayed?.seq, detail: 'the replay is rebuilt from stored JSON' };
      });
    },
  },
  {
    id: 'VF-9',
    statement: 'Mutating a returned result cannot alter the stored result.',
    check: (sweep) =>
      new Check().over(sweep.of(['ledger-alias']), ({ t }) => {
        const mutated = find(t, 'ledger', (e) => e.action === 'caller-mutated');
        const answers = LEDGER_CHARGE(t);
        const problems: string[] = [];
        if (mutated === undefined) problems.push('nothing mutated a returned result');
        if (new Set(answers.map((a) => JSON.stringify(a))).size > 1)
          problems.push('a later answer differs from the first: the mutation reached the stored result');
        if (t.kind === 'ledger' && t.outcome.aliasIntact !== true) problems.push('the stored result changed');
        return {
          problems,
          seq: mutated?.seq,
          detail: 'the caller mutates its copy; the next answer on the wire is the committed result',
        };
      }),
  },
  {
    id: 'VF-10',
    statement: 'The bounded buffer stays within capacity and keeps the final response.',
    check: (sweep) => {
      const runs = sweep.of(['buffer-overload']);
      return new Check()
        .over(runs, ({ t }) => {
          const buffered = filterEvents(t, 'buffer');
          const over = buffered.filter((e) => e.capacityEvents !== null && e.occupancyEvents > e.capacityEvents);
          const problems = over.map(
            (e) => `occupancy ${e.occupancyEvents} > capacity ${String(e.capacityEvents)} (seq ${e.seq})`,
          );
          const calls = messages(t).filter((m) => m.from === 'client' && method(m) === 'tools/call');
          for (const call of calls) {
            const r = requestOnWire(t, call);
            if (r.finalUsedSeq === null) problems.push(`no final response for #${String(r.id)} reached the client`);
          }
          const dropped = buffered.filter((e) => e.action === 'dropped').length;
          return {
            problems,
            seq: null,
            detail: `${calls.length} calls, each answered on the wire; ${dropped} progress dropped, occupancy never above capacity`,
          };
        })
        .shownIn(
          runs,
          ({ t }) => find(t, 'buffer', (e) => e.action === 'dropped') !== undefined,
          'the buffer under pressure (progress dropped)',
        );
    },
  },
  {
    id: 'VF-11',
    statement: 'Reconnect uses a new request, sends no Last-Event-ID, and refetches affected state.',
    check: (sweep) =>
      new Check().over(sweep.of(['reconnect-listen']), ({ t }) => {
        const listens = messages(t).filter((m) => m.from === 'client' && method(m) === 'subscriptions/listen');
        const ids = listens.map((m) => JSON.stringify(idOf(m)));
        // No request header and no message field may carry Last-Event-ID (the explanations may name it).
        const lastEventId = t.events.some(
          (e) =>
            (e.kind === 'http-request' && Object.keys(e.headers).some((h) => h.toLowerCase() === 'last-event-id')) ||
            (e.kind === 'message' &&
              (JSON.stringify(e.message).toLowerCase().includes('last-event-id') ||
                Object.keys(e.headers ?? {}).some((h) => h.toLowerCase() === 'last-event-id'))),
        );
        const second = listens[1];
        const refetched =
          second === undefined
            ? []
            : [
                ...new Set(
                  messages(t)
                    .filter(
                      (m) =>
                        m.from === 'client' &&
                        m.seq > second.seq &&
                        ['tools/list', 'resources/list', 'prompts/list', 'resources/read'].includes(method(m)),
                    )
                    .map(method),
                ),
              ];
        const problems: string[] = [];
        if (ids.length < 2 || new Set(ids).size !== ids.length)
          problems.push('the reconnect reused a request id, or there was none');
        if (lastEventId) problems.push('Last-Event-ID was sent');
        if (refetched.length === 0) problems.push('nothing was refetched after the new listen');
        return {
          problems,
          seq: second?.seq,
          detail: `new listen id ${ids.at(-1) ?? '?'}, then ${refetched.join(', ')} again`,
        };
      }),
  },
  {
    id: 'VF-12',
    statement: 'A tasks/cancel acknowledgement leaves the task non-terminal until the worker observes it.',
    check: (sweep) => {
      const runs = sweep.of(['task-cancel-ack', 'task-cancel-too-late']);
      const statusAfterAck = (t: Transcript) => {
        const cancel = messages(t).find((m) => m.from === 'client' && method(m) === 'tasks/cancel');
        const ack =
          cancel === undefined
            ? undefined
            : messages(t).find((m) => m.from === 'server' && sameId(idOf(m), idOf(cancel)) && 'result' in m.message);
        const gets = new Set(
          messages(t)
            .filter((m) => m.from === 'client' && method(m) === 'tasks/get')
            .map((m) => JSON.stringify(idOf(m))),
        );
        const next =
          ack === undefined
            ? undefined
            : messages(t).find(
                (m) =>
                  m.from === 'server' && m.seq > ack.seq && 'result' in m.message && gets.has(JSON.stringify(idOf(m))),
              );
        const status =
          next !== undefined && 'result' in next.message
            ? (next.message.result as { status?: string }).status
            : undefined;
        return { ack, next, status };
      };
      const terminal = ['completed', 'failed', 'cancelled'];
      return new Check()
        .over(runs, ({ t }) => {
          const { ack, next, status } = statusAfterAck(t);
          if (ack === undefined) return { problems: ['no tasks/cancel acknowledgement on the wire'] };
          const problems: string[] = [];
          const fields = Object.keys('result' in ack.message ? ack.message.result : {}).filter(
            (k) => k !== 'resultType' && k !== '_meta',
          );
          if (fields.length > 0) problems.push(`the acknowledgement carries ${fields.join(', ')}: it should be empty`);
          // A terminal status after the ack needs the worker to have observed the flag (or finished) first.
          const observed = find(t, 'task', (e) => e.action === 'cancelled' || e.action === 'completed');
          if (
            next !== undefined &&
            status !== undefined &&
            terminal.includes(status) &&
            (observed === undefined || observed.seq > next.seq)
          )
            problems.push(
              `the first tasks/get after the acknowledgement says ${status} before the worker observed anything`,
            );
          return {
            problems,
            seq: ack.seq,
            detail: `acknowledged while the task is ${status ?? 'unpolled'}; it ends at the worker’s next checkpoint`,
          };
        })
        .shownIn(
          runs,
          ({ t }) => {
            const { status } = statusAfterAck(t);
            return status !== undefined && !terminal.includes(status);
          },
          'a tasks/get after the acknowledgement still saying a non-terminal status',
        );
    },
  },
  // ── the lesson's statements beyond VF, each from the scenarios that show it ──
  {
    id: 'RC-7',
    statement:
      'Malformed cancellations, cancellations of unknown requests and of finished requests are ignored without error and without reply.',
    check: (sweep) =>
      new Check()
        .over(sweep.of(['cancel-ignored'], ['stdio']), ({ t }) => {
          // Which cancellations the server must ignore, from the wire: malformed, naming no request the
          // client sent, or arriving after that request's final response left. One arriving in time is a
          // cancellation like any other (jitter can make the "late" one early), outside this statement.
          const sent = new Set(
            messages(t)
              .filter((m) => m.from === 'client' && 'method' in m.message && 'id' in m.message)
              .map((m) => JSON.stringify(idOf(m))),
          );
          const toIgnore = messages(t)
            .filter((m) => m.from === 'client' && method(m) === 'notifications/cancelled')
            .map((m) => {
              const named = JSON.stringify(paramsOf(m).requestId);
              const arrived = find(t, 'delivered', (e) => e.messageSeq === m.seq)?.seq ?? Number.POSITIVE_INFINITY;
              const answered = messages(t).some(
                (r) =>
                  r.from === 'server' &&
                  !('method' in r.message) &&
                  JSON.stringify(idOf(r)) === named &&
                  r.seq < arrived,
              );
              const kind =
                m.malformed !== undefined ? 'malformed' : !sent.has(named) ? 'unknown' : answered ? 'finished' : null;
              return { m, kind, arrived };
            })
            .filter((c) => c.kind !== null);
          const ignored = filterEvents(t, 'cancel-ignored', (e) => e.by === 'server');
          const problems: string[] = [];
          if (ignored.length < toIgnore.length)
            problems.push(`${ignored.length} of ${toIgnore.length} cancellations to ignore were ignored`);
          for (const c of toIgnore) {
            const replies = messages(t).filter(
              (r) =>
                r.from === 'server' &&
                r.seq > c.arrived &&
                ('error' in r.message || ('method' in r.message && r.message.method !== 'notifications/progress')),
            );
            if (replies.length > 0)
              problems.push(
                `the server answered the ${String(c.kind)} cancellation (seq ${replies.map((r) => r.seq).join(', ')})`,
              );
          }
          if (!toIgnore.some((c) => c.kind === 'malformed')) problems.push('no malformed cancellation was sent');
          return {
            problems,
            seq: ignored[0]?.seq,
            detail:
              'a cancellation without requestId, one for #99 and a late one for the finished #41: each ignored, none answered',
          };
        })
        // On HTTP the cancellation is the stream's close: there is nothing to POST, malformed or not.
        .over(sweep.of(['cancel-ignored'], ['http']), ({ t }) => {
          const posted = messages(t).filter((m) => m.from === 'client' && method(m) === 'notifications/cancelled');
          const r = toolCall(t);
          const problems = posted.map((m) => `a cancellation was POSTed (seq ${m.seq})`);
          if (r === null || r.finals.length > 1) problems.push('not at most one final response on the wire');
          return {
            problems,
            seq: r?.cancelSentSeq ?? null,
            detail: 'HTTP has no cancellation to malform: the finished request’s stream is closed and nothing answers',
          };
        }),
  },
  {
    id: 'RC-8',
    statement:
      'One terminal state is stored, and the client’s own ending is kept beside it: when they cross, the views diverge.',
    check: (sweep) => {
      const runs = sweep.of(['B']);
      const crossed = (r: RequestOnWire | null, t: Transcript) =>
        r !== null &&
        r.cancelSentSeq !== null &&
        r.finals.some(
          (f) =>
            f.seq < (r.cancelReachedSeq ?? Number.POSITIVE_INFINITY) &&
            (find(t, 'delivered', (e) => e.messageSeq === f.seq)?.seq ?? 0) > (r.cancelSentSeq ?? 0),
        );
      return new Check()
        .over(runs, ({ t }) => {
          const r = toolCall(t);
          if (r === null) return NO_CALL;
          const problems: string[] = [];
          if (filterEvents(t, 'terminal').length !== 1) problems.push('not exactly one terminal state');
          if (crossed(r, t)) {
            const final = r.finals[0];
            const delivery = final === undefined ? undefined : find(t, 'delivered', (e) => e.messageSeq === final.seq);
            if (delivery?.ignoredBy !== 'client')
              problems.push('the response that crossed the cancellation was used by the client that had cancelled');
            if (find(t, 'views-diverge') === undefined) problems.push('the divergence is not marked');
          }
          return {
            problems,
            seq: find(t, 'views-diverge')?.seq,
            detail: 'the server completed; the client had cancelled and ignores the response',
          };
        })
        .shownIn(runs, ({ t }) => crossed(toolCall(t), t), 'a response and a cancellation crossing');
    },
  },
  {
    id: 'RC-9',
    statement: 'A server cancels only a subscriptions/listen call, on a path apart from the client’s cancellations.',
    check: (sweep) =>
      new Check().over(sweep.of(['listen-server-cancel']), ({ t }) => {
        const listenIds = messages(t)
          .filter((m) => m.from === 'client' && method(m) === 'subscriptions/listen')
          .map((m) => JSON.stringify(idOf(m)));
        const serverCancels = messages(t).filter((m) => m.from === 'server' && method(m) === 'notifications/cancelled');
        const named = serverCancels.map((m) => JSON.stringify(paramsOf(m).requestId));
        const clientNamed =
          t.transport === 'stdio'
            ? messages(t)
                .filter((m) => m.from === 'client' && method(m) === 'notifications/cancelled')
                .map((m) => JSON.stringify(paramsOf(m).requestId))
            : filterEvents(t, 'stream-closed', (e) => e.by === 'client').map((e) => JSON.stringify(e.requestId));
        const problems: string[] = [];
        if (named.length === 0) problems.push('the server ended no listen');
        if (!named.every((id) => listenIds.includes(id)))
          problems.push('the server’s notifications/cancelled named a request that is not a listen call');
        if (clientNamed.length === 0) problems.push('the client cancelled nothing');
        if (clientNamed.some((id) => listenIds.includes(id)))
          problems.push('the client’s cancellations and the server’s are not apart');
        return {
          problems,
          seq: serverCancels[0]?.seq,
          detail:
            'the server ends listen #1 with its own notifications/cancelled; the client cancels #2 on its own path',
        };
      }),
  },
  {
    id: 'BF-5',
    statement:
      'The buffer refuses a push that would drop another final response, and the producer waits until a slot is free.',
    check: (sweep) => {
      const settings = { capacity: 1 };
      const runs = sweep.of(['buffer-overload'], TRANSPORTS, settings);
      return new Check()
        .over(
          runs,
          ({ t }) => {
            const refused = filterEvents(t, 'buffer', (e) => e.action === 'refused');
            const released = filterEvents(t, 'buffer', (e) => e.action === 'released');
            const problems: string[] = [];
            if (released.length !== refused.length)
              problems.push('a refused push was not followed by the producer’s wait and release');
            for (const call of messages(t).filter((m) => m.from === 'client' && method(m) === 'tools/call'))
              if (requestOnWire(t, call).finalUsedSeq === null)
                problems.push(`no final response for #${String(idOf(call))} reached the client`);
            return {
              problems,
              seq: refused[0]?.seq,
              detail: `${refused.length} push(es) refused; the producer waited; every final response reached the client`,
            };
          },
          settings,
        )
        .shownIn(
          runs,
          ({ t }) => find(t, 'buffer', (e) => e.action === 'refused') !== undefined,
          'a push refused at capacity 1',
        );
    },
  },
  {
    id: 'LG-P5',
    statement:
      'The stored and returned result holds no secret: the payment token the call carried is absent from the ledger.',
    check: (sweep) =>
      new Check().over(sweep.of(['inventory-retry']), ({ t }) => {
        const carried = messages(t).some(
          (m) => m.from === 'client' && JSON.stringify(m.message).includes(PAYMENT_TOKEN),
        );
        const returned = messages(t).filter(
          (m) => m.from === 'server' && JSON.stringify(m.message).includes(PAYMENT_TOKEN),
        );
        const stored = filterEvents(t, 'sql').filter((e) => JSON.stringify(e).includes(PAYMENT_TOKEN));
        const problems: string[] = [];
        if (!carried) problems.push('the call carried no payment token to keep out');
        if (returned.length > 0)
          problems.push(`the server returned the payment token (seq ${returned.map((m) => m.seq).join(', ')})`);
        if (stored.length > 0)
          problems.push(`a statement wrote the payment token (seq ${stored.map((e) => e.seq).join(', ')})`);
        if (t.kind === 'ledger' && t.outcome.paymentTokenInLedger !== false)
          problems.push('the payment token was found in the ledger');
        return {
          problems,
          seq: find(t, 'sql', (e) => e.sql.includes('INTO ledger.idempotency_keys'))?.seq,
          detail:
            'the reservation is stored with key, fingerprint and result; the paymentToken on the wire is in no answer and no statement',
        };
      }),
  },
];

/** How far a verification got: distinct runs made of those it will make, and the statement being checked. */
export interface VerifyProgress {
  runsDone: number;
  runsTotal: number;
  statement: string;
}

const chosenStatements = (only?: readonly string[]) =>
  statements.filter(({ id }) => only === undefined || only.includes(id));

/** How many distinct runs `verify` makes for these statements: a planning pass (every sweep, no run made). */
export function verifyRunsPlanned(only?: readonly string[]): number {
  const plan = new Sweep(null);
  for (const { check } of chosenStatements(only)) check(plan);
  return plan.planned.size;
}

/**
 * Every statement (or those named in `only`), each from its sweep; runs are shared between statements.
 * `onProgress` hears each statement as it starts and each run as it is made: runsDone never falls and
 * ends at runsTotal, which a planning pass (every statement's sweeps, no run made) counts first.
 */
export function verify(
  run: Runner,
  only?: readonly string[],
  onProgress?: (progress: VerifyProgress) => void,
): VerificationResult[] {
  const chosen = chosenStatements(only);
  const sweep = new Sweep(run);
  let current = chosen[0]?.id ?? '';
  if (onProgress !== undefined) {
    const runsTotal = verifyRunsPlanned(only);
    sweep.onRun = () => onProgress({ runsDone: sweep.runCount, runsTotal, statement: current });
  }
  return chosen.map(({ id, statement, check }) => {
    current = id;
    sweep.onRun?.(); // the statement's name before its first run
    const checked = check(sweep);
    const problems = checked.problems;
    return {
      id,
      statement,
      holds: problems.length === 0,
      evidence: checked.evidence,
      problems,
      runs: checked.runs,
      scope: checked.scope(),
    };
  });
}
