import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../core/jsonrpc';
import { cancelledNotification, requestMeta, snapshot } from './protocol';

/**
 * The messages of a `subscriptions/listen` call (MCP 2026-07-28, shapes from the schema), shared by
 * every model that holds a listen stream: each message on the stream names the listen request's id
 * in `_meta[SUBSCRIPTION_ID_KEY]`.
 */
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

export function listenRequest(id: RequestId, filter: JsonObject): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: snapshot(filter), _meta: requestMeta(null) } };
}

/** The server agrees to `agreed` (what of the filter it supports): notifications flow from now on. */
export function acknowledgedNotification(subscriptionId: RequestId, agreed: JsonObject): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: snapshot(agreed), _meta: { [SUBSCRIPTION_ID_KEY]: subscriptionId } } };
}

/** A notification on the listen stream of `subscriptionId`. */
export function subscriptionNotification(method: string, subscriptionId: RequestId, params: JsonObject = {}): JsonRpcNotification {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [SUBSCRIPTION_ID_KEY]: subscriptionId } } };
}

/** RC-9: on stdio the server ends a listen call with notifications/cancelled naming it (the only request a server may cancel). */
export function listenEndedNotification(subscriptionId: RequestId, reason: string): JsonRpcNotification {
  const message = cancelledNotification(subscriptionId, reason);
  message.params._meta = { [SUBSCRIPTION_ID_KEY]: subscriptionId };
  return message;
}
