import { assert } from './assert';
import type { JsonRpcMessage } from './jsonrpc';

/** The revision a POST names when its body carries no protocol version of its own. */
const REVISION_DEFAULT = '2026-07-28';

/** Methods whose POST mirrors `params.name` or `params.uri` into `Mcp-Name` (2026-07-28 Streamable HTTP, Standard Request Headers). */
export const MCP_NAME_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);
/**
 * The tasks extension's methods routed by task (io.modelcontextprotocol/tasks, Streamable HTTP: Routing
 * Headers): "When `tasks/get`, `tasks/update`, or `tasks/cancel` is sent over the Streamable HTTP
 * transport, the client **MUST** set the `Mcp-Name` header to the value of `params.taskId`", so that a
 * load balancer can send every request about a task to the instance that holds it.
 */
export const MCP_NAME_BY_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** A header value that needs no Base64 sentinel: printable ASCII with no surrounding space. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The HTTP request headers of the POST that carries `message` on Streamable HTTP (2026-07-28, Sending
 * Messages and Request Metadata): Accept lists both response types, the body is JSON,
 * MCP-Protocol-Version mirrors the body's `_meta` protocol version, Mcp-Method mirrors `method`, and
 * Mcp-Name mirrors `params.name` / `params.uri` for tools/call, resources/read and prompts/get, and
 * `params.taskId` for the tasks extension's tasks/get, tasks/update and tasks/cancel. The
 * page defines no header rule for notification POSTs; they carry the same headers so that every POST
 * is routable alike. A client never POSTs a response, so a message without a method has none.
 */
export function postHeadersOf(message: JsonRpcMessage): Record<string, string> | null {
  if (!('method' in message)) return null;
  const params = (message as { params?: Record<string, unknown> }).params;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.['io.modelcontextprotocol/protocolVersion'];
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': typeof version === 'string' ? version : REVISION_DEFAULT,
    'Mcp-Method': message.method,
  };
  if (MCP_NAME_METHODS.has(message.method)) {
    const name = params?.name ?? params?.uri;
    assert(
      typeof name === 'string' && PLAIN_HEADER_VALUE.test(name),
      () => `${message.method}: Mcp-Name needs params.name or params.uri as plain ASCII, got ${JSON.stringify(name)}`,
    );
    headers['Mcp-Name'] = name;
  }
  if (MCP_NAME_BY_TASK_METHODS.has(message.method)) {
    const taskId = params?.taskId;
    assert(
      typeof taskId === 'string' && PLAIN_HEADER_VALUE.test(taskId),
      () => `${message.method}: Mcp-Name needs params.taskId as plain ASCII, got ${JSON.stringify(taskId)}`,
    );
    headers['Mcp-Name'] = taskId;
  }
  return headers;
}
