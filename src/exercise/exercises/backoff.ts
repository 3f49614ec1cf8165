import type { ExerciseDef, DirectResult } from '../exercise';
import { RUNS_TO_END } from '../grade';
import type { ComponentInstance } from '../runtime';
import { StudentCodeError } from '../runtime';

/** The contract's numbers (docs/requirements.md RV-4): attempt n waits up to min(CAP_MS, BASE_MS·2ⁿ). */
export const BASE_MS = 250;
export const CAP_MS = 8_000;
/** The herd the spread is checked over: ids 0 … HERD_SIZE − 1. */
export const HERD_SIZE = 10_000;
/** The spread: no window this long holds more than half the herd. */
export const SPREAD_WINDOW_MS = 100;
/** The attempts the spread is checked at: the first reconnect, and a retry wave. */
export const SPREAD_ATTEMPTS = [0, 3] as const;

const STARTER = `// Exercise: the herd's reconnect delay (docs/requirements.md RV-4, RV-5).
//
// 10,000 clients lose their streams at the same instant and reconnect to a recovering server that
// admits only so many connections per 100 ms. Before reconnect attempt n (0 for the first), a client
// waits backoffDelayMs(clientId, attempt) milliseconds. Write that function.
//
// Interface (a contract; keep the name):
//   export function backoffDelayMs(clientId, attempt)  ->  an integer number of milliseconds
//   clientId: an integer from 0;  attempt: an integer from 0
//
// The lab checks:
//   - every delay is an integer in [0, min(250 * 2^attempt, 8000)]   (in every ordering of the herd);
//   - the same arguments always give the same answer (no state that changes between calls: the lab
//     replays every ordering and must see the same waits; there is no Date and no Math.random here,
//     so derive the randomness from the arguments, e.g. with a hash of clientId and attempt);
//   - spread: when clients 0 … 9,999 reconnect at attempt 0, no 100 ms window holds more than half
//     of them (and likewise at attempt 3, a retry wave).
//
// This starter is the failure mode "reconnect without jitter": every client waits exactly the
// ceiling, so the whole herd retries in the same instant, wave after wave. Add jitter.

export function backoffDelayMs(clientId, attempt) {
  return Math.min(250 * 2 ** attempt, 8000);
}
`;

function ceilingMs(attempt: number): number {
  return Math.min(CAP_MS, BASE_MS * 2 ** attempt);
}

/** Every client's delay at one attempt, read as numbers (a value of another kind is the student's shape error). */
function herdDelays(instance: ComponentInstance, attempt: number, ids: readonly number[]): Float64Array {
  const delays = new Float64Array(HERD_SIZE);
  for (const id of ids) {
    const value = instance.call('backoffDelayMs', [id, attempt]);
    if (typeof value !== 'number')
      throw new StudentCodeError(
        'shape',
        `backoffDelayMs(${id}, ${attempt}) returned ${JSON.stringify(value)}; it must return a whole number of milliseconds`,
      );
    delays[id] = value;
  }
  return delays;
}

/** The most delays in one window [t, t + SPREAD_WINDOW_MS), over every t, and where that window starts. */
export function busiestWindow(delays: Float64Array): { count: number; startMs: number } {
  const sorted = Float64Array.from(delays).sort();
  let best = { count: 0, startMs: 0 };
  let from = 0;
  for (let to = 0; to < sorted.length; to += 1) {
    while ((sorted[to] as number) - (sorted[from] as number) >= SPREAD_WINDOW_MS) from += 1;
    if (to - from + 1 > best.count) best = { count: to - from + 1, startMs: sorted[from] as number };
  }
  return best;
}

/** Every SAMPLE_EVERY-th client is asked again, for the same-answer checks (the spread reads all). */
const SAMPLE_EVERY = 10;

/** The first client whose delay at `attempt` is no whole number in [0, ceiling], in words; null: none. */
function outOfRange(delays: Float64Array, attempt: number): string | null {
  const ceiling = ceilingMs(attempt);
  for (let id = 0; id < delays.length; id += 1) {
    const delay = delays[id] as number;
    if (!Number.isInteger(delay) || delay < 0 || delay > ceiling)
      return `backoffDelayMs(${id}, ${attempt}) answered ${delay}${Number.isInteger(delay) ? ' ms' : ''}, outside [0, ${ceiling}] (min(${CAP_MS}, ${BASE_MS}·2^${attempt}))${Number.isInteger(delay) ? '' : ' or not a whole number'}`;
  }
  return null;
}

/**
 * The statements checked by calling the function directly, over the whole herd: the same answer
 * twice (asked again in the same instance, and in a fresh one in the other order), the spread, and
 * the range (which the runs, with their few clients, may not reach; a run's breach keeps its ordering).
 */
