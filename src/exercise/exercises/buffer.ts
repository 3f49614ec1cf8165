import type { BufferItem, OfferResult } from '../../engine';
import type { Caller } from '../caller';
import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import type { Json } from '../types';

const OFFER_RESULTS: readonly string[] = ['queued', 'coalesced', 'dropped-oldest', 'refused'];

const STARTER = `// Exercise: the bounded SSE buffer (docs/requirements.md#bounded-progress-buffer-bf, BF-1 … BF-6).
//
// A server produces progress for several tool calls faster than its client reads. Every message
// waits here between the producer and the slow reader. Write the buffer.
//
// Interface (a contract; keep the names):
//   export function createBuffer(capacity)  ->  { offer(item), take() }
//   item:  { kind: 'progress', token, progress, total }
//      or  { kind: 'final', requestId, message }
//   offer(item) returns 'queued' | 'coalesced' | 'dropped-oldest' | 'refused'
//   take()      returns the oldest item held, or null when empty
//
// The lab checks, in every ordering of the buffer-overload scenario (capacity 4, 2 and 1):
//   - never more than \`capacity\` items held;
//   - a final response is never dropped;
//   - progress whose newest held item is progress for the same token replaces it ('coalesced');
//   - 'refused' only when every held item is a final response and the item is another final;
//   - after a progress item was dropped, the next item take() returns carries needsRefetch: true.
//
// This starter is the failure mode "an unbounded buffer": it keeps everything, so memory grows with a
// slow client. Make it bounded.

export function createBuffer(capacity) {
  const items = [];
  return {
    offer(item) {
      items.push(item);
      return 'queued';
    },
    take() {
      return items.length > 0 ? items.shift() : null;
    },
  };
}
`;

function item(value: Json, caller: Caller): BufferItem | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value))
    caller.shape(
      `take() returned ${JSON.stringify(value)}; it must return an item object, or null when the buffer is empty`,
    );
  const kind = value.kind;
  if (kind === 'progress') {
    if (typeof value.token !== 'string' || typeof value.progress !== 'number')
      caller.shape(
        `take() returned a progress item without its token (a string) or progress (a number): ${JSON.stringify(value).slice(0, 200)}`,
      );
    return {
      kind: 'progress',
      token: value.token,
      progress: value.progress,
      total: Number(value.total),
      ...(value.needsRefetch === true ? { needsRefetch: true } : {}),
    };
  }
  if (kind === 'final') {
    if (typeof value.requestId !== 'number')
      caller.shape(
        `take() returned a final item without its requestId (a number): ${JSON.stringify(value).slice(0, 200)}`,
      );
    return {
      kind: 'final',
      requestId: value.requestId,
      message: value.message ?? null,
      ...(value.needsRefetch === true ? { needsRefetch: true } : {}),
    };
  }
  return caller.shape(
    `take() returned an item of kind ${JSON.stringify(kind)}; an item is { kind: 'progress', … } or { kind: 'final', … }`,
  );
}

/** The item as the student's code receives it (plain JSON). */
function toJson(offered: BufferItem): Json {
  if (offered.kind === 'progress')
    return { kind: 'progress', token: offered.token, progress: offered.progress, total: offered.total };
  return {
    kind: 'final',
    requestId: offered.requestId,
    message: JSON.parse(JSON.stringify(offered.message ?? null)) as Json,
  };
}

export const bufferExercise: ExerciseDef = {
  id: 'buffer',
  title: 'The bounded SSE buffer',
  summary:
    'The queue between a server that produces progress faster than its client reads and that client: bounded, progress ' +
    'coalesced and dropped oldest-first under pressure (with the stream marked for a refetch), and final responses never dropped.',
  exports: ['createBuffer'],
  statements: [
    { id: 'within-capacity', text: 'The buffer never holds more than its capacity.', requirements: ['BF-6'] },
    { id: 'final-never-dropped', text: 'A final response is never dropped.', requirements: ['BF-4'] },
    {
      id: 'coalesce-adjacent',
      text: 'Adjacent progress for one token is coalesced: the newer value replaces the held one, and only that.',
      requirements: ['BF-1'],
    },
    {
      id: 'refuse-only-when-full-of-finals',
      text: 'A push is refused only when keeping it would drop another final response.',
      requirements: ['BF-5'],
    },
    {
      id: 'drop-marked',
      text: 'A dropped progress is marked: the item after the drop carries needsRefetch: true.',
      requirements: ['BF-2', 'BF-3'],
    },
    {
      id: RUNS_TO_END,
      text: 'Every ordering runs to its end: every final response reaches the client.',
      requirements: ['BF-4'],
    },
  ],
  starter: STARTER,
  runs: [
    { scenario: 'buffer-overload', transport: 'http', settings: { capacity: 4, progressPerRequest: 4 } },
    { scenario: 'buffer-overload', transport: 'http', settings: { capacity: 2, progressPerRequest: 3 } },
    { scenario: 'buffer-overload', transport: 'http', settings: { capacity: 1, requests: 2, progressPerRequest: 3 } },
  ],
  invariantStatements: { 'buffer-within-capacity': 'within-capacity', 'final-never-dropped': 'final-never-dropped' },
  components(caller) {
    return {
      buffer: (capacity, clock) => {
        caller.clock = clock;
        const handle = caller.make('createBuffer', [capacity]);
        return {
          offer(offered) {
            const result = caller.method(handle, 'offer', [toJson(offered)]);
            if (typeof result !== 'string' || !OFFER_RESULTS.includes(result))
              caller.shape(
                `offer() returned ${JSON.stringify(result)}; it must return 'queued', 'coalesced', 'dropped-oldest' or 'refused'`,
              );
            return result as OfferResult;
          },
          take: () => item(caller.method(handle, 'take', []), caller),
        };
      },
    };
  },
};
