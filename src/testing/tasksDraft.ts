import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The tasks extension's draft schema (io.modelcontextprotocol/tasks, SEP-2663; published in
 * modelcontextprotocol/experimental-ext-tasks as schema/draft/schema.json, read at commit e61f822a).
 * The published file is used when the product's shared folder holds it
 * (../shared/mcp-schema/ext-tasks-draft/schema.json beside the clone); this repository does not copy
 * it, so otherwise the definitions below restate what the draft says, in the draft's own names, for
 * the definitions the lab's messages use:
 * - CreateTaskResult is Result & Task, flat: `resultType: "task"` beside the task's fields, no nested `task`;
 * - GetTaskResult is Result & DetailedTask with `resultType: "complete"`, one shape per status: `completed` requires `result`,
 *   `failed` requires `error`, `input_required` requires `inputRequests`;
 * - `ttlMs` is an integer or null, `pollIntervalMs` is optional;
 * - CancelTaskResult is a Result with `resultType: "complete"`;
 * - GetTaskRequest and CancelTaskRequest carry `params.taskId` (the draft lists no `_meta`: see
 *   CORE_REQUEST_META_OVERRIDE in mcpSchema.ts for where the core wins).
 * References to core definitions (`mcp#/$defs/…`) resolve in the 2026-07-28 core schema.
 */
export const SHARED_TASKS_DRAFT = fileURLToPath(
  new URL('../../../shared/mcp-schema/ext-tasks-draft/schema.json', import.meta.url),
);

const integer = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
const taskFields = {
  taskId: { type: 'string' },
  statusMessage: { type: 'string' },
  createdAt: { type: 'string' },
  lastUpdatedAt: { type: 'string' },
  ttlMs: { anyOf: [integer, { type: 'null' }] },
  pollIntervalMs: integer,
};
const TASK_REQUIRED = ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs'];
const detailed = (status: (typeof STATUSES)[number], extra: Record<string, object> = {}) => ({
  type: 'object',
  properties: { ...taskFields, status: { type: 'string', const: status }, ...extra },
  required: [...TASK_REQUIRED, ...Object.keys(extra)],
});
const taskRequest = (method: string) => ({
  allOf: [
    { $ref: 'mcp#/$defs/JSONRPCRequest' },
    {
      type: 'object',
      properties: {
        method: { type: 'string', const: method },
        params: { type: 'object', properties: { taskId: { type: 'string' } }, required: ['taskId'] },
      },
      required: ['method', 'params'],
    },
  ],
});

// No $id: registered as `tasks-draft`, its `mcp#/…` references resolve in the core schema registered as `mcp`.
const RESTATED = {
  $defs: {
    Task: { type: 'object', properties: { ...taskFields, status: { enum: [...STATUSES] } }, required: TASK_REQUIRED },
    DetailedTask: {
      anyOf: [
        detailed('working'),
        detailed('input_required', { inputRequests: { type: 'object' } }),
        detailed('completed', { result: { type: 'object' } }),
        detailed('failed', { error: { $ref: 'mcp#/$defs/Error' } }),
        detailed('cancelled'),
      ],
    },
    CreateTaskResult: {
      allOf: [
        { $ref: 'mcp#/$defs/Result' },
        { $ref: '#/$defs/Task' },
        { type: 'object', properties: { resultType: { type: 'string', const: 'task' } }, required: ['resultType'] },
      ],
    },
    GetTaskResult: {
      allOf: [
        { $ref: 'mcp#/$defs/Result' },
        { $ref: '#/$defs/DetailedTask' },
        { type: 'object', properties: { resultType: { type: 'string', const: 'complete' } }, required: ['resultType'] },
      ],
    },
    CancelTaskResult: {
      allOf: [
        { $ref: 'mcp#/$defs/Result' },
        { type: 'object', properties: { resultType: { type: 'string', const: 'complete' } }, required: ['resultType'] },
      ],
    },
    GetTaskRequest: taskRequest('tasks/get'),
    CancelTaskRequest: taskRequest('tasks/cancel'),
  },
};

/** Which draft the validator holds task messages to: the published file when present, else the restatement. */
export const tasksDraftSource: 'published' | 'restated' = existsSync(SHARED_TASKS_DRAFT) ? 'published' : 'restated';

export const tasksDraft: { $id?: string; $defs: Record<string, unknown> } =
  tasksDraftSource === 'published'
    ? (JSON.parse(readFileSync(SHARED_TASKS_DRAFT, 'utf8')) as { $id: string; $defs: Record<string, unknown> })
    : RESTATED;
