import type { SeededRandom } from './prng';
import type { JsonRpcMessage } from './protocol';
import type { Actor, Scheduler } from './scheduler';
import type { LabEvent, MessageEvent, Side } from './transcript';

/** An event as a model records it: the log stamps `seq` and `atMs`. */
export type NewEvent = LabEvent extends infer E ? (E extends LabEvent ? Omit<E, 'seq' | 'atMs'> : never) : never;

/** The transcript's event list, stamped with the virtual clock. Shared by every model. */
export class EventLog {
  readonly events: LabEvent[] = [];
  private readonly clock: { readonly nowMs: number };

  constructor(clock: { readonly nowMs: number }) {
    this.clock = clock;
  }

  /** Stamps and appends an event; `atMs` defaults to now (a summary event may name its window's start). */
  record<E extends NewEvent>(event: E, atMs: number = this.clock.nowMs): E & { seq: number; atMs: number } {
    const full = { seq: this.events.length, atMs, ...event };
    this.events.push(full as LabEvent);
    return full;
  }
}

export interface LatencySettings {
  readonly latencyMs: number;
  readonly latencyJitterMs: number;
}

/**
 * Decides what the receiver does with a message: null to accept it, or the reason it ignores it.
 */
export type Delivery = (event: MessageEvent) => string | null;

/**
 * Carries JSON-RPC messages between the sides with a per-message latency plus seeded jitter. A
 * channel (stdio, one POST, one SSE stream) keeps its order: a message never overtakes an earlier
 * one on the same channel and direction.
 */
export class Wire {
  private readonly lastArrivalMs = new Map<string, number>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly log: EventLog,
    private readonly random: SeededRandom,
    private readonly latency: LatencySettings,
    private readonly summarize: (message: JsonRpcMessage) => string,
  ) {}

  /** When something sent now on `channelKey` arrives. */
  arrivalMs(channelKey: string): number {
    const jitterMs = this.latency.latencyJitterMs > 0 ? this.random.int(0, this.latency.latencyJitterMs) : 0;
    const earliest = this.lastArrivalMs.get(channelKey) ?? 0;
    const arrivesAtMs = Math.max(this.scheduler.nowMs + this.latency.latencyMs + jitterMs, earliest);
    this.lastArrivalMs.set(channelKey, arrivesAtMs);
    return arrivesAtMs;
  }

  /**
   * Puts a message on the wire now. `lost` (a reason) models a message that never arrives (a dropped
   * connection); otherwise it is delivered after the latency and `deliver` decides whether the
   * receiver accepts or ignores it.
   */
  send(from: Side, channel: string, message: JsonRpcMessage, deliver: Delivery, lost?: string): MessageEvent {
    const to: Side = from === 'client' ? 'server' : 'client';
    const arrivesAtMs = this.arrivalMs(`${channel}:${from}`);
    const event: MessageEvent = this.log.record({ kind: 'message', from, to, channel, message, arrivesAtMs });
    if (lost !== undefined) {
      event.lost = true;
      event.reason = lost;
      return event;
    }
    const summary = this.summarize(message);
    const actor: Actor = to;
    this.scheduler.at(arrivesAtMs, actor, `deliver ${summary} to ${to}`, () => {
      const delivered = this.log.record({ kind: 'delivered', messageSeq: event.seq, from, to, summary });
      const ignoreReason = deliver(event);
      if (ignoreReason !== null) {
        event.ignoredBy = to;
        event.reason = ignoreReason;
        Object.assign(delivered, { ignoredBy: to, reason: ignoreReason });
      }
    });
    return event;
  }
}
