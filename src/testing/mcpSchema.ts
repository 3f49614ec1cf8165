import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../schema/mcp-2026-07-28.schema.json' with { type: 'json' };
import type { JsonRpcMessage } from '../engine';
import type { Transcript } from '../engine';

/**
 * Validates wire messages against the official MCP 2026-07-28 JSON Schema (a byte-identical copy of
 * ../shared/mcp-schema/2026-07-28/schema.json; schema-copy.test.ts keeps them equal): against
 * `JSONRPCMessage` and against the specific definition for the message's method.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, 'mcp');

/**
 * The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) is not in the core schema file. These
 * definitions restate the extension's published draft schema (github.com/modelcontextprotocol/
 * experimental-ext-tasks, schema/draft/schema.json at commit e61f822a925ff451880a2e966fb145203d7406f6):
 * CreateTaskResult is Result & Task flat with resultType "task"; GetTaskResult is Result & DetailedTask,
 * one shape per status (completed carries `result`, failed carries `error`, input_required carries
 * `inputRequests`); ttlMs is an integer or null; pollIntervalMs is optional. Where the draft and the
 * 2026-07-28 core disagree, the core wins: every 2026-07-28 request carries params._meta with the
 * protocol version (RequestMetaObject), which the draft's request params do not list, so the task
 * requests here require it (docs/orderings-causality.md records the disagreement).
 */
const taskFields = {
  taskId: { type: 'string' },
  statusMessage: { type: 'string' },
  createdAt: { type: 'string', format: 'date-time' },
  lastUpdatedAt: { type: 'string', format: 'date-time' },
  ttlMs: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
  pollIntervalMs: { type: 'integer', minimum: 0 },
};
const TASK_REQUIRED = ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs'];
const detailed = (status: string, extra: Record<string, object> = {}) => ({
  type: 'object',
  required: [...TASK_REQUIRED, ...Object.keys(extra)],
  properties: { ...taskFields, status: { const: status }, ...extra },
});
const detailedTask = {
  anyOf: [
    detailed('working'),
    detailed('input_required', { inputRequests: { type: 'object' } }),
    detailed('completed', { result: { type: 'object' } }),
    detailed('failed', { error: { $ref: 'mcp#/$defs/Error' } }),
    detailed('cancelled'),
  ],
};
const taskRequest = (method: string) => ({
  type: 'object',
  required: ['jsonrpc', 'id', 'method', 'params'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { $ref: 'mcp#/$defs/RequestId' },
    method: { const: method },
    params: { type: 'object', required: ['taskId', '_meta'], properties: { taskId: { type: 'string' }, _meta: { $ref: 'mcp#/$defs/RequestMetaObject' } } },
  },
});
const resultResponse = (result: object) => ({
  type: 'object',
  required: ['jsonrpc', 'id', 'result'],
  properties: { jsonrpc: { const: '2.0' }, id: { $ref: 'mcp#/$defs/RequestId' }, result: { allOf: [{ $ref: 'mcp#/$defs/Result' }, result] } },
});
ajv.addSchema(
  {
    $defs: {
      DetailedTask: detailedTask,
      TasksGetRequest: taskRequest('tasks/get'),
      TasksCancelRequest: taskRequest('tasks/cancel'),
      // Flat: the task's fields sit beside resultType, with no nested `task` object.
      CreateTaskResultResponse: resultResponse({
        type: 'object',
        required: ['resultType', ...TASK_REQUIRED],
        properties: { ...taskFields, resultType: { const: 'task' }, status: { enum: ['working', 'input_required', 'completed', 'failed', 'cancelled'] } },
        not: { required: ['task'] },
      }),
      GetTaskResultResponse: resultResponse({ allOf: [{ $ref: '#/$defs/DetailedTask' }, { properties: { resultType: { const: 'complete' } } }] }),
      // tasks/cancel returns an empty acknowledgement: nothing but the Result fields.
      CancelTaskResultResponse: resultResponse({ type: 'object', properties: { resultType: { const: 'complete' } }, propertyNames: { enum: ['resultType', '_meta'] } }),
    },
  },
  'tasks',
);

