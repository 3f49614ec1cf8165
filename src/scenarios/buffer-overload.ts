import { bufferOverloadDefaults } from '../engine';
import type { BufferScenario } from '../engine';

/** docs/requirements.md#bounded-progress-buffer-bf: a producer outruns its consumer; the bounded buffer coalesces, drops old progress and keeps every final (BF-1 … BF-6, VF-10). */
export const bufferOverload: BufferScenario = {
  id: 'buffer-overload',
  kind: 'buffer',
  title: 'Buffer overload — coalesce, drop the oldest progress, never a final response',
  topic: 'Back-pressure',
  summary:
    'Three tool calls run at once and the server produces one message every 10 ms, but the client reads only one every ' +
    '40 ms. The messages wait in one buffer of 8 events. Progress is replaceable: a new value for the same token replaces ' +
    'the one just before it (coalescing), and when the buffer is full the oldest progress is dropped and its stream is ' +
    'marked as needing a refetch of authoritative state. Final responses are never dropped. Set capacity below the number ' +
    'of requests (2, or 1) to see the state the buffer refuses: when every held event is a final response, keeping another ' +
    'would mean dropping one, so the push is refused and the producer is held back (back-pressure) until the client reads ' +
    'an event and frees a slot; the transcript shows the refusal and the wait, and the outcome counts refusedPushes and producerHeldMs.',
  requirements: ['BF-1', 'BF-2', 'BF-3', 'BF-4', 'BF-5', 'BF-6', 'VF-10'],
  defaultTransport: 'http',
  settings: { ...bufferOverloadDefaults },
  expected: { needsRefetch: true, finalDelivered: true },
};