function direct(open: () => ComponentInstance): DirectResult[] {
  const ascending = Array.from({ length: HERD_SIZE }, (_, id) => id);
  const sample = ascending.filter((id) => id % SAMPLE_EVERY === 0);
  // One instance at a time: a process component (--cmd) has one live instance, reset by each open().
  const first = open();
  let delays: Float64Array[];
  let twice: Float64Array;
  try {
    delays = SPREAD_ATTEMPTS.map((attempt) => herdDelays(first, attempt, ascending));
    // State kept between calls shows in the same instance.
    twice = herdDelays(first, 0, sample);
  } finally {
    first.dispose();
  }
  const again = open();
  try {
    const zero = delays[0] as Float64Array;
    // Answers that depend on the order of calls show in a fresh instance asked from the last client down.
    const reversed = herdDelays(again, 0, [...sample].reverse());
    const results: DirectResult[] = [];
    const sameInstance = sample.find((id) => twice[id] !== zero[id]);
    const otherOrder = sample.find((id) => reversed[id] !== zero[id]);
    if (sameInstance !== undefined) {
      results.push({
        id: 'deterministic',
        holds: false,
        explanation: `backoffDelayMs(${sameInstance}, 0) answered ${zero[sameInstance]} and, asked again, ${twice[sameInstance]}: the same arguments must give the same answer (keep no state that changes between calls)`,
      });
    } else if (otherOrder !== undefined) {
      results.push({
        id: 'deterministic',
        holds: false,
        explanation: `backoffDelayMs(${otherOrder}, 0) answered ${zero[otherOrder]} when the clients were asked from 0 up, but ${reversed[otherOrder]} when asked from the last down: the answer must depend on the arguments only, not on the order of calls`,
      });
    } else {
      results.push({ id: 'deterministic', holds: true });
    }
    const crowded: string[] = [];
    const outside: string[] = [];
    for (const [index, attempt] of SPREAD_ATTEMPTS.entries()) {
      const atAttempt = delays[index] as Float64Array;
      const busiest = busiestWindow(atAttempt);
      if (busiest.count > HERD_SIZE / 2)
        crowded.push(
          `at attempt ${attempt}, ${busiest.count.toLocaleString('en-US')} of the ${HERD_SIZE.toLocaleString('en-US')} clients wait between ${busiest.startMs} and ${busiest.startMs + SPREAD_WINDOW_MS} ms (the ceiling is ${ceilingMs(attempt)} ms)`,
        );
      const wrong = outOfRange(atAttempt, attempt);
      if (wrong !== null) outside.push(wrong);
    }
    results.push(
      crowded.length === 0
        ? { id: 'spread-herd', holds: true }
        : {
            id: 'spread-herd',
            holds: false,
            explanation: `${crowded.join('; ')}: more than half the herd reconnects inside one ${SPREAD_WINDOW_MS} ms window, so the recovering server meets it all at once. Spread the waits over [0, ceiling]`,
          },
    );
    results.push(
      outside.length === 0
        ? { id: 'delay-in-range', holds: true }
        : {
            id: 'delay-in-range',
            holds: false,
            explanation: `over the herd of ${HERD_SIZE.toLocaleString('en-US')}: ${outside.join('; ')}`,
          },
    );
    return results;
  } finally {
    again.dispose();
  }
}

/** The herd settings the runs share: the contract's base and cap, the lab's full-jitter policy replaced. */
const HERD = { baseMs: BASE_MS, capMs: CAP_MS, initialJitter: true, dropAtMs: null };

export const backoffExercise: ExerciseDef = {
  id: 'backoff',
  title: "The herd's reconnect delay",
  summary:
    'How long a client waits before reconnect attempt n: a whole number of milliseconds up to min(8000, 250·2ⁿ), drawn from ' +
    'the client id and the attempt (the same answer every time), spread so that a herd of clients that lost their streams ' +
    'together does not come back together.',
  exports: ['backoffDelayMs'],
  statements: [
    {
      id: 'delay-in-range',
      text: 'Every delay is a whole number of milliseconds in [0, min(250·2ⁿ, 8000)] for attempt n.',
      requirements: ['RV-4'],
    },
    { id: 'deterministic', text: 'The same client and attempt always give the same delay.', requirements: ['RV-4'] },
    {
      id: 'spread-herd',
      text: 'When 10,000 clients reconnect together (attempt 0, and again at attempt 3), no 100 ms window holds more than half of them.',
      requirements: ['RV-4', 'RV-5'],
    },
    {
      id: RUNS_TO_END,
      text: 'Every ordering of the herd runs to its end: every client reconnects.',
      requirements: ['RV-5'],
    },
  ],
  starter: STARTER,
  runs: [
    // A small herd, so that even clients in lockstep (every same-instant ordering of who is admitted) explore quickly.
    { scenario: 'herd', transport: 'http', settings: { ...HERD, clients: 5, admitPerWindow: 2, windowMs: 100 } },
    // One admission every 12 s: clients are refused long enough to retry past the cap (attempts 6 to 10).
    { scenario: 'herd', transport: 'stdio', settings: { ...HERD, clients: 3, admitPerWindow: 1, windowMs: 12_000 } },
  ],
  invariantStatements: {},
  components(caller) {
    return {
      backoffDelayMs: (clientId, attempt, clock) => {
        caller.clock = clock;
        const value = caller.call('backoffDelayMs', [clientId, attempt]);
        return typeof value === 'number'
          ? value
          : caller.shape(
              `backoffDelayMs(${clientId}, ${attempt}) returned ${JSON.stringify(value)}; it must return a whole number of milliseconds`,
            );
      },
    };
  },
  direct,
};
