/**
 * JSON-RPC messages of MCP 2026-07-28 (the stateless revision), built to the official schema:
 * requests carry the required `_meta` (protocol version, client capabilities), results carry
 * `resultType`. Tests validate every message the engine emits against ../shared/mcp-schema.
 */
export const PROTOCOL_VERSION = '2026-07-28';
export const LAB_VERSION = '0.1.0';

export type {
  RequestId,
  ProgressToken,
  JsonValue,
  JsonObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcMessage,
} from '../core/jsonrpc';
export { isRequestId } from '../core/jsonrpc';
import type {
  RequestId,
  ProgressToken,
  JsonValue,
  JsonObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResultResponse,
  JsonRpcMessage,
} from '../core/jsonrpc';

export const CLIENT_INFO = { name: 'mcp-reliability-lab-client', version: LAB_VERSION } as const;
export const SERVER_INFO = { name: 'mcp-reliability-lab-server', version: LAB_VERSION } as const;

/** SSE response headers every Streamable HTTP response stream carries (docs/requirements.md RV-1). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
} as const;

/** The tasks extension's identifier, declared in the client's per-request capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export function requestMeta(progressToken: ProgressToken | null, extensions: readonly string[] = []): JsonObject {
  const capabilities: JsonObject =
    extensions.length === 0 ? {} : { extensions: Object.fromEntries(extensions.map((id) => [id, {}])) };
  const meta: JsonObject = {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { ...CLIENT_INFO },
  };
  if (progressToken !== null) meta.progressToken = progressToken;
  return meta;
}

export function callToolRequest(
  id: RequestId,
  name: string,
  args: JsonObject,
  progressToken: ProgressToken | null,
): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: requestMeta(progressToken) },
  };
}

export function callToolResultResponse(
  id: RequestId,
  text: string,
  structuredContent?: JsonObject,
): JsonRpcResultResponse {
  const result: JsonObject = {
    resultType: 'complete',
    content: [{ type: 'text', text }],
    _meta: { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } },
  };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  return { jsonrpc: '2.0', id, result };
}

/** A tool-level failure: a CallToolResult with isError, so the caller (and a model) can see and act on it. */
export function callToolErrorResponse(
  id: RequestId,
  text: string,
  structuredContent: JsonObject,
): JsonRpcResultResponse {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text }],
      structuredContent,
      _meta: { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } },
    },
  };
}

export function progressNotification(
  progressToken: ProgressToken,
  progress: number,
  total: number | null,
  message: string,
): JsonRpcNotification {
  // One literal per shape (sent once per checkpoint: adding `total` afterwards grew the object).
  const params: JsonObject =
    total === null ? { progressToken, progress, message } : { progressToken, progress, message, total };
  return { jsonrpc: '2.0', method: 'notifications/progress', params };
}

export function cancelledNotification(requestId: RequestId, reason: string): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
}

/** Deep copy through JSON: what goes on the wire is a snapshot, never a live object. */
export function snapshot<T extends JsonValue | JsonRpcMessage>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
