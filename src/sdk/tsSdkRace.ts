import FakeTimers from '@sinonjs/fake-timers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport as SdkTransport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type CallToolResult, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import {
  EventLog,
  LabError,
  SeededRandom,
  assert,
  checkSeed,
  checkTransport,
  raceInvariants,
  resolveSettings,
  summarizeMessage,
  DEFAULT_SEED,
  type ClientOutcome,
  type DeliveredEvent,
  type JsonRpcMessage,
  type LabEvent,
  type MessageEvent,
  type RequestOutcome,
  type RequestRaceScenario,
  type RequestRaceSettings,
  type Side,
  type TerminalState,
  type Transcript,
  type Transport,
  requestRaceSettingsSpec,
} from '../engine';
import { SETTINGS_NOT_APPLIED, TS_SDK_PACKAGE, TS_SDK_VERSION } from './version';
import { sdkRefusal } from '../lab/runSpec';

export { SETTINGS_NOT_APPLIED } from './version';

/**
 * Issue #13: a request race (scenarios A–D) driven by the real MCP TypeScript SDK on the virtual
 * clock. Its `Client` is the client lane and its low-level `Server` the server lane, joined by the
 * SDK's `InMemoryTransport` (stdio) or by its Streamable HTTP client transport and web-standard
 * server transport over an in-process `fetch` (http). The SDK's own timers run on
 * @sinonjs/fake-timers, installed on the global for the run only and removed after it. Nothing of
 * the SDK is patched or reimplemented: the lab only taps each transport's `send` to record what a
 * side put on the wire, and delays delivery by the scenario's latency; the tool follows the
 * scenario's script (work in chunks, a checkpoint each, progress at each, completion).
 *
 * What the lab cannot see inside the SDK it does not invent: there are no `deadline` events (the
 * SDK's timers are private); the client's ending is what `callTool` resolved or rejected with, at
 * the moment it did, in the SDK's own words.
 */
export interface TsSdkRunOptions {
  readonly transport?: Transport;
  readonly seed?: number;
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Called before each virtual step with the virtual time; may throw to stop the run (a wall-clock budget, the page's Stop). */
  readonly onStep?: (atMs: number) => void;
}

const TOOL_NAME = 'generate_report';
const USER_CANCEL_REASON = 'User closed the operation';
const MCP_URL = 'http://lab.invalid/mcp';
/** Real macrotask turns between virtual steps: each drains every promise the step started. */
const FLUSH_TURNS = 3;
/** A bound on the real turns one virtual step may take (STYLE: a limit on everything). */
const REAL_TURNS_MAX = 100_000;

/** One real macrotask turn, with the host's own scheduling captured before any fake clock exists. */
const realTurn: () => Promise<void> = (() => {
  const immediate = globalThis.setImmediate;
  if (typeof immediate === 'function') return () => new Promise<void>((resolve) => immediate(() => resolve()));
  return () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
})();

type InstalledClock = ReturnType<ReturnType<typeof FakeTimers.withGlobal>['install']>;

/** The run in progress, if any: SDK runs share the global clock, so each waits for the one before it. */
let previous: Promise<unknown> = Promise.resolve();

interface Pending {
  readonly delivered: DeliveredEvent;
  readonly message: MessageEvent;
  accepted: boolean;
}

interface Tool {
  readonly requestId: number | string;
  returned: boolean;
}

class SdkRace {
  readonly log: EventLog<LabEvent>;
  private readonly logClock: { nowMs: number; causeSeq: number | null };
  private readonly random: SeededRandom;
  private readonly lastArrivalMs = new Map<string, number>();
  /** Server messages recorded on an SSE stream, waiting for the client's end of that stream to read them. */
  private readonly sseQueues = new Map<string, MessageEvent[]>();
  private readonly pendingClient: Pending[] = [];
  private readonly pendingServerCancels: Pending[] = [];
  private readonly clientErrors: string[] = [];
  /**
   * Work in flight that the host runs on real tasks, not promises (a browser reads a Request's body
   * and pipes a Response's stream across tasks): a message handed to a transport and not yet read
   * by the receiving side. The fake clock does not move while any is, so a run is the same on Node
   * and in Chromium however many real turns the host takes.
   */
  busy = 0;
  private handshaking = true;
  private recording = true;
  callId: number | string | null = null;
  private clientEnd: { outcome: ClientOutcome; atMs: number } | null = null;
  private serverEnd: { state: 'completed' | 'cancelled'; atMs: number } | null = null;
  private terminal: { state: TerminalState; atMs: number } | null = null;
  private finalResponse = false;
  private cancelSentAtMs: number | null = null;
  private gaveUpOnMax = false;
  private readonly clientIgnores: RequestOutcome['clientIgnores'] = [];

