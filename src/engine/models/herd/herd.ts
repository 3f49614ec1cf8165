import { assert } from '../../core/assert';
import { backoffDelayMs, type BackoffConfig } from './backoff';
import { postHeadersOf } from '../../core/postHeaders';
import { LabError } from '../../core/errors';
import type { HerdOutcome, HerdScenario, HerdModelEvent } from './types';
import type { Sim } from '../../core/sim';
import { mcpSim } from '../../mcp/mcpSim';
import type { Model, ResolvedRun } from '../../core/model';
import { SSE_HEADERS, requestMeta, type JsonRpcErrorResponse, type JsonRpcRequest } from '../../mcp/protocol';
import type { Scheduler } from '../../core/scheduler';
import { herdSettingsSpec, type HerdSettings } from './settings';
import { ComponentBackoff } from './componentBackoff';
export { herdSettingsSpec, herdDefaults, type HerdSettings } from './settings';

/**
 * `herd` (docs/requirements.md RV-4, RV-5): N clients lose their streams at the same instant and reconnect to a
 * recovering server that admits at most `admitPerWindow` connections per `windowMs` window. A
 * refused client learns of the refusal one round trip later (`rejectRttMs`), waits its backoff
 * and tries again. Without jitter the clients stay in lockstep and every retry wave hits the
 * server together; with jitter they spread out.
 *
 * Attempt n of a client waits `backoffDelayMs(policy, client, n)` before it starts; attempt 0 too
 * (RV-4: up to 250 ms) unless `initialJitter` is off, which shows the stampede at 0 ms. Every attempt is one scheduler event, but the transcript
 * gets one summary per admission window that saw attempts, never one event per attempt, plus the
 * wire messages of one traced client (each attempt a new `subscriptions/listen` with a new id).
 *
 * `dropAtMs` (**Drop connection here**) drops the connection once more at that instant:
 * every client connected by then loses its stream and reconnects from backoff attempt 0, drawing
 * from a second jitter stream (a real client draws fresh randomness; repeating the first spread
 * would hide that); clients still waiting keep their schedules. Without it no event is scheduled, so
 * a run without the setting is the run it always was.
 */

/** Longest plotted series; a run that needs more windows is refused (LAB102) rather than grown without bound. */
export const HERD_WINDOWS_MAX = 1_000_000;

/** Settings that cannot run, refused before anything runs (LAB007). */
export function checkHerdSettings(settings: HerdSettings): void {
  if (settings.baseMs > settings.capMs) {
    throw new LabError(
      'LAB007',
      `baseMs=${settings.baseMs} is above capMs=${settings.capMs}; the cap must be at least the base (nothing was run)`,
    );
  }
  if (settings.tracedClient !== null && settings.tracedClient >= settings.clients) {
    throw new LabError(
      'LAB007',
      `tracedClient=${settings.tracedClient} does not exist among clients 0 … ${settings.clients - 1} (nothing was run)`,
    );
  }
  if (settings.policy === 'none' && settings.rejectRttMs === 0 && settings.clients > settings.admitPerWindow) {
    throw new LabError(
      'LAB007',
      'policy=none with rejectRttMs=0 retries a refused client in the same instant forever; give the refusal a round trip or pick a backoff (nothing was run)',
    );
  }
}

export class Herd {
  readonly sim: Sim<HerdModelEvent>;
  private readonly options: ResolvedRun<HerdSettings>;
  private readonly settings: HerdSettings;
  private readonly config: BackoffConfig;
  private readonly tracedClient: number;
  /** Per client: attempts made so far, and the last wait (decorrelated jitter grows from it; -1: none yet). */
  private readonly attempts: Uint32Array;
  private readonly previousDelayMs: Float64Array;
  private readonly reconnected: Uint8Array;
  /** Per client: its attempts before the drop at `dropAtMs` (its backoff counts from there), and whether it was dropped. */
  private readonly backoffFrom: Uint32Array;
  private readonly droppedByDrop: Uint8Array;
  private readonly dropConfig: BackoffConfig;
  /** A student's backoff, when the run brings one: it answers every wait instead of the policy. */
  private readonly student: ComponentBackoff | null;
  private droppedAtDrop = 0;
  readonly attemptsPerWindow: number[] = [];
  private readonly admittedPerWindow: number[] = [];
  private readonly retriesPerWindow: number[] = [];
  private totalAttempts = 0;
  private reconnectedCount = 0;
  private lastAdmittedAtMs = 0;
  /** The window whose summary is still open (-1: none yet). */
  private openWindow = -1;

