import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';
import { requestSettingsSpec } from '../../mcp/settings';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const proxyBufferingSettingsSpec = {
  honourNoBuffering: {
    kind: 'boolean',
    description: 'The proxy honours the X-Accel-Buffering: no response header and forwards each event at once.',
  },
  flushEvents: {
    kind: 'integer',
    min: 1,
    max: 10_000,
    unit: 'events',
    description: 'A buffering proxy forwards what it holds once it holds this many events.',
  },
  flushIntervalMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    nullable: true,
    unit: 'ms',
    description:
      'A buffering proxy also forwards this long after it started holding; none: only by size or at the end.',
  },
  keepAliveEveryMs: {
    kind: 'integer',
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description: 'The server writes a ": keep-alive" comment after this long without writing; 0: never.',
  },
  latencyMs: commonSettingsSpec.latencyMs,
  idleTimeoutMs: {
    ...requestSettingsSpec.idleTimeoutMs,
    description: 'Time the client allows with no useful activity (progress resets it, comments do not).',
  },
  maxTimeoutMs: requestSettingsSpec.maxTimeoutMs,
  workMs: requestSettingsSpec.workMs,
  progressEveryMs: requestSettingsSpec.progressEveryMs,
  requestId: requestSettingsSpec.requestId,
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type ProxyBufferingSettings = SettingsOf<typeof proxyBufferingSettingsSpec>;

export const proxyBufferingDefaults: ProxyBufferingSettings = {
  honourNoBuffering: false,
  flushEvents: 8,
  flushIntervalMs: null,
  keepAliveEveryMs: 2_000,
  latencyMs: 5,
  idleTimeoutMs: 5_000,
  maxTimeoutMs: 60_000,
  workMs: 12_000,
  progressEveryMs: 1_000,
  requestId: 7,
  eventsMax: 100_000,
};
