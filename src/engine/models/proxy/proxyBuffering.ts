import type { MessageFault } from '../../core/wire';
import { assert } from '../../core/assert';
import { RequestCoordinator } from '../../mcp/coordinator';
import type { ProxyModelEvent, ProxyOutcome, ProxyScenario, SseCommentEvent } from './types';
import { ClientDeadlines, noteTerminal } from '../../mcp/deadlines';
import { summarizeMessage } from '../../mcp/summary';
import { ServerWorker } from '../../mcp/worker';
import { Sim } from '../../core/sim';
import type { Model } from '../../core/model';
import {
  SSE_HEADERS,
  callToolRequest,
  callToolResultResponse,
  cancelledNotification,
  progressNotification,
  type JsonRpcMessage,
} from '../../mcp/protocol';
import type { Chooser, EventHandle, Scheduler, SchedulerOptions } from '../../core/scheduler';
import type { MessageEvent, Transport } from '../../core/transcript';
import { proxyBufferingSettingsSpec, type ProxyBufferingSettings } from './settings';
export { proxyBufferingSettingsSpec, proxyBufferingDefaults, type ProxyBufferingSettings } from './settings';

/**
 * `proxy-buffering` (SPEC RV-1, RV-2, §9 "proxy buffers SSE"): one long tool call whose SSE
 * response passes a reverse proxy. A buffering proxy holds events until it has `flushEvents` of them
 * (or `flushIntervalMs` passed, or the response ends), so a server sending steady progress looks
 * silent to the client, then bursty, and the client's idle timeout fires although the server was
 * working all along. A proxy that honours `X-Accel-Buffering: no` (RV-1) forwards each event at once.
 *
 * On a quiet stream the server writes an SSE comment line (`: keep-alive`) every `keepAliveEveryMs`
 * (RV-2): intermediaries see traffic, the client ignores the line, and the client's semantic idle
 * deadline does not move. On stdio there is no proxy and no SSE: the same request runs without them.
 */

export const KEEP_ALIVE_LINE = ': keep-alive';

export interface ProxyBufferingOptions {
  readonly transport: Transport;
  readonly seed: number;
  readonly settings: ProxyBufferingSettings;
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
  readonly faults?: readonly MessageFault[];
}

/** What travels on the response stream: a JSON-RPC message, or an SSE comment line. */
type StreamItem = { readonly kind: 'message'; readonly event: MessageEvent } | { readonly kind: 'comment'; readonly event: SseCommentEvent };


export class ProxyBuffering {
  readonly sim: Sim<ProxyModelEvent>;
  readonly coordinator = new RequestCoordinator();
  private readonly options: ProxyBufferingOptions;
  private readonly settings: ProxyBufferingSettings;
  private readonly deadlines: ClientDeadlines;
  private readonly held: StreamItem[] = [];
  private flushTimer: EventHandle | null = null;
  private keepAliveTimer: EventHandle | null = null;
  private clientClosedAtMs: number | null = null;
  /** When the client stopped waiting: it settled, or a deadline fired. */
  private clientEndedAtMs: number | null = null;
  private idleFired = false;
  private chunks = 1;
  private progressSent = 0;
  private progressDelivered = 0;
  private keepAlivesSent = 0;
  private keepAlivesDelivered = 0;
  /** Arrival instants of useful events at the client, for bursts and silences. */
  private readonly usefulArrivals: number[] = [];
  private sseHeaders: Record<string, string> | null = null;

  constructor(options: ProxyBufferingOptions) {
    this.options = options;
    this.settings = options.settings;
    // The proxy hop is part of the one-way latency; this model draws no jitter.
    const latency = { latencyMs: options.settings.latencyMs, latencyJitterMs: 0 };
    this.sim = new Sim({ transport: options.transport, seed: options.seed, eventsMax: options.settings.eventsMax, latency, chooser: options.chooser, trace: options.trace, faults: options.faults, summarize: summarizeMessage });
    this.deadlines = new ClientDeadlines(this.sim, this.coordinator, this.id, () => this.deadlineFires());
  }

  get scheduler(): Scheduler {
    return this.sim.scheduler;
  }

  get log(): Sim<ProxyModelEvent>['log'] {
    return this.sim.log;
  }

  private get id(): number {
    return this.settings.requestId;
  }

  private get http(): boolean {
    return this.options.transport === 'http';
  }

  private get serverActive(): boolean {
    return this.coordinator.get(this.id)?.server === 'active';
  }