  get scheduler(): Scheduler {
    return this.sim.scheduler;
  }

  get log(): Sim<HerdModelEvent>['log'] {
    return this.sim.log;
  }

  /** `options.components`: a student's backoff (`backoffDelayMs`) in the place of the policy; absent: the policy's own. */
  constructor(options: ResolvedRun<HerdSettings>) {
    const s = options.settings;
    checkHerdSettings(s);
    this.options = options;
    this.settings = s;
    this.tracedClient = s.tracedClient ?? s.clients - 1;
    this.config = { policy: s.policy, baseMs: s.baseMs, capMs: s.capMs, seed: options.seed };
    this.sim = mcpSim(options, { eventsMax: s.eventsMax });
    this.attempts = new Uint32Array(s.clients);
    this.previousDelayMs = new Float64Array(s.clients).fill(-1);
    this.reconnected = new Uint8Array(s.clients);
    this.backoffFrom = new Uint32Array(s.clients);
    this.droppedByDrop = new Uint8Array(s.clients);
    this.dropConfig = { ...this.config, seed: (options.seed ^ 0x5bd1_e995) | 0 };
    const component = options.components?.backoffDelayMs;
    this.student =
      component === undefined || options.components === undefined
        ? null
        : new ComponentBackoff(component, s.baseMs, s.capMs, options.components.probe, this.sim.componentClock());
  }

  run(): this {
    const dropAtMs = this.settings.dropAtMs;
    if (dropAtMs !== null) this.scheduler.at(dropAtMs, 'transport', 'connection drops', () => this.drop(dropAtMs));
    for (let client = 0; client < this.settings.clients; client += 1) {
      const delayMs = this.settings.initialJitter ? this.nextDelayMs(client, 0) : 0;
      if (client === this.tracedClient) this.traceWait(0, delayMs, 'its stream dropped at 0 ms');
      this.scheduleAttempt(client, delayMs);
    }
    this.scheduler.runUntilIdle();
    this.sim.wire.assertFaultsApplied();
    this.closeWindow();
    return this;
  }

  private nextDelayMs(client: number, attempt: number): number {
    if (this.student !== null) return this.student.delayMs(client, attempt);
    const previous = this.previousDelayMs[client] as number;
    const config = this.droppedByDrop[client] === 1 ? this.dropConfig : this.config;
    const delayMs = backoffDelayMs(config, client, attempt, previous < 0 ? null : previous);
    this.previousDelayMs[client] = delayMs;
    return delayMs;
  }

  private scheduleAttempt(client: number, delayMs: number): void {
    this.scheduler.after(delayMs, 'client', 'reconnect attempt', () => this.attempt(client));
  }

