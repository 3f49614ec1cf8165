import type { CancelAnswer, CompleteAnswer, ProgressAnswer } from '../../engine';
import type { Caller } from '../caller';
import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import type { Json } from '../types';

const STARTER = `// Exercise: the server's RequestCoordinator (docs/requirements.md#request-lifecycle-rc, RC-3 … RC-8).
//
// One tool call runs on a server: a worker works in uninterruptible chunks and reports progress at the
// end of each; the client may cancel at any time, and its cancellation races the worker's result.
// The lab's engine runs the wire, the client and the worker; your coordinator makes every decision of
// the SERVER: what it does with a cancellation, with each progress report, and with the result.
//
// Interface (a contract; keep the names). Every argument and every answer is plain JSON:
//   export function createCoordinator()  ->  { onRequest, onCancel, onProgress, onComplete }
//
//   onRequest(id, progressToken)
//       The server received request \`id\` (an integer or a string); \`progressToken\` is the token its
//       client asked for progress with (a string or an integer), or null. Called once per request,
//       before anything else about it. Answer null (every call must return a JSON value; this one is
//       not used).
//
//   onCancel(params)  ->  'accept' | 'ignore'
//       A cancellation reached the server. On stdio \`params\` is the params of the client's
//       notifications/cancelled, exactly as sent (null if it had none): normally { requestId, reason },
//       but a buggy client may send one without a requestId, or naming a request this server never
//       received. On Streamable HTTP the client cancels by closing the request's response stream;
//       the server observes the close and you are called with { requestId }.
//       'accept': the request is cancelled now (its terminal state); the worker stops at its next
//       checkpoint. 'ignore': nothing changes.
//
//   onProgress(id, progress)  ->  'send' | 'drop'
//       The worker reports \`progress\` (a number) for request \`id\`. 'send' puts a
//       notifications/progress on the wire; 'drop' sends nothing. The worker reports at the end of
//       every chunk, including a chunk during which the request was cancelled; from its second report
//       on it first repeats its previous value; and once more (its last value, the total) after it
//       returned its result, i.e. after onComplete.
//
//   onComplete(id)  ->  'send' | 'suppress'
//       The worker finished request \`id\` (even one whose cancellation you accepted: a chunk already
//       running finishes). 'send' puts the final response on the wire (on Streamable HTTP it ends the
//       response stream); 'suppress' sends nothing. (Suppressing the result of a request you did not
//       cancel is a breach; the lab reports it and sends the response anyway, so that the run can end.)
//       Likewise accepting a cancellation that names no request you know is a breach that cancels nothing.
//
// The lab runs scenarios A, B, C and D over stdio and Streamable HTTP, and cancel-ignored over stdio,
// each in every ordering the network allows, with your coordinator deciding, and checks:
//   - a cancellation of the running request is accepted, and from then on nothing more is sent for it
//     (no progress, no response);
//   - a cancellation that arrives after the request completed is ignored: it ends exactly once;
//   - a malformed cancellation, or one naming a request the server does not know, is ignored;
//   - progress sent for a request strictly increases;
//   - no progress is sent after the request's final response;
//   - a request whose work finished, and that was not cancelled, gets its final response.
//
// This starter is the failure mode "the server responds after an accepted cancellation": it notes that
// a request was cancelled but never consults that note, so the response (and progress) still go out.

export function createCoordinator() {
  const requests = new Map(); // id -> { state: 'active' | 'cancelled' | 'completed', lastProgress }
  return {
    onRequest(id, progressToken) {
      requests.set(id, { state: 'active', lastProgress: null });
      return null;
    },
    onCancel(params) {
      const request = params === null || typeof params !== 'object' ? undefined : requests.get(params.requestId);
      if (request === undefined) return 'ignore';
      request.state = 'cancelled';
      return 'accept';
    },
    onProgress(id, progress) {
      const request = requests.get(id);
      if (request.lastProgress !== null && progress <= request.lastProgress) return 'drop';
      request.lastProgress = progress;
      return 'send';
    },
    onComplete(id) {
      return 'send';
    },
  };
}
`;

const ANSWERS = {
  onCancel: ['accept', 'ignore'],
  onProgress: ['send', 'drop'],
  onComplete: ['send', 'suppress'],
} as const;