  constructor(
    clock: InstalledClock,
    readonly transport: Transport,
    readonly seed: number,
    readonly settings: RequestRaceSettings,
  ) {
    const startMs = clock.now;
    this.logClock = {
      get nowMs() {
        return clock.now - startMs;
      },
      causeSeq: null,
    };
    this.log = new EventLog<LabEvent>(this.logClock);
    this.random = new SeededRandom(seed);
  }

  get nowMs(): number {
    return this.logClock.nowMs;
  }

  private record(event: Record<string, unknown> & { kind: string }): LabEvent {
    return this.log.record(event as never) as LabEvent;
  }

  // ── the wire: what each side puts on it, and when it arrives ──────────────────────────────────

  /** Latency plus seeded jitter, never before the channel's previous message (FIFO, as the lab's Wire). The handshake is instant. */
  private arrivalMs(channelKey: string): number {
    if (this.handshaking) return this.nowMs;
    const s = this.settings;
    const jitterMs = s.latencyJitterMs > 0 ? this.random.int(0, s.latencyJitterMs) : 0;
    const arrivesAtMs = Math.max(this.nowMs + s.latencyMs + jitterMs, this.lastArrivalMs.get(channelKey) ?? 0);
    this.lastArrivalMs.set(channelKey, arrivesAtMs);
    return arrivesAtMs;
  }

  /** Records a message a side of the SDK just put on the wire. */
  put(from: Side, channel: string, sdkMessage: JSONRPCMessage): MessageEvent | null {
    if (!this.recording) return null;
    const message = structuredClone(sdkMessage) as unknown as JsonRpcMessage;
    if (from === 'client' && 'method' in message && message.method === 'tools/call' && 'id' in message) this.requestStarted(message);
    if (from === 'server' && this.callId !== null && 'id' in message && message.id === this.callId && ('result' in message || 'error' in message)) this.serverCompletes();
    if (from === 'client' && 'method' in message && message.method === 'notifications/cancelled' && message.params.requestId === this.callId) {
      this.cancelSentAtMs ??= this.nowMs;
    }
    const to: Side = from === 'client' ? 'server' : 'client';
    const event = this.record({ kind: 'message', from, to, channel, message, arrivesAtMs: this.arrivalMs(`${channel}:${from}`) }) as MessageEvent;
    if (from === 'server' && this.transport === 'http' && this.callId !== null && 'id' in message && message.id === this.callId && ('result' in message || 'error' in message)) {
      this.record({ kind: 'stream-closed', by: 'server', requestId: this.callId, reason: 'the SDK’s server transport closes the request’s SSE stream once its response is written' });
    }
    return event;
  }

  /** The receiving side gets the message now: records the delivery and notes it for `settle`. */
  delivered(message: MessageEvent): void {
    this.logClock.causeSeq = message.seq;
    const delivered = this.record({ kind: 'delivered', messageSeq: message.seq, from: message.from, to: message.to, summary: summarizeMessage(message.message) }) as DeliveredEvent;
    const pending: Pending = { delivered, message, accepted: false };
    const m = message.message;
    if (message.to === 'client' && this.callId !== null && (('method' in m && m.method === 'notifications/progress') || ('id' in m && m.id === this.callId && !('method' in m)))) this.pendingClient.push(pending);
    if (message.to === 'server' && 'method' in m && m.method === 'notifications/cancelled') this.pendingServerCancels.push(pending);
  }

