import type { MessageFault } from '../../core/wire';
import { assert } from '../../core/assert';
import type { ProgressToken, RequestId } from '../../core/jsonrpc';
import type { Model } from '../../core/model';
import { pinnedChooser, type Chooser, type SchedulerOptions } from '../../core/scheduler';
import { Sim } from '../../core/sim';
import type { MessageEvent, Side, Transport } from '../../core/transcript';
import type { Delivery } from '../../core/wire';
import { RequestCoordinator } from '../../mcp/coordinator';
import { ClientDeadlines, noteTerminal } from '../../mcp/deadlines';
import type { CancellationSignal, ClientOutcome } from '../../mcp/events';
import { SSE_HEADERS, callToolRequest, callToolResultResponse, cancelledNotification, progressNotification, type JsonRpcMessage } from '../../mcp/protocol';
import { summarizeMessage } from '../../mcp/summary';
import { ServerWorker } from '../../mcp/worker';
import { requestRaceSettingsSpec, type RequestRaceSettings } from './settings';
import type { ClientIgnore, RequestOutcome, RequestRaceEvent, RequestRaceScenario } from './types';

export { requestRaceSettingsSpec, requestRaceDefaults, type RequestRaceSettings, type RequestRaceSettingKey } from './settings';

/**
 * One request between an MCP client and server over stdio or Streamable HTTP, on the virtual
 * clock: the client's deadlines (RC-1/RC-2), the server's worker with progress checkpoints (RC-3,
 * RC-4), the transport-specific cancellation signal (RC-5), and the cancel/complete race (RC-6 …
 * RC-8). Also the headless driver the unit tests use: `call()`, `cancel()`, `runUntil()`.
 */
export interface RequestRaceOptions {
  readonly transport: Transport;
  readonly seed: number;
  readonly settings: RequestRaceSettings;
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
  readonly faults?: readonly MessageFault[];
  /** False: keep no events (an explorer's fast run); the outcome is the same. */
  readonly record?: boolean;
}

const USER_CANCEL_REASON = 'User closed the operation';
/** RC-7: the id a buggy client's cancellation names; no request ever has it in these scenarios. */
const UNKNOWN_REQUEST_ID = 99;

export class RequestRace {
  readonly sim: Sim<RequestRaceEvent>;
  readonly coordinator = new RequestCoordinator();
  private readonly settings: RequestRaceSettings;
  private deadlines: ClientDeadlines | null = null;
  private requestId: RequestId | null = null;
  private cancellationSignal: CancellationSignal = null;
  private finalResponse = false;
  /** Streamable HTTP: when the client closed the request's response stream. */
  private clientClosedStreamAtMs: number | null = null;
  private workerChunks = 0;
  /** What the client dropped, as it dropped it (so the outcome needs no recorded events). */
  private readonly clientIgnores: ClientIgnore[] = [];
  /** When the client put its cancellation of the request on the wire (null: it never did). */
  private cancelSentAtMs: number | null = null;
  /** ts-sdk-1.x: when progress found maxTotalTimeout exceeded and the client rejected the request locally. */
  private sdkGaveUpAtMs: number | null = null;

  constructor(options: RequestRaceOptions) {
    this.settings = options.settings;
    this.sim = new Sim({ transport: options.transport, seed: options.seed, eventsMax: options.settings.eventsMax, latency: options.settings, chooser: options.chooser, trace: options.trace, faults: options.faults, summarize: summarizeMessage, record: options.record });
  }

  /** The client's delivery: what it accepts or ignores, noting each ignore for the outcome. */
  private readonly toClient = (event: MessageEvent): string | null => {
    const reason = this.clientReceives(event);
    if (reason !== null) this.clientIgnores.push({ seq: event.seq, atMs: event.arrivesAtMs, summary: summarizeMessage(event.message), reason });
    return reason;
  };

  get scheduler() {
    return this.sim.scheduler;
  }

  get events(): RequestRaceEvent[] {
    return this.sim.events;
  }

  private get id(): RequestId {
    assert(this.requestId !== null, 'no request was started');
    return this.requestId;
  }