  private attempt(client: number): void {
    const s = this.settings;
    assert(this.reconnected[client] === 0, () => `client ${client} attempts after it reconnected`);
    const nowMs = this.scheduler.nowMs;
    const window = Math.floor(nowMs / s.windowMs);
    if (window >= HERD_WINDOWS_MAX) {
      throw new LabError(
        'LAB102',
        `the herd is still reconnecting at ${nowMs} ms, past ${HERD_WINDOWS_MAX} windows of ${s.windowMs} ms; raise windowMs or admitPerWindow`,
      );
    }
    if (window !== this.openWindow) {
      this.closeWindow();
      this.openWindow = window;
    }
    while (this.attemptsPerWindow.length <= window) {
      this.attemptsPerWindow.push(0);
      this.admittedPerWindow.push(0);
      this.retriesPerWindow.push(0);
    }
    const made = this.attempts[client] as number;
    // The backoff counts from the drop that made this client reconnect (the drop at dropAtMs restarts it).
    const attempt = made - (this.backoffFrom[client] as number);
    if (made + 1 > s.attemptsMax) {
      throw new LabError(
        'LAB102',
        `client ${client} reached attemptsMax=${s.attemptsMax} at ${nowMs} ms without being admitted; raise attemptsMax or admitPerWindow, or pick a backoff policy`,
      );
    }
    this.attempts[client] = made + 1;
    this.totalAttempts += 1;
    this.attemptsPerWindow[window] = (this.attemptsPerWindow[window] as number) + 1;
    if (attempt > 0) this.retriesPerWindow[window] = (this.retriesPerWindow[window] as number) + 1;
    const admitted = (this.admittedPerWindow[window] as number) < s.admitPerWindow;
    if (client === this.tracedClient) this.traceAttempt(made, admitted);
    if (admitted) {
      this.admittedPerWindow[window] = (this.admittedPerWindow[window] as number) + 1;
      this.reconnected[client] = 1;
      this.reconnectedCount += 1;
      this.lastAdmittedAtMs = nowMs;
      return;
    }
    const delayMs = this.nextDelayMs(client, attempt + 1);
    if (client === this.tracedClient)
      this.traceWait(attempt + 1, delayMs, `the refusal arrived ${s.rejectRttMs} ms after the attempt`);
    this.scheduleAttempt(client, s.rejectRttMs + delayMs);
  }

  /** The second drop: every connected client loses its stream and starts its backoff again. */
  private drop(atMs: number): void {
    const s = this.settings;
    // The open window's summary goes first when the drop falls in a later window (the log keeps time order).
    if (Math.floor(atMs / s.windowMs) !== this.openWindow) this.closeWindow();
    const connected = this.reconnectedCount;
    this.log.record({
      kind: 'recovery',
      step: 'backoff',
      requestId: null,
      reason: `the connection drops at ${atMs} ms: ${connected} of ${s.clients} clients were connected and lose their streams; each reconnects with its backoff from attempt 0 (${s.policy}); ${s.clients - connected} still waiting keep their schedules`,
    });
    for (let client = 0; client < s.clients; client += 1) {
      if (this.reconnected[client] === 0) continue;
      this.reconnected[client] = 0;
      this.reconnectedCount -= 1;
      this.droppedAtDrop += 1;
      this.droppedByDrop[client] = 1;
      this.backoffFrom[client] = this.attempts[client] as number;
      this.previousDelayMs[client] = -1;
      const delayMs = s.initialJitter ? this.nextDelayMs(client, 0) : 0;
      if (client === this.tracedClient) {
        const listenId = this.attempts[client] as number;
        this.log.record({
          kind: 'stream-dropped',
          requestId: listenId,
          channel: this.options.transport === 'http' ? `SSE #${listenId}` : 'stdio',
          reason: `the connection dropped at ${atMs} ms: the listen stream is gone`,
        });
        this.traceWait(0, delayMs, `its stream dropped at ${atMs} ms`);
      }
      this.scheduleAttempt(client, delayMs);
    }
    assert(this.reconnectedCount === 0, 'after the drop no client is connected');
  }

  // ── the traced client: its messages on the wire ────────────────────────────────────────────────

  private traceWait(attempt: number, delayMs: number, why: string): void {
    const s = this.settings;
    this.log.record({
      kind: 'recovery',
      step: 'backoff',
      requestId: null,
      reason: `traced client ${this.tracedClient}: ${why}; attempt ${attempt} waits ${delayMs} ms (${s.policy}, base ${s.baseMs} ms, cap ${s.capMs} ms)`,
    });
  }

