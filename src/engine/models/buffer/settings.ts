import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const bufferOverloadSettingsSpec = {
  capacity: {
    kind: 'integer',
    min: 1,
    max: 10_000,
    unit: 'events',
    description: 'Capacity of the bounded SSE buffer, in events (BF-6).',
  },
  requests: {
    kind: 'integer',
    min: 1,
    max: 100,
    description: 'Concurrent tool calls whose progress and final responses share the buffer.',
  },
  progressPerRequest: {
    kind: 'integer',
    min: 0,
    max: 10_000,
    description: 'Progress notifications each request produces before its final response.',
  },
  producerEveryMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'The server produces one message this often (for a request drawn from the seed).',
  },
  consumerEveryMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'The client reads one message this often; slower than the producer means overload.',
  },
  queue: {
    kind: 'enum',
    values: ['bounded', 'unbounded', 'drop-oldest-any'],
    description:
      "bounded: the lab's BoundedSseBuffer (BF-1 … BF-6); unbounded: keeps everything, memory grows with a slow consumer; drop-oldest-any: evicts the oldest event even a final response (both catalogued failure modes).",
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type BufferOverloadSettings = SettingsOf<typeof bufferOverloadSettingsSpec>;

export const bufferOverloadDefaults: BufferOverloadSettings = {
  capacity: 8,
  requests: 3,
  progressPerRequest: 20,
  producerEveryMs: 10,
  consumerEveryMs: 40,
  queue: 'bounded',
  eventsMax: 1_000_000,
};
