import {
  EventLog,
  LabError,
  SeededRandom,
  drawArrivalMs,
  isJsonRpcMessage,
  jsonRpcProblem,
  summarizeMessage,
  type DeliveredEvent,
  type JsonRpcMessage,
  type LabEvent,
  type LatencySettings,
  type MessageEvent,
  type Side,
  type Stamped,
  type Unstamped,
} from '../engine';
import type { InstalledClock } from './sdkClock';

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
 * The recording half of an SDK lane's wire, the same for every lane: the run's event log on the
 * virtual clock (its time counts from the clock's time when the run began), each message a side put
 * on the wire checked as JSON-RPC and recorded with its arrival by the engine's own rule (the lab's
 * `Wire`: latency plus seeded jitter, FIFO per channel), and each delivery naming its message as its
 * cause. What a lane does with a message is the lane's (sdkRace.ts, extTasksRun.ts).
 */
export class WireRecorder {
  readonly log: EventLog<Unstamped<LabEvent>>;
  protected readonly logClock: { nowMs: number; causeSeq: number | null };
  private readonly random: SeededRandom;
  /** When the last message on each channel (`${channel}:${sender}`) arrives. */
  private readonly lastArrivalMs = new Map<string, number>();

  constructor(
    clock: InstalledClock,
    seed: number,
    private readonly latency: LatencySettings,
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

  record<N extends Unstamped<LabEvent>>(event: N): Stamped<N> {
    return this.log.record(event);
  }

  /**
   * A new virtual step begins. What the lab cannot see the scheduling of (the SDK's own timers, a
   * script step) has no recorded cause; a delivery names its message, and a lane what it sees the
   * cause of (the race: a checkpoint the worker's step before it), as they run.
   */
  stepStarts(): void {
    this.logClock.causeSeq = null;
  }

  /** When a message sent now on `channelKey` arrives: the wire's arrival rule (drawArrivalMs). */
  protected arrivalMs(channelKey: string): number {
    const arrivesAtMs = drawArrivalMs(this.nowMs, this.latency, this.random, this.lastArrivalMs.get(channelKey) ?? 0);
    this.lastArrivalMs.set(channelKey, arrivesAtMs);
    return arrivesAtMs;
  }

  /**
   * A copy of what `sender` put on the wire, exactly the JSON-RPC object that went on it: checked into
   * the lab's union, not cast (LAB026 when it is not JSON-RPC). `where` says on which channel, if the
   * error should.
   */
  protected wireCopy(message: unknown, sender: string, where = ''): JsonRpcMessage {
    const copy: unknown = structuredClone(message);
    if (!isJsonRpcMessage(copy))
      throw new LabError(
        'LAB026',
        `${sender} put a message the lab cannot read as JSON-RPC${where}: ${String(jsonRpcProblem(copy))}`,
      );
    return copy;
  }

  /** Records a message `from` put on `channel` now, arriving by the wire's rule; `headers`: the POST's, where recorded. */
  protected recordMessage(
    from: Side,
    channel: string,
    message: JsonRpcMessage,
    headers: Record<string, string> | null = null,
  ): MessageEvent {
    return this.record({
      kind: 'message',
      from,
      to: from === 'client' ? 'server' : 'client',
      channel,
      message,
      arrivesAtMs: this.arrivalMs(`${channel}:${from}`),
      ...(headers === null ? {} : { headers }),
    }) as MessageEvent;
  }

  /** Records that `message` reached its receiver now; the delivery, and what follows it in this step, is caused by the message. */
  protected recordDelivery(message: MessageEvent): DeliveredEvent {
    this.logClock.causeSeq = message.seq;
    return this.record({
      kind: 'delivered',
      messageSeq: message.seq,
      from: message.from,
      to: message.to,
      summary: summarizeMessage(message.message),
    }) as DeliveredEvent;
  }
}
