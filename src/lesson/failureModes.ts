import type { Transcript } from '../engine';
import { failureCards, type FailureCard, type RunLink } from './failureCards';
import type { Runner } from './verification';

/**
 * docs/requirements.md#failure-modes-each-runnable-next-to-its-fix, runnable: for each row of the failure-mode table, the run that shows the
 * failure and the run that shows the correct response, each checked against its own transcript.
 * A check reads the outcome the engine computed; it never re-derives protocol behaviour.
 */
export interface FailureModeResult extends FailureCard {
  /** The failure run shows the symptom. */
  failureShown: boolean;
  /** The fix run shows the correct response. */
  fixShown: boolean;
  /** What each run shows, in words. */
  failureDetail: string;
  fixDetail: string;
  problems: string[];
}

/** A card's check reads its run's outcome by field name: the cards span several model kinds. */
type Outcome = Record<string, unknown>;
const fieldsOf = (outcome: object): Outcome => Object.fromEntries(Object.entries(outcome));
type Verdict = readonly [shown: boolean, detail: string];
interface Check {
  failure(o: Outcome, t: Transcript): Verdict;
  fix(o: Outcome, t: Transcript): Verdict;
}

const n = (value: unknown): number => Number(value);
const executions = (o: Outcome): Verdict => [n(o.executions) === 2, `the effect ran ${String(o.executions)} time(s)`];
const once = (o: Outcome): Verdict => [n(o.executions) === 1, `the effect ran ${String(o.executions)} time(s)`];

const checks: Record<keyof typeof failureCards, Check> = {
  httpPostsCancel: {
    failure: (o) => [
      o.terminalState === 'completed' && o.cancellationSignal === 'notifications/cancelled',
      `the server ignored the POSTed notification and ended ${String(o.terminalState)}; the client had cancelled (${String(o.clientOutcome)})`,
    ],
    fix: (o) => [
      o.terminalState === 'cancelled' && o.cancellationSignal === 'stream-close',
      `closing the stream cancelled it: ${String(o.terminalState)}`,
    ],
  },
  respondsAfterCancel: {
    failure: (o) => [
      o.terminalState === 'cancelled' && o.finalResponse === true,
      `cancelled at ${String(o.terminalAtMs)} ms, yet a response went out and the client had to ignore it`,
    ],
    fix: (o) => [
      o.terminalState === 'cancelled' && o.finalResponse === false,
      'cancelled, and the response was suppressed',
    ],
  },
  progressResetsEverything: {
    failure: (o, t) => [
      n(o.terminalAtMs) > n(t.settings.maxTimeoutMs),
      `the request ran to ${String(o.terminalAtMs)} ms, past its ${String(t.settings.maxTimeoutMs)} ms budget (${String(o.terminalState)})`,
    ],
    fix: (o, t) => [
      o.terminalState === 'timeout-max' && n(o.terminalAtMs) === n(t.settings.maxTimeoutMs),
      `the maximum deadline fired at ${String(o.terminalAtMs)} ms despite steady progress`,
    ],
  },
  newIdAsDedupe: { failure: executions, fix: once },
  separateKeyCheck: { failure: executions, fix: once },
  inMemoryLedger: { failure: executions, fix: once },
  sharedMutableResult: {
    failure: (o) => [o.aliasIntact === false, 'the replay shows the caller’s changes'],
    fix: (o) => [o.aliasIntact === true, 'the replay equals the committed result'],
  },
  keyReusedChangedArgs: {
    failure: (o) => [
      n(o.replayed) === 1 && n(o.rejected) === 0,
      'the retry with other arguments got the first intent’s result',
    ],
    fix: (o) => [n(o.rejected) === 1 && n(o.executions) === 1, 'the retry with other arguments was refused (422-like)'],
  },
  unboundedQueue: {
    failure: (o) => [
      o.capacity === null && n(o.maxOccupancy) > 8,
      `no bound: ${String(o.maxOccupancy)} events held at the peak, nothing coalesced or dropped`,
    ],
    fix: (o) => [
      n(o.maxOccupancy) <= n(o.capacity),
      `at most ${String(o.maxOccupancy)} of ${String(o.capacity)} held; ${String(o.coalesced)} coalesced, ${String(o.dropped)} progress dropped`,
    ],
  },
  finalDropped: {
    failure: (o) => [o.finalDelivered === false, 'a final response was evicted: its client never learns the outcome'],
    fix: (o) => [o.finalDelivered === true, 'only progress was evicted; every final response arrived'],
  },
  proxyBuffers: {
    failure: (o) => [
      o.idleTimeoutFired === true,
      `the buffered progress never arrived in time: ${String(o.requestEndedAs)}`,
    ],
    fix: (o) => [
      o.idleTimeoutFired === false && o.requestEndedAs === 'completed',
      'progress flowed at once; the request completed',
    ],
  },
  lastEventIdAssumed: {
    failure: (o) => [o.clientStateStale === true, 'the client waited for a replay that never came: its state is stale'],
    fix: (o) => [
      o.clientStateStale === false && Array.isArray(o.refetchedMethods) && o.refetchedMethods.length > 0,
      `a new listen request, then ${Array.isArray(o.refetchedMethods) ? o.refetchedMethods.join(', ') : ''}`,
    ],
  },
  herd: {
    failure: (o) => [
      n(o.peakAttemptsPerWindow) >= n(o.clients),
      `every client at once: ${String(o.peakAttemptsPerWindow)} attempts in one window, ${String(o.totalAttempts)} in all`,
    ],
    fix: (o) => [
      n(o.peakAttemptsPerWindow) < n(o.clients),
      `spread out: at most ${String(o.peakAttemptsPerWindow)} attempts per window, ${String(o.totalAttempts)} in all`,
    ],
  },
  taskAckFinal: {
    failure: (o) => [
      o.clientReported === 'cancelled' && o.taskStatus !== 'cancelled',
      `the client told its user "cancelled"; the task ended ${String(o.taskStatus)}`,
    ],
    fix: (o) => [
      o.clientReported === o.taskStatus,
      `the client polled until ${String(o.taskStatus)} and reported that`,
    ],
  },
};

function runOf(run: Runner, link: RunLink): Transcript {
  return run(link.scenario, { transport: link.transport, settings: link.settings });
}

export function checkFailureModes(run: Runner): FailureModeResult[] {
  return (Object.entries(failureCards) as Array<[keyof typeof failureCards, FailureCard]>).map(([key, card]) => {
    const check = checks[key];
    const failed = runOf(run, card.failureRun);
    const fixed = runOf(run, card.fixRun);
    const [failureShown, failureDetail] = check.failure(fieldsOf(failed.outcome), failed);
    const [fixShown, fixDetail] = check.fix(fieldsOf(fixed.outcome), fixed);
    const problems: string[] = [];
    if (!failureShown)
      problems.push(`${card.failureRun.scenario}: the failure run does not show it (${failureDetail})`);
    if (!fixShown)
      problems.push(`${card.fixRun.scenario}: the fix run does not show the correct response (${fixDetail})`);
    return {
      id: card.id,
      failure: card.failure,
      symptom: card.symptom,
      correctResponse: card.correctResponse,
      failureRun: card.failureRun,
      fixRun: card.fixRun,
      failureShown,
      fixShown,
      failureDetail,
      fixDetail,
      problems,
    };
  });
}
