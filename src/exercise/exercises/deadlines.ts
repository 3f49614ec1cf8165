import type { DeadlinesDue } from '../../engine';
import type { Caller } from '../caller';
import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import type { Json } from '../types';

const STARTER = `// Exercise: the client's two deadlines (docs/requirements.md RC-1, RC-2, RC-4).
//
// A client calls a tool and waits. It keeps two clocks for the request: an idle deadline (time
// allowed with no useful activity) and a maximum deadline (an absolute budget from the start).
// Progress the client accepts (notifications/progress for the request's token) is useful activity.
// Write the deadlines: the lab arms its timers where you say, and ends the request when one fires.
//
// Interface (a contract; keep the names):
//   export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs, progressToken })
//     -> { dueAtMs(), onProgress(atMs) }
//   dueAtMs()        returns { idle, max }: when each deadline is due, in virtual ms (the lab asks at the start)
//   onProgress(atMs) the client accepted progress at atMs; returns { idle, max } after it
//   progressToken is a string (the client asked for progress) or null; a due time of null means
//   "no such deadline".
//
// The lab checks, in every ordering of scenario C (steady progress, then the maximum deadline) on
// stdio and Streamable HTTP with jittered latency, with the server's progress switched off, and in the
// lesson's example (progress at 400, 800, 1200 … ms, idle 500 ms, maximum 2000 ms):
//   - at the start, idle is due idleTimeoutMs after it and max maxTimeoutMs after it;
//   - progress restarts the idle deadline: idle is due idleTimeoutMs after the progress;
//   - nothing moves the maximum deadline: max stays startedAtMs + maxTimeoutMs;
//   - a progress token never means "no timeout": both deadlines are always due at a time, never null.
//
// This starter is the failure mode "progress resets every deadline": each progress restarts the
// maximum too, so a hung worker that keeps sending progress survives forever. Fix it.

export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs, progressToken }) {
  let lastActivityAtMs = startedAtMs;
  const due = () => ({ idle: lastActivityAtMs + idleTimeoutMs, max: lastActivityAtMs + maxTimeoutMs });
  return {
    dueAtMs() {
      return due();
    },
    onProgress(atMs) {
      lastActivityAtMs = atMs;
      return due();
    },
  };
}
`;

function dueOf(value: Json, call: string, caller: Caller): DeadlinesDue {
  const shape = `${call} must return { idle, max }: each a number of virtual ms, or null for no such deadline`;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return caller.shape(`${call} returned ${JSON.stringify(value)}; ${shape}`);
  const { idle, max } = value;
  const time = (field: Json | undefined): field is number | null => field === null || typeof field === 'number';
  if (!time(idle) || !time(max))
    return caller.shape(`${call} returned ${JSON.stringify(value).slice(0, 200)}; ${shape}`);
  return { idle, max };
}

/** Scenario C with a shorter budget and work (fewer progress messages to order; a moved maximum still lets the work finish). */
const C_SHORT = { maxTimeoutMs: 1_000, workMs: 1_600, latencyJitterMs: 30 };

export const deadlinesExercise: ExerciseDef = {
  id: 'deadlines',
  title: "The client's two deadlines",
  summary:
    'The idle and the maximum deadline a client keeps for one request: progress it accepts restarts the idle one and never the ' +
    'maximum, and asking for progress (a progress token) never removes either, since the server may send none.',
  exports: ['createDeadlines'],
  statements: [
    {
      id: 'armed-at-start',
      text: 'At the start, the idle deadline is due idleTimeoutMs later and the maximum maxTimeoutMs later.',
      requirements: ['RC-1'],
    },
    {
      id: 'idle-reset-by-progress',
      text: 'Progress the client accepts restarts the idle deadline: it is due idleTimeoutMs after the progress.',
      requirements: ['RC-2'],
    },
    {
      id: 'max-never-moves',
      text: 'Nothing moves the maximum deadline: it stays due maxTimeoutMs after the start, whatever progress arrives.',
      requirements: ['RC-2'],
    },
    {
      id: 'token-keeps-deadlines',
      text: 'A request with a progress token still has both deadlines: neither is ever none.',
      requirements: ['RC-4'],
    },
    {
      id: RUNS_TO_END,
      text: 'Every ordering runs to its end: the request ends in exactly one terminal state.',
      requirements: ['RC-1'],
    },
  ],
  starter: STARTER,
  runs: [
    { scenario: 'C', transport: 'stdio', settings: C_SHORT },
    { scenario: 'C', transport: 'http', settings: C_SHORT },
    // RC-4: the server accepts the token and sends no progress; only the idle deadline ends the request.
    { scenario: 'C', transport: 'http', settings: { ...C_SHORT, serverSendsProgress: false } },
    // The lesson's example (RC-2): progress at 400, 800, 1200, 1600 ms and at 2000 ms, the instant the maximum fires.
    { scenario: 'C', transport: 'stdio', settings: { latencyMs: 0, workMs: 2_400 } },
  ],
  // The engine's invariant max-deadline-by-start-plus-max also sees a request without deadlines outlive its
  // budget; the adapter's checks say which statement broke, so it maps to none.
  invariantStatements: {},
  components(caller) {
    return {
      deadlines: (start, clock) => {
        caller.clock = clock;
        const handle = caller.make('createDeadlines', [{ ...start }]);
        return {
          dueAtMs: () => dueOf(caller.method(handle, 'dueAtMs', []), 'dueAtMs()', caller),
          onProgress: (atMs) => dueOf(caller.method(handle, 'onProgress', [atMs]), `onProgress(${atMs})`, caller),
        };
      },
    };
  },
};
