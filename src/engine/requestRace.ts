import { assert } from './assert';
import { RequestCoordinator } from './coordinator';
import { SeededRandom } from './prng';
import {
  SSE_HEADERS,
  callToolRequest,
  callToolResultResponse,
  cancelledNotification,
  progressNotification,
  type JsonRpcMessage,
  type ProgressToken,
  type RequestId,
} from './protocol';
import { Scheduler, type Chooser, type EventHandle, type SchedulerOptions } from './scheduler';
import { EventLog, Wire, type Delivery, type NewEvent } from './wire';
import type { SettingsSpec } from './settings';
import type {
  CancellationSignal,
  ClientIgnore,
  DeadlineName,
  LabEvent,
  MessageEvent,
  RequestOutcome,
  Side,
  Transport,
} from './transcript';

/**
 * One request between an MCP client and server over stdio or Streamable HTTP, on the virtual
 * clock: the client's deadlines (RC-1/RC-2), the server's worker with progress checkpoints (RC-3,
 * RC-4), the transport-specific cancellation signal (RC-5), and the cancel/complete race (RC-6 …
 * RC-8). Also the headless driver the unit tests use: `call()`, `cancel()`, `runUntil()`.
 */
export const requestRaceSettingsSpec = {
  latencyMs: { kind: 'integer', min: 0, max: 60_000, unit: 'ms', description: 'One-way latency of every message on the transport.' },
  latencyJitterMs: { kind: 'integer', min: 0, max: 10_000, unit: 'ms', description: 'Extra latency per message drawn from the seed; one channel stays in order.' },
  idleTimeoutMs: { kind: 'integer', min: 1, max: 3_600_000, unit: 'ms', description: 'Time the client allows with no useful activity (progress resets it).' },
  maxTimeoutMs: { kind: 'integer', min: 1, max: 86_400_000, unit: 'ms', description: 'Absolute budget from the request start; nothing resets it.' },
  workMs: { kind: 'integer', min: 1, max: 86_400_000, unit: 'ms', description: "How long the server's worker needs to finish." },
  progressEveryMs: { kind: 'integer', min: 0, max: 86_400_000, unit: 'ms', description: 'Worker checkpoint interval; progress is sent at each. 0: no checkpoints.' },
  progressToken: { kind: 'boolean', description: 'The client asks for progress (sends _meta.progressToken).' },
  serverSendsProgress: { kind: 'boolean', description: 'The server honours the progress token (RC-4: it may legally not).' },
  cancelAtMs: { kind: 'integer', min: 0, max: 86_400_000, nullable: true, unit: 'ms', description: 'When the user cancels; none: never.' },
  httpCancel: {
    kind: 'enum',
    values: ['close-stream', 'post-notification'],
    description: 'How the client cancels on Streamable HTTP. post-notification is the SPEC §9 failure mode.',
  },
  requestId: { kind: 'integer', min: 0, max: 2_147_483_647, description: 'JSON-RPC id of the request.' },
  eventsMax: { kind: 'integer', min: 10, max: 10_000_000, description: 'Bound on events in one run; reaching it is an error (LAB006).' },
} as const satisfies SettingsSpec;

export type RequestRaceSettingKey = keyof typeof requestRaceSettingsSpec;

export interface RequestRaceSettings {
  latencyMs: number;
  latencyJitterMs: number;
  idleTimeoutMs: number;
  maxTimeoutMs: number;
  workMs: number;
  progressEveryMs: number;
  progressToken: boolean;
  serverSendsProgress: boolean;
  cancelAtMs: number | null;
  httpCancel: 'close-stream' | 'post-notification';
  requestId: number;
  eventsMax: number;
}

export const requestRaceDefaults: RequestRaceSettings = {
  latencyMs: 5,
  latencyJitterMs: 0,
  idleTimeoutMs: 1_000,
  maxTimeoutMs: 5_000,
  workMs: 200,
  progressEveryMs: 100,
  progressToken: true,
  serverSendsProgress: true,
  cancelAtMs: null,
  httpCancel: 'close-stream',
  requestId: 41,
  eventsMax: 100_000,
};

export interface RequestRaceOptions {
  readonly transport: Transport;
  readonly seed: number;
  readonly settings: RequestRaceSettings;
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
}

const USER_CANCEL_REASON = 'User closed the operation';

