import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../schema/mcp-2026-07-28.schema.json' with { type: 'json' };
import type { JsonRpcMessage } from '../engine/protocol';
import type { Transcript } from '../engine/transcript';

/**
 * Validates wire messages against the official MCP 2026-07-28 JSON Schema (a byte-identical copy of
 * ../shared/mcp-schema/2026-07-28/schema.json; schema-copy.test.ts keeps them equal): against
 * `JSONRPCMessage` and against the specific definition for the message's method.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, 'mcp');

const validators = new Map<string, ValidateFunction>();
function validatorFor(definition: string): ValidateFunction {
  let validate = validators.get(definition);
  if (validate === undefined) {
    validate = ajv.getSchema(`mcp#/$defs/${definition}`);
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
  'subscriptions/listen': 'SubscriptionsListenRequest',
};
const notificationDefinitions: Record<string, string> = {
  'notifications/cancelled': 'CancelledNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
};
const responseDefinitions: Record<string, string> = {
  'tools/call': 'CallToolResultResponse',
  'tools/list': 'ListToolsResultResponse',
  'resources/list': 'ListResourcesResultResponse',
  'prompts/list': 'ListPromptsResultResponse',
  'subscriptions/listen': 'SubscriptionsListenResultResponse',
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
    for (const definition of ['JSONRPCMessage', specificDefinition(message, requestMethod)]) {
      const errors = check(definition, message);
      if (errors !== null) problems.push({ seq: event.seq, definition, errors });
    }
  }
  return { checked, problems };
}

export function validateMessage(definition: string, message: unknown): string | null {
  return check(definition, message);
}
