/** JSON-RPC 2.0 as the wire carries it: the kit moves these; the MCP rules (src/engine/mcp) give them meaning. */
export type RequestId = string | number;
export type ProgressToken = string | number;
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: { code: number; message: string; data?: JsonValue };
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Guards for data the lab did not make, beside the types they narrow to: JSON values (a recording's
 * messages, a transcript the page sends back for Compare) and JSON-RPC 2.0 messages (those too, each
 * message a real SDK puts on the wire, and each message a server sends the probe). One guard for
 * all of them, so nothing downstream reads a shape the engine does not declare. This file imports
 * nothing, so the page's message schemas (src/worker/schemas.ts) take it without loading the engine. Nesting is bounded: a value
 * deeper than JSON_DEPTH_MAX is refused rather than walked (docs/architecture.md#a-limit-on-everything).
 */

/** How deep a JSON value may nest (an MCP message of the lab or a real server nests a handful of levels). */
export const JSON_DEPTH_MAX = 64;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** JSON as JSON.parse gives it: null, booleans, finite numbers, strings, arrays and plain objects, at most `depthMax` deep. */
export function isJsonValue(value: unknown, depthMax: number = JSON_DEPTH_MAX): value is JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depthMax <= 0) return false;
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depthMax - 1));
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!isJsonValue(value[key], depthMax - 1)) return false;
  return true;
}

/** A JSON object (not an array), at most JSON_DEPTH_MAX deep. */
export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && isJsonValue(value);
}

/**
 * A message's id as the guard below reads it: stricter than isRequestId above (a number must be a
 * safe integer, so it reads back exactly), which the engine's cancellation rules keep as they are.
 */
/**
 * The envelope of a JSON-RPC 2.0 message: a JSON object saying `"jsonrpc": "2.0"`, at most
 * JSON_DEPTH_MAX deep (`too-deep` also covers a number JSON.parse made infinite), or null when it is
 * one. jsonRpcProblem asks this first; the probe asks only this, because it records what a server
 * sent even when a member is wrong, and the page turns such a message into a note by jsonRpcProblem.
 */
export function jsonRpcEnvelopeProblem(value: unknown): 'not-json-rpc' | 'too-deep' | null {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return 'not-json-rpc';
  return isJsonValue(value) ? null : 'too-deep';
}

const isMessageId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

/**
 * Why `value` is not a JSON-RPC 2.0 message the lab can draw, or null when it is one: a request, a
 * notification, a result (an object, with an id) or an error (a numeric code and a text message).
 *
 * JSON-RPC lets a request or a notification omit `params`, and real peers do (the MCP SDK sends
 * `notifications/initialized` without them): the engine's `JsonRpcMessage` declares `params` optional,
 * so this guard accepts the omission and the value keeps the shape it was sent with.
 */
export function jsonRpcProblem(value: unknown): string | null {
  if (!isJsonObject(value)) return `not a JSON object nested at most ${JSON_DEPTH_MAX} deep`;
  if (value.jsonrpc !== '2.0') return 'no "jsonrpc": "2.0"';
  const { id } = value;
  if (id !== undefined && !isMessageId(id)) return 'its id is neither a string nor an integer';
  if (value.method !== undefined) {
    if (typeof value.method !== 'string') return 'its method is not a string';
    return value.params === undefined || isJsonObject(value.params) ? null : 'its params are not an object';
  }
  if (value.result !== undefined) {
    if (id === undefined) return 'a result without an id';
    return isJsonObject(value.result) ? null : 'its result is not an object';
  }
  const { error } = value;
  if (error === undefined) return 'neither a request, a notification, a result nor an error';
  if (!isJsonObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string')
    return 'its error has no numeric code and text message';
  return null;
}

/** The value as a JSON-RPC 2.0 message, or what keeps it from being one: one check for callers that need both. */
export function checkJsonRpcMessage(
  value: unknown,
): { message: JsonRpcMessage; problem: null } | { message: null; problem: string } {
  const problem = jsonRpcProblem(value);
  // No problem is exactly what isJsonRpcMessage means.
  return problem === null ? { message: value as JsonRpcMessage, problem } : { message: null, problem };
}

/** A JSON-RPC 2.0 message as the engine types it (see jsonRpcProblem). */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return jsonRpcProblem(value) === null;
}