  run(): this {
    this.call();
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  private call(): void {
    const s = this.settings;
    const token = `progress-${this.id}`;
    this.coordinator.start(this.id, { atMs: 0, progressToken: token, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs });
    this.log.record({ kind: 'request-started', requestId: this.id, idleTimeoutMs: s.idleTimeoutMs, maxTimeoutMs: s.maxTimeoutMs, progressToken: token });
    const request = callToolRequest(this.id, 'rebuild_search_index', { collection: 'orders' }, token);
    this.sim.wire.send('client', this.http ? `POST #${this.id}` : 'stdio', request, () => {
      this.serverStarts();
      return null;
    });
    this.deadlines.armBoth(`no useful activity for ${s.idleTimeoutMs} ms ends the request`, `absolute budget of ${s.maxTimeoutMs} ms from the start`);
  }

  private deadlineFires(): void {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    const fired = this.coordinator.clientExpire(this.id, this.scheduler.nowMs);
    if (fired === null) return;
    const s = this.settings;
    this.idleFired = fired === 'idle';
    this.clientEndedAtMs = this.scheduler.nowMs;
    const reason = fired === 'idle' ? `idle timeout: no progress reached the client for ${s.idleTimeoutMs} ms` : `maximum timeout of ${s.maxTimeoutMs} ms reached`;
    this.deadlines.fired(fired, reason);
    this.log.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, reason);
    this.deadlines.disarm('the request already ended on the client');
    this.sim.wire.settle('client', this.id);
    if (this.http) {
      this.clientClosedAtMs = this.scheduler.nowMs;
      this.log.record({ kind: 'stream-closed', by: 'client', requestId: this.id, reason: `${reason}: the client closes the response stream, which is the cancellation` });
      this.proxyDiscards();
      this.scheduler.after(this.settings.latencyMs, 'server', 'server observes disconnect', () => {
        this.log.record({ kind: 'disconnect-observed', by: 'server', requestId: this.id, reason: 'the proxy closed the upstream connection after the client left; the server treats it as cancellation' });
        this.serverAcceptsCancel('response stream disconnected');
      });
      return;
    }
    this.sim.wire.send('client', 'stdio', cancelledNotification(this.id, reason), () => {
      this.serverAcceptsCancel('notifications/cancelled received');
      return null;
    });
  }

  private clientReceivesComment(item: { readonly event: SseCommentEvent }): void {
    this.keepAlivesDelivered += 1;
    const idleDueAtMs = this.deadlines.idleDueAtMs();
    const stays = idleDueAtMs === undefined ? 'no idle deadline is armed' : `the idle deadline stays due at ${idleDueAtMs} ms`;
    this.log.record({ kind: 'sse-comment', action: 'received', requestId: this.id, channel: item.event.channel, line: item.event.line, arrivesAtMs: null, reason: `an SSE comment is transport traffic, not activity of the operation: ignored, ${stays} (RV-2)` });
  }