  /**
   * What is due at the current instant, run one by one as steps of their own once everything the
   * current step started has settled (as the lab's scheduler runs same-instant events): a message
   * sent with no latency is delivered after its sender finished what it was doing.
   */
  readonly dueNow: Array<() => void> = [];

  /** Resolves at absolute virtual time `atMs` (a fake timer). */
  until(atMs: number): Promise<void> {
    // A timer of 0 ms fires 1 ms later (as the host's own would): what is due now is due now.
    if (atMs <= this.nowMs) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, atMs - this.nowMs));
  }

  /** Runs `action` at virtual time `atMs` (now: as a step of its own, once the current one has settled). */
  at(atMs: number, action: () => void): void {
    if (atMs <= this.nowMs) this.dueNow.push(action);
    else setTimeout(action, atMs - this.nowMs);
  }

  /** Calls `deliver` when `message` arrives, after recording its delivery. */
  deliverLater(message: MessageEvent | null, deliver: () => void): void {
    if (message === null) return deliver();
    const arrive = (): void => {
      this.delivered(message);
      deliver();
    };
    if (message.arrivesAtMs <= this.nowMs) this.dueNow.push(arrive);
    else setTimeout(arrive, message.arrivesAtMs - this.nowMs);
  }

  /** HTTP: the SSE stream that carries a server message. */
  sseChannel(message: JSONRPCMessage, options: TransportSendOptions | undefined): string {
    const id = 'id' in message && !('method' in message) ? message.id : options?.relatedRequestId;
    return id === undefined ? 'SSE GET' : `SSE #${String(id)}`;
  }

  queueSse(channel: string, event: MessageEvent | null): void {
    if (event === null) return;
    const queue = this.sseQueues.get(channel) ?? [];
    queue.push(event);
    this.sseQueues.set(channel, queue);
  }

  nextSse(channel: string): MessageEvent | null {
    return this.sseQueues.get(channel)?.shift() ?? null;
  }

  noteStreamOpened(requestId: number | string, headers: Headers): void {
    if (!this.recording) return;
    const all: Record<string, string> = {};
    headers.forEach((value, key) => {
      all[key] = value;
    });
    this.record({ kind: 'stream-opened', by: 'server', requestId, headers: all });
  }

  // ── the client's view, from what the SDK's public API tells ───────────────────────────────────

  private requestStarted(message: JsonRpcMessage): void {
    assert('id' in message && message.id !== undefined && this.callId === null, 'the race makes one tool call');
    this.callId = message.id;
    const meta = 'params' in message ? (message.params as { _meta?: { progressToken?: string | number } })._meta : undefined;
    this.record({ kind: 'request-started', requestId: message.id, idleTimeoutMs: this.settings.idleTimeoutMs, maxTimeoutMs: this.settings.maxTimeoutMs, progressToken: meta?.progressToken ?? null });
  }

  clientError(error: Error): void {
    this.clientErrors.push(error.message);
  }

  clientProgressAccepted(): void {
    const pending = this.pendingClient.find((p) => !p.accepted && 'method' in p.message.message);
    if (pending !== undefined) pending.accepted = true;
  }

  clientSettled(): void {
    const pending = this.pendingClient.find((p) => !p.accepted && !('method' in p.message.message));
    if (pending !== undefined) pending.accepted = true;
    this.clientEnds('completed', 'settled', '`callTool` resolved with the tool’s result');
  }

  clientRejected(error: unknown, userCancelled: boolean): void {
    const text = error instanceof Error ? error.message : String(error);
    if (userCancelled) return this.clientEnds('cancelled', 'abandoned', `the user's AbortSignal fired; \`callTool\` rejected: ${text}`);
    if (text.includes('Maximum total timeout exceeded')) {
      this.gaveUpOnMax = true;
      return this.clientEnds('timeout-max', 'abandoned', `\`callTool\` rejected: ${text} (the SDK checks maxTotalTimeout only when progress arrives)`);
    }
    if (text.includes('Request timed out')) return this.clientEnds('timeout-idle', 'abandoned', `\`callTool\` rejected: ${text}`);
    throw new LabError('LAB026', `the SDK's callTool failed in a way the lab does not expect: ${text}`);
  }

  private clientEnds(outcome: ClientOutcome, to: 'settled' | 'abandoned', reason: string): void {
    assert(this.clientEnd === null && this.callId !== null, 'the client ends its request once');
    this.clientEnd = { outcome, atMs: this.nowMs };
    this.record({ kind: 'state', side: 'client', requestId: this.callId, from: 'waiting', to, reason });
    // As the lab's coordinator stores it: a deadline ends the request where the client is; a cancellation only once the server accepts it.
    if (this.terminal === null && (outcome === 'timeout-idle' || outcome === 'timeout-max')) this.setTerminal(outcome, reason);
    this.noteViews('client');
  }

  // ── the server's view: the tool's steps and what the SDK does with it ──────────────────────────

  /** The tool handler the SDK's Server calls: the scenario's work, a checkpoint per chunk, progress at each. */
  readonly runTool = async (requestId: number | string, signal: AbortSignal, progressToken: string | number | undefined, sendProgress: (progress: number, total: number, message: string) => Promise<void>): Promise<CallToolResult> => {
    const s = this.settings;
    const tool: Tool = { requestId, returned: false };
    signal.addEventListener('abort', () => this.serverAborted(tool, signal.reason));
    const chunks = s.progressEveryMs > 0 ? Math.max(1, Math.ceil(s.workMs / s.progressEveryMs)) : 1;
    const startedAtMs = this.nowMs;
    let workerSeq = this.record({ kind: 'worker', requestId, step: 'started', reason: `the SDK called the tool: ${s.workMs} ms of work in ${chunks} chunk(s); it checks extra.signal at each checkpoint` }).seq;
    for (let chunk = 1; chunk <= chunks; chunk += 1) {
      const isLast = chunk === chunks;
      await this.until(startedAtMs + (isLast ? s.workMs : chunk * s.progressEveryMs));
      // A checkpoint is caused by the worker's step before it, as the model's are.
      this.logClock.causeSeq = workerSeq;
      if (isLast) {
        this.record({ kind: 'worker', requestId, step: 'finished', reason: 'the tool reached completion and returns its result to the SDK' });
        if (signal.aborted) {
          this.record({ kind: 'suppressed', by: 'server', requestId, what: 'response', reason: 'the request was aborted first: the SDK’s Server drops the result and sends no response (protocol.js:397-400)' });
        }
        break;
      }
      if (signal.aborted) {
        this.record({ kind: 'worker', requestId, step: 'stopped', reason: `checkpoint ${chunk} found extra.signal aborted: the tool stops` });
        break;
      }
      workerSeq = this.record({ kind: 'worker', requestId, step: 'checkpoint', reason: `chunk ${chunk} of ${chunks} done` }).seq;
      if (s.serverSendsProgress && progressToken !== undefined) await sendProgress(chunk, chunks, `chunk ${chunk} of ${chunks}`);
    }
    tool.returned = true;
    return { content: [{ type: 'text', text: 'Report for 2026-Q3 is ready.' }], structuredContent: { rows: 42 } };
  };

  private serverAborted(tool: Tool, reason: unknown): void {
    if (!this.recording || tool.returned) return;
    const pending = this.pendingServerCancels.find((p) => !p.accepted);
    if (pending !== undefined) pending.accepted = true;
    const how = `the SDK's Server aborted the handler's extra.signal (reason: ${String(reason)})`;
    this.record({ kind: 'cancel-accepted', by: 'server', requestId: tool.requestId, reason: `${how}; the tool stops at its next checkpoint and the SDK sends no response` });
    if (this.serverEnd === null) {
      this.serverEnd = { state: 'cancelled', atMs: this.nowMs };
      this.record({ kind: 'state', side: 'server', requestId: tool.requestId, from: 'active', to: 'cancelled', reason: how });
      if (this.terminal === null) this.setTerminal('cancelled', `the server accepted the cancellation (${how})`);
    }
  }

  private serverCompletes(): void {
    assert(this.callId !== null, 'a response answers the call');
    this.finalResponse = true;
    if (this.serverEnd !== null) return;
    this.serverEnd = { state: 'completed', atMs: this.nowMs };
    this.record({ kind: 'state', side: 'server', requestId: this.callId, from: 'active', to: 'completed', reason: 'the SDK’s Server sends the tool’s result' });
    if (this.terminal === null) this.setTerminal('completed', 'the server sent the final response');
    this.noteViews('server');
  }

  private setTerminal(state: TerminalState, reason: string): void {
    assert(this.callId !== null, 'a terminal state belongs to the call');
    this.terminal = { state, atMs: this.nowMs };
    this.record({ kind: 'terminal', requestId: this.callId, state, reason });
  }

  private noteViews(side: Side): void {
    if (this.clientEnd === null || this.serverEnd?.state !== 'completed' || this.clientEnd.outcome === 'completed' || this.callId === null) return;
    const reason =
      `the server completed at ${this.serverEnd.atMs} ms and sent its final response; the client ended ${this.clientEnd.outcome} at ${this.clientEnd.atMs} ms ` +
      'and will discard that response. Neither side can know what the other saw first';
    this.record({ kind: 'views-diverge', requestId: this.callId, side, serverView: 'completed', serverEndedAtMs: this.serverEnd.atMs, clientView: this.clientEnd.outcome, clientEndedAtMs: this.clientEnd.atMs, reason });
  }

  /**
   * After each virtual step, once every promise it started has run: what a receiver did with what
   * was delivered. A progress the SDK did not pass to `onprogress`, a response `callTool` did not
   * resolve with, a cancellation that aborted no handler: each was ignored, in the SDK's words
   * where it gave any (its `onerror`).
   */
  settle(): void {
    const errors = this.clientErrors.splice(0);
    for (const pending of this.pendingClient.splice(0)) {
      if (pending.accepted) continue;
      const isProgress = 'method' in pending.message.message;
      const sdkSaid = errors.find((text) => text.includes(isProgress ? 'progress' : 'response'));
      const reason =
        sdkSaid !== undefined
          ? `the SDK's Client dropped it: "${sdkSaid.replace(/: \{.*$/, '')}"`
          : isProgress && this.gaveUpOnMax && this.clientEnd?.atMs === pending.delivered.atMs
            ? 'the SDK found maxTotalTimeout exceeded when this progress arrived and rejected the request instead of passing it on (protocol.js:462-472)'
            : 'the SDK’s Client did not pass it on';
      this.ignored(pending, 'client', reason);
      this.clientIgnores.push({ seq: pending.message.seq, atMs: pending.delivered.atMs, summary: pending.delivered.summary, reason });
    }
    for (const pending of this.pendingServerCancels.splice(0)) {
      if (pending.accepted) continue;
      const reason = 'no handler of that request is running: the SDK’s Server finds no AbortController for it and does nothing, without error or reply (protocol.js:173-179)';
      this.ignored(pending, 'server', reason);
      const m = pending.message.message;
      this.record({ kind: 'cancel-ignored', by: 'server', requestId: 'params' in m && typeof m.params.requestId !== 'object' ? (m.params.requestId as number | string) : null, reason });
    }
  }

  private ignored(pending: Pending, by: Side, reason: string): void {
    pending.delivered.ignoredBy = by;
    pending.delivered.reason = reason;
    pending.message.ignoredBy = by;
    pending.message.reason = reason;
  }

  stopRecording(): void {
    this.recording = false;
  }

  endHandshake(): void {
    this.handshaking = false;
  }

  /**
   * A new virtual step begins. What the lab cannot see the scheduling of (the SDK's own timers, a
   * script step) has no recorded cause; a delivery names its message and a checkpoint the worker's
   * step before it, as they run.
   */
  stepStarts(): void {
    this.logClock.causeSeq = null;
  }

  outcome(): RequestOutcome {
    assert(this.callId !== null, 'the script made its tool call');
    assert(this.terminal !== null, 'the request reached a terminal state');
    assert(this.clientEnd !== null, 'callTool resolved or rejected');
    return {
      requestId: this.callId,
      terminalState: this.terminal.state,
      terminalAtMs: this.terminal.atMs,
      finalResponse: this.finalResponse,
      cancellationSignal: this.cancelSentAtMs === null ? null : 'notifications/cancelled',
      clientIgnores: [...this.clientIgnores].sort((a, b) => a.seq - b.seq),
      clientOutcome: this.clientEnd.outcome,
      clientOutcomeAtMs: this.clientEnd.atMs,
      viewsDiverge: this.log.events.some((event) => event.kind === 'views-diverge'),
      cancelDelayMs: this.cancelSentAtMs === null ? null : this.cancelSentAtMs - this.clientEnd.atMs,
    };
  }
}

