import {
  LabError,
  assert,
  cancelAccepted,
  cancelHow,
  cancelIgnored,
  clientClosesStream,
  clientSettled,
  deadlineWording,
  disconnectObserved,
  maxFoundOnProgress,
  responseEndsStream,
  responseSuppressed,
  serverCompleted,
  terminalCancelled,
  userCancelled as userCancelledWording,
  viewsDiverge,
  workerWording,
  TERMINAL_COMPLETED,
  type CancellationSignal,
  type ClientOutcome,
  type DeliveredEvent,
  type Implementation,
  type JsonRpcMessage,
  type LabEvent,
  type MessageEvent,
  type RequestOutcome,
  type RequestRaceSettings,
  type Side,
  type TerminalState,
  type Transport,
} from '../engine';
import type { InstalledClock } from './sdkClock';
import { WireRecorder, type SendOptions, type WireMessage } from './sdkRecorder';

/**
 * A request race (scenarios A–D) as the lab records it from a real SDK: `SdkRace` is what the taps
 * (sdkTap.ts) and the in-process fetch (sdkFetch.ts) report to, and it words what each side of the
 * SDK did in the lab's events: the tool call, the client's ending as `callTool` told it, the tool's
 * chunks and checkpoints, the server's ending, what a receiver ignored. An `SdkLane` joins one SDK's
 * client and server through it; sdkHarness.ts runs the race on the clock.
 */

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
export const USER_CANCEL_REASON = 'User closed the operation';

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

export class SdkRace extends WireRecorder {
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
    super(clock, seed, settings);
  }

  // ── the wire: what each side puts on it, and when it arrives ──────────────────────────────────

  /** The wire's arrival rule (WireRecorder); the handshake is instant. */
  protected override arrivalMs(channelKey: string): number {
    if (this.handshaking) return this.nowMs;
    return super.arrivalMs(channelKey);
  }

  /** Records a message a side of the SDK just put on the wire. */
  put(from: Side, channel: string, sdkMessage: WireMessage): MessageEvent | null {
    if (!this.recording) return null;
    // The message is the SDK's, typed by the SDK's own schema: checked into the lab's union, not cast.
    const message = this.wireCopy(sdkMessage, 'the SDK', ` on ${channel}`);
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
    const event = this.recordMessage(from, channel, message);
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
    const delivered = this.recordDelivery(message);
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
