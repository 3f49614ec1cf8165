import type { ShownOutcome } from './tsSdkProfile';

/**
 * The v2 table: every difference the lab sees between SDK 1.x (`ts-sdk`, protocol 2025-11-25), the v2
 * packages (`ts-sdk-v2`, 2026-07-28) and the lab's model, and what made it. A difference is either the
 * **revision** (both revisions' sentences quoted: the SDKs follow theirs) or the **implementation**
 * (the file and line in node_modules/@modelcontextprotocol/ where the SDK decides it, with the text
 * found there). src/sdk/tsSdkV2Table.test.ts holds each row to the real packages: every run is run on
 * all three and must show what the row says; every cited line must still hold its text; every `check`
 * names a test of a wire detail. A row that stops being true fails that test.
 */
export type DifferenceCause = 'revision' | 'implementation';

/** A line of an installed package that the row rests on: `file` under node_modules/@modelcontextprotocol/. */
export interface SourceLine {
  readonly file: string;
  readonly line: number;
  /** Text that line holds (the test reads the file and fails when it does not). */
  readonly text: string;
}

/** One run (run-spec syntax, `impl` left out) and what each of the three shows in it. */
export interface ThreeWayRun {
  readonly run: string;
  readonly v1: ShownOutcome;
  readonly v2: ShownOutcome;
  readonly model: ShownOutcome;
}

export interface V2Difference {
  /** What is observed, in a sentence. */
  readonly behaviour: string;
  /** Which pairs differ: v1 against v2, and/or the model against v2 (`none`: the three agree; listed so A–D are all covered). */
  readonly differs: ReadonlyArray<'v1-v2' | 'model-v2'> | 'none';
  readonly cause: DifferenceCause;
  /** For a revision difference: the sentence of each revision. */
  readonly revision?: { readonly '2025-11-25': string; readonly '2026-07-28': string };
  /** For an implementation difference: where the SDK decides it. */
  readonly source: readonly SourceLine[];
  /** Where the model differs from v2 and keeps its way: why the model is right (or what is left open). */
  readonly model?: string;
  readonly runs: readonly ThreeWayRun[];
  /** A wire detail the outcome does not show, checked by the test of that name in tsSdkV2Table.test.ts. */
  readonly check?:
    'handshake' | 'response-deferred' | 'sse-headers' | 'post-headers' | 'request-numbering' | 'server-era';
}

const CLIENT = 'client/dist/src-CeKsbNLO.mjs';
const CLIENT_PUBLIC = 'client/dist/public-CvV4ZHkX.mjs';
const CLIENT_INDEX = 'client/dist/index.mjs';
const SERVER = 'server/dist/mcp-oHn3ureC.mjs';
const SERVER_INDEX = 'server/dist/index.mjs';
const CORE = 'core/dist/schemas-DscsoNZN.mjs';

const out = (
  o: Partial<ShownOutcome> & Pick<ShownOutcome, 'terminalState' | 'clientOutcome' | 'clientOutcomeAtMs'>,
): ShownOutcome => ({
  cancellationSignal: null,
  cancelSentAtMs: null,
  finalResponse: false,
  invariantsBroken: [],
  ...o,
});
const MAX = 'RC-1/RC-2 maximum deadline';
const LATE = 'cancel on giving up';
const HTTP = 'RC-5 HTTP signal';

/** C's default run, where the maximum fires while progress flows, on each transport. */
const cAt = (
  run: string,
  http: boolean,
  clientOutcomeAtMs: number,
  v1CancelAtMs: number,
  v1FinalResponse: boolean,
): ThreeWayRun => ({
  run,
  v1: out({
    terminalState: 'timeout-max',
    clientOutcome: 'timeout-max',
    clientOutcomeAtMs,
    cancellationSignal: 'notifications/cancelled',
    cancelSentAtMs: v1CancelAtMs,
    finalResponse: v1FinalResponse,
    invariantsBroken: http ? [MAX, LATE, HTTP] : [MAX, LATE],
  }),
  v2: out({
    terminalState: 'timeout-max',
    clientOutcome: 'timeout-max',
    clientOutcomeAtMs,
    finalResponse: true,
    invariantsBroken: [MAX],
  }),
  model: out({
    terminalState: 'timeout-max',
    clientOutcome: 'timeout-max',
    clientOutcomeAtMs: 2_000,
    cancellationSignal: http ? 'stream-close' : 'notifications/cancelled',
    cancelSentAtMs: 2_000,
  }),
});