  /** The wire delivered a message from the server: null to accept it, or why the client ignores it. */
  private clientReceives(event: MessageEvent): string | null {
    const nowMs = this.scheduler.nowMs;
    const message = event.message;
    if (this.clientClosedAtMs !== null) return `the client closed this response stream at ${this.clientClosedAtMs} ms`;
    if ('method' in message) {
      const verdict = this.coordinator.clientProgress(this.id, message.params.progress as number, nowMs);
      if (!verdict.accepted) return verdict.reason;
      this.progressDelivered += 1;
      this.usefulArrivals.push(nowMs);
      this.deadlines.resetIdle('progress arrived: the idle clock restarts');
      return null;
    }
    const verdict = this.coordinator.clientResponse(this.id, nowMs);
    if (!verdict.accepted) return verdict.reason;
    this.usefulArrivals.push(nowMs);
    this.clientEndedAtMs = nowMs;
    this.log.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'settled', reason: 'final response received' });
    this.deadlines.disarm('the final response arrived');
    return null;
  }

  // ── server ───────────────────────────────────────────────────────────────────────────────────

  private serverStarts(): void {
    const s = this.settings;
    if (this.http) {
      this.sseHeaders = { ...SSE_HEADERS };
      this.log.record({ kind: 'stream-opened', by: 'server', requestId: this.id, headers: { ...SSE_HEADERS } });
      this.log.record({
        kind: 'proxy',
        action: 'headers',
        requestId: this.id,
        heldEvents: 0,
        events: 0,
        reason: s.honourNoBuffering
          ? 'the proxy honours X-Accel-Buffering: no and forwards every event as it arrives (RV-1)'
          : `the proxy ignores X-Accel-Buffering: no and buffers the response: it forwards only once it holds ${s.flushEvents} events${s.flushIntervalMs === null ? '' : `, ${s.flushIntervalMs} ms after it started holding`}, or when the response ends`,
      });
    }
    const worker = new ServerWorker(this.sim, s.workMs, s.progressEveryMs, (chunk, _chunks, isLast) => this.checkpoint(chunk, isLast));
    this.chunks = worker.chunks;
    this.log.record({ kind: 'worker', requestId: this.id, step: 'started', reason: `${s.workMs} ms of work${s.progressEveryMs > 0 ? `, progress every ${s.progressEveryMs} ms` : ', no progress (RC-4: legal)'}` });
    worker.start();
    this.armKeepAlive();
  }

  /** Checkpoint `chunk` of the worker: progress before the last one, completion at the last. */
  private checkpoint(chunk: number, isLast: boolean): boolean {
    if (!this.serverActive) {
      this.log.record({ kind: 'worker', requestId: this.id, step: 'stopped', reason: 'the request was cancelled; the worker stops at this checkpoint' });
      return false;
    }
    if (isLast) {
      this.serverCompletes();
      return false;
    }
    this.serverProgress(chunk);
    return true;
  }

  private serverProgress(chunk: number): void {
    const verdict = this.coordinator.serverProgress(this.id, chunk);
    assert(verdict.accepted, () => `progress ${chunk} refused: ${verdict.accepted ? '' : verdict.reason}`);
    this.progressSent += 1;
    this.write(progressNotification(`progress-${this.id}`, chunk, this.chunks, `step ${chunk} of ${this.chunks}`));
  }

  private serverCompletes(): void {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    this.log.record({ kind: 'worker', requestId: this.id, step: 'finished', reason: 'the work is done' });
    assert(this.coordinator.serverComplete(this.id, this.scheduler.nowMs), 'an active request completes');
    this.log.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'completed', reason: 'result committed; the response is sent' });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, 'the server sent the final response');
    this.write(callToolResultResponse(this.id, 'Search index rebuilt.', { documents: 48_213 }));
    this.cancelKeepAlive();
    if (this.http) {
      this.log.record({ kind: 'stream-closed', by: 'server', requestId: this.id, reason: 'the final response ends the request’s SSE stream' });
      this.proxyUpstreamEnded();
    }
  }

  private serverAcceptsCancel(how: string): void {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    const verdict = this.coordinator.serverCancel({ requestId: this.id }, this.scheduler.nowMs);
    if (!verdict.accepted) {
      this.log.record({ kind: 'cancel-ignored', by: 'server', requestId: this.id, reason: `${verdict.reason}; ignored without error or reply` });
      return;
    }
    this.cancelKeepAlive();
    this.log.record({ kind: 'cancel-accepted', by: 'server', requestId: this.id, reason: `${how}; the server stops the work and sends nothing more` });
    this.log.record({ kind: 'state', side: 'server', requestId: this.id, from: 'active', to: 'cancelled', reason: how });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, how);
  }

  /** RV-2: a comment line after `keepAliveEveryMs` without any write; every write re-arms it. */
  private armKeepAlive(): void {
    this.cancelKeepAlive();
    const everyMs = this.settings.keepAliveEveryMs;
    if (everyMs === 0 || !this.http || !this.serverActive) return;
    this.keepAliveTimer = this.scheduler.after(everyMs, 'server', 'keep-alive', () => {
      this.keepAliveTimer = null;
      if (!this.serverActive) return;
      this.keepAlivesSent += 1;
      const channel = `SSE #${this.id}`;
      const event = this.log.record({
        kind: 'sse-comment',
        action: 'sent',
        requestId: this.id,
        channel,
        line: KEEP_ALIVE_LINE,
        arrivesAtMs: null,
        reason: `nothing written for ${everyMs} ms: a comment line keeps intermediaries from closing an idle connection (RV-2)`,
      });
      this.route({ kind: 'comment', event });
      this.armKeepAlive();
    });
  }

  private cancelKeepAlive(): void {
    if (this.keepAliveTimer !== null) this.scheduler.cancel(this.keepAliveTimer);
    this.keepAliveTimer = null;
  }

  private write(message: JsonRpcMessage): void {
    // Held by the wire until the proxy forwards it (at once, when it does not buffer).
    const event = this.sim.wire.send('server', this.http ? `SSE #${this.id}` : 'stdio', message, (delivered) => this.clientReceives(delivered), { held: true });
    this.route({ kind: 'message', event });
    this.armKeepAlive();
  }

  // ── the reverse proxy (Streamable HTTP only) ─────────────────────────────────────────────────

  private route(item: StreamItem): void {
    if (this.http && this.clientClosedAtMs !== null) {
      this.lose(item, `the client closed the stream at ${this.clientClosedAtMs} ms: nothing downstream receives it`);
      return;
    }
    if (!this.http || this.settings.honourNoBuffering) {
      this.deliverAt(item, this.scheduler.nowMs + this.settings.latencyMs);
      return;
    }
    const s = this.settings;
    this.held.push(item);
    this.log.record({
      kind: 'proxy',
      action: 'held',
      requestId: this.id,
      heldEvents: this.held.length,
      events: 1,
      reason: `${item.kind === 'comment' ? 'keep-alive comment' : summarizeMessage(item.event.message)} held: ${this.held.length} of ${s.flushEvents} before the proxy forwards`,
    });
    if (this.held.length >= s.flushEvents) {
      this.flush(`it holds ${s.flushEvents} events`);
      return;
    }
    if (this.held.length === 1 && s.flushIntervalMs !== null) {
      this.flushTimer = this.scheduler.after(s.flushIntervalMs, 'transport', 'proxy flush interval', () => {
        this.flushTimer = null;
        this.flush(`${s.flushIntervalMs} ms passed since it started holding`);
      });
    }
  }

  private flush(why: string): void {
    if (this.flushTimer !== null) this.scheduler.cancel(this.flushTimer);
    this.flushTimer = null;
    if (this.held.length === 0) return;
    const items = this.held.splice(0, this.held.length);
    this.log.record({ kind: 'proxy', action: 'flushed', requestId: this.id, heldEvents: 0, events: items.length, reason: `the proxy forwards ${items.length} held event(s) at once because ${why}: steady progress arrives as a burst` });
    for (const item of items) this.deliverAt(item, this.scheduler.nowMs + this.settings.latencyMs);
  }

  private proxyUpstreamEnded(): void {
    this.flush('the upstream response ended');
  }

  /** The client left: what the proxy still holds never reaches anyone. */
  private proxyDiscards(): void {
    if (this.flushTimer !== null) this.scheduler.cancel(this.flushTimer);
    this.flushTimer = null;
    if (this.held.length === 0) return;
    const items = this.held.splice(0, this.held.length);
    this.log.record({ kind: 'proxy', action: 'discarded', requestId: this.id, heldEvents: 0, events: items.length, reason: `the client closed the stream while the proxy held ${items.length} event(s)` });
    for (const item of items) this.lose(item, 'held by the buffering proxy when the client closed the stream; it never arrived');
  }

  private lose(item: StreamItem, reason: string): void {
    if (item.kind === 'comment') {
      item.event.arrivesAtMs = null;
      return;
    }
    this.sim.wire.lose(item.event, reason);
    this.log.record({ kind: 'message-lost', messageSeq: item.event.seq, summary: summarizeMessage(item.event.message), reason });
  }

  private deliverAt(item: StreamItem, atMs: number): void {
    if (item.kind === 'message') {
      this.sim.wire.release(item.event, atMs);
      return;
    }
    item.event.arrivesAtMs = atMs;
    this.scheduler.at(atMs, 'client', 'client receives comment', () => this.clientReceivesComment(item));
  }

  outcome(): ProxyOutcome {
    const terminal = this.coordinator.terminal(this.id);
    assert(terminal !== null, 'the request ends in exactly one terminal state');
    const byInstant = new Map<number, number>();
    for (const atMs of this.usefulArrivals) byInstant.set(atMs, (byInstant.get(atMs) ?? 0) + 1);
    let bursts = 0;
    let largestBurstEvents = 0;
    for (const count of byInstant.values()) {
      if (count > 1) bursts += 1;
      largestBurstEvents = Math.max(largestBurstEvents, count);
    }
    assert(this.clientEndedAtMs !== null, 'the client stops waiting: it settles or a deadline fires');
    const marks = [0, ...this.usefulArrivals, this.clientEndedAtMs];
    let longestSilenceMs = 0;
    for (let index = 1; index < marks.length; index += 1) longestSilenceMs = Math.max(longestSilenceMs, (marks[index] as number) - (marks[index - 1] as number));
    return {
      requestEndedAs: terminal.state,
      idleTimeoutFired: this.idleFired,
      progressSent: this.progressSent,
      progressDelivered: this.progressDelivered,
      bursts,
      largestBurstEvents,
      longestSilenceMs,
      keepAlivesSent: this.keepAlivesSent,
      keepAlivesDelivered: this.keepAlivesDelivered,
      sseHeaders: this.sseHeaders,
    };
  }
}

export const proxyModel: Model<ProxyScenario, ProxyOutcome> = {
  settingsSpec: proxyBufferingSettingsSpec,
  execute(_scenario, run) {
    const model = new ProxyBuffering({ transport: run.transport, seed: run.seed, settings: run.settings as ProxyBufferingSettings, chooser: run.chooser, trace: run.trace, faults: run.faults });
    model.run();
    return { events: model.log.events, outcome: model.outcome() };
  },
};
