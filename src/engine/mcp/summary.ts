import type { JsonRpcMessage } from '../core/jsonrpc';

/**
 * The one short name of a JSON-RPC message, used by every model's wire for deliveries, ignores and
 * losses (six models once had six copies that disagreed).
 */
export function summarizeMessage(message: JsonRpcMessage): string {
  if ('method' in message) {
    if (message.method === 'notifications/progress')
      return `progress ${String(message.params?.progress)}/${String(message.params?.total ?? '?')}`;
    if (message.method === 'notifications/cancelled') {
      // A malformed cancellation names no request: say so, never "#undefined".
      const requestId = message.params?.requestId;
      return requestId === undefined
        ? 'notifications/cancelled without a requestId'
        : `notifications/cancelled #${String(requestId)}`;
    }
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  if ('result' in message) {
    if (message.result.isError === true) return `error result #${String(message.id)}`;
    const resultType = message.result.resultType;
    return resultType === undefined || resultType === 'complete'
      ? `response #${String(message.id)}`
      : `response #${String(message.id)} (${String(resultType)})`;
  }
  return `error #${String(message.id ?? 'null')}`;
}
