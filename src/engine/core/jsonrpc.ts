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
