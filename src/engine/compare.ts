import { unreachable } from './core/assert';
import { describeEvent } from './describe';
import { raceInvariants } from './invariants';
import { summarizeMessage } from './mcp/summary';
import type { LabEvent, RequestOutcome, Transcript } from './transcript';
import { recordingFacts } from './recordingFacts';
import { eventLanes } from './lanes';

/**
 * Two runs side by side: their facts, and the first event where they part. Used by
 * `lab compare` and the page's compare view, so both say the same thing.
 *
 * Runs of different implementations are compared on what both can record: the wire, each side's
 * states, the terminal state, the worker's steps and the cancellations. The model's deadline
 * bookkeeping has no counterpart in the SDK (its timers are private), and the SDK's session
 * handshake none in the model; both are left out, and `note` says so.
 */
export interface FactRow {
  readonly name: string;
  readonly a: string;
  readonly b: string;
  readonly differs: boolean;
}

/**
 * The first virtual instant at which the runs did different things. Events of one instant are
 * compared as a set: the order of same-instant events is the scheduler's choice, not a difference.
 */
export interface Divergence {
  readonly atMs: number;
  /** Index into each transcript's `events` of the first event of that instant with no match in the other run (null: none). */
  readonly indexA: number | null;
  readonly indexB: number | null;
  /** Those events as the timeline words them (null: that run did nothing else at that instant). */
  readonly a: string | null;
  readonly b: string | null;
}

/** An event, its index in its transcript and its lane (src/engine/lanes.ts: two runs differ where an actor does). */
type Indexed = { index: number; event: LabEvent; lane: string };

/** Both runs' events grouped by instant: one pass each, so a comparison is linear in the number of events. */
function byInstant(list: readonly Indexed[], into: Map<number, [Indexed[], Indexed[]]>, side: 0 | 1): void {
  for (const item of list) {
    let group = into.get(item.event.atMs);
    if (group === undefined) into.set(item.event.atMs, (group = [[], []]));
    group[side].push(item);
  }
}

/** The first of `mine`, in order, left without an equal event among `theirs` (each of theirs matches once). */
function unmatched(
  mine: readonly Indexed[],
  theirs: readonly Indexed[],
  mineId: string,
  theirsId: string,
): Indexed | undefined {
  const left = new Map<string, number>();
  for (const item of theirs) {
    const key = signature(item.event, item.lane, theirsId);
    left.set(key, (left.get(key) ?? 0) + 1);
  }
  return mine.find((item) => {
    const key = signature(item.event, item.lane, mineId);
    const count = left.get(key) ?? 0;
    if (count === 0) return true;
    left.set(key, count - 1);
    return false;
  });
}

/** How many events are compared between two looks at the clock the caller may pass (`tick`). */
const COMPARE_TICK_EVENTS = 4_096;

function firstDivergence(
  ea: Indexed[],
  eb: Indexed[],
  idA: string,
  idB: string,
  tick: (eventsCompared: number) => void,
): Divergence | null {
  const instants = new Map<number, [Indexed[], Indexed[]]>();
  byInstant(ea, instants, 0);
  byInstant(eb, instants, 1);
  const times = [...instants.keys()].sort((x, y) => x - y);
  let compared = 0;
  let nextTick = COMPARE_TICK_EVENTS;
  for (const atMs of times) {
    const [xa, xb] = instants.get(atMs) as [Indexed[], Indexed[]];
    compared += xa.length + xb.length;
    if (compared >= nextTick) {
      tick(compared);
      nextTick = compared + COMPARE_TICK_EVENTS;
    }
    const onlyA = unmatched(xa, xb, idA, idB);
    const onlyB = unmatched(xb, xa, idB, idA);
    if (onlyA === undefined && onlyB === undefined) continue;
    const words = (item: Indexed | undefined) =>
      item === undefined ? null : `${item.event.atMs} ms  ${describeEvent(item.event)}`;
    return { atMs, indexA: onlyA?.index ?? null, indexB: onlyB?.index ?? null, a: words(onlyA), b: words(onlyB) };
  }
  return null;
}

export interface RunComparison {
  readonly facts: FactRow[];
  /** Null when the compared events match all the way. */
  readonly divergence: Divergence | null;
  /** How the events were compared. */
  readonly note: string;
}

const COMPARABLE = new Set([
  'message',
  'delivered',
  'state',
  'terminal',
  'worker',
  'stream-opened',
  'stream-closed',
  'disconnect-observed',
  'cancel-accepted',
  'cancel-ignored',
  'suppressed',
  'views-diverge',
]);

function implementationOf(t: Transcript): string {
  return t.implementation ?? 'model';
}

