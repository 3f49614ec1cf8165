// The JSON Schema of the reviewer's input (see ReviewInput in reviewer.ts). scripts/build-validators.ts
// compiles it to a standalone validator in generated/validators.js, so the page never runs ajv's
// code generation (which needs `eval` and so a Content-Security-Policy with 'unsafe-eval').
import { BACKOFF_POLICIES, TRANSPORTS } from '../engine/settingsSpecs';

// The reviewer's own vocabularies, each written once: the schema's enums, ReviewInput's types and the
// skill's field guide all read these. Transports and backoff policies are the engine's own lists.
/** How a client cancels a call (skill.ts says what each one means). */
export const CANCELLATIONS = ['notifications/cancelled', 'close-stream', 'post-notification'] as const;
/** What the progress buffer does when full. */
export const QUEUE_POLICIES = ['coalesce-drop-oldest', 'unbounded', 'drop-newest'] as const;
/** Where idempotency keys are recorded. */
export const LEDGER_STORES = ['shared-durable', 'per-replica', 'in-memory', 'none'] as const;
export type Cancellation = (typeof CANCELLATIONS)[number];
export type QueuePolicy = (typeof QUEUE_POLICIES)[number];
export type LedgerStore = (typeof LEDGER_STORES)[number];

export const reviewInputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['operation', 'transport', 'cancellation', 'timeouts', 'retry', 'queue', 'ledger', 'recovery'],
  properties: {
    operation: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'mutates', 'idempotencyKey'],
      properties: {
        name: { type: 'string', minLength: 1 },
        mutates: { type: 'boolean' },
        idempotencyKey: { type: 'boolean' },
        remoteEffect: { type: 'boolean' },
        annotations: {
          type: 'object',
          additionalProperties: false,
          properties: {
            readOnlyHint: { type: 'boolean' },
            idempotentHint: { type: 'boolean' },
            destructiveHint: { type: 'boolean' },
            openWorldHint: { type: 'boolean' },
          },
        },
        atomicKeyCheck: { type: 'boolean' },
        fingerprint: { type: 'boolean' },
        defensiveCopies: { type: 'boolean' },
      },
    },
    transport: { enum: TRANSPORTS },
    cancellation: { enum: CANCELLATIONS },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      required: ['idleMs', 'maxMs'],
      properties: {
        idleMs: { type: 'integer', minimum: 1 },
        maxMs: { type: ['integer', 'null'], minimum: 1 },
        progressResetsMax: { type: 'boolean' },
      },
    },
    retry: {
      type: 'object',
      additionalProperties: false,
      required: ['automatic', 'attemptsMax', 'backoff'],
      properties: {
        automatic: { type: 'boolean' },
        sameKey: { type: 'boolean' },
        attemptsMax: { type: 'integer', minimum: 0, maximum: 100 },
        backoff: { enum: BACKOFF_POLICIES },
      },
    },
    queue: {
      type: 'object',
      additionalProperties: false,
      required: ['policy', 'capacityEvents', 'reserveForFinal'],
      properties: {
        policy: { enum: QUEUE_POLICIES },
        capacityEvents: { type: 'integer', minimum: 0, maximum: 1_000_000 },
        reserveForFinal: { type: 'boolean' },
      },
    },
    ledger: { enum: LEDGER_STORES },
    proxy: {
      type: 'object',
      additionalProperties: false,
      required: ['bufferingDisabled'],
      properties: { bufferingDisabled: { type: 'boolean' } },
    },
    recovery: {
      type: 'object',
      additionalProperties: false,
      required: ['newRequestId', 'lastEventId', 'refetch', 'replayUnsafeMutations'],
      properties: {
        newRequestId: { type: 'boolean' },
        lastEventId: { type: 'boolean' },
        refetch: { type: 'array', items: { type: 'string', minLength: 1 } },
        replayUnsafeMutations: { type: 'boolean' },
        pollTasksUntilTerminal: { type: 'boolean' },
      },
    },
  },
} as const;
