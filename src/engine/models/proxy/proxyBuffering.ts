import { assert } from '../../core/assert';
import { defineModel, type ResolvedRun } from '../../core/model';
import type { EventHandle } from '../../core/scheduler';
import type { Sim } from '../../core/sim';
import type { MessageEvent } from '../../core/transcript';
import { ClientRequest } from '../../mcp/clientRequest';
import { RequestCoordinator } from '../../mcp/coordinator';
import { mcpSim } from '../../mcp/mcpSim';
import { SSE_HEADERS, callToolResultResponse, progressNotification, type JsonRpcMessage } from '../../mcp/protocol';
import { ServerRequest } from '../../mcp/serverRequest';
import { sendOn } from '../../mcp/stream';
import { summarizeMessage } from '../../mcp/summary';
import { arrivedOnClosedStream, cancelHow, deadlineWording, workerWording } from '../../mcp/wording';
import { proxyBufferingSettingsSpec, type ProxyBufferingSettings } from './settings';
import type { ProxyModelEvent, ProxyOutcome, ProxyScenario, SseCommentEvent } from './types';
export { proxyBufferingSettingsSpec, proxyBufferingDefaults, type ProxyBufferingSettings } from './settings';

/**
 * `proxy-buffering` (docs/requirements.md RV-1, RV-2, and the failure mode "a proxy buffers SSE"): one long tool call whose SSE
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

/** What travels on the response stream: a JSON-RPC message, or an SSE comment line. */
type StreamItem =
  | { readonly kind: 'message'; readonly event: MessageEvent }
  | { readonly kind: 'comment'; readonly event: SseCommentEvent };

export class ProxyBuffering {
  readonly sim: Sim<ProxyModelEvent>;
  readonly coordinator = new RequestCoordinator();
  private readonly settings: ProxyBufferingSettings;
  private readonly client: ClientRequest;
  private readonly server: ServerRequest;
  private readonly held: StreamItem[] = [];
  private flushTimer: EventHandle | null = null;
  private keepAliveTimer: EventHandle | null = null;
  private chunks = 1;
  private progressSent = 0;
  private progressDelivered = 0;
  private keepAlivesSent = 0;
  private keepAlivesDelivered = 0;
  /** Arrival instants of useful events at the client, for bursts and silences. */
  private readonly usefulArrivals: number[] = [];
  private sseHeaders: Record<string, string> | null = null;

  constructor(run: ResolvedRun<ProxyBufferingSettings>) {
    const s = (this.settings = run.settings);
    // The proxy hop is part of the one-way latency; this model draws no jitter.
    this.sim = mcpSim(run, { eventsMax: s.eventsMax, latency: { latencyMs: s.latencyMs, latencyJitterMs: 0 } });
    this.client = new ClientRequest(this.sim, this.coordinator, s.requestId, {
      idleTimeoutMs: s.idleTimeoutMs,
      maxTimeoutMs: s.maxTimeoutMs,
      progressToken: `progress-${s.requestId}`,
      onDeadline: () => this.deadlineFires(),
    });
    this.server = new ServerRequest(this.sim, this.coordinator, s.requestId, {
      onCancelAccepted: () => this.cancelKeepAlive(),
    });
  }

  get events(): ProxyModelEvent[] {
    return this.sim.events;
  }

  private get id(): number {
    return this.settings.requestId;
  }

  private get http(): boolean {
    return this.sim.http;
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
    this.client.callTool('rebuild_search_index', { collection: 'orders' }, () => {
      this.serverStarts();
      return null;
    });
    this.client.deadlines.armBoth(deadlineWording.idleArmed(s.idleTimeoutMs), deadlineWording.maxArmed(s.maxTimeoutMs));
  }

