import type { JsonObject, JsonRpcMessage, JsonValue, RequestId } from '../engine';

/**
 * Guards for data the lab did not make: JSON values (a recording's messages, a transcript the page
 * sends back for Compare) and JSON-RPC 2.0 messages (those too, and each message a real SDK puts on the wire). Each narrows to the engine's own type by checking
 * it, so nothing downstream reads a shape the engine does not declare. Nesting is bounded: a value
 * deeper than JSON_DEPTH_MAX is refused rather than walked (STYLE: a limit on everything).
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

const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

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
  if (id !== undefined && !isRequestId(id)) return 'its id is neither a string nor an integer';
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
  if (!isJsonObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string') return 'its error has no numeric code and text message';
  return null;
}

/** The value as a JSON-RPC 2.0 message, or what keeps it from being one: one check for callers that need both. */
export function checkJsonRpcMessage(value: unknown): { message: JsonRpcMessage; problem: null } | { message: null; problem: string } {
  const problem = jsonRpcProblem(value);
  // No problem is exactly what isJsonRpcMessage means.
  return problem === null ? { message: value as JsonRpcMessage, problem } : { message: null, problem };
}

/** A JSON-RPC 2.0 message as the engine types it (see jsonRpcProblem). */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return jsonRpcProblem(value) === null;
}
