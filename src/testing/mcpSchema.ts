import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../schema/mcp-2026-07-28.schema.json' with { type: 'json' };
import { tasksDraft } from './tasksDraft';
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
 * The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) is not in the core schema file: task
 * messages validate against the extension's draft (tasksDraft.ts: the published file when the shared
 * folder holds it, else a restatement of it): CreateTaskResult (Result & Task, flat, resultType
 * "task"), GetTaskResult (Result & DetailedTask, one shape per status), CancelTaskResult,
 * GetTaskRequest and CancelTaskRequest.
 */
ajv.addSchema(tasksDraft, 'tasks-draft');

/**
 * The one place the lab departs from the tasks draft: every 2026-07-28 request carries
 * `params._meta` with `io.modelcontextprotocol/protocolVersion` (the core's RequestMetaObject), while
 * the draft's task requests list only `taskId`. The core wins, so a task request must satisfy the draft
 * and this override (docs/orderings-causality.md, "Where the sources disagree").
 */
export const CORE_REQUEST_META_OVERRIDE = {
  type: 'object',
  required: ['params'],
  properties: {
    params: { type: 'object', required: ['_meta'], properties: { _meta: { $ref: 'mcp#/$defs/RequestMetaObject' } } },
  },
} as const;

/** A JSON-RPC result response (core) whose `result` is the named definition of the tasks draft. */
const draftResultResponse = (definition: string) => ({
  allOf: [
    { $ref: 'mcp#/$defs/JSONRPCResultResponse' },
    { type: 'object', properties: { result: { $ref: `tasks-draft#/$defs/${definition}` } } },
  ],
});
ajv.addSchema(
  {
    $defs: {
      GetTaskRequest: { allOf: [{ $ref: 'tasks-draft#/$defs/GetTaskRequest' }, CORE_REQUEST_META_OVERRIDE] },
      CancelTaskRequest: { allOf: [{ $ref: 'tasks-draft#/$defs/CancelTaskRequest' }, CORE_REQUEST_META_OVERRIDE] },
      CreateTaskResultResponse: draftResultResponse('CreateTaskResult'),
      GetTaskResultResponse: draftResultResponse('GetTaskResult'),
      CancelTaskResultResponse: draftResultResponse('CancelTaskResult'),
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
  'tasks/get': 'tasks#/$defs/GetTaskRequest',
  'tasks/cancel': 'tasks#/$defs/CancelTaskRequest',
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
    if (definition === undefined)
      throw new Error(`no specific schema definition is mapped for method ${message.method}`);
    return definition;
  }
  // A tools/call answered with a task (the tasks extension) is a CreateTaskResult, not a CallToolResult.
  if (requestMethod === 'tools/call' && 'result' in message && message.result.resultType === 'task')
    return 'tasks#/$defs/CreateTaskResultResponse';
  const definition = requestMethod === undefined ? undefined : responseDefinitions[requestMethod];
  if (definition === undefined)
    throw new Error(
      `no specific schema definition is mapped for a response to ${requestMethod ?? 'an unknown request'}`,
    );
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
    if ('method' in message && 'id' in message)
      methodById.set(`${event.from}:${JSON.stringify(message.id)}`, message.method);
    const answeredBy = event.from === 'client' ? 'server' : 'client';
    const requestMethod =
      'id' in message && !('method' in message)
        ? methodById.get(`${answeredBy}:${JSON.stringify(message.id)}`)
        : undefined;
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
      problems.push({
        seq: event.seq,
        definition: 'malformed',
        errors: `marked malformed (${event.malformed}) but it validates`,
      });
    }
  }
  return { checked, problems };
}

export function validateMessage(definition: string, message: unknown): string | null {
  return check(definition, message);
}
