import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const listenServerCancelSettingsSpec = {
  latencyMs: commonSettingsSpec.latencyMs,
  latencyJitterMs: commonSettingsSpec.latencyJitterMs,
  workMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    description: "How long the tool call's worker needs (checkpoints every 100 ms).",
  },
  cancelAtMs: {
    kind: 'integer',
    min: 11,
    max: 3_600_000,
    nullable: true,
    unit: 'ms',
    description: 'When the client cancels its tool call (its own cancellation); none: never.',
  },
  serverEndsListenAtMs: {
    kind: 'integer',
    min: 50,
    max: 3_600_000,
    unit: 'ms',
    description: 'When the server ends the subscriptions/listen call (RC-9: its only use of cancellation).',
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type ListenServerCancelSettings = SettingsOf<typeof listenServerCancelSettingsSpec>;

export const listenServerCancelDefaults: ListenServerCancelSettings = {
  latencyMs: 5,
  latencyJitterMs: 0,
  workMs: 400,
  cancelAtMs: 150,
  serverEndsListenAtMs: 250,
  eventsMax: 100_000,
};
