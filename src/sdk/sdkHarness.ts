import FakeTimers from '@sinonjs/fake-timers';
import { sdkRefusal } from './refusal';
import { SETTINGS_NOT_APPLIED_BY } from './version';
import { isJsonRpcMessage, jsonRpcProblem } from '../engine';
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
  type CancellationSignal,
  type ClientOutcome,
  type Implementation,
  type DeliveredEvent,
  type JsonRpcMessage,
  type LabEvent,
  type MessageEvent,
  type RequestOutcome,
  type RequestRaceScenario,
  type RequestRaceSettings,
  type Side,
  type Stamped,
  type TerminalState,
  type Transcript,
  type Transport,
  type Unstamped,
  requestRaceSettingsSpec,
  cancelAccepted,
  cancelHow,
  cancelIgnored,
  clientClosesStream,
  clientSettled,
  deadlineWording,
  maxFoundOnProgress,
  disconnectObserved,
  responseEndsStream,
  responseSuppressed,
  serverCompleted,
  TERMINAL_COMPLETED,
  terminalCancelled,
  userCancelled as userCancelledWording,
  viewsDiverge,
  workerWording,
} from '../engine';

/**
 * A request race (scenarios A–D) driven by a real MCP TypeScript SDK on the virtual clock: its
 * `Client` is the client lane and its low-level `Server` the server lane, joined in memory (stdio)
 * or by an in-process `fetch` (Streamable HTTP). The SDK's own timers run on @sinonjs/fake-timers,
 * installed on the global for the run only and removed after it. Nothing of the SDK is patched or
 * reimplemented: the lab only taps each transport's `send` to record what a side put on the wire,
 * and delays delivery by the scenario's latency; the tool follows the scenario's script (work in
 * chunks, a checkpoint each, progress at each, completion). Which SDK runs is a lane (`SdkLane`):
 * SDK 1.x in tsSdkRace.ts, the v2 packages in tsSdkV2Race.ts; this harness imports neither.
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

/** A JSON-RPC message as either SDK hands it to a transport (each SDK's own type is structurally this). */
export type WireMessage = Record<string, unknown> & { jsonrpc: '2.0' };
/** What either SDK passes to a transport's `send` beside the message. */
export interface SendOptions {
  readonly relatedRequestId?: number | string;
  /** A client's HTTP transport: resuming a stream (neither SDK passes one in a lab run; typed so the tap takes either transport as it is). */
  readonly resumptionToken?: string;
  readonly onresumptiontoken?: (token: string) => void;
}
/**
 * The transport surface both SDKs share, as far as the harness uses it: typed by the SDK's own
 * message `M` and the extra it hands `onmessage` beside it, `X`, which the tap passes on untouched.
 */
export interface SdkTransportLike<M extends WireMessage = WireMessage, X = unknown> {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: M, extra?: X) => void;
  readonly sessionId?: string;
  setProtocolVersion?: (version: string) => void;
  start(): Promise<void>;
  send(message: M, options?: SendOptions): Promise<void>;
  close(): Promise<void>;
}
/** The server end of Streamable HTTP: answers one HTTP request (SDK 1.x's server transport, v2's handler). */
export interface HttpServerLike {
  handleRequest(request: Request): Promise<Response>;
}

/** What the client's `callTool` gets, the same for both SDKs. */
export interface CallOptions {
  readonly timeout: number;
  readonly resetTimeoutOnProgress: true;
  readonly maxTotalTimeout: number;
  readonly signal: AbortSignal;
  readonly onprogress?: () => void;
}

/** A client and a server of one SDK, joined through the race's taps. */
export interface SdkSession {
  /** Connects both ends (the SDK's own handshake or probe). */
  connect(): Promise<void>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown>;
  /** The revision the two ends agreed on, as the SDK reports it. */
  negotiatedProtocolVersion(events: readonly LabEvent[]): string;
  close(): Promise<void>;
}

/** Where the lane's SDK does what the harness records in its words (file and line in node_modules). */
export interface SdkCites {
  /** The server drops an aborted handler's result and sends no response. */
  readonly abortedResultDropped: string;
  /** The client checks maxTotalTimeout only when progress arrives and rejects then. */
  readonly maxCheckedOnProgress: string;
  /** A cancellation of a request with no running handler does nothing. */
  readonly cancelWithoutHandler: string;
  /**
   * Where the lane's Server returns before looking for the handler of a request that is running (SDK
   * 1.x: a request id 0 is falsy); absent where the lane has no such path.
   */
  readonly cancelOfRunningIgnored?: string;
}