  private get clientDeadlines(): ClientDeadlines {
    assert(this.deadlines !== null, 'deadlines are armed when the request starts');
    return this.deadlines;
  }

  /** clientProfile=ts-sdk-1.x: the official TypeScript SDK 1.x client (tsSdkProfile.ts lists each behaviour and its source). */
  private get sdk(): boolean {
    return this.settings.clientProfile === 'ts-sdk-1.x';
  }

  private hasTerminal(): boolean {
    return this.coordinator.terminal(this.id) !== null;
  }

  // ── transport ────────────────────────────────────────────────────────────────────────────────

  private channelFor(from: Side, message: JsonRpcMessage): string {
    if (!this.sim.http) return 'stdio';
    if (from === 'server') return `SSE #${String(this.id)}`;
    if ('id' in message && 'method' in message) return `POST #${String(message.id)}`;
    return `POST ${'method' in message ? message.method : 'message'}`;
  }

  private send(from: Side, message: JsonRpcMessage, deliver: Delivery): MessageEvent {
    return this.sim.wire.send(from, this.channelFor(from, message), message, deliver);
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  /** The client sends `tools/call` now and arms both deadlines (RC-1). */
  call(): void {
    assert(this.requestId === null, 'this race models one request; call() was already made');
    const s = this.settings;
    this.requestId = s.requestId;
    const progressToken: ProgressToken | null = s.progressToken ? `progress-${s.requestId}` : null;
    this.coordinator.start(this.id, { atMs: this.sim.nowMs, progressToken, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs, progressResetsMax: s.progressResetsMax });
    this.sim.record({ kind: 'request-started', requestId: this.id, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs, progressToken });
    this.send('client', callToolRequest(this.id, 'generate_report', { quarter: '2026-Q3' }, progressToken), () => this.serverReceivesCall());
    this.deadlines = new ClientDeadlines(this.sim, this.coordinator, this.id, () => (this.sdk ? this.sdkTimeoutFires() : this.deadlineFires()));
    if (this.sdk) {
      this.deadlines.armIdleOnly(`the TypeScript SDK 1.x's \`timeout\` of ${s.idleTimeoutMs} ms (resetTimeoutOnProgress); it has no maximum timer: maxTotalTimeout of ${s.maxTimeoutMs} ms is checked only when progress arrives`);
      return;
    }
    this.deadlines.armBoth(`no useful activity for ${s.idleTimeoutMs} ms ends the request`, `absolute budget of ${s.maxTimeoutMs} ms from the start; progress never moves it`);
  }

  private deadlineFires(): void {
    const hadTerminal = this.hasTerminal();
    const fired = this.coordinator.clientExpire(this.id, this.sim.nowMs);
    if (fired === null) return;
    const s = this.settings;
    const reason = fired === 'max' ? `maximum timeout of ${s.maxTimeoutMs} ms reached` : `idle timeout: no progress for ${s.idleTimeoutMs} ms`;
    this.clientDeadlines.fired(fired, reason);
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, reason);
    this.noteViews('client');
    this.clientDeadlines.disarm('the request already ended on the client');
    this.sendCancellation(reason);
  }

