import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResultResponse,
  RequestId,
} from '../core/jsonrpc';
import { SERVER_INFO, cancelledNotification, requestMeta, snapshot } from './protocol';

/**
 * The messages of a `subscriptions/listen` call (MCP 2026-07-28, shapes from the schema), shared by
 * every model that holds a listen stream: each message on the stream names the listen request's id
 * in `_meta[SUBSCRIPTION_ID_KEY]`.
 */
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

export function listenRequest(id: RequestId, filter: JsonObject): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: snapshot(filter), _meta: requestMeta(null) },
  };
}

/** The server agrees to `agreed` (what of the filter it supports): notifications flow from now on. */
export function acknowledgedNotification(subscriptionId: RequestId, agreed: JsonObject): JsonRpcNotification {
  return {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: snapshot(agreed), _meta: { [SUBSCRIPTION_ID_KEY]: subscriptionId } },
  };
}

/** A notification on the listen stream of `subscriptionId`. */
export function subscriptionNotification(
  method: string,
  subscriptionId: RequestId,
  params: JsonObject = {},
): JsonRpcNotification {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [SUBSCRIPTION_ID_KEY]: subscriptionId } } };
}

/** RC-9: on stdio the server ends a listen call with notifications/cancelled naming it (the only request a server may cancel). */
export function listenEndedNotification(subscriptionId: RequestId, reason: string): JsonRpcNotification {
  const message = cancelledNotification(subscriptionId, reason);
  return { ...message, params: { ...message.params, _meta: { [SUBSCRIPTION_ID_KEY]: subscriptionId } } };
}

// ── RV-3: after a listen stream drops, the client re-reads what its filter covers ─────────────────

/** The stable id each kind of refetched state is de-duplicated by. */
export const DEDUPE_BY: Record<string, string> = {
  tools: 'name',
  resources: 'uri',
  prompts: 'name',
  charges: 'chargeId',
};

/** The authoritative methods that re-read what a filter covers, in the order the client sends them. */
export function refetchMethodsFor(filter: JsonObject): string[] {
  const methods: string[] = [];
  if (filter.toolsListChanged === true) methods.push('tools/list');
  if (filter.resourcesListChanged === true) methods.push('resources/list');
  if (filter.promptsListChanged === true) methods.push('prompts/list');
  if (Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.length > 0)
    methods.push('resources/read');
  return methods;
}

/** A refetch request: `tools/list`, `resources/list`, `prompts/list`, or `resources/read` of `uri`. */
export function refetchRequest(id: RequestId, method: string, uri: string): JsonRpcRequest {
  return method === 'resources/read'
    ? { jsonrpc: '2.0', id, method, params: { uri, _meta: requestMeta(null) } }
    : { jsonrpc: '2.0', id, method, params: { _meta: requestMeta(null) } };
}

/** The result of a refetch: `key` holds the items (tools, resources, prompts, contents), never cached by intermediaries. */
export function refetchResult(id: RequestId, key: string, items: JsonObject[]): JsonRpcResultResponse {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      [key]: items,
      cacheScope: 'private',
      ttlMs: 0,
      _meta: { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } },
    },
  };
}