/** One SDK the harness can run: how it names itself and how its two ends are made and joined. */
export interface SdkLane {
  readonly implementation: Exclude<Implementation, 'model'>;
  readonly package: string;
  readonly version: string;
  readonly cites: SdkCites;
  /** Builds the SDK's client and server for one run; `race.runTool` is the tool handler, `race.tap`/`race.fetch` the wire. */
  join(race: SdkRace, transport: Transport, seed: number): SdkSession;
}

export const TOOL_NAME = 'generate_report';
const USER_CANCEL_REASON = 'User closed the operation';
export const MCP_URL = 'http://lab.invalid/mcp';
/** Real macrotask turns between virtual steps: each drains every promise the step started. */
export const FLUSH_TURNS = 3;
/** A bound on the real turns one virtual step may take (docs/architecture.md#a-limit-on-everything). */
const REAL_TURNS_MAX = 100_000;

/** One real macrotask turn, with the host's own scheduling captured before any fake clock exists. */
export const realTurn: () => Promise<void> = (() => {
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

export type InstalledClock = ReturnType<ReturnType<typeof FakeTimers.withGlobal>['install']>;

/** The run in progress, if any: SDK runs share the global clock, so each waits for the one before it. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs `run` once every earlier run on the shared global clock has ended: `prepare` first, on the
 * host's own timers (an SDK's handshake, before the scenario's clock starts), then `run` with the fake
 * clock installed on the global object, always removed after it.
 */
export function onSharedClock<P, T>(
  prepare: () => Promise<P>,
  run: (clock: InstalledClock, prepared: P) => Promise<T>,
): Promise<T> {
  const result = previous.then(async () => {
    const prepared = await prepare();
    const clock = FakeTimers.withGlobal(globalThis).install({
      now: 0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    try {
      return await run(clock, prepared);
    } finally {
      clock.uninstall();
    }
  });
  previous = result.catch(() => undefined);
  return result;
}

/** What the tool returns to either SDK's Server. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  [key: string]: unknown;
}

interface Pending {
  readonly delivered: DeliveredEvent;
  readonly message: MessageEvent;
  accepted: boolean;
}

interface Tool {
  readonly requestId: number | string;
  returned: boolean;
}

export class SdkRace {
  readonly log: EventLog<Unstamped<LabEvent>>;
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
  private cancelSignal: CancellationSignal = null;
  private gaveUpOnMax = false;
  private readonly clientIgnores: RequestOutcome['clientIgnores'] = [];
  /** Requests whose tool handler the SDK's Server is running now. */
  private readonly running = new Set<number | string>();

  constructor(
    readonly lane: SdkLane,
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
    this.log = new EventLog<Unstamped<LabEvent>>(this.logClock);
    this.random = new SeededRandom(seed);
  }

  get nowMs(): number {
    return this.logClock.nowMs;
  }

  private record<N extends Unstamped<LabEvent>>(event: N): Stamped<N> {
    return this.log.record(event);
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
  put(from: Side, channel: string, sdkMessage: WireMessage): MessageEvent | null {
    if (!this.recording) return null;
    // The message is the SDK's, typed by the SDK's own schema: checked into the lab's union, not cast.
    // The copy is the JSON-RPC object exactly as it went on the wire.
    const message: unknown = structuredClone(sdkMessage);
    if (!isJsonRpcMessage(message))
      throw new LabError(
        'LAB026',
        `the SDK put a message the lab cannot read as JSON-RPC on ${channel}: ${String(jsonRpcProblem(message))}`,
      );
    if (from === 'client' && 'method' in message && message.method === 'tools/call' && 'id' in message)
      this.requestStarted(message);
    if (
      from === 'server' &&
      this.callId !== null &&
      'id' in message &&
      message.id === this.callId &&
      ('result' in message || 'error' in message)
    )
      this.serverCompletes();
    if (
      from === 'client' &&
      'method' in message &&
      message.method === 'notifications/cancelled' &&
      message.params?.requestId === this.callId
    ) {
      this.cancelSentAtMs ??= this.nowMs;
      this.cancelSignal ??= 'notifications/cancelled';
    }
    const to: Side = from === 'client' ? 'server' : 'client';
    const event = this.record({
      kind: 'message',
      from,
      to,
      channel,
      message,
      arrivesAtMs: this.arrivalMs(`${channel}:${from}`),
    });
    if (
      from === 'server' &&
      this.transport === 'http' &&
      this.callId !== null &&
      'id' in message &&
      message.id === this.callId &&
      ('result' in message || 'error' in message)
    ) {
      this.record({
        kind: 'stream-closed',
        by: 'server',
        requestId: this.callId,
        reason: responseEndsStream("the SDK's server transport closes it once the response is written"),
      });
    }
    return event;
  }

  /**
   * Streamable HTTP: the client's SDK aborted the `fetch` of a request's POST, which closes that
   * request's response stream. Returns when the server's end sees the connection go (a message sent
   * on that POST now would arrive then), or null when nothing is recorded.
   */
  clientClosedStream(requestId: number | string): number | null {
    if (!this.recording) return null;
    this.record({
      kind: 'stream-closed',
      by: 'client',
      requestId,
      reason: clientClosesStream(
        'the client gave up',
        "the SDK's client aborts the fetch of this request's POST, which closes its response stream",
      ),
    });
    if (requestId === this.callId) {
      this.cancelSentAtMs ??= this.nowMs;
      this.cancelSignal ??= 'stream-close';
    }
    return this.arrivalMs(`POST #${String(requestId)}:client`);
  }

  private readonly dispatchWaiters = new Map<number | string, () => void>();

  /** Calls `then` once the server's SDK hands request `requestId` to the tool (an HTTP exchange waits on it). */
  onDispatch(requestId: number | string, then: () => void): void {
    this.dispatchWaiters.set(requestId, then);
  }

  /** The server's end of the connection sees the client's close. */
  serverObservedDisconnect(requestId: number | string): void {
    if (!this.recording) return;
    this.record({
      kind: 'disconnect-observed',
      by: 'server',
      requestId,
      reason: disconnectObserved(
        "the request's connection closed",
        "the SDK's server transport aborts the Request it was handling",
      ),
    });
  }

  /** The receiving side gets the message now: records the delivery and notes it for `settle`. */
  delivered(message: MessageEvent): void {
    this.logClock.causeSeq = message.seq;
    const delivered = this.record({
      kind: 'delivered',
      messageSeq: message.seq,
      from: message.from,
      to: message.to,
      summary: summarizeMessage(message.message),
    }) as DeliveredEvent;
    const pending: Pending = { delivered, message, accepted: false };
    const m = message.message;
    if (
      message.to === 'client' &&
      this.callId !== null &&
      (('method' in m && m.method === 'notifications/progress') ||
        ('id' in m && m.id === this.callId && !('method' in m)))
    )
      this.pendingClient.push(pending);
    if (message.to === 'server' && 'method' in m && m.method === 'notifications/cancelled')
      this.pendingServerCancels.push(pending);
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
  sseChannel(message: WireMessage, options: SendOptions | undefined): string {
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

  /** The headers of each POST the client sent during the run, as the server's end gets them. */
  readonly postHeaders: Array<{ channel: string; headers: Record<string, string> }> = [];

  notePost(channel: string, headers: Headers): void {
    if (!this.recording || this.handshaking) return;
    const all: Record<string, string> = {};
    headers.forEach((value, key) => {
      all[key] = value;
    });
    this.postHeaders.push({ channel, headers: all });
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
    const meta =
      'params' in message ? (message.params as { _meta?: { progressToken?: string | number } })._meta : undefined;
    this.record({
      kind: 'request-started',
      requestId: message.id,
      idleTimeoutMs: this.settings.idleTimeoutMs,
      maxTimeoutMs: this.settings.maxTimeoutMs,
      progressToken: meta?.progressToken ?? null,
    });
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
    this.clientEnds('completed', 'settled', clientSettled("`callTool` resolved with the tool's result"));
  }

  clientRejected(error: unknown, userCancelled: boolean): void {
    const text = error instanceof Error ? error.message : String(error);
    if (userCancelled)
      return this.clientEnds(
        'cancelled',
        'abandoned',
        userCancelledWording(
          USER_CANCEL_REASON,
          `the AbortSignal fired and \`callTool\` rejected${text === USER_CANCEL_REASON ? '' : ` (${text})`}`,
        ),
      );
    if (text.includes('Maximum total timeout exceeded')) {
      this.gaveUpOnMax = true;
      return this.clientEnds(
        'timeout-max',
        'abandoned',
        deadlineWording.maxFired(
          this.settings.maxTimeoutMs,
          `the SDK checks maxTotalTimeout only when progress arrives; \`callTool\` rejected: ${text}`,
        ),
      );
    }
    if (text.includes('Request timed out'))
      return this.clientEnds(
        'timeout-idle',
        'abandoned',
        deadlineWording.idleFired(this.settings.idleTimeoutMs, `\`callTool\` rejected: ${text}`),
      );
    throw new LabError('LAB026', `the SDK's callTool failed in a way the lab does not expect: ${text}`);
  }

  private clientEnds(outcome: ClientOutcome, to: 'settled' | 'abandoned', reason: string): void {
    assert(this.clientEnd === null && this.callId !== null, 'the client ends its request once');
    this.clientEnd = { outcome, atMs: this.nowMs };
    this.record({ kind: 'state', side: 'client', requestId: this.callId, from: 'waiting', to, reason });
    // As the lab's coordinator stores it: a deadline ends the request where the client is; a cancellation only once the server accepts it.
    if (this.terminal === null && (outcome === 'timeout-idle' || outcome === 'timeout-max'))
      this.setTerminal(outcome, reason);
    this.noteViews('client');
  }

  // ── the server's view: the tool's steps and what the SDK does with it ──────────────────────────

  /** The tool handler the SDK's Server calls: the scenario's work, a checkpoint per chunk, progress at each. */
  readonly runTool = async (
    requestId: number | string,
    signal: AbortSignal,
    progressToken: string | number | undefined,
    sendProgress: (progress: number, total: number, message: string) => Promise<void>,
  ): Promise<ToolResult> => {
    const s = this.settings;
    const tool: Tool = { requestId, returned: false };
    this.running.add(requestId);
    const waiter = this.dispatchWaiters.get(requestId);
    this.dispatchWaiters.delete(requestId);
    waiter?.();
    signal.addEventListener('abort', () => this.serverAborted(tool, signal.reason));
    const chunks = s.progressEveryMs > 0 ? Math.max(1, Math.ceil(s.workMs / s.progressEveryMs)) : 1;
    const startedAtMs = this.nowMs;
    let workerSeq = this.record({
      kind: 'worker',
      requestId,
      step: 'started',
      reason: workerWording.started(
        s.workMs,
        chunks,
        'the SDK called the tool, which checks extra.signal at each checkpoint',
      ),
    }).seq;
    for (let chunk = 1; chunk <= chunks; chunk += 1) {
      const isLast = chunk === chunks;
      await this.until(startedAtMs + (isLast ? s.workMs : chunk * s.progressEveryMs));
      // A checkpoint is caused by the worker's step before it, as the model's are.
      this.logClock.causeSeq = workerSeq;
      if (isLast) {
        this.record({
          kind: 'worker',
          requestId,
          step: 'finished',
          reason: workerWording.finished("the tool returns its result to the SDK's Server"),
        });
        if (signal.aborted) {
          this.record({
            kind: 'suppressed',
            by: 'server',
            requestId,
            what: 'response',
            reason: responseSuppressed(
              `the SDK's Server drops the result and sends no response (${this.lane.cites.abortedResultDropped})`,
            ),
          });
        }
        break;
      }
      if (signal.aborted) {
        this.record({
          kind: 'worker',
          requestId,
          step: 'stopped',
          reason: workerWording.stopped(chunk, 'extra.signal is aborted, so the tool stops'),
        });
        break;
      }
      workerSeq = this.record({
        kind: 'worker',
        requestId,
        step: 'checkpoint',
        reason: workerWording.chunkDone(chunk, chunks),
      }).seq;
      if (s.serverSendsProgress && progressToken !== undefined)
        await sendProgress(chunk, chunks, `chunk ${chunk} of ${chunks}`);
    }
    tool.returned = true;
    this.running.delete(requestId);
    return { content: [{ type: 'text', text: 'Report for 2026-Q3 is ready.' }], structuredContent: { rows: 42 } };
  };

  private serverAborted(tool: Tool, reason: unknown): void {
    if (!this.recording || tool.returned) return;
    const pending = this.pendingServerCancels.find((p) => !p.accepted);
    if (pending !== undefined) pending.accepted = true;
    const how = cancelHow.sdkAborted(String(reason));
    this.record({
      kind: 'cancel-accepted',
      by: 'server',
      requestId: tool.requestId,
      reason: cancelAccepted(how, "the SDK's Server sends no response for this request"),
    });
    if (this.serverEnd === null) {
      this.serverEnd = { state: 'cancelled', atMs: this.nowMs };
      this.record({
        kind: 'state',
        side: 'server',
        requestId: tool.requestId,
        from: 'active',
        to: 'cancelled',
        reason: how,
      });
      if (this.terminal === null) this.setTerminal('cancelled', terminalCancelled(how));
    }
  }

  private serverCompletes(): void {
    assert(this.callId !== null, 'a response answers the call');
    this.finalResponse = true;
    if (this.serverEnd !== null) return;
    this.serverEnd = { state: 'completed', atMs: this.nowMs };
    this.record({
      kind: 'state',
      side: 'server',
      requestId: this.callId,
      from: 'active',
      to: 'completed',
      reason: serverCompleted("the SDK's Server"),
    });
    if (this.terminal === null) this.setTerminal('completed', TERMINAL_COMPLETED);
    this.noteViews('server');
  }

  private setTerminal(state: TerminalState, reason: string): void {
    assert(this.callId !== null, 'a terminal state belongs to the call');
    this.terminal = { state, atMs: this.nowMs };
    this.record({ kind: 'terminal', requestId: this.callId, state, reason });
  }

  private noteViews(side: Side): void {
    if (
      this.clientEnd === null ||
      this.serverEnd?.state !== 'completed' ||
      this.clientEnd.outcome === 'completed' ||
      this.callId === null
    )
      return;
    const reason = viewsDiverge(this.serverEnd.atMs, this.clientEnd.outcome, this.clientEnd.atMs);
    this.record({
      kind: 'views-diverge',
      requestId: this.callId,
      side,
      serverView: 'completed',
      serverEndedAtMs: this.serverEnd.atMs,
      clientView: this.clientEnd.outcome,
      clientEndedAtMs: this.clientEnd.atMs,
      reason,
    });
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
            ? `${maxFoundOnProgress('the SDK')} (${this.lane.cites.maxCheckedOnProgress})`
            : "the SDK's Client did not pass it on";
      this.ignored(pending, 'client', reason);
      this.clientIgnores.push({
        seq: pending.message.seq,
        atMs: pending.delivered.atMs,
        summary: pending.delivered.summary,
        reason,
      });
    }
    for (const pending of this.pendingServerCancels.splice(0)) {
      if (pending.accepted) continue;
      const m = pending.message.message;
      const target = 'params' in m ? m.params?.requestId : undefined;
      const ofRunning = this.lane.cites.cancelOfRunningIgnored;
      const reason =
        ofRunning !== undefined &&
        (typeof target === 'number' || typeof target === 'string') &&
        this.running.has(target)
          ? cancelIgnored(
              `its handler is running, yet the SDK's Server returns before looking for it: \`if (!notification.params.requestId) return\` treats request id ${JSON.stringify(target)} as absent`,
              `the tool is not aborted and its result will be sent (${ofRunning})`,
            )
          : cancelIgnored(
              'no handler of that request is running',
              `the SDK's Server finds no AbortController for it and ignores it without error or reply (${this.lane.cites.cancelWithoutHandler})`,
            );
      this.ignored(pending, 'server', reason);
      this.record({
        kind: 'cancel-ignored',
        by: 'server',
        requestId:
          'params' in m && typeof m.params?.requestId !== 'object' ? (m.params?.requestId as number | string) : null,
        reason,
      });
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
      cancellationSignal: this.cancelSignal,
      clientIgnores: [...this.clientIgnores].sort((a, b) => a.seq - b.seq),
      clientOutcome: this.clientEnd.outcome,
      clientOutcomeAtMs: this.clientEnd.atMs,
      viewsDiverge: this.log.events.some((event) => event.kind === 'views-diverge'),
      cancelDelayMs: this.cancelSentAtMs === null ? null : this.cancelSentAtMs - this.clientEnd.atMs,
    };
  }
}

/** Passes an SDK transport through, recording what its side sends; `delay` decides when the other side gets it. */
export class TappedTransport<M extends WireMessage = WireMessage, X = unknown> {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: M, extra?: X) => void;

  constructor(
    private readonly inner: SdkTransportLike<M, X>,
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

  /** v2 reads the revisions it may offer from the transport, where it has this (passed on as is). */
  setSupportedProtocolVersions(versions: string[]): void {
    (this.inner as { setSupportedProtocolVersions?: (versions: string[]) => void }).setSupportedProtocolVersions?.(
      versions,
    );
  }

  /** v2's Client aborts a request's own POST as its cancellation when the transport says it has one stream per request. */
  get hasPerRequestStream(): boolean | undefined {
    return (this.inner as { hasPerRequestStream?: boolean }).hasPerRequestStream;
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

  send(message: M, options?: SendOptions): Promise<void> {
    const innerSend = this.inner.send.bind(this.inner);
    if (this.mode === 'stdio') {
      const event = this.race.put(this.side, 'stdio', message);
      this.race.deliverLater(
        event,
        () => void innerSend(message, options).catch((error: unknown) => this.onerror?.(error as Error)),
      );
      return Promise.resolve();
    }
    // Streamable HTTP, client side: labFetch records each POST as it goes out.
    if (this.mode === 'http-client') return innerSend(message, options);
    // Streamable HTTP, server side: the message is written to its SSE stream now; the client's end of that stream reads it after the latency.
    const channel = this.race.sseChannel(message, options);
    const event = this.race.put(this.side, channel, message);
    this.race.queueSse(channel, event);
    if (event !== null) this.race.busy += 1;
    return innerSend(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** SSE events in one chunk of a response stream: the JSON of each `data:` line. */
function sseMessages(text: string): WireMessage[] {
  return (text.match(/^data: ?.*$/gm) ?? []).map((line) => JSON.parse(line.replace(/^data: ?/, '')) as WireMessage);
}

/**
 * The in-process `fetch` joining an SDK's HTTP client transport to its server end. `serverTapped`:
 * the server's transport is a TappedTransport that records what it sends (SDK 1.x); otherwise
 * (v2's handler, whose per-request transport is internal) the server's messages are recorded from
 * the response as its client end reads them, the instant they are written.
 */
export function labFetch(race: SdkRace, server: HttpServerLike, serverTapped: boolean): typeof fetch {
  const handle = async (request: Request): Promise<Response> => {
    race.busy += 1;
    try {
      return await server.handleRequest(request);
    } finally {
      race.busy -= 1;
    }
  };
  return async (input, init) => {
    if ((init?.method ?? 'GET') !== 'POST') return handle(new Request(input, init));
    // The SDK's transport POSTs one JSON-RPC message as a string: read as it was given, with no trip through the host's body reader.
    if (typeof init?.body !== 'string')
      throw new LabError('LAB026', 'the SDK POSTed a body that is not a string; the lab records only what it can read');
    const message = JSON.parse(init.body) as WireMessage;
    const isRequest = 'method' in message && 'id' in message;
    const requestId = isRequest ? (message.id as number | string) : null;
    const channel = isRequest
      ? `POST #${String(requestId)}`
      : `POST ${'method' in message ? String(message.method) : 'response'}`;
    // The server's end of the connection: aborted when the client's abort reaches it, one latency after.
    const connection = new AbortController();
    const request = new Request(input, { ...init, signal: connection.signal });
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let out: ReadableStreamDefaultController<Uint8Array> | null = null;
    let closedByClient = false;
    let rejectFetch: (reason: unknown) => void = () => undefined;
    const abortedFetch = new Promise<never>((_resolve, reject) => {
      rejectFetch = reject;
    });
    abortedFetch.catch(() => undefined);
    // The client's SDK aborting this POST's fetch closes the request's connection: the fetch (or its
    // body, once it has one) rejects at once, as a host's fetch does, and the server's end sees the
    // close one latency later.
    const clientSignal = init.signal;
    clientSignal?.addEventListener(
      'abort',
      () => {
        if (closedByClient) return;
        closedByClient = true;
        rejectFetch(clientSignal.reason);
        out?.error(clientSignal.reason);
        const disconnect = (): void => {
          connection.abort(clientSignal.reason);
          reader?.cancel(clientSignal.reason).catch(() => undefined);
        };
        const observedAtMs = requestId === null ? null : race.clientClosedStream(requestId);
        // After the run (closing the session), or a notification's POST: nothing is recorded and nothing waits.
        if (observedAtMs === null || requestId === null) return disconnect();
        race.at(observedAtMs, () => {
          race.serverObservedDisconnect(requestId);
          disconnect();
        });
      },
      { once: true },
    );
    const exchange = async (): Promise<Response> => {
      race.notePost(channel, request.headers);
      const event = race.put('client', channel, message);
      if (event !== null) {
        await race.until(event.arrivesAtMs);
        race.delivered(event);
      }
      let response: Response;
      if (serverTapped) {
        // Until the server's transport hands it to the Server: the busy count covers handleRequest, and the server's onmessage ends it.
        race.busy += 1;
        response = await handle(request);
        if (!(response.status >= 200 && response.status < 300)) race.busy -= 1;
      } else {
        // v2 answers a request once its first message is written (a result as JSON, or a progress
        // that opens the SSE stream), which may be virtual time later: the clock may move once the
        // server has dispatched the request to its handler, or answered.
        race.busy += 1;
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          race.busy -= 1;
        };
        if (requestId !== null) race.onDispatch(requestId, release);
        try {
          response = await server.handleRequest(request);
        } finally {
          release();
        }
      }
      if (!isRequest || requestId === null || response.body === null || closedByClient) return response;
      const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      if (!isSse) {
        if (serverTapped) return response;
        // A JSON answer (v2's server/discover, or a result with no progress before it): recorded now, handed to the client's transport at its arrival.
        // The host reads a body on real tasks of its own: the clock waits for it.
        race.busy += 1;
        let text: string;
        try {
          text = await response.text();
        } finally {
          race.busy -= 1;
        }
        const answer = race.put('server', `JSON #${String(requestId)}`, JSON.parse(text) as WireMessage);
        if (answer !== null) {
          await race.until(answer.arrivesAtMs);
          race.delivered(answer);
          race.busy += 1;
        }
        return new Response(text, { status: response.status, headers: response.headers });
      }
      race.noteStreamOpened(requestId, response.headers);
      const sse = `SSE #${String(requestId)}`;
      // The client's end of the stream. The server's stream is read as soon as it is written (a message
      // sent while an earlier one is still on its way must not wait behind it), and each chunk is handed
      // on at its message's arrival time; arrival times along one stream never decrease, so it stays FIFO.
      const bodyReader = response.body.getReader();
      reader = bodyReader;
      let lastArrivalMs = race.nowMs;
      const delayed = new ReadableStream<Uint8Array>({
        start(controller) {
          out = controller;
        },
        cancel(reason) {
          return bodyReader.cancel(reason);
        },
      });
      const pump = async (): Promise<void> => {
        for (;;) {
          const { done, value } = await bodyReader.read();
          if (closedByClient) return;
          if (done) {
            race.at(lastArrivalMs, () => {
              if (!closedByClient) out?.close();
            });
            return;
          }
          // One SSE event per chunk, as the SDKs' server transports write them; a chunk of several arrives with its last.
          const text = new TextDecoder().decode(value);
          const sent = serverTapped
            ? (text.match(/^data:/gm) ?? []).map(() => race.nextSse(sse)).filter((e): e is MessageEvent => e !== null)
            : sseMessages(text)
                .map((m) => race.put('server', sse, m))
                .filter((e): e is MessageEvent => e !== null);
          if (sent.length === 0) {
            race.at(lastArrivalMs, () => {
              if (!closedByClient) out?.enqueue(value);
            });
            continue;
          }
          // At the client's end of the stream now, waiting for its arrival time.
          if (serverTapped) race.busy -= sent.length;
          lastArrivalMs = Math.max(lastArrivalMs, ...sent.map((e) => e.arrivesAtMs));
          race.at(lastArrivalMs, () => {
            if (closedByClient) return;
            for (const e of sent) race.delivered(e);
            // Until the client's transport has parsed them and handed them to the Client.
            race.busy += sent.length;
            out?.enqueue(value);
          });
        }
      };
      pump().catch((error: unknown) => {
        if (!closedByClient) out?.error(error);
      });
      return new Response(delayed, { status: response.status, headers: response.headers });
    };
    return Promise.race([exchange(), abortedFetch]);
  };
}

/**
 * Runs a request-race scenario (A–D) on the lane's SDK and returns its transcript, in the lab's
 * format, with the lane's `implementation`. Same seed and settings → byte-identical transcript.
 * The fake clock is installed on the global object for this call only and always removed.
 */
export async function runSdkRace(
  lane: SdkLane,
  scenario: RequestRaceScenario,
  options: TsSdkRunOptions = {},
): Promise<Transcript<'request-race'>> {
  const impl = lane.implementation;
  // The lab's run description decides what an SDK cannot run; a direct caller meets the same refusal.
  const refusal = sdkRefusal(
    scenario,
    options.settings ?? {},
    false,
    false,
    impl,
    options.transport ?? scenario.defaultTransport,
  );
  if (refusal !== null) throw refusal;
  const unsupported = scenario.script.find((step) => step.do !== 'call' && step.do !== 'cancel');
  if (unsupported !== undefined)
    throw new LabError(
      'LAB025',
      `scenario ${scenario.id} scripts "${unsupported.do}", which the SDK's Client cannot send. Nothing was run`,
    );
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const settings = resolveSettings(
    requestRaceSettingsSpec,
    { ...scenario.settings },
    options.settings ?? {},
  ) as RequestRaceSettings;
  return onSharedClock(
    () => Promise.resolve(),
    (clock) => runOnClock(lane, clock, scenario, transport, seed, settings, options.onStep),
  );
}

async function runOnClock(
  lane: SdkLane,
  clock: InstalledClock,
  scenario: RequestRaceScenario,
  transport: Transport,
  seed: number,
  settings: RequestRaceSettings,
  onStep: TsSdkRunOptions['onStep'],
): Promise<Transcript<'request-race'>> {
  const race = new SdkRace(lane, clock, transport, seed, settings);
  const session = lane.join(race, transport, seed);

  const horizonMs =
    settings.workMs +
    settings.idleTimeoutMs +
    settings.maxTimeoutMs +
    (settings.cancelAtMs ?? 0) +
    100 * (settings.latencyMs + settings.latencyJitterMs) +
    60_000;
  let steps = 0;
  const drive = async (): Promise<void> => {
    for (;;) {
      let turns = 0;
      while (race.busy > 0 || turns < FLUSH_TURNS) {
        await realTurn();
        turns += 1;
        if (turns > REAL_TURNS_MAX)
          throw new LabError(
            'LAB026',
            `a message handed to the SDK was still not read after ${REAL_TURNS_MAX} turns of the host at ${race.nowMs} ms; nothing was kept`,
          );
      }
      assert(race.busy === 0, 'every message the lab delivered was read before the clock moves');
      race.settle();
      const due = race.dueNow.shift();
      if (due === undefined && clock.countTimers() === 0) return;
      steps += 1;
      if (steps > settings.eventsMax)
        throw new LabError(
          'LAB006',
          `the SDK run took more than ${settings.eventsMax} virtual steps (eventsMax) by ${race.nowMs} ms; nothing was kept`,
        );
      onStep?.(race.nowMs);
      race.stepStarts();
      if (due !== undefined) {
        due();
        continue;
      }
      clock.next();
      if (race.nowMs > horizonMs)
        throw new LabError(
          'LAB026',
          `the SDK still had timers at ${race.nowMs} ms, past any deadline the settings allow (${horizonMs} ms); nothing was kept`,
        );
    }
  };

  // The session first: the SDK's handshake (initialize, or v2's server/discover probe), instantly, before the scenario's clock starts.
  let connected = false;
  const connecting = session.connect().then(() => (connected = true));
  connecting.catch(() => undefined);
  await drive();
  if (!connected) {
    await connecting;
    throw new LabError('LAB026', 'the SDK did not finish its handshake');
  }
  race.endHandshake();
  const negotiated = session.negotiatedProtocolVersion(race.log.events);

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
        session
          .callTool(
            TOOL_NAME,
            { quarter: '2026-Q3' },
            {
              timeout: settings.idleTimeoutMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: settings.maxTimeoutMs,
              signal: abort.signal,
              ...(settings.progressToken ? { onprogress: () => race.clientProgressAccepted() } : {}),
            },
          )
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
  await session.close();
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
    implementation: lane.implementation,
    events,
    outcome,
  };
  transcript.sdk = {
    package: lane.package,
    version: lane.version,
    negotiatedProtocolVersion: negotiated,
    settingsNotApplied: { ...SETTINGS_NOT_APPLIED_BY[lane.implementation] },
    invariants: raceInvariants(transcript),
    ...(transport === 'http' ? { postHeaders: race.postHeaders } : {}),
  };
  return transcript;
}

/** The protocol revision in the server's initialize result, as it went on the wire. */
export function negotiatedInInitialize(events: readonly LabEvent[]): string {
  for (const event of events) {
    if (
      event.kind === 'message' &&
      event.from === 'server' &&
      'result' in event.message &&
      typeof event.message.result.protocolVersion === 'string'
    )
      return event.message.result.protocolVersion;
  }
  return 'unknown';
}