/** Passes an SDK transport through, recording what its side sends; `delay` decides when the other side gets it. */
class TappedTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: SdkTransport,
    private readonly side: Side,
    private readonly race: SdkRace,
    private readonly mode: 'stdio' | 'http-server' | 'http-client',
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The SDK's Client tells its HTTP transport the negotiated revision (the mcp-protocol-version header): passed on as is. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      // Streamable HTTP: the receiving side has read a message the lab delivered; the clock may move again.
      if (this.mode !== 'stdio') this.race.busy -= 1;
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.mode === 'stdio') {
      const event = this.race.put(this.side, 'stdio', message);
      this.race.deliverLater(event, () => void this.inner.send(message, options).catch((error: unknown) => this.onerror?.(error as Error)));
      return Promise.resolve();
    }
    // Streamable HTTP, client side: labFetch records each POST as it goes out.
    if (this.mode === 'http-client') return this.inner.send(message, options);
    // Streamable HTTP, server side: the message is written to its SSE stream now; the client's end of that stream reads it after the latency.
    const channel = this.race.sseChannel(message, options);
    const event = this.race.put(this.side, channel, message);
    this.race.queueSse(channel, event);
    if (event !== null) this.race.busy += 1;
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The in-process `fetch` joining the SDK's HTTP client transport to its web-standard server transport. */
function labFetch(race: SdkRace, server: WebStandardStreamableHTTPServerTransport): typeof fetch {
  const handle = async (request: Request): Promise<Response> => {
    race.busy += 1;
    try {
      return await server.handleRequest(request);
    } finally {
      race.busy -= 1;
    }
  };
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== 'POST') return handle(request);
    // The SDK's transport POSTs one JSON-RPC message as a string: read as it was given, with no trip through the host's body reader.
    if (typeof init?.body !== 'string') throw new LabError('LAB026', 'the SDK POSTed a body that is not a string; the lab records only what it can read');
    const message = JSON.parse(init.body) as JSONRPCMessage;
    const isRequest = 'method' in message && 'id' in message;
    const channel = isRequest ? `POST #${String(message.id)}` : `POST ${'method' in message ? message.method : 'response'}`;
    const event = race.put('client', channel, message);
    if (event !== null) {
      await race.until(event.arrivesAtMs);
      race.delivered(event);
    }
    // Until the server's transport hands it to the Server: the busy count covers handleRequest, and the server's onmessage ends it.
    race.busy += 1;
    const response = await handle(request);
    if (!(response.status >= 200 && response.status < 300)) race.busy -= 1;
    if (!isRequest || response.body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    race.noteStreamOpened(message.id, response.headers);
    const sse = `SSE #${String(message.id)}`;
    // The client's end of the stream: each server message reaches it at its arrival time.
    // The client's end of the stream. The server's stream is read as soon as it is written (a message
    // sent while an earlier one is still on its way must not wait behind it), and each chunk is handed
    // on at its message's arrival time; arrival times along one stream never decrease, so it stays FIFO.
    const reader = response.body.getReader();
    let out: ReadableStreamDefaultController<Uint8Array> | null = null;
    let lastArrivalMs = race.nowMs;
    const delayed = new ReadableStream<Uint8Array>({
      start(controller) {
        out = controller;
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const pump = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          race.at(lastArrivalMs, () => out?.close());
          return;
        }
        // One SSE event per chunk, as the SDK's server transport writes them; a chunk of several arrives with its last.
        const sent = (new TextDecoder().decode(value).match(/^data:/gm) ?? []).map(() => race.nextSse(sse)).filter((event): event is MessageEvent => event !== null);
        if (sent.length === 0) {
          race.at(lastArrivalMs, () => out?.enqueue(value));
          continue;
        }
        // At the client's end of the stream now, waiting for its arrival time.
        race.busy -= sent.length;
        lastArrivalMs = Math.max(lastArrivalMs, ...sent.map((event) => event.arrivesAtMs));
        race.at(lastArrivalMs, () => {
          for (const event of sent) race.delivered(event);
          // Until the client's transport has parsed them and handed them to the Client.
          race.busy += sent.length;
          out?.enqueue(value);
        });
      }
    };
    pump().catch((error: unknown) => out?.error(error));
    return new Response(delayed, { status: response.status, headers: response.headers });
  };
}

