import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';
import { BACKOFF_POLICIES } from '../herd/backoff';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const reconnectListenSettingsSpec = {
  latencyMs: { kind: 'integer', min: 10, max: 100, unit: 'ms', description: 'One-way latency of every message.' },
  dropAtMs: {
    kind: 'integer',
    min: 500,
    max: 600_000,
    unit: 'ms',
    description: 'When the connection drops (every stream open at that instant is lost).',
  },
  chargeInFlight: {
    kind: 'boolean',
    description: 'An unsafe mutation (charge_account without idempotency key) is in flight when the connection drops.',
  },
  policy: { kind: 'enum', values: BACKOFF_POLICIES, description: 'Backoff before the reconnect (RV-4).' },
  baseMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'Backoff base: the first reconnect waits up to this long under full jitter.',
  },
  capMs: { kind: 'integer', min: 1, max: 3_600_000, unit: 'ms', description: 'Backoff cap.' },
  resume: {
    kind: 'enum',
    values: ['new-request', 'last-event-id'],
    description:
      'new-request: reconnect with a new listen request and refetch (RV-3); last-event-id: the catalogued failure mode, the client sends Last-Event-ID and assumes the missed events are replayed.',
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type ReconnectListenSettings = SettingsOf<typeof reconnectListenSettingsSpec>;

export const reconnectListenDefaults: ReconnectListenSettings = {
  latencyMs: 10,
  dropAtMs: 1_000,
  chargeInFlight: true,
  policy: 'full-jitter',
  baseMs: 250,
  capMs: 8_000,
  resume: 'new-request',
  eventsMax: 10_000,
};
