import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';

/** This model's settings: one spec gives the ranges, the wording and the type. */
export const ledgerSettingsSpec = {
  latencyMs: commonSettingsSpec.latencyMs,
  latencyJitterMs: commonSettingsSpec.latencyJitterMs,
  statementMs: {
    kind: 'integer',
    min: 1,
    max: 10_000,
    unit: 'ms',
    description: 'Virtual time one SQL statement takes.',
  },
  busyRetryMs: {
    kind: 'integer',
    min: 1,
    max: 60_000,
    unit: 'ms',
    description: 'Wait before retrying BEGIN IMMEDIATE after SQLITE_BUSY.',
  },
  busyAttemptsMax: {
    kind: 'integer',
    min: 1,
    max: 10_000,
    description: 'BEGIN IMMEDIATE attempts before answering 409-like (in flight).',
  },
  operation: { kind: 'enum', values: ['charge_account', 'reserve_inventory'], description: 'The mutating tool.' },
  mode: {
    kind: 'enum',
    values: ['atomic', 'unsafe'],
    description: 'atomic: one BEGIN IMMEDIATE transaction (LG-4); unsafe: check, act, store as separate steps.',
  },
  sendKey: { kind: 'boolean', description: 'The client sends an idempotency key with the call.' },
  race: {
    kind: 'boolean',
    description: 'Two requests for the same intent start together at a barrier on two connections.',
  },
  loseFirstResponse: { kind: 'boolean', description: 'The first response is lost in transit (the connection breaks).' },
  retryWithoutKey: {
    kind: 'boolean',
    description: 'The client retries automatically even without a key (LG-1 shows why it must not).',
  },
  retryArguments: {
    kind: 'enum',
    values: ['same', 'changed', 'other-tenant'],
    description:
      'The retry repeats the arguments, changes the amount or quantity, or names another tenant (key reuse).',
  },
  lostBecause: {
    kind: 'enum',
    values: ['connection-broke', 'subscription-dropped'],
    description: 'Why the first response is lost (the story the transcript tells; the effect is the same).',
  },
  onLostResponse: {
    kind: 'enum',
    values: ['retry', 'reconcile'],
    description:
      'What the client does when no response comes: retry the call, or first read the ledger (by key, or the inventory without one).',
  },
  retryAfterMs: {
    kind: 'integer',
    min: 1,
    max: 172_800_000,
    unit: 'ms',
    description: 'How long the client waits for a response before retrying.',
  },
  reopenBeforeRetry: {
    kind: 'boolean',
    description: 'The server saves, closes and reopens the ledger file before the retry arrives.',
  },
  replayAfterResponse: {
    kind: 'boolean',
    description: 'After the first response the client calls again with the same key (a replay).',
  },
  callerMutatesResult: {
    kind: 'boolean',
    description: 'The server code that called the ledger mutates the result object it got back.',
  },
  resultCopies: {
    kind: 'enum',
    values: ['defensive', 'shared'],
    description: 'defensive: every result is rebuilt from stored JSON (LG-6); shared: a cached object is handed out.',
  },
  ledgerStore: {
    kind: 'enum',
    values: ['shared-durable', 'per-replica-memory'],
    description:
      'shared-durable: every replica uses one SQLite file that survives a restart; per-replica-memory: each replica keeps its own in-memory ledger, lost on restart (the catalogued failure mode, LG-8).',
  },
  keyProfile: {
    kind: 'enum',
    values: ['ietf', 'stripe', 'wait'],
    description:
      'How a repeated key is answered. ietf: same key in flight waits up to busyAttemptsMax then 409, other arguments 422 (IETF draft). stripe: 409 at once while in flight, 400 for other parameters, keys expire after 24 h. wait: blocks until the first commits and replays, 422 for other arguments.',
  },
  compareFingerprint: {
    kind: 'boolean',
    description:
      'A stored key is replayed only when the argument fingerprint matches (LG-3); false: the catalogued failure mode where one key aliases two intents.',
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type LedgerSettings = SettingsOf<typeof ledgerSettingsSpec>;

export const ledgerDefaults: LedgerSettings = {
  latencyMs: 5,
  latencyJitterMs: 0,
  statementMs: 1,
  busyRetryMs: 2,
  busyAttemptsMax: 50,
  operation: 'charge_account',
  mode: 'atomic',
  sendKey: true,
  race: false,
  loseFirstResponse: false,
  retryWithoutKey: false,
  retryArguments: 'same',
  lostBecause: 'connection-broke',
  onLostResponse: 'retry',
  retryAfterMs: 100,
  reopenBeforeRetry: false,
  replayAfterResponse: false,
  callerMutatesResult: false,
  resultCopies: 'defensive',
  ledgerStore: 'shared-durable',
  compareFingerprint: true,
  keyProfile: 'ietf',
  eventsMax: 100_000,
};