  /** ts-sdk-1.x: the SDK's one timer fires (protocol.js:741 timeoutHandler → cancel()). */
  private sdkTimeoutFires(): void {
    if (this.sdkGaveUpAtMs !== null) {
      // The timer maxTotalTimeout's rejection never cleared (protocol.js:197, :470): it cancels now, after the client gave up.
      this.clientDeadlines.fired('idle', `the SDK's \`timeout\` timer, left armed when maxTotalTimeout rejected the request at ${this.sdkGaveUpAtMs} ms, fires now and sends notifications/cancelled — ${this.sim.nowMs - this.sdkGaveUpAtMs} ms after the client gave up`);
      this.sendCancellation('Request timed out');
      return;
    }
    const hadTerminal = this.hasTerminal();
    const fired = this.coordinator.clientExpire(this.id, this.sim.nowMs, 'idle');
    if (fired === null) return;
    const reason = `the SDK's \`timeout\`: no progress for ${this.settings.idleTimeoutMs} ms`;
    this.clientDeadlines.fired('idle', reason);
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, reason);
    this.noteViews('client');
    this.clientDeadlines.disarm('the request already ended on the client');
    this.sendCancellation(reason);
  }

  /**
   * ts-sdk-1.x: progress arrived after maxTotalTimeout elapsed (protocol.js:462 → :196). The SDK
   * rejects the request locally and sends nothing; its `timeout` timer stays armed.
   */
  private sdkMaxExceeded(): string {
    const hadTerminal = this.hasTerminal();
    const startedAtMs = this.coordinator.get(this.id)?.startedAtMs ?? 0;
    const fired = this.coordinator.clientExpire(this.id, this.sim.nowMs, 'max');
    assert(fired === 'max', 'the SDK finds maxTotalTimeout exceeded only once it is');
    this.sdkGaveUpAtMs = this.sim.nowMs;
    const reason = `maxTotalTimeout of ${this.settings.maxTimeoutMs} ms exceeded, found only now that progress arrived (${this.sim.nowMs - startedAtMs} ms elapsed): the TypeScript SDK 1.x rejects the request locally and sends nothing; its \`timeout\` timer stays armed`;
    this.clientDeadlines.fired('max', reason);
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, reason);
    this.noteViews('client');
    // The client gave up: no response is owed to it any more (its cancellation comes later, from the timer).
    this.sim.wire.settle('client', this.id);
    return 'the TypeScript SDK 1.x found maxTotalTimeout exceeded when this progress arrived and rejected the request';
  }

  /** The user cancels now (RC-5). A request the client already settled has nothing left to cancel. */
  cancel(reason: string = USER_CANCEL_REASON): void {
    const verdict = this.coordinator.clientAbandon(this.id, this.sim.nowMs);
    if (!verdict.accepted) {
      this.sim.record({ kind: 'cancel-ignored', by: 'client', requestId: this.id, reason: `nothing to cancel: ${verdict.reason}` });
      return;
    }
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    this.noteViews('client');
    this.clientDeadlines.disarm('the client abandoned the request');
    this.sendCancellation(reason);
  }

  /**
   * RC-7: a buggy client sends a cancellation with no requestId. It breaks the schema on purpose
   * (marked `malformed`); the server must ignore it without error and without reply.
   */
  sendMalformedCancel(): void {
    const message: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'a cancellation that names no request' } };
    this.sim.wire.send('client', this.channelFor('client', message), message, (event) => this.serverReceivesCancelled(event), {
      malformed: 'params.requestId is missing; CancelledNotificationParams requires it',
    });
  }

  /** RC-7: a buggy client cancels a request id it never sent; the server ignores it without error or reply. */
  sendUnknownCancel(requestId: RequestId): void {
    const message = cancelledNotification(requestId, 'a cancellation for a request this client never sent');
    this.send('client', message, (event) => this.serverReceivesCancelled(event));
  }

  private sendCancellation(reason: string): void {
    const s = this.settings;
    // The client gave up on the request: no response is owed to it any more.
    this.sim.wire.settle('client', this.id);
    this.cancelSentAtMs ??= this.sim.nowMs;
    if (!this.sim.http) {
      this.cancellationSignal = 'notifications/cancelled';
      this.send('client', cancelledNotification(this.id, reason), (event) => this.serverReceivesCancelled(event));
      return;
    }
    if (s.httpCancel === 'post-notification' || this.sdk) {
      // SPEC §9 failure mode (and the TypeScript SDK 1.x's way): a cancellation POSTed on Streamable HTTP is not the signal.
      this.cancellationSignal = 'notifications/cancelled';
      this.send('client', cancelledNotification(this.id, reason), () => {
        const why = 'on Streamable HTTP the disconnect of the request’s own response stream is the cancellation; a separately POSTed notifications/cancelled is not tied to it, so the request keeps running';
        this.sim.record({ kind: 'cancel-ignored', by: 'server', requestId: this.id, reason: why });
        return why;
      });
      return;
    }
    this.cancellationSignal = 'stream-close';
    this.clientClosedStreamAtMs = this.sim.nowMs;
    this.sim.record({ kind: 'stream-closed', by: 'client', requestId: this.id, reason: `${reason}: closing the response stream is the cancellation; nothing is POSTed` });
    const observedAtMs = this.sim.wire.arrivalMs(`POST #${String(this.id)}:client`);
    this.sim.at(observedAtMs, 'server', 'server observes disconnect', () => this.serverObservesDisconnect());
  }

  private clientReceives(event: MessageEvent): string | null {
    if (this.clientClosedStreamAtMs !== null) {
      return `the client closed this response stream at ${this.clientClosedStreamAtMs} ms; what arrives on it is discarded`;
    }
    const message = event.message;
    if ('method' in message && message.method === 'notifications/progress') {
      if (this.sdk && this.coordinator.get(this.id)?.client === 'waiting' && this.sim.nowMs >= this.coordinator.maxDueAtMs(this.id)) return this.sdkMaxExceeded();
      const verdict = this.coordinator.clientProgress(this.id, message.params.progress as number, this.sim.nowMs);
      if (!verdict.accepted) return verdict.reason;
      if (this.settings.progressResetsMax) this.clientDeadlines.resetBothFailureMode('progress arrived: this client restarts every deadline');
      else this.clientDeadlines.resetIdle('progress arrived: the idle clock restarts (the maximum deadline does not move)');
      return null;
    }
    const verdict = this.coordinator.clientResponse(this.id, this.sim.nowMs);
    if (!verdict.accepted) return verdict.reason;
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'settled', reason: 'final response received' });
    this.noteViews('client');
    this.clientDeadlines.disarm('the final response arrived');
    return null;
  }

  // ── server and its worker ────────────────────────────────────────────────────────────────────

  private serverReceivesCall(): null {
    if (this.sim.http) this.sim.record({ kind: 'stream-opened', by: 'server', requestId: this.id, headers: { ...SSE_HEADERS } });
    const s = this.settings;
    const worker = new ServerWorker(this.sim, s.workMs, s.progressEveryMs, (chunk, _chunks, isLast) => (isLast ? this.workerCompletes() : this.workerCheckpoint(chunk)));
    this.workerChunks = worker.chunks;
    this.sim.record({ kind: 'worker', requestId: this.id, step: 'started', reason: `${s.workMs} ms of work in ${this.workerChunks} chunk(s); each chunk is uninterruptible` });
    worker.start();
    return null;
  }

  /** The end of an uninterruptible chunk: the cancellation is observed here, or progress is sent. */
  private workerCheckpoint(chunk: number): boolean {
    const record = this.coordinator.get(this.id);
    assert(record !== undefined, 'worker runs for a known request');
    if (record.server === 'cancelled') {
      if (this.settings.afterCancel === 'respond') {
        // SPEC §9 failure mode: this server accepted the cancellation but never checks it; the work goes on.
        this.sim.record({ kind: 'worker', requestId: this.id, step: 'checkpoint', reason: `chunk ${chunk} of ${this.workerChunks} done; this server does not check for the accepted cancellation and works on (SPEC §9 failure mode)` });
        return true;
      }
      this.sim.record({ kind: 'worker', requestId: this.id, step: 'stopped', reason: `checkpoint ${chunk} observed the cancellation: work stops, resources are freed` });
      return false;
    }
    // Once per checkpoint: the event is built with its stamps (no copy), and its reason shares the progress message's text.
    const progressText = this.sim.log.keepText(`chunk ${chunk} of ${this.workerChunks}`);
    const stamp = this.sim.stamp();
    this.sim.append({ seq: stamp.seq, atMs: stamp.atMs, actor: '', causeSeq: stamp.causeSeq, kind: 'worker', requestId: this.id, step: 'checkpoint', reason: `${progressText} done` });
    if (this.settings.serverSendsProgress && record.progressToken !== null) {
      const verdict = this.coordinator.serverProgress(this.id, chunk);
      if (verdict.accepted) {
        this.send('server', progressNotification(record.progressToken, chunk, this.workerChunks, progressText), this.toClient);
      } else {
        this.sim.record({ kind: 'suppressed', by: 'server', requestId: this.id, what: 'progress', reason: verdict.reason });
      }
    }
    return true;
  }

  private workerCompletes(): boolean {
    const hadTerminal = this.hasTerminal();
    this.sim.record({ kind: 'worker', requestId: this.id, step: 'finished', reason: 'the worker reached completion and calls complete()' });
    if (!this.coordinator.serverComplete(this.id, this.sim.nowMs)) {
      if (this.settings.afterCancel === 'respond') {
        // SPEC §9 failure mode: the response goes out although cancellation won; the client cannot use it.
        this.finalResponse = true;
        this.send('server', callToolResultResponse(this.id, 'Report for 2026-Q3 is ready.', { rows: 42 }), this.toClient);
        if (this.sim.http) this.sim.record({ kind: 'stream-closed', by: 'server', requestId: this.id, reason: 'the response ends the request’s SSE stream' });
        return false;
      }
      this.sim.record({ kind: 'suppressed', by: 'server', requestId: this.id, what: 'response', reason: 'cancellation was accepted first: complete() returns no response and nothing more is sent' });
      return false;
    }
    this.sim.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'completed', reason: 'result committed; the response is sent' });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, 'the server sent the final response');
    this.noteViews('server');
    this.finalResponse = true;
    this.send('server', callToolResultResponse(this.id, 'Report for 2026-Q3 is ready.', { rows: 42 }), this.toClient);
    if (this.sim.http) this.sim.record({ kind: 'stream-closed', by: 'server', requestId: this.id, reason: 'the final response ends the request’s SSE stream' });
    return false;
  }

  private acceptOrIgnoreCancel(params: unknown, how: string): string | null {
    const hadTerminal = this.requestId !== null && this.hasTerminal();
    const verdict = this.coordinator.serverCancel(params, this.sim.nowMs);
    if (!verdict.accepted) {
      this.sim.record({ kind: 'cancel-ignored', by: 'server', requestId: verdict.requestId, reason: `${verdict.reason}; ignored without error or reply` });
      return verdict.reason;
    }
    const then = this.settings.afterCancel === 'respond' ? 'this server marks it cancelled but neither stops the work nor suppresses the response (SPEC §9 failure mode)' : 'the server stops the work and sends nothing more for this request';
    this.sim.record({ kind: 'cancel-accepted', by: 'server', requestId: verdict.requestId, reason: `${how}; ${then}` });
    this.sim.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'cancelled', reason: how });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, `the server accepted the cancellation (${how})`);
    return null;
  }

  private serverReceivesCancelled(event: MessageEvent): string | null {
    const message = event.message;
    return this.acceptOrIgnoreCancel('params' in message ? message.params : undefined, 'notifications/cancelled received');
  }

  private serverObservesDisconnect(): void {
    this.sim.record({ kind: 'disconnect-observed', by: 'server', requestId: this.id, reason: 'the client closed the response stream; the server treats the disconnect as cancellation' });
    this.acceptOrIgnoreCancel({ requestId: this.id }, 'response stream disconnected');
  }

  /**
   * RC-8: once both sides have ended, records whether their views differ: the server completed and
   * sent the final response, the client ended otherwise and never uses it. `side` ended just now.
   */
  private noteViews(side: Side): void {
    const diverge = this.coordinator.viewsDiverge(this.id);
    if (diverge !== true) return;
    const record = this.coordinator.get(this.id);
    const clientEnd = record?.clientEnd;
    const serverEndedAtMs = record?.serverEndedAtMs;
    assert(clientEnd !== null && clientEnd !== undefined, 'diverging views have a client ending');
    assert(typeof serverEndedAtMs === 'number', 'diverging views have a server ending');
    const clientWords: Record<ClientOutcome, string> = {
      completed: 'used the response',
      cancelled: 'cancelled it',
      'timeout-idle': 'gave up on its idle deadline',
      'timeout-max': 'gave up on its maximum deadline',
    };
    const reason =
      `the server completed at ${serverEndedAtMs} ms and sent its final response; the client ended ${clientEnd.outcome} at ${clientEnd.atMs} ms ` +
      `(it ${clientWords[clientEnd.outcome]}) and will discard that response. Neither side can know what the other saw first: the server records completed, the client never uses the result`;
    this.sim.record({ kind: 'views-diverge', requestId: this.id, side, serverView: 'completed', serverEndedAtMs, clientView: clientEnd.outcome, clientEndedAtMs: clientEnd.atMs, reason });
  }

  // ── driver ───────────────────────────────────────────────────────────────────────────────────

  /** Schedules a driver action at an absolute virtual time (a scenario's script step). */
  scheduleAt(atMs: number, label: string, action: (race: this) => void): void {
    this.sim.at(atMs, 'client', label, () => action(this));
  }

  runUntil(atMs: number): this {
    this.sim.scheduler.runUntil(atMs);
    return this;
  }

  runToEnd(): this {
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  outcome(): RequestOutcome {
    const terminal = this.coordinator.terminal(this.id);
    assert(terminal !== null, 'every request ends in exactly one terminal state (the maximum deadline guarantees one)');
    const clientIgnores = [...this.clientIgnores].sort((a, b) => a.seq - b.seq);
    // What the transcript itself shows (one pass: a long run records hundreds of thousands of events).
    const marked: number[] = [];
    let divergeRecorded = false;
    for (const event of this.events) {
      if (event.kind === 'message' && event.ignoredBy === 'client') marked.push(event.seq);
      else if (event.kind === 'views-diverge') divergeRecorded = true;
    }
    if (this.sim.log.recording) {
      // Paired with toClient: the ignores noted as they happened are exactly the messages the transcript marks ignored by the client.
      assert(JSON.stringify(marked) === JSON.stringify(clientIgnores.map((ignore) => ignore.seq)), 'the noted ignores match the transcript');
    }
    assert(clientIgnores.every((ignore) => ignore.atMs >= 0), 'an ignored message arrived at a real time');
    const clientEnd = this.coordinator.clientOutcome(this.id);
    assert(clientEnd !== null, 'the client always ends its view: the maximum deadline guarantees one');
    const viewsDiverge = this.coordinator.viewsDiverge(this.id) === true;
    // Paired with noteViews: the outcome and the transcript agree on a divergence.
    if (this.sim.log.recording) assert(viewsDiverge === divergeRecorded, 'a divergence is in the outcome exactly when it is in the transcript');
    return {
      requestId: this.id,
      terminalState: terminal.state,
      terminalAtMs: terminal.atMs,
      finalResponse: this.finalResponse,
      cancellationSignal: this.cancellationSignal,
      clientIgnores,
      clientOutcome: clientEnd.outcome,
      clientOutcomeAtMs: clientEnd.atMs,
      viewsDiverge,
      cancelDelayMs: this.cancelSentAtMs === null ? null : this.cancelSentAtMs - clientEnd.atMs,
    };
  }
}