  /** A deadline fired: the client gives up; on Streamable HTTP it closes the stream and the proxy drops what it holds. */
  private deadlineFires(): void {
    const s = this.settings;
    const ended = this.client.expire((fired) =>
      fired === 'idle' ? deadlineWording.idleFired(s.idleTimeoutMs) : deadlineWording.maxFired(s.maxTimeoutMs),
    );
    if (ended === null) return;
    this.client.cancel(ended.reason, this.server, {
      notified: () => {
        this.server.acceptCancel({ requestId: this.id }, cancelHow.notified);
        return null;
      },
      onClosed: () => this.proxyDiscards(),
      observed: 'the proxy closed the upstream connection after the client left',
    });
  }

  private clientReceivesComment(item: { readonly event: SseCommentEvent }): void {
    this.keepAlivesDelivered += 1;
    const idleDueAtMs = this.client.deadlines.idleDueAtMs();
    const stays =
      idleDueAtMs === undefined ? 'no idle deadline is armed' : `the idle deadline stays due at ${idleDueAtMs} ms`;
    this.sim.record({
      kind: 'sse-comment',
      action: 'received',
      requestId: this.id,
      channel: item.event.channel,
      line: item.event.line,
      arrivesAtMs: null,
      reason: `an SSE comment is transport traffic, not activity of the operation: ignored, ${stays} (RV-2)`,
    });
  }

  /** The wire delivered a message from the server: null to accept it, or why the client ignores it. */
  private clientReceives(event: MessageEvent): string | null {
    const closedAtMs = this.client.closedStreamAtMs;
    if (closedAtMs !== null) return arrivedOnClosedStream(closedAtMs);
    const message = event.message;
    const ignored =
      'method' in message
        ? this.client.progress(message.params?.progress as number, deadlineWording.idleReset)
        : this.client.response();
    if (ignored !== null) return ignored;
    if ('method' in message) this.progressDelivered += 1;
    this.usefulArrivals.push(this.sim.nowMs);
    return null;
  }

  // ── server ───────────────────────────────────────────────────────────────────────────────────

