import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const taskSettingsSpec = {
  latencyMs: commonSettingsSpec.latencyMs,
  latencyJitterMs: commonSettingsSpec.latencyJitterMs,
  workMs: { kind: 'integer', min: 1, max: 3_600_000, unit: 'ms', description: "How long the task's work takes." },
  checkpointEveryMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    description: 'How often the worker checks the cancel flag.',
  },
  pollIntervalMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    description: 'pollIntervalMs the server advertises; the client polls tasks/get at it.',
  },
  ttlMs: {
    kind: 'integer',
    min: 1,
    max: 86_400_000,
    unit: 'ms',
    description: 'How long the server keeps the task after creation.',
  },
  cancelAtMs: {
    kind: 'integer',
    min: 0,
    max: 3_600_000,
    nullable: true,
    unit: 'ms',
    description: 'When the client sends tasks/cancel; none: never.',
  },
  closeStreamAtMs: {
    kind: 'integer',
    min: 0,
    max: 3_600_000,
    nullable: true,
    unit: 'ms',
    description: 'When the connection that created the task closes; none: never.',
  },
  pollsMax: {
    kind: 'integer',
    min: 1,
    max: 100_000,
    description: 'Bound on tasks/get polls; reaching it is an error (LAB006).',
  },
  ackIsFinal: {
    kind: 'boolean',
    description:
      'The client treats the tasks/cancel acknowledgement as the end: it stops polling, which the tasks extension allows, and reports cancelled, which the ack does not prove (the catalogued failure mode; TK-1: the task may still complete). @modelcontextprotocol/ext-tasks 0.2.2 does this (--impl ext-tasks).',
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type TaskSettings = SettingsOf<typeof taskSettingsSpec>;

export const taskDefaults: TaskSettings = {
  latencyMs: 5,
  latencyJitterMs: 0,
  workMs: 1_000,
  checkpointEveryMs: 250,
  pollIntervalMs: 200,
  ttlMs: 60_000,
  cancelAtMs: null,
  closeStreamAtMs: null,
  pollsMax: 1_000,
  ackIsFinal: false,
  eventsMax: 100_000,
};