export const TS_SDK_V2_TABLE: readonly V2Difference[] = [
  {
    behaviour:
      "on Streamable HTTP v2 cancels by aborting the request's POST (its response stream closes) and POSTs no notifications/cancelled; its server takes the disconnect as the cancellation. SDK 1.x POSTs notifications/cancelled. The model does what v2 does",
    differs: ['v1-v2'],
    cause: 'revision',
    revision: {
      '2025-11-25':
        'Disconnection SHOULD NOT be interpreted as the client cancelling its request. To cancel, the client SHOULD explicitly send an MCP CancelledNotification (basic/transports, Streamable HTTP)',
      '2026-07-28':
        'Streamable HTTP: Closing the SSE response stream is the cancellation signal. The server MUST treat a client disconnect as cancellation of that request. No notifications/cancelled message is required or expected. (basic/patterns/cancellation)',
    },
    source: [
      {
        file: CLIENT,
        line: 6180,
        text: 'codec.era === MODERN_WIRE_REVISION && this._transport.hasPerRequestStream === true ? new AbortController()',
      },
      { file: CLIENT, line: 6216, text: 'requestAbort.abort();' },
      { file: CLIENT_INDEX, line: 1355, text: 'hasPerRequestStream = true;' },
      { file: SERVER, line: 160, text: 'const onAbort = () => void this.close();' },
    ],
    runs: [
      {
        run: 'A:transport=http',
        v1: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
          invariantsBroken: [HTTP],
        }),
        v2: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 120,
        }),
        model: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 120,
        }),
      },
      {
        run: 'B:transport=http',
        v1: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
          invariantsBroken: [HTTP],
        }),
        v2: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 207,
          finalResponse: true,
        }),
        model: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 207,
          finalResponse: true,
        }),
      },
      {
        run: 'D',
        v1: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
          invariantsBroken: [HTTP],
        }),
        v2: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 150,
        }),
        model: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 150,
        }),
      },
    ],
  },
  {
    behaviour:
      'on stdio a user cancel is notifications/cancelled at once and the server stops: SDK 1.x, v2 and the model agree',
    differs: 'none',
    cause: 'revision',
    revision: {
      '2025-11-25':
        'When a party wants to cancel an in-progress request, it sends a notifications/cancelled notification (basic/utilities/cancellation)',
      '2026-07-28':
        'stdio: There is no per-request stream to close. The client MUST send a notifications/cancelled notification referencing the request ID. (basic/patterns/cancellation)',
    },
    source: [
      {
        file: CLIENT,
        line: 6204,
        text: 'if (request.method !== "initialize") this._transport?.send(this._envelopeOutbound({',
      },
    ],
    runs: [
      {
        run: 'A',
        v1: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
        }),
        v2: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
        }),
        model: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
        }),
      },
      {
        run: 'B',
        v1: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
        }),
        v2: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
        }),
        model: out({
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
        }),
      },
      {
        run: 'D:transport=stdio',
        v1: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
        }),
        v2: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
        }),
        model: out({
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
        }),
      },
    ],
  },
  {
    behaviour:
      "v2, like SDK 1.x, checks maxTotalTimeout only when a progress notification arrives, so it gives up after the maximum (C: at 2010 ms, or 2331 ms with progress every 333 ms: the next row's runs) and, with no progress, only the idle timeout ends the request",
    differs: ['model-v2'],
    cause: 'implementation',
    source: [
      { file: CLIENT, line: 5818, text: 'if (info.maxTotalTimeout && totalElapsed >= info.maxTotalTimeout) {' },
      { file: CLIENT, line: 6041, text: 'this._resetTimeout(messageId);' },
    ],
    model:
      "both revisions give the maximum no timer of its own; the lab's requirements RC-1 and RC-2 ask for one that fires at start + maxTimeoutMs whatever arrives, so the model is right by the lab's requirement and v2 breaks RC-1/RC-2",
    runs: [
      {
        run: 'C:latencyMs=0,idleTimeoutMs=4000,workMs=10000,serverSendsProgress=false',
        v1: out({
          terminalState: 'timeout-idle',
          clientOutcome: 'timeout-idle',
          clientOutcomeAtMs: 4_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 4_000,
          invariantsBroken: [MAX],
        }),
        v2: out({
          terminalState: 'timeout-idle',
          clientOutcome: 'timeout-idle',
          clientOutcomeAtMs: 4_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 4_000,
          invariantsBroken: [MAX],
        }),
        model: out({
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_000,
        }),
      },
    ],
  },
  {
    behaviour:
      'when progress finds maxTotalTimeout exceeded, v2 rejects the call and never cancels: the server works on and sends its result. SDK 1.x sent notifications/cancelled later, from the idle timer it never cleared; the model cancels at the maximum',
    differs: ['v1-v2', 'model-v2'],
    cause: 'implementation',
    revision: {
      '2025-11-25':
        'When the request has not received a success or error response within the timeout period, the sender SHOULD issue a cancellation notification for that request and stop waiting for a response (basic/lifecycle, Timeouts)',
      '2026-07-28':
        'When the request has not received a success or error response within the timeout period, the sender SHOULD cancel the request and stop waiting for a response (basic/patterns/cancellation, Timeouts)',
    },
    source: [
      { file: CLIENT, line: 6046, text: 'responseHandler(error);' },
      { file: CLIENT, line: 6221, text: 'responseReceived = true;' },
      { file: CLIENT, line: 6201, text: 'if (responseReceived) return;' },
    ],
    model:
      "both revisions say the sender SHOULD cancel on timeout: the model does, at the moment it gives up; v2 rejecting with the timeout marks the response as received, so the idle timer's cancel() returns early and nothing is sent",
    runs: [
      cAt('C', false, 2_010, 2_110, false),
      cAt('C:transport=http', true, 2_010, 2_110, false),
      cAt('C:workMs=2050', false, 2_010, 2_110, true),
      cAt('C:latencyMs=0,progressEveryMs=333', false, 2_331, 2_498, false),
      cAt('C:transport=http,latencyMs=0,progressEveryMs=333', true, 2_331, 2_498, false),
    ],
  },
  {
    behaviour:
      'v2 removes its AbortSignal listener once the call settles: a user cancel after the result sends nothing (SDK 1.x sent notifications/cancelled); v2 does what the model does',
    differs: ['v1-v2'],
    cause: 'implementation',
    source: [
      { file: CLIENT, line: 6267, text: 'if (onAbort) options?.signal?.removeEventListener("abort", onAbort);' },
    ],
    runs: [
      {
        run: 'B:cancelAtMs=300',
        v1: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 300,
          finalResponse: true,
          invariantsBroken: ['no cancel after the result'],
        }),
        v2: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          finalResponse: true,
        }),
        model: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          finalResponse: true,
        }),
      },
      {
        run: 'B:transport=http,cancelAtMs=300',
        v1: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 300,
          finalResponse: true,
          invariantsBroken: ['no cancel after the result', HTTP],
        }),
        v2: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          finalResponse: true,
        }),
        model: out({
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          finalResponse: true,
        }),
      },
    ],
  },
  {
    behaviour:
      'v2 opens with a server/discover probe and no initialize handshake (2026-07-28), when asked to: its default versionNegotiation is "legacy", the 2025 initialize handshake, so the lane passes { mode: "auto" }; SDK 1.x sends initialize and notifications/initialized',
    differs: ['v1-v2'],
    cause: 'revision',
    revision: {
      '2025-11-25':
        'The initialization phase MUST be the first interaction between client and server (basic/lifecycle)',
      '2026-07-28':
        'A request from the client asking the server to advertise its supported protocol versions, capabilities, and other metadata. Servers MUST implement `server/discover`. Clients MAY call it but are not required to — version negotiation can also happen inline via per-request `_meta`. (schema.json, DiscoverRequest)',
    },
    source: [{ file: CLIENT_PUBLIC, line: 2180, text: 'const DEFAULT_VERSION_NEGOTIATION_MODE = "legacy";' }],
    model:
      'the model has no handshake at all (every request carries the 2026-07-28 _meta envelope, which v2 also sends on each request); the schema lets a client skip server/discover',
    runs: [],
    check: 'handshake',
  },
  {
    behaviour:
      'a low-level v2 Server answers server/discover only when its supportedProtocolVersions lists a 2026-07-28 revision, which the default list does not: v2 serves the 2026-07-28 era through serveStdio and createMcpHandler, and its WebStandardStreamableHTTPServerTransport serves the 2025 era',
    differs: ['v1-v2'],
    cause: 'implementation',
    source: [
      {
        file: SERVER,
        line: 872,
        text: 'if (modernProtocolVersions(this._supportedProtocolVersions).length > 0) this.setRequestHandler("server/discover"',
      },
      { file: CORE, line: 4, text: 'const LATEST_PROTOCOL_VERSION = "2025-11-25";' },
      { file: SERVER_INDEX, line: 1112, text: 'function createMcpHandler(factory, options = {}) {' },
    ],
    runs: [],
    check: 'server-era',
  },
  {
    behaviour:
      'on Streamable HTTP v2 answers a tools/call only when the server first writes: the SSE stream opens with the first progress (D: at 105 ms), and a result with no progress before it comes as one application/json response. The model opens the SSE stream when the request arrives (D: at 5 ms)',
    differs: ['model-v2'],
    cause: 'implementation',
    source: [
      { file: SERVER, line: 113, text: 'this._responseMode = options.responseMode ?? "auto";' },
      { file: SERVER, line: 211, text: 'if (this._sse === void 0) this.upgradeToSse();' },
      { file: SERVER, line: 203, text: 'this.settleResponse(Response.json(message, {' },
    ],
    model:
      'both are 2026-07-28 Streamable HTTP (a POST is answered with JSON or an SSE stream scoped to the request); the model keeps its early stream because its headers (X-Accel-Buffering: no) must be on the wire before the first progress for the proxy-buffering scenario to show what a buffering proxy does to it',
    runs: [],
    check: 'response-deferred',
  },
  {
    behaviour:
      "v2's SSE response headers are Content-Type: text/event-stream, Cache-Control: no-cache, no-transform, Connection: keep-alive and X-Accel-Buffering: no; the model sends Content-Type, Cache-Control: no-cache and X-Accel-Buffering: no",
    differs: ['model-v2'],
    cause: 'implementation',
    source: [
      { file: SERVER, line: 266, text: '"Cache-Control": "no-cache, no-transform",' },
      { file: SERVER, line: 267, text: 'Connection: "keep-alive",' },
      { file: SERVER, line: 268, text: '"X-Accel-Buffering": "no"' },
    ],
    model:
      "Connection is a hop-by-hop header of HTTP/1.1 that HTTP/2 and HTTP/3 forbid (RFC 9113 §8.2.2), so the model leaves it out; no-transform (RFC 9111 §5.2.2.6) would keep intermediaries from re-encoding the stream and is not in the model: a difference left open, since the model's headers are in every golden transcript",
    runs: [],
    check: 'sse-headers',
  },
  {
    behaviour:
      "every POST v2's client sends carries Accept: application/json, text/event-stream, Content-Type: application/json, MCP-Protocol-Version: 2026-07-28 and Mcp-Method (and Mcp-Name: the tool for tools/call); a cancel POSTs nothing on HTTP",
    differs: ['v1-v2'],
    cause: 'revision',
    revision: {
      '2025-11-25':
        'the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP header on all subsequent requests to the MCP server (basic/transports, Protocol Version Header); there is no Mcp-Method header',
      '2026-07-28':
        "SEP-2243 standard headers: MCP-Protocol-Version and Mcp-Method on every request POST, Mcp-Name for the methods that mirror params.name (v2's inbound ladder, server/dist/src-DdvbAHrR.mjs:4947, states the rule it enforces)",
    },
    source: [
      {
        file: 'server/dist/src-DdvbAHrR.mjs',
        line: 4947,
        text: 'SEP-2243 standard `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers',
      },
    ],
    runs: [],
    check: 'post-headers',
  },
  {
    behaviour:
      'v2 numbers its requests from 0 with no initialize before the call, so the tool call is #0 with progressToken 0 (SDK 1.x: #1, token 1); the model\'s call is #41 with progressToken "progress-41"',
    differs: ['v1-v2', 'model-v2'],
    cause: 'implementation',
    source: [
      { file: CLIENT, line: 6181, text: 'const messageId = this._requestMessageId++;' },
      { file: CLIENT, line: 6194, text: 'progressToken: messageId' },
    ],
    model:
      "any id unique among the sender's requests and any token unique among its active requests conform to both revisions; the model picks visible ones",
    runs: [],
    check: 'request-numbering',
  },
];
