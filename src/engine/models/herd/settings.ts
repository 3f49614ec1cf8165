import { type SettingsOf, type SettingsSpec } from '../../core/settings';
import { BACKOFF_POLICIES } from './backoff';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const herdSettingsSpec = {
  clients: { kind: 'integer', min: 1, max: 100_000, description: 'Clients that lose their streams at 0 ms.' },
  policy: {
    kind: 'enum',
    values: BACKOFF_POLICIES,
    description: "Backoff between attempts (RV-4); full-jitter is the lab's policy.",
  },
  baseMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'Backoff base: attempt n waits up to min(capMs, baseMs·2ⁿ).',
  },
  capMs: { kind: 'integer', min: 1, max: 3_600_000, unit: 'ms', description: 'Backoff cap: no wait is longer.' },
  admitPerWindow: {
    kind: 'integer',
    min: 1,
    max: 1_000_000,
    description: 'Connections the recovering server admits per window; the rest are refused.',
  },
  windowMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'Length of one admission window (also the bucket of the plotted series).',
  },
  rejectRttMs: {
    kind: 'integer',
    min: 0,
    max: 60_000,
    unit: 'ms',
    description: 'Round trip of a refused attempt: the client learns of the refusal this long after trying.',
  },
  initialJitter: {
    kind: 'boolean',
    description:
      'Attempt 0 also waits its backoff, up to baseMs (RV-4: attempt 0 waits up to 250 ms); false: every client retries at 0 ms, the stampede.',
  },
  dropAtMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    nullable: true,
    unit: 'ms',
    description:
      'The connection drops again at this instant: every client connected by then loses its stream and reconnects with its backoff from attempt 0; none: no second drop.',
  },
  tracedClient: {
    kind: 'integer',
    min: 0,
    max: 99_999,
    nullable: true,
    description: 'The one client whose messages the transcript shows; none: the last client.',
  },
  attemptsMax: {
    kind: 'integer',
    min: 1,
    max: 1_000_000,
    description: 'Bound on attempts of one client; reaching it is an error (LAB102).',
  },
  eventsMax: {
    kind: 'integer',
    min: 10,
    max: 100_000_000,
    description: 'Bound on attempts of all clients; reaching it is an error (LAB006).',
  },
} as const satisfies SettingsSpec;

export type HerdSettings = SettingsOf<typeof herdSettingsSpec>;

export const herdDefaults: HerdSettings = {
  clients: 10_000,
  policy: 'full-jitter',
  baseMs: 250,
  capMs: 8_000,
  admitPerWindow: 500,
  windowMs: 100,
  rejectRttMs: 100,
  initialJitter: true,
  dropAtMs: null,
  tracedClient: null,
  attemptsMax: 10_000,
  eventsMax: 20_000_000,
};