  private serverStarts(): void {
    const s = this.settings;
    this.server.opened();
    if (this.http) {
      this.sseHeaders = { ...SSE_HEADERS };
      this.sim.record({
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
    const progress = s.progressEveryMs > 0 ? `progress every ${s.progressEveryMs} ms` : 'no progress (RC-4: legal)';
    this.chunks = this.server.startWorker(
      s.workMs,
      s.progressEveryMs,
      (chunks) => workerWording.started(s.workMs, chunks, `${workerWording.uninterruptible}; ${progress}`),
      (chunk, _chunks, isLast) => this.checkpoint(chunk, isLast),
    ).chunks;
    this.armKeepAlive();
  }

  /** Checkpoint `chunk` of the worker: progress before the last one, completion at the last. */
  private checkpoint(chunk: number, isLast: boolean): boolean {
    if (!this.serverActive) {
      this.server.work('stopped', workerWording.stopped(chunk));
      return false;
    }
    if (isLast) {
      const completed = this.server.complete(workerWording.finished(), () => {
        this.write(callToolResultResponse(this.id, 'Search index rebuilt.', { documents: 48_213 }));
        this.cancelKeepAlive();
      });
      assert(completed, 'an active request completes');
      if (this.http) this.flush('the upstream response ended');
      return false;
    }
    const verdict = this.coordinator.serverProgress(this.id, chunk);
    assert(verdict.accepted, () => `progress ${chunk} refused: ${verdict.accepted ? '' : verdict.reason}`);
    this.progressSent += 1;
    this.write(progressNotification(`progress-${this.id}`, chunk, this.chunks, `step ${chunk} of ${this.chunks}`));
    return true;
  }

  /** RV-2: a comment line after `keepAliveEveryMs` without any write; every write re-arms it. */
  private armKeepAlive(): void {
    this.cancelKeepAlive();
    const everyMs = this.settings.keepAliveEveryMs;
    if (everyMs === 0 || !this.http || !this.serverActive) return;
    this.keepAliveTimer = this.sim.after(everyMs, 'server', 'keep-alive', () => {
      this.keepAliveTimer = null;
      if (!this.serverActive) return;
      this.keepAlivesSent += 1;
      const channel = `SSE #${this.id}`;
      const event = this.sim.record({
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
    this.sim.cancel(this.keepAliveTimer);
    this.keepAliveTimer = null;
  }

  private write(message: JsonRpcMessage): void {
    // Held by the wire until the proxy forwards it (at once, when it does not buffer).
    const event = sendOn(this.sim, 'server', message, this.id, (delivered) => this.clientReceives(delivered), {
      held: true,
    });
    // A fault lost it as it left the server (drop, or its stream dropped): it never reaches the proxy.
    if (event.lost !== true) this.route({ kind: 'message', event });
    this.armKeepAlive();
  }

  // ── the reverse proxy (Streamable HTTP only) ─────────────────────────────────────────────────

  private route(item: StreamItem): void {
    const closedAtMs = this.client.closedStreamAtMs;
    if (this.http && closedAtMs !== null) {
      this.lose(item, `the client closed the stream at ${closedAtMs} ms: nothing downstream receives it`);
      return;
    }
    if (!this.http || this.settings.honourNoBuffering) {
      this.deliverAt(item, this.sim.nowMs + this.settings.latencyMs);
      return;
    }
    const s = this.settings;
    this.held.push(item);
    this.sim.record({
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
      this.flushTimer = this.sim.after(s.flushIntervalMs, 'transport', 'proxy flush interval', () => {
        this.flushTimer = null;
        this.flush(`${s.flushIntervalMs} ms passed since it started holding`);
      });
    }
  }

  /** Everything the proxy holds, taken out; its flush timer stops. */
  private takeHeld(): StreamItem[] {
    this.sim.cancel(this.flushTimer);
    this.flushTimer = null;
    return this.held.splice(0, this.held.length);
  }

  private flush(why: string): void {
    const items = this.takeHeld();
    if (items.length === 0) return;
    this.sim.record({
      kind: 'proxy',
      action: 'flushed',
      requestId: this.id,
      heldEvents: 0,
      events: items.length,
      reason: `the proxy forwards ${items.length} held event(s) at once because ${why}: steady progress arrives as a burst`,
    });
    for (const item of items) this.deliverAt(item, this.sim.nowMs + this.settings.latencyMs);
  }

  /** The client left: what the proxy still holds never reaches anyone. */
  private proxyDiscards(): void {
    const items = this.takeHeld();
    if (items.length === 0) return;
    this.sim.record({
      kind: 'proxy',
      action: 'discarded',
      requestId: this.id,
      heldEvents: 0,
      events: items.length,
      reason: `the client closed the stream while the proxy held ${items.length} event(s)`,
    });
    for (const item of items)
      this.lose(item, 'held by the buffering proxy when the client closed the stream; it never arrived');
  }

  private lose(item: StreamItem, reason: string): void {
    if (item.kind === 'comment') {
      item.event.arrivesAtMs = null;
      return;
    }
    this.sim.lose(item.event, reason);
  }

  private deliverAt(item: StreamItem, atMs: number): void {
    if (item.kind === 'message') {
      this.sim.wire.release(item.event, atMs);
      return;
    }
    item.event.arrivesAtMs = atMs;
    this.sim.at(atMs, 'client', 'client receives comment', () => this.clientReceivesComment(item));
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
    const clientEnd = this.coordinator.clientOutcome(this.id);
    assert(clientEnd !== null, 'the client stops waiting: it settles or a deadline fires');
    const marks = [0, ...this.usefulArrivals, clientEnd.atMs];
    let longestSilenceMs = 0;
    for (let index = 1; index < marks.length; index += 1)
      longestSilenceMs = Math.max(longestSilenceMs, (marks[index] as number) - (marks[index - 1] as number));
    return {
      requestEndedAs: terminal.state,
      idleTimeoutFired: clientEnd.outcome === 'timeout-idle',
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

export const proxyModel = defineModel(
  proxyBufferingSettingsSpec,
  (run, _scenario: ProxyScenario) => new ProxyBuffering(run),
);