function summarize(message: JsonRpcMessage): string {
  if ('method' in message) {
    if (message.method === 'notifications/progress') return `progress ${String(message.params.progress)}/${String(message.params.total ?? '?')}`;
    if (message.method === 'notifications/cancelled') return `notifications/cancelled #${String(message.params.requestId)}`;
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  return 'result' in message ? `response #${String(message.id)}` : `error #${String(message.id ?? 'null')}`;
}

export class RequestRace {
  readonly scheduler: Scheduler;
  readonly coordinator = new RequestCoordinator();
  private readonly log: EventLog;
  private readonly wire: Wire;
  private readonly options: RequestRaceOptions;
  private readonly settings: RequestRaceSettings;
  private readonly deadlineHandles: Partial<Record<DeadlineName, EventHandle>> = {};
  private requestId: RequestId | null = null;
  private cancellationSignal: CancellationSignal = null;
  private finalResponse = false;
  /** Streamable HTTP: when the client closed the request's response stream. */
  private clientClosedStreamAtMs: number | null = null;
  private workerChunks = 0;

  constructor(options: RequestRaceOptions) {
    this.options = options;
    this.settings = options.settings;
    this.scheduler = new Scheduler({ eventsMax: options.settings.eventsMax, chooser: options.chooser, trace: options.trace });
    this.log = new EventLog(this.scheduler);
    this.wire = new Wire(this.scheduler, this.log, new SeededRandom(options.seed), options.settings, summarize);
  }

  get events(): LabEvent[] {
    return this.log.events;
  }

  // ── recording ────────────────────────────────────────────────────────────────────────────────

  private record<E extends NewEvent>(event: E): E & { seq: number; atMs: number } {
    return this.log.record(event);
  }

  private get id(): RequestId {
    assert(this.requestId !== null, 'no request was started');
    return this.requestId;
  }

  /** Records the terminal event the moment the coordinator's single terminal state gets set. */
  private noteTerminal(hadTerminal: boolean, reason: string): void {
    const terminal = this.coordinator.terminal(this.id);
    if (hadTerminal || terminal === null) return;
    this.record({ kind: 'terminal', requestId: this.id, state: terminal.state, reason });
  }

  private hasTerminal(): boolean {
    return this.coordinator.terminal(this.id) !== null;
  }

  // ── transport ────────────────────────────────────────────────────────────────────────────────

  private channelFor(from: Side, message: JsonRpcMessage): string {
    if (this.options.transport === 'stdio') return 'stdio';
    if (from === 'server') return `SSE #${String(this.id)}`;
    if ('id' in message && 'method' in message) return `POST #${String(message.id)}`;
    return `POST ${'method' in message ? message.method : 'message'}`;
  }

  private send(from: Side, message: JsonRpcMessage, deliver: Delivery): MessageEvent {
    return this.wire.send(from, this.channelFor(from, message), message, deliver);
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  /** The client sends `tools/call` now and arms both deadlines (RC-1). */
  call(): void {
    assert(this.requestId === null, 'this race models one request; call() was already made');
    const s = this.settings;
    this.requestId = s.requestId;
    const progressToken: ProgressToken | null = s.progressToken ? `progress-${s.requestId}` : null;
    const startedAtMs = this.scheduler.nowMs;
    this.coordinator.start(this.id, { atMs: startedAtMs, progressToken, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs });
    this.record({ kind: 'request-started', requestId: this.id, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs, progressToken });
    const request = callToolRequest(this.id, 'generate_report', { quarter: '2026-Q3' }, progressToken);
    this.send('client', request, () => this.serverReceivesCall());
    this.armDeadline('idle', this.coordinator.idleDueAtMs(this.id), 'armed', `no useful activity for ${s.idleTimeoutMs} ms ends the request`);
    this.armDeadline('max', this.coordinator.maxDueAtMs(this.id), 'armed', `absolute budget of ${s.maxTimeoutMs} ms from the start; progress never moves it`);
  }

  private armDeadline(deadline: DeadlineName, dueAtMs: number, action: 'armed' | 'reset', reason: string): void {
    const previous = this.deadlineHandles[deadline];
    if (previous !== undefined) this.scheduler.cancel(previous);
    this.record({ kind: 'deadline', requestId: this.id, deadline, action, dueAtMs, reason });
    this.deadlineHandles[deadline] = this.scheduler.at(dueAtMs, 'client', `${deadline} deadline`, () => this.deadlineFires());
  }

  private disarmDeadlines(reason: string): void {
    for (const deadline of ['idle', 'max'] as const) {
      const handle = this.deadlineHandles[deadline];
      if (handle === undefined) continue;
      if (this.scheduler.cancel(handle)) this.record({ kind: 'deadline', requestId: this.id, deadline, action: 'disarmed', dueAtMs: handle.atMs, reason });
      delete this.deadlineHandles[deadline];
    }
  }

  private deadlineFires(): void {
    const hadTerminal = this.hasTerminal();
    const fired = this.coordinator.clientExpire(this.id, this.scheduler.nowMs);
    if (fired === null) return;
    delete this.deadlineHandles[fired];
    const s = this.settings;
    const reason = fired === 'max' ? `maximum timeout of ${s.maxTimeoutMs} ms reached` : `idle timeout: no progress for ${s.idleTimeoutMs} ms`;
    this.record({ kind: 'deadline', requestId: this.id, deadline: fired, action: 'fired', dueAtMs: this.scheduler.nowMs, reason });
    this.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    this.noteTerminal(hadTerminal, reason);
    this.disarmDeadlines('the request already ended on the client');
    this.sendCancellation(reason);
  }

  /** The user cancels now (RC-5). A request the client already settled has nothing left to cancel. */
  cancel(reason: string = USER_CANCEL_REASON): void {
    const verdict = this.coordinator.clientAbandon(this.id);
    if (!verdict.accepted) {
      this.record({ kind: 'cancel-ignored', by: 'client', requestId: this.id, reason: `nothing to cancel: ${verdict.reason}` });
      return;
    }
    this.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    this.disarmDeadlines('the client abandoned the request');
    this.sendCancellation(reason);
  }

  private sendCancellation(reason: string): void {
    const s = this.settings;
    if (this.options.transport === 'stdio') {
      this.cancellationSignal = 'notifications/cancelled';
      this.send('client', cancelledNotification(this.id, reason), (event) => this.serverReceivesCancelled(event));
      return;
    }
    if (s.httpCancel === 'post-notification') {
      // SPEC §9 failure mode: a cancellation POSTed on Streamable HTTP is not the signal.
      this.cancellationSignal = 'notifications/cancelled';
      this.send('client', cancelledNotification(this.id, reason), () => {
        const why = 'on Streamable HTTP the disconnect of the request’s own response stream is the cancellation; a separately POSTed notifications/cancelled is not tied to it, so the request keeps running';
        this.record({ kind: 'cancel-ignored', by: 'server', requestId: this.id, reason: why });
        return why;
      });
      return;
    }
    this.cancellationSignal = 'stream-close';
    this.clientClosedStreamAtMs = this.scheduler.nowMs;
    this.record({ kind: 'stream-closed', by: 'client', requestId: this.id, reason: `${reason}: closing the response stream is the cancellation; nothing is POSTed` });
    const observedAtMs = this.wire.arrivalMs(`POST #${String(this.id)}:client`);
    this.scheduler.at(observedAtMs, 'server', 'server observes disconnect', () => this.serverObservesDisconnect());
  }

  private clientReceives(event: MessageEvent): string | null {
    if (this.clientClosedStreamAtMs !== null) {
      return `the client closed this response stream at ${this.clientClosedStreamAtMs} ms; what arrives on it is discarded`;
    }
    const message = event.message;
    if ('method' in message && message.method === 'notifications/progress') {
      const verdict = this.coordinator.clientProgress(this.id, message.params.progress as number, this.scheduler.nowMs);
      if (!verdict.accepted) return verdict.reason;
      this.armDeadline('idle', this.coordinator.idleDueAtMs(this.id), 'reset', 'progress arrived: the idle clock restarts (the maximum deadline does not move)');
      return null;
    }
    const verdict = this.coordinator.clientResponse(this.id);
    if (!verdict.accepted) return verdict.reason;
    this.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'settled', reason: 'final response received' });
    this.disarmDeadlines('the final response arrived');
    return null;
  }

  // ── server and its worker ────────────────────────────────────────────────────────────────────

  private serverReceivesCall(): null {
    if (this.options.transport === 'http') {
      this.record({ kind: 'stream-opened', by: 'server', requestId: this.id, headers: { ...SSE_HEADERS } });
    }
    const s = this.settings;
    this.workerChunks = s.progressEveryMs > 0 ? Math.ceil(s.workMs / s.progressEveryMs) : 1;
    this.record({ kind: 'worker', requestId: this.id, step: 'started', reason: `${s.workMs} ms of work in ${this.workerChunks} chunk(s); each chunk is uninterruptible` });
    this.scheduleChunk(1, this.scheduler.nowMs);
    return null;
  }

  private scheduleChunk(chunk: number, workerStartedAtMs: number): void {
    const s = this.settings;
    const isLast = chunk >= this.workerChunks;
    const endsAtMs = workerStartedAtMs + (isLast ? s.workMs : chunk * s.progressEveryMs);
    this.scheduler.at(endsAtMs, 'worker', isLast ? 'worker completes' : `worker checkpoint ${chunk}`, () =>
      isLast ? this.workerCompletes() : this.workerCheckpoint(chunk, workerStartedAtMs),
    );
  }

  private workerCheckpoint(chunk: number, workerStartedAtMs: number): void {
    const record = this.coordinator.get(this.id);
    assert(record !== undefined, 'worker runs for a known request');
    if (record.server === 'cancelled') {
      this.record({ kind: 'worker', requestId: this.id, step: 'stopped', reason: `checkpoint ${chunk} observed the cancellation: work stops, resources are freed` });
      return;
    }
    this.record({ kind: 'worker', requestId: this.id, step: 'checkpoint', reason: `chunk ${chunk} of ${this.workerChunks} done` });
    if (this.settings.serverSendsProgress && record.progressToken !== null) {
      const verdict = this.coordinator.serverProgress(this.id, chunk);
      if (verdict.accepted) {
        this.send('server', progressNotification(record.progressToken, chunk, this.workerChunks, `chunk ${chunk} of ${this.workerChunks}`), (event) => this.clientReceives(event));
      } else {
        this.record({ kind: 'suppressed', by: 'server', requestId: this.id, what: 'progress', reason: verdict.reason });
      }
    }
    this.scheduleChunk(chunk + 1, workerStartedAtMs);
  }

  private workerCompletes(): void {
    const hadTerminal = this.hasTerminal();
    this.record({ kind: 'worker', requestId: this.id, step: 'finished', reason: 'the worker reached completion and calls complete()' });
    if (!this.coordinator.serverComplete(this.id, this.scheduler.nowMs)) {
      this.record({ kind: 'suppressed', by: 'server', requestId: this.id, what: 'response', reason: 'cancellation was accepted first: complete() returns no response and nothing more is sent' });
      return;
    }
    this.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'completed', reason: 'result committed; the response is sent' });
    this.noteTerminal(hadTerminal, 'the server sent the final response');
    this.finalResponse = true;
    this.send('server', callToolResultResponse(this.id, 'Report for 2026-Q3 is ready.', { rows: 42 }), (event) => this.clientReceives(event));
    if (this.options.transport === 'http') {
      this.record({ kind: 'stream-closed', by: 'server', requestId: this.id, reason: 'the final response ends the request’s SSE stream' });
    }
  }

  private acceptOrIgnoreCancel(params: unknown, how: string): string | null {
    const hadTerminal = this.requestId !== null && this.hasTerminal();
    const verdict = this.coordinator.serverCancel(params, this.scheduler.nowMs);
    if (!verdict.accepted) {
      this.record({ kind: 'cancel-ignored', by: 'server', requestId: verdict.requestId, reason: `${verdict.reason}; ignored without error or reply` });
      return verdict.reason;
    }
    this.record({ kind: 'cancel-accepted', by: 'server', requestId: verdict.requestId, reason: `${how}; the server stops the work and sends nothing more for this request` });
    this.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'cancelled', reason: how });
    this.noteTerminal(hadTerminal, `the server accepted the cancellation (${how})`);
    return null;
  }

  private serverReceivesCancelled(event: MessageEvent): string | null {
    const message = event.message;
    return this.acceptOrIgnoreCancel('params' in message ? message.params : undefined, 'notifications/cancelled received');
  }

  private serverObservesDisconnect(): void {
    this.record({ kind: 'disconnect-observed', by: 'server', requestId: this.id, reason: 'the client closed the response stream; the server treats the disconnect as cancellation' });
    this.acceptOrIgnoreCancel({ requestId: this.id }, 'response stream disconnected');
  }

  // ── driver ───────────────────────────────────────────────────────────────────────────────────

  /** Schedules a driver action at an absolute virtual time (a scenario's script step). */
  scheduleAt(atMs: number, label: string, action: (race: this) => void): void {
    this.scheduler.at(atMs, 'client', label, () => action(this));
  }

  runUntil(atMs: number): this {
    this.scheduler.runUntil(atMs);
    return this;
  }

  runToEnd(): this {
    this.scheduler.runUntilIdle();
    return this;
  }

  outcome(): RequestOutcome {
    const terminal = this.coordinator.terminal(this.id);
    assert(terminal !== null, 'every request ends in exactly one terminal state (the maximum deadline guarantees one)');
    const clientIgnores: ClientIgnore[] = [];
    for (const event of this.events) {
      if (event.kind !== 'message' || event.ignoredBy !== 'client') continue;
      clientIgnores.push({ seq: event.seq, atMs: event.arrivesAtMs, summary: summarize(event.message), reason: event.reason ?? '' });
    }
    return {
      requestId: this.id,
      terminalState: terminal.state,
      terminalAtMs: terminal.atMs,
      finalResponse: this.finalResponse,
      cancellationSignal: this.cancellationSignal,
      clientIgnores,
    };
  }
}