const validators = new Map<string, ValidateFunction>();
function validatorFor(definition: string): ValidateFunction {
  let validate = validators.get(definition);
  if (validate === undefined) {
    validate = ajv.getSchema(definition.includes('#') ? definition : `mcp#/$defs/${definition}`);
    if (validate === undefined) throw new Error(`the MCP schema has no definition ${definition}`);
    validators.set(definition, validate);
  }
  return validate;
}

const requestDefinitions: Record<string, string> = {
  'tools/call': 'CallToolRequest',
  'tools/list': 'ListToolsRequest',
  'resources/list': 'ListResourcesRequest',
  'prompts/list': 'ListPromptsRequest',
  'resources/read': 'ReadResourceRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
  'server/discover': 'DiscoverRequest',
  'tasks/get': 'tasks#/$defs/TasksGetRequest',
  'tasks/cancel': 'tasks#/$defs/TasksCancelRequest',
};
const notificationDefinitions: Record<string, string> = {
  'notifications/cancelled': 'CancelledNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
};
const responseDefinitions: Record<string, string> = {
  'tools/call': 'CallToolResultResponse',
  'tools/list': 'ListToolsResultResponse',
  'resources/list': 'ListResourcesResultResponse',
  'prompts/list': 'ListPromptsResultResponse',
  'resources/read': 'ReadResourceResultResponse',
  'subscriptions/listen': 'SubscriptionsListenResultResponse',
  'server/discover': 'DiscoverResultResponse',
  'tasks/get': 'tasks#/$defs/GetTaskResultResponse',
  'tasks/cancel': 'tasks#/$defs/CancelTaskResultResponse',
};

/** The specific definition a message must also satisfy; `requestMethod` is the method a response answers. */
export function specificDefinition(message: JsonRpcMessage, requestMethod?: string): string {
  if ('error' in message) return 'JSONRPCErrorResponse';
  if ('method' in message) {
    const table = 'id' in message ? requestDefinitions : notificationDefinitions;
    const definition = table[message.method];
    if (definition === undefined) throw new Error(`no specific schema definition is mapped for method ${message.method}`);
    return definition;
  }
  // A tools/call answered with a task (the tasks extension) is a CreateTaskResult, not a CallToolResult.
  if (requestMethod === 'tools/call' && 'result' in message && message.result.resultType === 'task') return 'tasks#/$defs/CreateTaskResultResponse';
  const definition = requestMethod === undefined ? undefined : responseDefinitions[requestMethod];
  if (definition === undefined) throw new Error(`no specific schema definition is mapped for a response to ${requestMethod ?? 'an unknown request'}`);
  return definition;
}

export interface SchemaProblem {
  seq: number;
  definition: string;
  errors: string;
}

function check(definition: string, message: unknown): string | null {
  const validate = validatorFor(definition);
  return validate(message) ? null : ajv.errorsText(validate.errors);
}

/** Every wire message of a transcript, checked against JSONRPCMessage and its specific definition. */
export function validateTranscriptMessages(transcript: Transcript): { checked: number; problems: SchemaProblem[] } {
  const methodById = new Map<string, string>();
  const problems: SchemaProblem[] = [];
  let checked = 0;
  for (const event of transcript.events) {
    if (event.kind !== 'message') continue;
    const message = event.message;
    if ('method' in message && 'id' in message) methodById.set(`${event.from}:${JSON.stringify(message.id)}`, message.method);
    const answeredBy = event.from === 'client' ? 'server' : 'client';
    const requestMethod = 'id' in message && !('method' in message) ? methodById.get(`${answeredBy}:${JSON.stringify(message.id)}`) : undefined;
    checked += 1;
    const failures: SchemaProblem[] = [];
    for (const definition of ['JSONRPCMessage', specificDefinition(message, requestMethod)]) {
      const errors = check(definition, message);
      if (errors !== null) failures.push({ seq: event.seq, definition, errors });
    }
    if (event.malformed === undefined) {
      problems.push(...failures);
    } else if (failures.length === 0) {
      // RC-7: a message marked deliberately invalid must really be invalid, or the mark hides nothing honest.
      problems.push({ seq: event.seq, definition: 'malformed', errors: `marked malformed (${event.malformed}) but it validates` });
    }
  }
  return { checked, problems };
}

export function validateMessage(definition: string, message: unknown): string | null {
  return check(definition, message);
}