/**
 * Runs a request-race scenario (A–D) on the real SDK and returns its transcript, in the lab's
 * format, with `implementation: 'ts-sdk'`. Same seed and settings → byte-identical transcript.
 * The fake clock is installed on the global object for this call only and always removed.
 */
export async function runTsSdkScenario(scenario: RequestRaceScenario, options: TsSdkRunOptions = {}): Promise<Transcript<'request-race'>> {
  // The lab's run description decides what the SDK cannot run; a direct caller meets the same refusal.
  const refusal = sdkRefusal(scenario, options.settings ?? {}, false, false);
  if (refusal !== null) throw refusal;
  const unsupported = scenario.script.find((step) => step.do !== 'call' && step.do !== 'cancel');
  if (unsupported !== undefined) throw new LabError('LAB025', `scenario ${scenario.id} scripts "${unsupported.do}", which the SDK's Client cannot send. Nothing was run`);
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const settings = resolveSettings(requestRaceSettingsSpec, { ...scenario.settings }, options.settings ?? {}) as RequestRaceSettings;
  const run = previous.then(async () => {
    const clock = FakeTimers.withGlobal(globalThis).install({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      return await runOnClock(clock, scenario, transport, seed, settings, options.onStep);
    } finally {
      clock.uninstall();
    }
  });
  previous = run.catch(() => undefined);
  return run;
}

async function runOnClock(clock: InstalledClock, scenario: RequestRaceScenario, transport: Transport, seed: number, settings: RequestRaceSettings, onStep: TsSdkRunOptions['onStep']): Promise<Transcript<'request-race'>> {
  const race = new SdkRace(clock, transport, seed, settings);
  const client = new Client({ name: 'mcp-reliability-lab', version: '0.1.0' });
  const server = new Server({ name: 'mcp-reliability-lab-server', version: '0.1.0' }, { capabilities: { tools: {} } });
  client.onerror = (error) => race.clientError(error);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    race.runTool(extra.requestId, extra.signal, extra._meta?.progressToken, (progress, total, message) =>
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta?.progressToken as string | number, progress, total, message } }),
    ),
  );

  let clientTransport: SdkTransport;
  let serverTransport: SdkTransport;
  if (transport === 'stdio') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    clientTransport = new TappedTransport(clientSide, 'client', race, 'stdio');
    serverTransport = new TappedTransport(serverSide, 'server', race, 'stdio');
  } else {
    // A fixed session id and no keep-alive comments: both are the transport's own options; the run stays replayable and ends.
    const httpServer = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => `lab-session-${seed}`, keepAliveMs: 0 });
    serverTransport = new TappedTransport(httpServer, 'server', race, 'http-server');
    clientTransport = new TappedTransport(new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: labFetch(race, httpServer) }), 'client', race, 'http-client');
  }

  const horizonMs = settings.workMs + settings.idleTimeoutMs + settings.maxTimeoutMs + (settings.cancelAtMs ?? 0) + 100 * (settings.latencyMs + settings.latencyJitterMs) + 60_000;
  let steps = 0;
  const drive = async (): Promise<void> => {
    for (;;) {
      let turns = 0;
      while (race.busy > 0 || turns < FLUSH_TURNS) {
        await realTurn();
        turns += 1;
        if (turns > REAL_TURNS_MAX) throw new LabError('LAB026', `a message handed to the SDK was still not read after ${REAL_TURNS_MAX} turns of the host at ${race.nowMs} ms; nothing was kept`);
      }
      assert(race.busy === 0, 'every message the lab delivered was read before the clock moves');
      race.settle();
      const due = race.dueNow.shift();
      if (due === undefined && clock.countTimers() === 0) return;
      steps += 1;
      if (steps > settings.eventsMax) throw new LabError('LAB006', `the SDK run took more than ${settings.eventsMax} virtual steps (eventsMax) by ${race.nowMs} ms; nothing was kept`);
      onStep?.(race.nowMs);
      race.stepStarts();
      if (due !== undefined) {
        due();
        continue;
      }
      clock.next();
      if (race.nowMs > horizonMs) throw new LabError('LAB026', `the SDK still had timers at ${race.nowMs} ms, past any deadline the settings allow (${horizonMs} ms); nothing was kept`);
    }
  };

  // The session first: the SDK's initialize handshake (its own protocol revision), instantly, before the scenario's clock starts.
  let connected = false;
  const connecting = server.connect(serverTransport).then(() => client.connect(clientTransport)).then(() => (connected = true));
  connecting.catch(() => undefined);
  await drive();
  if (!connected) {
    await connecting;
    throw new LabError('LAB026', 'the SDK did not finish its initialize handshake');
  }
  race.endHandshake();
  const negotiated = negotiatedVersion(race.log.events);

  // The scenario's script, on the SDK's own clock.
  const abort = new AbortController();
  let userCancelled = false;
  const stepsAt = scenario.script.flatMap((step) => {
    const atMs = step.at === 'cancelAtMs' ? settings.cancelAtMs : step.at;
    return atMs === null ? [] : [{ atMs, action: step.do }];
  });
  for (const step of stepsAt) {
    const act = (): void => {
        if (step.action === 'call') {
          client
            .callTool({ name: TOOL_NAME, arguments: { quarter: '2026-Q3' } }, undefined, {
              timeout: settings.idleTimeoutMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: settings.maxTimeoutMs,
              signal: abort.signal,
              ...(settings.progressToken ? { onprogress: () => race.clientProgressAccepted() } : {}),
            })
            .then(
              () => race.clientSettled(),
              (error: unknown) => race.clientRejected(error, userCancelled),
            );
        } else {
          userCancelled = true;
          abort.abort(USER_CANCEL_REASON);
        }
    };
    if (step.atMs <= race.nowMs) race.dueNow.push(act);
    else setTimeout(act, step.atMs - race.nowMs);
  }
  await drive();

  const events = race.log.events;
  const outcome = race.outcome();
  race.stopRecording();
  await client.close();
  await server.close();
  for (let turn = 0; turn < FLUSH_TURNS; turn += 1) await realTurn();

  const transcript: Transcript<'request-race'> = {
    scenario: scenario.id,
    transport,
    seed,
    settings,
    kind: 'request-race',
    title: scenario.title,
    requirements: [...scenario.requirements],
    protocolVersion: negotiated,
    implementation: 'ts-sdk',
    events,
    outcome,
  };
  transcript.sdk = {
    package: TS_SDK_PACKAGE,
    version: TS_SDK_VERSION,
    negotiatedProtocolVersion: negotiated,
    settingsNotApplied: { ...SETTINGS_NOT_APPLIED },
    invariants: raceInvariants(transcript),
  };
  return transcript;
}

/** The protocol revision in the server's initialize result, as it went on the wire. */
function negotiatedVersion(events: readonly LabEvent[]): string {
  for (const event of events) {
    if (event.kind === 'message' && event.from === 'server' && 'result' in event.message && typeof event.message.result.protocolVersion === 'string') return event.message.result.protocolVersion;
  }
  return 'unknown';
}
