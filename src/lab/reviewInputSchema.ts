// The JSON Schema of the reviewer's input (see ReviewInput in reviewer.ts). scripts/build-validators.ts
// compiles it to a standalone validator in generated/validators.js, so the page never runs ajv's
// code generation (which needs `eval` and so a Content-Security-Policy with 'unsafe-eval').
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
          properties: { readOnlyHint: { type: 'boolean' }, idempotentHint: { type: 'boolean' }, destructiveHint: { type: 'boolean' }, openWorldHint: { type: 'boolean' } },
        },
        atomicKeyCheck: { type: 'boolean' },
        fingerprint: { type: 'boolean' },
        defensiveCopies: { type: 'boolean' },
      },
    },
    transport: { enum: ['stdio', 'http'] },
    cancellation: { enum: ['notifications/cancelled', 'close-stream', 'post-notification'] },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      required: ['idleMs', 'maxMs'],
      properties: { idleMs: { type: 'integer', minimum: 1 }, maxMs: { type: ['integer', 'null'], minimum: 1 }, progressResetsMax: { type: 'boolean' } },
    },
    retry: {
      type: 'object',
      additionalProperties: false,
      required: ['automatic', 'attemptsMax', 'backoff'],
      properties: {
        automatic: { type: 'boolean' },
        sameKey: { type: 'boolean' },
        attemptsMax: { type: 'integer', minimum: 0, maximum: 100 },
        backoff: { enum: ['none', 'exponential', 'full-jitter', 'equal-jitter', 'decorrelated-jitter'] },
      },
    },
    queue: {
      type: 'object',
      additionalProperties: false,
      required: ['policy', 'capacityEvents', 'reserveForFinal'],
      properties: { policy: { enum: ['coalesce-drop-oldest', 'unbounded', 'drop-newest'] }, capacityEvents: { type: 'integer', minimum: 0, maximum: 1_000_000 }, reserveForFinal: { type: 'boolean' } },
    },
    ledger: { enum: ['shared-durable', 'per-replica', 'in-memory', 'none'] },
    proxy: { type: 'object', additionalProperties: false, required: ['bufferingDisabled'], properties: { bufferingDisabled: { type: 'boolean' } } },
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
