import { LabError } from '../engine';
import type { Connection, Exchange } from './connection';
import type { ProbeEvent, Recorder } from './record';
import { describeValue } from './text';

export const REVISION_2026 = '2026-07-28';
export const REVISION_2025 = '2025-11-25';
export const PROBE_CLIENT_INFO = { name: 'mcp-reliability-lab-probe', version: '0.1.0' };

export type JsonObject = Record<string, unknown>;

export interface Negotiated {
  revision: string;
  /** `server/discover` (2026-07-28) or `initialize` (the 2025-11-25 handshake). */
  via: 'server/discover' | 'initialize';
  server: { name: string; version: string };
  capabilities: JsonObject;
  /** Why 2026-07-28 was not used, when it was not. */
  fallbackReason: string | null;
}

export interface SentRequest {
  id: number;
  exchange: Exchange;
  sentAtMs: number;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isResponseTo = (event: ProbeEvent, id: number): boolean =>
  event.kind === 'message' &&
  event.from === 'server' &&
  event.message.id === id &&
  ('result' in event.message || 'error' in event.message);

/** A header value as the 2026-07-28 revision carries it: plain when it is safe visible ASCII, else its Base64 sentinel form. */
export function headerValue(value: string): string {
  if (/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?')) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The probe's side of MCP: numbered requests, the revision's `_meta` and HTTP headers on each, and
 * version negotiation — `server/discover` for 2026-07-28, else the 2025-11-25 `initialize`
 * handshake. It implements only what the probes need and records everything it sends.
 */
export class ProbeClient {
  private nextId = 1;
  negotiated: Negotiated | null = null;

  constructor(
    readonly connection: Connection,
    readonly recorder: Recorder,
  ) {
    // The server's own requests get an answer, as the base protocol asks of every receiver: sent after the
    // event that carried them is recorded, never from inside the recording.
    recorder.onRecord((event) => {
      if (
        event.kind !== 'message' ||
        event.from !== 'server' ||
        typeof event.message.method !== 'string' ||
        !('id' in event.message)
      )
        return;
      const { id, method } = event.message;
      queueMicrotask(() => this.answerServerRequest(id, method, event.channel));
    });
  }

  /**
   * ping gets its empty result; sampling, elicitation, roots and anything else the probe does not
   * offer get -32601: it declares no client capabilities, so it handles none of those requests.
   */
  private answerServerRequest(id: unknown, method: string, channel: string): void {
    if (this.recorder.failed !== null) return;
    const declined =
      method === 'sampling/createMessage'
        ? 'sampling'
        : method === 'elicitation/create'
          ? 'elicitation'
          : method === 'roots/list'
            ? 'roots'
            : null;
    const message: JsonObject =
      method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : {
            jsonrpc: '2.0',
            id,
            error: {
              code: -32601,
              message:
                declined === null
                  ? `Method not found: the probe does not handle ${method.slice(0, 80)}`
                  : `Method not found: the probe declared no ${declined} capability`,
            },
          };
    const revision = this.negotiated?.revision;
    const headers: Record<string, string> =
      this.connection.transport === 'http' && revision !== undefined ? { 'MCP-Protocol-Version': revision } : {};
    this.recorder.record({
      kind: 'note',
      text:
        method === 'ping'
          ? `the server sent ping #${describeValue(id)} on ${channel}: answered with an empty result`
          : `the server sent ${method.slice(0, 80)} #${describeValue(id)} on ${channel}: answered -32601${declined === null ? '' : ` (the probe declared no ${declined} capability, so the server should not have asked)`}`,
    });
    this.connection.send(message, headers);
  }

  private revisionFor(method: string): string | null {
    if (this.negotiated !== null) return this.negotiated.revision;
    return method === 'server/discover' ? REVISION_2026 : null;
  }

  /** The `Mcp-*` headers this revision requires on this message (the probe sends exactly those). */
  headersFor(method: string, params: JsonObject): Record<string, string> {
    const revision = this.revisionFor(method);
    if (revision === null || this.connection.transport !== 'http') return {};
    const headers: Record<string, string> = { 'MCP-Protocol-Version': revision };
    if (revision !== REVISION_2026) return headers;
    headers['Mcp-Method'] = method;
    // The tasks extension routes tasks/get, tasks/update and tasks/cancel by Mcp-Name: the taskId (MUST).
    const name =
      method === 'resources/read'
        ? params.uri
        : method === 'tools/call' || method === 'prompts/get'
          ? params.name
          : method.startsWith('tasks/')
            ? params.taskId
            : undefined;
    if (typeof name === 'string') headers['Mcp-Name'] = headerValue(name);
    return headers;
  }

  private withMeta(
    method: string,
    params: JsonObject,
    progressToken: string | undefined,
    capabilities: JsonObject | undefined,
  ): JsonObject {
    const revision = this.revisionFor(method);
    const meta: JsonObject = isObject(params._meta) ? { ...params._meta } : {};
    if (revision === REVISION_2026) {
      meta['io.modelcontextprotocol/protocolVersion'] = REVISION_2026;
      // Per request on 2026-07-28: the tasks probe declares the tasks extension on its call, nothing else does.
      meta['io.modelcontextprotocol/clientCapabilities'] = capabilities ?? {};
      meta['io.modelcontextprotocol/clientInfo'] = PROBE_CLIENT_INFO;
    }
    if (progressToken !== undefined) meta.progressToken = progressToken;
    return Object.keys(meta).length === 0 ? params : { ...params, _meta: meta };
  }

  request(
    method: string,
    params: JsonObject = {},
    options: { progressToken?: string; capabilities?: JsonObject } = {},
  ): SentRequest {
    const id = this.nextId++;
    const withMeta = this.withMeta(method, params, options.progressToken, options.capabilities);
    const message = { jsonrpc: '2.0', id, method, params: withMeta };
    const exchange = this.connection.send(message, this.headersFor(method, withMeta));
    return { id, exchange, sentAtMs: this.recorder.nowMs() };
  }

  notify(method: string, params: JsonObject): Exchange {
    const message = { jsonrpc: '2.0', method, params };
    return this.connection.send(message, this.headersFor(method, params));
  }

  /**
   * The response to `sent`, or null when its HTTP stream ended without one; a server silent for
   * `timeoutMs` fails the run with LAB042.
   */
  async response(
    sent: SentRequest,
    method: string,
    timeoutMs = this.recorder.bounds.answerTimeoutMs,
  ): Promise<JsonObject | null> {
    const already = this.recorder.events.find((e) => isResponseTo(e, sent.id));
    if (already?.kind === 'message') return already.message;
    if (this.streamEnded(sent.exchange.channel)) return null;
    const event = await this.recorder.waitFor(
      (e) =>
        isResponseTo(e, sent.id) ||
        (e.kind === 'stream-closed' && e.channel === sent.exchange.channel && e.channel !== 'stdio'),
      timeoutMs,
    );
    if (event === null) {
      const error = new LabError(
        'LAB042',
        `the server did not answer ${method} (request ${sent.id}) within ${timeoutMs} ms; the probe ended the connection`,
      );
      this.recorder.fail(error);
      throw error;
    }
    if (event.kind === 'message') return event.message;
    // The stream ended: a response may still have been recorded just before its end.
    const late = this.recorder.events.find((e) => isResponseTo(e, sent.id));
    return late?.kind === 'message' ? late.message : null;
  }

  streamEnded(channel: string): boolean {
    return this.recorder.events.some((e) => e.kind === 'stream-closed' && e.channel === channel);
  }

  /** What the HTTP endpoint answered on `channel` when it was not JSON-RPC: for LAB043. */
  private nonMcpAnswer(channel: string): string {
    const response = this.recorder.events.find((e) => e.kind === 'http-response' && e.channel === channel);
    const note = this.recorder.events.find((e) => e.kind === 'note' && e.text.startsWith(`${channel} answered`));
    if (note?.kind === 'note') return note.text;
    const error = this.recorder.events.find(
      (e) => e.kind === 'message' && e.from === 'server' && e.channel === channel && isObject(e.message.error),
    );
    if (response?.kind === 'http-response' && error?.kind === 'message' && isObject(error.message.error))
      return `${channel} answered ${response.status} with a JSON-RPC error without the request's id: ${describeValue(error.message.error.code)} ${describeValue(error.message.error.message).slice(0, 120)}`;
    if (response?.kind === 'http-response')
      return `${channel} answered ${response.status} with ${response.headers['content-type'] ?? 'no Content-Type'} and no JSON-RPC message`;
    return `${channel} got no HTTP response`;
  }

  async negotiate(): Promise<Negotiated> {
    const discover = this.request('server/discover', {});
    const discovered = await this.response(discover, 'server/discover', this.recorder.bounds.startupTimeoutMs);
    const result = discovered?.result;
    if (
      isObject(result) &&
      Array.isArray(result.supportedVersions) &&
      result.supportedVersions.includes(REVISION_2026)
    ) {
      const meta = isObject(result._meta) ? result._meta : {};
      const info = isObject(meta['io.modelcontextprotocol/serverInfo'])
        ? meta['io.modelcontextprotocol/serverInfo']
        : {};
      this.negotiated = {
        revision: REVISION_2026,
        via: 'server/discover',
        server: serverName(info),
        capabilities: isObject(result.capabilities) ? result.capabilities : {},
        fallbackReason: null,
      };
      return this.negotiated;
    }
    const fallbackReason =
      discovered === null
        ? `server/discover got no JSON-RPC answer (${this.nonMcpAnswer(discover.exchange.channel)})`
        : isObject(discovered.error)
          ? `server/discover was refused: ${describeValue(discovered.error.code)} ${describeValue(discovered.error.message).slice(0, 120)}`
          : `server/discover did not list ${REVISION_2026} among its supportedVersions`;
    this.recorder.record({
      kind: 'note',
      text: `2026-07-28 not used: ${fallbackReason}; trying the 2025-11-25 initialize handshake`,
    });
    const init = this.request('initialize', {
      protocolVersion: REVISION_2025,
      capabilities: {},
      clientInfo: PROBE_CLIENT_INFO,
    });
    const initialized = await this.response(init, 'initialize');
    if (initialized === null)
      throw new LabError(
        'LAB043',
        `the endpoint answered neither server/discover nor initialize with JSON-RPC: ${this.nonMcpAnswer(discover.exchange.channel)}; ${this.nonMcpAnswer(init.exchange.channel)}`,
      );
    const initResult = initialized.result;
    if (!isObject(initResult) || typeof initResult.protocolVersion !== 'string') {
      const error = isObject(initialized.error)
        ? `${describeValue(initialized.error.code)} ${describeValue(initialized.error.message).slice(0, 160)}`
        : 'a result without protocolVersion';
      throw new LabError(
        'LAB043',
        `the server refused both server/discover and initialize (${error}); it does not speak 2026-07-28 or 2025-11-25`,
      );
    }
    this.negotiated = {
      revision: initResult.protocolVersion,
      via: 'initialize',
      server: serverName(isObject(initResult.serverInfo) ? initResult.serverInfo : {}),
      capabilities: isObject(initResult.capabilities) ? initResult.capabilities : {},
      fallbackReason,
    };
    this.notify('notifications/initialized', {});
    return this.negotiated;
  }

  /** Every tool the server lists (pages followed, at most 20 of them). */
  async listTools(): Promise<JsonObject[]> {
    const tools: JsonObject[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const sent = this.request('tools/list', cursor === undefined ? {} : { cursor });
      const answer = await this.response(sent, 'tools/list');
      const result = answer?.result;
      if (!isObject(result) || !Array.isArray(result.tools))
        throw new LabError(
          'LAB043',
          `tools/list did not return a list of tools (${JSON.stringify(answer).slice(0, 200)})`,
        );
      tools.push(...result.tools.filter(isObject));
      if (typeof result.nextCursor !== 'string') break;
      cursor = result.nextCursor;
    }
    return tools;
  }
}

function serverName(info: JsonObject): { name: string; version: string } {
  return {
    name: typeof info.name === 'string' ? info.name.slice(0, 200) : '(unnamed server)',
    version: typeof info.version === 'string' ? info.version.slice(0, 100) : '(no version)',
  };
}