/** The registry's adapter: a scenario's script over one RequestRace. */
export const requestRaceModel: Model<RequestRaceScenario, RequestOutcome> = {
  settingsSpec: requestRaceSettingsSpec,
  execute(scenario, run) {
    const settings = run.settings as RequestRaceSettings;
    const race = new RequestRace({
      transport: run.transport,
      seed: run.seed,
      settings,
      chooser: run.chooser ?? (scenario.pinnedOrder.length > 0 ? pinnedChooser(scenario.pinnedOrder) : undefined),
      trace: run.trace,
      faults: run.faults,
      record: run.record,
    });
    // Script steps are causal: each is scheduled when the one before it has run, so a same-instant
    // chooser can reorder a step against the simulation's events but never against its own script.
    const steps = scenario.script.flatMap((step) => {
      const atMs = step.at === 'cancelAtMs' ? settings.cancelAtMs : step.at;
      return atMs === null ? [] : [{ atMs, action: step.do }];
    });
    const scheduleStep = (index: number): void => {
      const step = steps[index];
      if (step === undefined) return;
      race.scheduleAt(Math.max(step.atMs, race.sim.nowMs), `script ${step.action}`, (r) => {
        if (step.action === 'call') r.call();
        else if (step.action === 'cancel') r.cancel();
        else if (step.action === 'cancel-malformed') r.sendMalformedCancel();
        else r.sendUnknownCancel(UNKNOWN_REQUEST_ID);
        scheduleStep(index + 1);
      });
    };
    scheduleStep(0);
    race.runToEnd();
    return { events: race.events, outcome: race.outcome() };
  },
};