  private traceAttempt(attempt: number, admitted: boolean): void {
    const s = this.settings;
    const nowMs = this.scheduler.nowMs;
    const id = attempt + 1;
    const http = this.options.transport === 'http';
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: requestMeta(null) },
    };
    const sent = this.log.record({
      kind: 'message',
      from: 'client',
      to: 'server',
      channel: http ? `POST #${id}` : 'stdio',
      message: request,
      arrivesAtMs: nowMs,
      ...(http ? { headers: postHeadersOf(request) ?? {} } : {}),
    });
    // The server answers an attempt it received: the trace records the arrival (no latency) before the answer.
    this.log.record({
      kind: 'delivered',
      messageSeq: sent.seq,
      from: 'client',
      to: 'server',
      summary: `subscriptions/listen #${id}`,
    });
    if (admitted) {
      if (http) this.log.record({ kind: 'stream-opened', by: 'server', requestId: id, headers: { ...SSE_HEADERS } });
      const ack = {
        jsonrpc: '2.0' as const,
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
      };
      this.log.record({
        kind: 'message',
        from: 'server',
        to: 'client',
        channel: http ? `SSE #${id}` : 'stdio',
        message: ack,
        arrivesAtMs: nowMs,
      });
      return;
    }
    const refusal: JsonRpcErrorResponse = {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32000,
        message: `Server recovering: ${s.admitPerWindow} connections per ${s.windowMs} ms already admitted; retry later`,
      },
    };
    this.log.record({
      kind: 'message',
      from: 'server',
      to: 'client',
      channel: http ? `HTTP 503 to POST #${id}` : 'stdio',
      message: refusal,
      arrivesAtMs: nowMs + s.rejectRttMs,
    });
  }

  /** Writes the summary of the open window when it closes (only windows that saw attempts are recorded). */
  private closeWindow(): void {
    const window = this.openWindow;
    if (window < 0) return;
    const attempts = this.attemptsPerWindow[window] as number;
    const admitted = this.admittedPerWindow[window] as number;
    const startMs = window * this.settings.windowMs;
    const endMs = startMs + this.settings.windowMs;
    this.log.record(
      {
        kind: 'herd-window',
        window,
        startMs,
        endMs,
        attempts,
        admitted,
        refused: attempts - admitted,
        waiting: this.settings.clients - this.reconnectedCount,
      },
      endMs,
    );
    this.openWindow = -1;
  }

  outcome(): HerdOutcome {
    const s = this.settings;
    // RV-5 conservation, positive and negative space: everyone reconnected, and exactly once.
    assert(
      this.reconnectedCount === s.clients,
      () => `${s.clients - this.reconnectedCount} of ${s.clients} clients never reconnected`,
    );
    let admitted = 0;
    for (const count of this.admittedPerWindow) admitted += count;
    assert(
      admitted === s.clients + this.droppedAtDrop,
      () =>
        `admissions (${admitted}) differ from clients (${s.clients}) plus those dropped at dropAtMs (${this.droppedAtDrop})`,
    );
    let attempts = 0;
    for (let client = 0; client < s.clients; client += 1) attempts += this.attempts[client] as number;
    assert(attempts === this.totalAttempts, 'per-client attempts add up to the total');
    return {
      clients: s.clients,
      totalAttempts: this.totalAttempts,
      peakAttemptsPerWindow: this.attemptsPerWindow.reduce((peak, count) => Math.max(peak, count), 0),
      allReconnectedAtMs: this.lastAdmittedAtMs,
      windowMs: s.windowMs,
      attemptsPerWindow: [...this.attemptsPerWindow],
      firstWindowAttempts: this.attemptsPerWindow[0] ?? 0,
      peakRetryAttemptsPerWindow: this.retriesPerWindow.reduce((peak, count) => Math.max(peak, count), 0),
      admissionFloorMs: (Math.ceil(s.clients / s.admitPerWindow) - 1) * s.windowMs,
      droppedAtDrop: this.droppedAtDrop,
    };
  }
}

export const herdModel: Model<HerdScenario, HerdOutcome, HerdModelEvent> = {
  settingsSpec: herdSettingsSpec,
  execute(_scenario, run) {
    const herd = new Herd(run as ResolvedRun<HerdSettings>);
    herd.run();
    return { events: herd.log.events, outcome: herd.outcome() };
  },
};