/** The facts a run establishes, named alike for any two runs of the same kind. */
export function runFacts(t: Transcript): Array<[string, string]> {
  if (t.kind === 'recording') return recordingFacts(t);
  const facts: Array<[string, string]> = [
    ['run', `${t.scenario} on ${t.transport}, seed ${t.seed}`],
    [
      'implementation',
      t.sdk !== undefined
        ? `${t.sdk.package} ${t.sdk.version}`
        : t.implementation === 'ts-sdk' || t.implementation === 'ts-sdk-v2'
          ? `the lab's herd, every wait ${t.implementation}'s own reconnection delay`
          : "the lab's spec model",
    ],
    ['protocol', t.protocolVersion],
  ];
  if (t.kind === 'request-race') {
    const o = t.outcome as RequestOutcome;
    facts.push(
      ['terminal state', `${o.terminalState} at ${o.terminalAtMs} ms`],
      ['final response', o.finalResponse ? 'sent' : 'none'],
      ['cancellation signal', o.cancellationSignal ?? 'none'],
      ['client outcome', `${o.clientOutcome} at ${o.clientOutcomeAtMs} ms`],
      [
        'cancel sent',
        o.cancelDelayMs === null
          ? 'never'
          : `at ${o.clientOutcomeAtMs + o.cancelDelayMs} ms (${o.cancelDelayMs} ms after the client ended)`,
      ],
      [
        'client ignores',
        o.clientIgnores.length === 0
          ? 'nothing'
          : o.clientIgnores
              .map((i) => `${i.summary.replace(`#${String(o.requestId)}`, '#call')} at ${i.atMs} ms`)
              .join(', '),
      ],
      ['views diverge', o.viewsDiverge ? 'yes' : 'no'],
    );
    const checks = t.sdk?.invariants ?? raceInvariants(t);
    const broken = checks.filter((c) => !c.holds).map((c) => c.id);
    facts.push(['invariants broken', broken.length === 0 ? 'none' : broken.join(', ')]);
    return facts;
  }
  for (const [key, value] of Object.entries(t.outcome))
    facts.push([key, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)]);
  return facts;
}

/** What an event did, with the run's own request id written `#call`, and no wording that only one implementation gives. */
function signature(event: LabEvent, lane: string, callId: string): string {
  const id = (text: string): string => text.split(`#${callId}`).join('#call');
  const head = `${event.atMs} ${lane} ${event.kind}`;
  switch (event.kind) {
    case 'message':
      return id(
        `${head} ${event.from}→${event.to} ${summarizeMessage(event.message)} on ${event.channel} arrives ${event.arrivesAtMs}${event.ignoredBy === undefined ? '' : ` ignored by ${event.ignoredBy}`}`,
      );
    case 'delivered':
      return id(`${head} ${event.summary}${event.ignoredBy === undefined ? '' : ` ignored by ${event.ignoredBy}`}`);
    case 'state':
      return `${head} ${event.side} ${event.from}→${event.to}`;
    case 'terminal':
      return `${head} ${event.state}`;
    case 'worker':
      return `${head} ${event.step}`;
    case 'suppressed':
      return `${head} ${event.by} ${event.what}`;
    case 'views-diverge':
      return `${head} ${event.clientView}`;
    case 'stream-opened':
    case 'stream-closed':
    case 'disconnect-observed':
    case 'cancel-accepted':
    case 'cancel-ignored':
      return `${head} ${event.by}`;
    case 'request-started':
    case 'deadline':
    case 'http-request':
    case 'stream-dropped':
    case 'reconnect-plan':
    case 'recovery':
    case 'sse-comment':
    case 'sql':
    case 'ledger':
    case 'task':
    case 'buffer':
    case 'proxy':
    case 'message-lost':
    case 'herd-window':
    case 'probe-note':
    case 'http-response':
    case 'verdict':
      return head;
    default:
      return unreachable(event, 'an event kind with no signature');
  }
}

function callIdOf(t: Transcript): string {
  return t.kind === 'request-race' ? String((t.outcome as RequestOutcome).requestId) : '\u0000';
}

/** The events that take part in the comparison, with their index in the transcript. */
function comparedEvents(t: Transcript, mixed: boolean): Indexed[] {
  const lanes = eventLanes(t.events);
  const events = t.events.map((event, index) => ({ index, event, lane: lanes[index] as string }));
  if (!mixed) return events;
  // The SDK's session handshake comes before the call; the model has none.
  const start =
    t.sdk === undefined
      ? 0
      : Math.max(
          0,
          t.events.findIndex((e) => e.kind === 'request-started'),
        );
  return events.filter(({ index, event }) => index >= start && COMPARABLE.has(event.kind));
}

export interface CompareOptions {
  /**
   * Called every few thousand events compared, with the count so far: the host's wall-clock budget
   * or Stop throws from here (the engine keeps no clock of its own).
   */
  readonly tick?: (eventsCompared: number) => void;
}

export function compareRuns(a: Transcript, b: Transcript, options: CompareOptions = {}): RunComparison {
  const factsA = runFacts(a);
  const factsB = new Map(runFacts(b));
  const names = [
    ...factsA.map(([name]) => name),
    ...[...factsB.keys()].filter((name) => !factsA.some(([n]) => n === name)),
  ];
  const mapA = new Map(factsA);
  const facts = names.map((name) => {
    const va = mapA.get(name) ?? '—';
    const vb = factsB.get(name) ?? '—';
    return { name, a: va, b: vb, differs: va !== vb };
  });
  const mixed = implementationOf(a) !== implementationOf(b);
  const ea = comparedEvents(a, mixed);
  const eb = comparedEvents(b, mixed);
  const idA = callIdOf(a);
  const idB = callIdOf(b);
  const divergence = firstDivergence(ea, eb, idA, idB, options.tick ?? (() => undefined));
  const note = mixed
    ? "the two implementations are compared on what both record — the wire, each side's states, the terminal state, the worker, the cancellations — with each run's own request id read as #call; the model's deadline events and the SDK's session handshake are left out"
    : "every event is compared, with each run's own request id read as #call";
  return { facts, divergence, note };
}