/** The student's answer to `name`, checked against the answers the contract allows. */
function answer<N extends keyof typeof ANSWERS>(
  caller: Caller,
  handle: number,
  name: N,
  args: readonly Json[],
): (typeof ANSWERS)[N][number] {
  const value = caller.method(handle, name, args);
  const allowed: readonly string[] = ANSWERS[name];
  if (typeof value !== 'string' || !allowed.includes(value))
    caller.shape(
      `${name}() returned ${JSON.stringify(value) ?? 'undefined'}; it must return ${allowed.map((option) => `'${option}'`).join(' or ')}`,
    );
  return value as (typeof ANSWERS)[N][number];
}

/** A cancellation's params as the student receives them: plain JSON (undefined, which JSON lacks, becomes null). */
function json(value: unknown): Json {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json);
}

/**
 * The jitter each scenario is explored at: B's both ways (the cancellation early enough to win, or late), A's and
 * D's cancellation anywhere in its chunk. C's race is between the client's own deadlines, which the exercise does
 * not replace (with any jitter its idle deadline's critical arrivals take hundreds of orderings): it runs at its
 * latency, for the cancellation by the maximum deadline and the worker's repeated reports. cancel-ignored's odd
 * cancellations arrive long before anything races (B explores the late one).
 */
const JITTER = { A: 5, B: 10, C: 0, D: 10, 'cancel-ignored': 0 } as const;

export const coordinatorExercise: ExerciseDef = {
  id: 'coordinator',
  title: "The server's RequestCoordinator",
  summary:
    "The server's side of the cancellation race: a cancellation accepted only for a request still running (a malformed, unknown or late one " +
    'is ignored), nothing sent after an accepted cancellation, progress strictly increasing and stopped at the final response, and the ' +
    'final response sent for every request that was not cancelled.',
  exports: ['createCoordinator'],
  statements: [
    {
      id: 'nothing-after-cancel',
      text: 'Once a cancellation of the running request reached the server, it is accepted and nothing more is sent for the request: no progress, no response.',
      requirements: ['RC-6', 'RC-8'],
    },
    {
      id: 'late-cancel-ignored',
      text: 'A cancellation that arrives after the request completed is ignored: every request ends in exactly one terminal state.',
      requirements: ['RC-7', 'RC-8'],
    },
    {
      id: 'invalid-cancel-ignored',
      text: 'A malformed cancellation, or one naming a request the server does not know, is ignored.',
      requirements: ['RC-7'],
    },
    { id: 'progress-increasing', text: 'Progress sent for a request strictly increases.', requirements: ['RC-3'] },
    {
      id: 'no-progress-after-final',
      text: "No progress is sent after the request's final response.",
      requirements: ['RC-3'],
    },
    {
      id: 'response-when-completed',
      text: 'A request whose work finished, and whose cancellation was not accepted, gets its final response.',
      requirements: ['RC-8'],
    },
    { id: RUNS_TO_END, text: 'Every ordering runs to its end.', requirements: ['RC-1'] },
  ],
  starter: STARTER,
  runs: [
    ...(['A', 'B', 'C', 'D'] as const).flatMap((scenario) =>
      (['stdio', 'http'] as const).map((transport) => ({
        scenario,
        transport,
        settings: { latencyJitterMs: JITTER[scenario] },
      })),
    ),
    { scenario: 'cancel-ignored', transport: 'stdio', settings: { latencyJitterMs: JITTER['cancel-ignored'] } },
  ],
  invariantStatements: {
    'nothing-after-accepted-cancel': 'nothing-after-cancel',
    'one-terminal-state': 'late-cancel-ignored',
    'progress-increasing': 'progress-increasing',
    'no-progress-after-final': 'no-progress-after-final',
  },
  components(caller) {
    return {
      coordinator: (clock) => {
        caller.clock = clock;
        const handle = caller.make('createCoordinator', []);
        return {
          onRequest(id, progressToken) {
            // The answer is not used: the contract asks for null, and any JSON value is let be.
            caller.method(handle, 'onRequest', [id, progressToken]);
          },
          onCancel: (params): CancelAnswer => answer(caller, handle, 'onCancel', [json(params)]),
          onProgress: (id, progress): ProgressAnswer => answer(caller, handle, 'onProgress', [id, progress]),
          onComplete: (id): CompleteAnswer => answer(caller, handle, 'onComplete', [id]),
        };
      },
    };
  },
};
