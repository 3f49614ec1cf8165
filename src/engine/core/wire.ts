import flatstr from 'flatstr';
import { assert, fail } from './assert';
import { LabError } from './errors';
import { formatFault, type MessageFault } from './faults';
import type { JsonRpcMessage, RequestId } from './jsonrpc';
import type { SeededRandom } from './prng';
import type { Actor, EventHandle, Scheduler } from './scheduler';
import { postHeadersOf } from './postHeaders';
import type { DeliveredEvent, MessageEvent, Side, Stamped, Unstamped, WireEvent } from './transcript';

/**
 * How many events one transcript may hold. A run is bounded twice: the scheduler's `eventsMax`
 * counts events run, this counts events recorded, and is checked as the run goes, so a run with
 * in-range settings stops with LAB020 long before it exhausts memory.
 */
export const RECORDED_EVENTS_MAX = 1_000_000;

/** What sees each stamped event as it is recorded (an explorer's invariants). */
export type EventObserver = (event: { readonly kind: string; readonly seq: number }) => void;

/** The stamps the log gives an event: see `EventLog.stamp`. */
export interface Stamp {
  seq: number;
  atMs: number;
  causeSeq: number | null;
}

/** What the log reads of the scheduler: the virtual time and the causal context it advances. */
export interface LogClock {
  readonly nowMs: number;
  causeSeq?: number | null;
}

/**
 * The transcript's event list. Every event is stamped with the virtual clock and the event that
 * caused it (`causeSeq`), so consumers draw and explore without re-deriving. Lanes are derived
 * afterwards (src/engine/lanes.ts): the log records what happened, not where it is drawn. It is typed by the
 * events its model hands it, `U` (unstamped), and keeps them as `Stamped<U>`.
 */
export class EventLog<U extends { kind: string } = { kind: string }> {
  readonly events: Stamped<U>[] = [];
  /**
   * False: events are stamped and handed back but not kept (what an explorer running thousands of
   * orderings needs); `events` stays empty, `count` still counts, and the transcript bound is moot.
   * With no observer either, the event handed back is the caller's own object stamped in place.
   */
  readonly recording: boolean;
  private readonly clock: LogClock;
  private readonly recordedMax: number;
  /**
   * Sees every stamped event (an explorer's invariants); null in every other run. Set it before the
   * first event: a log that nobody observes or keeps hands the caller's event back unchanged.
   */
  get observer(): EventObserver | null {
    return this.seenBy;
  }

  set observer(observer: EventObserver | null) {
    if (this.stamped > 0) fail('an observer is attached before the first event');
    this.seenBy = observer;
    this.keeping = this.recording || observer !== null;
  }

  private seenBy: EventObserver | null = null;
  /** Whether anything reads a stamped event (a recording, or an observer); false in a fast run. */
  private keeping: boolean;
  /** Whether the clock carries the causal context (the scheduler does; a bare test clock may not). */
  private readonly tracksCause: boolean;
  private stamped = 0;
  private readonly nextStamp: Stamp = { seq: 0, atMs: 0, causeSeq: null };
  private lastNowMs = 0;

  constructor(clock: LogClock, recordedMax: number = RECORDED_EVENTS_MAX, recording = true) {
    assert(Number.isInteger(recordedMax) && recordedMax > 0, 'recordedMax must be a positive integer');
    this.clock = clock;
    this.recordedMax = recordedMax;
    this.recording = recording;
    this.keeping = recording;
    this.tracksCause = 'causeSeq' in clock;
  }

  /**
   * `text` for a field of an event: flattened when the log records. A template literal is a chain of
   * cons strings (one per `+` past 12 characters) that a recorded transcript holds for the whole
   * run; one flat string is a third of the objects for the GC to copy. A run that keeps nothing skips it.
   */
  keepText(text: string): string {
    return this.recording ? flatstr(text) : text;
  }

  /** How many events were stamped, kept or not. */
  get count(): number {
    return this.stamped;
  }

  /** Stamps and appends an event; `atMs` defaults to now (a summary event may name its window's start). */
  record<N extends U>(event: N, atMs: number = this.clock.nowMs): Stamped<N> {
    if (!Number.isFinite(atMs)) fail(`event "${event.kind}" has a non-finite time`);
    const stamp = this.stamp(atMs);
    if (!this.keeping) {
      // A fast run (nothing records or observes): no copy is kept, so the caller's own event is
      // stamped in place. The copy below, a generic spread of every field, was the costliest line
      // of such a run.
      const stamped = event as Stamped<N>;
      stamped.seq = stamp.seq;
      stamped.atMs = stamp.atMs;
      stamped.causeSeq = stamp.causeSeq;
      return this.append(stamped);
    }
    // Kept events carry their stamps first (the transcript's field order).
    const full = { seq: stamp.seq, atMs: stamp.atMs, causeSeq: stamp.causeSeq, ...event };
    return this.append(full);
  }

  /**
   * The stamps the next event gets, after the checks every event passes (the clock, the transcript
   * bound, the cause). For a hot caller that builds its event with the stamps in place and hands it
   * to `append` straight away: one object per event, where `record` builds the caller's object and
   * then a stamped copy. The object is the log's own and reused: read it at once.
   */
  stamp(atMs: number = this.clock.nowMs): Readonly<Stamp> {
    // The hottest path of every run: the checks below build their message only when they fail.
    const nowMs = this.clock.nowMs;
    if (nowMs < this.lastNowMs) fail(`the clock ran backwards: ${nowMs} ms after ${this.lastNowMs} ms`);
    if (!Number.isFinite(atMs)) fail(`an event has a non-finite time`);
    this.lastNowMs = nowMs;
    // Checked whether or not events are kept, so a run without recording ends exactly as a recorded one.
    if (this.stamped >= this.recordedMax) {
      throw new LabError(
        'LAB020',
        `the transcript reached ${this.recordedMax.toLocaleString('en-US')} events at ${this.clock.nowMs} ms; shorten the run (a longer progress interval, a shorter work or timeout) — nothing was saved`,
      );
    }
    const seq = this.stamped;
    const causeSeq = this.clock.causeSeq ?? null;
    if (causeSeq !== null && !(causeSeq >= 0 && causeSeq < seq))
      fail(`event ${seq} names cause ${String(causeSeq)}, which is not an earlier event`);
    const stamp = this.nextStamp;
    stamp.seq = seq;
    stamp.atMs = atMs;
    stamp.causeSeq = causeSeq;
    return stamp;
  }

  /** `seq` of the last event stamped; -1 before any. */
  get lastSeq(): number {
    return this.stamped - 1;
  }

  /** Appends an event built from `stamp()`: its stamp fields first, in the order `seq, atMs, causeSeq`. */
  append<F extends Stamped<U>>(event: F): F {
    if (event.seq !== this.stamped) fail(`event ${event.seq} was not stamped as the next event (${this.stamped})`);
    this.stamped += 1;
    if (this.tracksCause) this.clock.causeSeq = event.seq;
    // A fast run: nothing is kept or observed.
    if (!this.keeping) return event;
    if (this.recording) this.events.push(event);
    if (this.recording && this.events.length !== this.stamped) fail('a recording log keeps every event it stamps');
    if (this.seenBy !== null) this.seenBy(event);
    return event;
  }
}

export interface LatencySettings {
  readonly latencyMs: number;
  readonly latencyJitterMs: number;
}

/**
 * The wire's arrival rule: a message sent at `nowMs` arrives after the latency plus a jitter drawn
 * from `random` in [0, latencyJitterMs] (nothing is drawn without jitter), and never before
 * `earliestMs`, when the previous message on its channel arrives (each channel is FIFO). The lab's
 * `Wire` and the SDK lanes' recorders (src/sdk) time every message with it.
 */
export function drawArrivalMs(
  nowMs: number,
  latency: LatencySettings,
  random: SeededRandom,
  earliestMs: number,
): number {
  const jitterMs = latency.latencyJitterMs > 0 ? random.int(0, latency.latencyJitterMs) : 0;
  return Math.max(nowMs + latency.latencyMs + jitterMs, earliestMs);
}

/**
 * Decides what the receiver does with a message: null to accept it, or the reason it ignores it.
 */
export type Delivery = (event: MessageEvent) => string | null;

/** Options of one `send`: what the fault hooks and the models that own a hop (a proxy) need. */
/** The options of a plain send: one object for every call that passes none. */
const NO_OPTIONS: SendOptions = {};

export interface SendOptions {
  /** The message never arrives; the reason is recorded on it (a dropped connection). */
  readonly lost?: string;
  /** The message is held (by a proxy, say) and arrives only when `release` is called, or never. */
  readonly held?: boolean;
  /** How the delivery names the message, when not the wire's own summary. */
  readonly summary?: string;
  /** The message is deliberately invalid (RC-7); says how. Recorded on the message event. */
  readonly malformed?: string;
  /** The network's second copy of message `seq` (a duplicate fault): not a new request of its sender. */
  readonly duplicateOf?: number;
}

/**
 * A message's event in a run that keeps no transcript, made by `new` rather than written as an object
 * literal: V8 came to allocate that literal straight in its old generation (allocation-site
 * pretenuring: the invariant checker keeps a run's messages to its end), where each dead one kept its
 * JSON-RPC message alive through the young-generation collections after it, and the literals that
 * build messages came to be allocated old in turn. Instances of a class are allocated young. Its
 * fields are the transcript's, in the transcript's order (JSON writes them so); `headers` follows
 * when the message has them.
 */
class SentMessage implements MessageEvent {
  constructor(
    public seq: number,
    public atMs: number,
    public causeSeq: number | null,
    public kind: 'message',
    public from: Side,
    public to: Side,
    public channel: string,
    public message: JsonRpcMessage,
    public arrivesAtMs: number,
  ) {}
}

/** One FIFO channel, `${channel}:${sender}`: when its last message arrives, what is on it, whether its stream dropped. */
/*
 * A channel and a message in flight are made by `new`, not written as object literals, as the sent
 * message's event is (see `SentMessage`): both live as long as a run's messages travel and reach,
 * through the receivers' deliveries, the whole run. A literal's allocation site that V8 comes to
 * pretenure put each in the old generation, where a dead one kept its run alive through the
 * young-generation collections after it.
 */
class Channel {
  lastArrivalMs = 0;
  /** Its messages held or scheduled, oldest first (`Array.of`, not a literal: see `BinaryHeap.items`). */
  readonly inFlight: InFlight[] = Array.of<InFlight>();
  /** Set when its stream dropped (a stream-drop fault): whatever is sent on it is lost, for this reason. */
  dropped: string | null = null;

  constructor(
    readonly key: string,
    /** The channel's name (`key` without its sender). */
    readonly name: string,
  ) {}
}

class InFlight {
  handle: EventHandle | null = null;
  /** The causal context when its delivery was scheduled (its message, or what released it). */
  cause: number | null = null;
  state: 'held' | 'scheduled' | 'delivered' | 'lost' = 'held';
  /** What runs right after the receiver took it (what the receiver can do only once it read it); null: nothing. */
  then: (() => void)[] | null = null;

  constructor(
    readonly event: MessageEvent,
    readonly deliver: Delivery,
    readonly channel: Channel,
    public summaryText: string | null,
  ) {}
}

/**
 * What the wire uses of a model's log: one that takes at least the wire's own events. A model's log
 * takes its own events too, and is this whatever they are, so the wire needs no cast to record.
 */
export type WireLog = Pick<
  EventLog<Unstamped<WireEvent>>,
  'count' | 'stamp' | 'append' | 'record' | 'keepText' | 'recording'
>;

/**
 * Carries JSON-RPC messages between the sides with a per-message latency plus seeded jitter. A
 * channel (stdio, one POST, one SSE stream) is FIFO under every same-instant chooser: arrival times
 * never decrease along a channel, and when several of its messages are due at one instant the
 * delivery event that runs first delivers the channel's oldest (else a seeded chooser could
 * deliver a response before the progress sent 100 ms earlier).
 *
 * Hooks for the models that own a hop and for faults: a message can be sent `held` and `release`d
 * later (a buffering proxy), `lose`n while in flight (a stream that drops), or sent already `lost`.
 * The wire also tracks each side's request ids: they are unique per sender, and `unanswered()` lists
 * the requests that got neither a response nor an explicit `settle` (a cancellation).
 *
 * `send` and the delivery run once per message of every run: each channel is one object found by
 * its name (no key string built per message), and a plain message's events are built with their
 * stamps in place (see EventLog.stamp).
 */
export class Wire {
  /** Every channel by its key, `${channel}:${sender}`. */
  private readonly channels = new Map<string, Channel>();
  /**
   * The channel each side sent on last (what `send` looks at first): a side sends on one channel run
   * after run (stdio, or a request's SSE stream), so most sends find theirs here and build no key.
   */
  private lastFromClient: Channel | null = null;
  private lastFromServer: Channel | null = null;
  private readonly requestsOpen = new Map<string, MessageEvent>();
  private readonly requestIdsUsed = new Set<string>();
  /**
   * Faults by the seq of the message they hit, and the ones a message met (what `assertFaultsApplied`
   * checks); null in a run without faults, which most runs are (an explorer makes a wire per ordering).
   */
  private readonly faults: Map<number, MessageFault> | null = null;
  private readonly faultsApplied: Set<number> | null = null;
  /** How the model's server restarts after a crash fault (from its SQLite file); null: it keeps no file. */
  crashRestart: ((seq: number) => void) | null = null;
  /** Streamable HTTP: every client message is its own POST, and its event records that POST's request headers. */
  http = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly log: WireLog,
    private readonly random: SeededRandom,
    private readonly latency: LatencySettings,
    private readonly summarize: (message: JsonRpcMessage) => string,
    faults: readonly MessageFault[] = [],
  ) {
    if (faults.length === 0) return;
    const bySeq = new Map<number, MessageFault>();
    for (const fault of faults) {
      assert(!bySeq.has(fault.seq), () => `two faults name message ${fault.seq}`);
      bySeq.set(fault.seq, fault);
    }
    this.faults = bySeq;
    this.faultsApplied = new Set<number>();
  }

  /** Throws LAB023 naming each fault that hit no message (its seq is not a message of this run). */
  assertFaultsApplied(): void {
    const { faults, faultsApplied } = this;
    if (faults === null || faultsApplied === null) return;
    const missed = [...faults.values()].filter((fault) => !faultsApplied.has(fault.seq));
    if (missed.length === 0) return;
    throw new LabError(
      'LAB023',
      `${missed.map(formatFault).join(', ')}: no message of this run has that seq (a fault names the seq of a message event; \`run --json\` lists them)`,
    );
  }

  private channelByKey(key: string, name: string): Channel {
    let channel = this.channels.get(key);
    if (channel === undefined) {
      channel = new Channel(key, name);
      this.channels.set(key, channel);
    }
    return channel;
  }

  private channelOf(name: string, from: Side): Channel {
    const last = from === 'client' ? this.lastFromClient : this.lastFromServer;
    if (last !== null && last.name === name) return last;
    const channel = this.channelByKey(`${name}:${from}`, name);
    if (from === 'client') this.lastFromClient = channel;
    else this.lastFromServer = channel;
    return channel;
  }

  /** When something sent now on `channelKey` arrives: latency plus jitter, never before the channel's previous message. */
  arrivalMs(channelKey: string): number {
    const name = channelKey.slice(0, channelKey.lastIndexOf(':'));
    return this.arrivalOn(this.channelByKey(channelKey, name));
  }

  private arrivalOn(channel: Channel): number {
    const earliest = channel.lastArrivalMs;
    const explorer = this.scheduler.explorer;
    let arrivesAtMs: number;
    if (explorer !== null) {
      explorer.touch?.(channel.key);
      // An explorer picks the arrival inside the window instead of drawing it.
      const baseMs = this.scheduler.nowMs + this.latency.latencyMs;
      const earliestMs = Math.max(baseMs, earliest);
      const latestMs = Math.max(baseMs + this.latency.latencyJitterMs, earliest);
      arrivesAtMs =
        earliestMs === latestMs
          ? earliestMs
          : explorer.arrival({ nowMs: this.scheduler.nowMs, channelKey: channel.key, baseMs, earliestMs, latestMs });
      if (!(Number.isInteger(arrivesAtMs) && arrivesAtMs >= earliestMs && arrivesAtMs <= latestMs))
        fail(`the explorer picked ${arrivesAtMs} ms outside the window ${earliestMs}..${latestMs} ms`);
    } else {
      arrivesAtMs = drawArrivalMs(this.scheduler.nowMs, this.latency, this.random, earliest);
    }
    channel.lastArrivalMs = arrivesAtMs;
    return arrivesAtMs;
  }

  /**
   * Puts a message on the wire now. It is delivered after the latency and `deliver` decides whether
   * the receiver accepts or ignores it, unless it is sent `lost` or `held`.
   */
  send(
    from: Side,
    channelName: string,
    message: JsonRpcMessage,
    deliver: Delivery,
    options: SendOptions = NO_OPTIONS,
  ): MessageEvent {
    if (channelName.length === 0) fail('a message travels on a named channel');
    if (message.jsonrpc !== '2.0') fail('the wire carries JSON-RPC 2.0 messages');
    const to: Side = from === 'client' ? 'server' : 'client';
    const channel = this.channelOf(channelName, from);
    // The seq this message's event gets: what a fault names.
    const fault = this.faults === null ? undefined : this.faults.get(this.log.count);
    // Which message a fault hits is counted over every event: no send commutes with anything then.
    if (this.faults !== null) this.scheduler.explorer?.touch?.('*');
    if (fault !== undefined) this.faultsApplied?.add(fault.seq);
    let arrivesAtMs = this.arrivalOn(channel);
    if (fault?.kind === 'delay') {
      // Delayed: it arrives later, and its channel keeps its order behind it.
      arrivesAtMs += fault.ms ?? 0;
      channel.lastArrivalMs = arrivesAtMs;
    }
    if (!(arrivesAtMs >= this.scheduler.nowMs)) fail('a message arrives no earlier than it is sent');
    const headers = this.http && from === 'client' ? postHeadersOf(message) : null;
    if (this.http && from === 'client')
      assert(
        headers !== null,
        () => `${channelName}: a client POSTs only requests and notifications on Streamable HTTP`,
      );
    const event = this.messageEvent(from, to, channelName, message, arrivesAtMs, headers, fault, options);
    if (options.duplicateOf === undefined) this.trackRequest(event);
    if (fault?.kind === 'stream-drop')
      channel.dropped = `the stream carrying ${channelName} dropped (fault ${formatFault(fault)}): this message and everything after it on the stream is lost`;
    if (fault?.kind === 'crash') this.crash(event, fault);
    const lost =
      options.lost ??
      (fault?.kind === 'drop'
        ? `the network dropped this message (fault ${formatFault(fault)})`
        : fault?.kind === 'crash'
          ? `the server crashed after COMMIT and before this response left (fault ${formatFault(fault)}): it never reaches the client`
          : channel.dropped);
    if (lost !== null) {
      event.lost = true;
      event.reason = lost;
      return event;
    }
    const flight = new InFlight(event, deliver, channel, options.summary ?? null);
    // FIFO with holds: whoever holds a channel's messages (a proxy) holds all of them, so nothing overtakes a held one.
    if (options.held !== true && Wire.holds(channel)) {
      fail(
        `channel ${channel.key}: a message sent past a held one would overtake it; hold every message of a held channel`,
      );
    }
    channel.inFlight.push(flight);
    if (options.held !== true) this.schedule(flight, arrivesAtMs);
    // Duplicated: the network delivers a second copy right behind it, on the same channel.
    if (fault?.kind === 'duplicate')
      this.send(from, channelName, message, deliver, { ...options, duplicateOf: event.seq, held: options.held });
    return event;
  }

  /** The event that records a message sent now: its fields in the transcript's order. */
  private messageEvent(
    from: Side,
    to: Side,
    channelName: string,
    message: JsonRpcMessage,
    arrivesAtMs: number,
    headers: MessageEvent['headers'] | null,
    fault: MessageFault | undefined,
    options: SendOptions,
  ): MessageEvent {
    // One object per message, built with its stamps. A recorded run keeps plain objects (its transcript
    // is data, cloned and compared as such); a run that keeps nothing makes a `SentMessage`, which V8
    // does not pretenure.
    const stamp = this.log.stamp();
    let sent: MessageEvent;
    if (this.log.recording)
      sent = {
        seq: stamp.seq,
        atMs: stamp.atMs,
        causeSeq: stamp.causeSeq,
        kind: 'message',
        from,
        to,
        channel: channelName,
        message,
        arrivesAtMs,
        ...(headers === null ? {} : { headers }),
      };
    else {
      sent = new SentMessage(
        stamp.seq,
        stamp.atMs,
        stamp.causeSeq,
        'message',
        from,
        to,
        channelName,
        message,
        arrivesAtMs,
      );
      if (headers !== null) sent.headers = headers;
    }
    // What is wrong with the message follows the fields every message has (the transcript's order), and
    // before it is appended: the explorer's observer hashes it then.
    if (options.malformed !== undefined) sent.malformed = options.malformed;
    if (fault !== undefined) sent.fault = formatFault(fault);
    if (options.duplicateOf !== undefined) {
      sent.fault = `duplicate:${options.duplicateOf}`;
      sent.duplicateOf = options.duplicateOf;
    }
    return this.log.append(sent);
  }

  private static holds(channel: Channel): boolean {
    for (const flight of channel.inFlight) if (flight.state === 'held') return true;
    return false;
  }

  /** The flight of a message still held or scheduled on its channel. */
  private flightOf(event: MessageEvent): InFlight | undefined {
    const channel = this.channels.get(`${event.channel}:${event.from}`);
    return channel?.inFlight.find((flight) => flight.event === event);
  }

  /** Delivers a held message at `atMs` (not before anything sent earlier on its channel). */
  release(event: MessageEvent, atMs: number): void {
    const flight = this.flightOf(event);
    assert(flight !== undefined && flight.state === 'held', () => `message #${event.seq} is not held`);
    this.scheduler.explorer?.touch?.(flight.channel.key);
    const arrivesAtMs = Math.max(atMs, flight.channel.lastArrivalMs);
    flight.channel.lastArrivalMs = arrivesAtMs;
    event.arrivesAtMs = arrivesAtMs;
    this.schedule(flight, arrivesAtMs);
  }

  /**
   * Runs `action` right after message `event` is delivered (and never if it is lost): what its receiver
   * can do only once it has read it, such as seeing the connection it came on close.
   */
  whenDelivered(event: MessageEvent, action: () => void): void {
    const flight = this.flightOf(event);
    assert(
      flight !== undefined && (flight.state === 'held' || flight.state === 'scheduled'),
      () => `message #${event.seq} is not on its way`,
    );
    this.scheduler.explorer?.touch?.(flight.channel.key);
    (flight.then ??= Array.of<() => void>()).push(action);
  }

  /** The message never arrives: what carried it went away. Returns false if it already arrived. */
  lose(event: MessageEvent, reason: string): boolean {
    const flight = this.flightOf(event);
    if (flight === undefined || flight.state === 'delivered' || flight.state === 'lost') return false;
    this.scheduler.explorer?.touch?.(flight.channel.key);
    if (flight.handle !== null) this.scheduler.cancel(flight.handle);
    flight.state = 'lost';
    this.dequeue(flight);
    event.lost = true;
    event.reason = reason;
    return true;
  }

  /** Every message still on its way, on any channel, oldest first (what a dropped connection loses). */
  inFlightAll(): MessageEvent[] {
    const events: MessageEvent[] = [];
    this.scheduler.explorer?.touch?.('*');
    for (const channel of this.channels.values()) for (const flight of channel.inFlight) events.push(flight.event);
    return events.sort((a, b) => a.seq - b.seq);
  }
  /**
   * The oldest message (lowest seq) `from` sent on `channelName` that is still on its way, or undefined:
   * what `inFlightAll().find(…)` on that channel and sender gives, without listing and sorting every
   * channel's messages. It counts as touching every channel, as `inFlightAll` does (the reduction's
   * footprint of the event that asks is the same).
   */
  oldestInFlight(channelName: string, from: Side): MessageEvent | undefined {
    this.scheduler.explorer?.touch?.('*');
    let oldest: MessageEvent | undefined;
    const channel = this.channels.get(`${channelName}:${from}`);
    if (channel === undefined) return undefined;
    for (const flight of channel.inFlight)
      if (oldest === undefined || flight.event.seq < oldest.seq) oldest = flight.event;
    return oldest;
  }

  /** A request that ends without a response by design (the client cancelled it, the server accepted). */
  settle(from: Side, id: RequestId): void {
    const key = `${from}:${JSON.stringify(id)}`;
    assert(
      this.requestIdsUsed.has(key),
      () => `the ${from} never sent request ${JSON.stringify(id)}; there is nothing to settle`,
    );
    this.requestsOpen.delete(key);
  }

  /** Requests sent that got no response and were not settled otherwise: a failed run if any remain. */
  unanswered(): MessageEvent[] {
    return [...this.requestsOpen.values()];
  }

  /**
   * The wire's part of a run's state for the race explorer (`Sim.exploreState`): per channel
   * the messages still on it (content, arrival, held or scheduled) and its FIFO floor, the open
   * requests, the ids used and the dropped streams. No seq: two orderings number their events apart.
   */
  exploreKey(): string {
    const parts: string[] = [];
    const dropped: string[] = [];
    for (const [key, channel] of this.channels) {
      if (channel.inFlight.length > 0)
        parts.push(
          `${key}:${channel.inFlight.map((flight) => `${flight.state}@${flight.event.arrivesAtMs}${flight.then === null ? '' : `+${flight.then.length}`}${JSON.stringify(flight.event.message)}`).join(';')}`,
        );
      // The FIFO floor raises an arrival only while it is ahead of the clock (every window and release starts
      // at now or later): one behind it is no state (on Streamable HTTP each request's POST keeps its own).
      parts.push(`>${key}@${channel.lastArrivalMs > this.scheduler.nowMs ? channel.lastArrivalMs : 'past'}`);
      if (channel.dropped !== null) dropped.push(key);
    }
    parts.push(
      `open:${[...this.requestsOpen.keys()].join(';')}`,
      `ids:${[...this.requestIdsUsed].join(';')}`,
      `dropped:${dropped.join(';')}`,
    );
    return parts.join('|');
  }

  /** Throws LAB021 naming every request left without an answer (call at the end of a run). */
  assertAllAnswered(): void {
    const open = this.unanswered();
    if (open.length === 0) return;
    const names = open
      .map((event) => `${this.summarize(event.message)} sent by the ${event.from} at ${event.atMs} ms`)
      .join('; ');
    throw new LabError('LAB021', `${names}: every request ends with a response or an explicit cancellation`);
  }

  /** A crash fault: only a server's response can be the one it crashes before sending, and only a server with a file restarts. */
  private crash(event: MessageEvent, fault: MessageFault): void {
    const restart = this.crashRestart;
    const response = event.from === 'server' && !('method' in event.message);
    if (!response || restart === null) {
      throw new LabError(
        'LAB023',
        `${formatFault(fault)}: ${response ? 'this server keeps no SQLite file to restart from (crash applies to the ledger and task scenarios)' : 'a crash names a response the server was about to send'}`,
      );
    }
    // The restart is the server's next step, at the same instant: the crash ends what it was doing.
    this.scheduler.after(0, 'server', 'server restarts after its crash', () => restart(event.seq));
  }

  private trackRequest(event: MessageEvent): void {
    const { from, message } = event;
    if (!isRequest(message)) return;
    const key = `${from}:${JSON.stringify(message.id)}`;
    if (this.requestIdsUsed.has(key))
      fail(`${from} reused request id ${JSON.stringify(message.id)}: ids are unique per sender`);
    this.requestIdsUsed.add(key);
    this.requestsOpen.set(key, event);
  }

  /** A response that reached the requester answers its request (one that was lost answers nothing). */
  private answered(event: MessageEvent): void {
    const { to, message } = event;
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    this.requestsOpen.delete(`${to}:${JSON.stringify(message.id)}`);
  }

  private schedule(flight: InFlight, atMs: number): void {
    flight.state = 'scheduled';
    flight.cause = this.scheduler.causeSeq;
    const actor: Actor = flight.event.to;
    this.scheduler.explorer?.delivering?.();
    flight.handle = this.scheduler.at(atMs, actor, this.deliveryLabel, this.arriveFlight, flight);
  }

  // A delivery event's label and action, taking its flight as the event's argument: no closures per message.
  // Bound methods, not arrow functions: tsx names every arrow function as it is made (each run makes a wire).
  private readonly deliveryLabel: (flight: InFlight) => string = this.labelDelivery.bind(this);
  private readonly arriveFlight: (flight: InFlight) => void = this.arrive.bind(this);

  private labelDelivery(flight: InFlight): string {
    return `deliver ${this.summaryOf(flight)} to ${flight.event.to}`;
  }

  /**
   * A delivery event ran. FIFO: if an older message of the same channel is due at this instant and
   * still waiting (the chooser picked this one first), the older one is delivered now instead and
   * this one stays scheduled for its own event.
   */
  private arrive(flight: InFlight): void {
    const queue = flight.channel.inFlight;
    this.scheduler.explorer?.touch?.(flight.channel.key);
    // The channel's oldest scheduled message (the loop, not `find`, builds no closure per delivery).
    let head: InFlight | undefined;
    let found = false;
    for (const candidate of queue) {
      if (head === undefined && candidate.state === 'scheduled') head = candidate;
      if (candidate === flight) found = true;
    }
    if (!found) fail('a delivery belongs to a message in flight on its channel');
    let next = flight;
    if (head !== undefined && head !== flight) {
      if (head.event.arrivesAtMs > this.scheduler.nowMs)
        fail(`channel ${flight.channel.key} would deliver out of order`);
      if (head.handle !== null) this.scheduler.cancel(head.handle);
      // This flight's own delivery is re-armed at the same instant; the older one goes first.
      flight.handle = this.scheduler.at(
        this.scheduler.nowMs,
        flight.event.to,
        this.deliveryLabel,
        this.arriveFlight,
        flight,
      );
      next = head;
    }
    // Paired with send: what arrives was sent on this channel, and arrives at its arrival time.
    if (next.event.arrivesAtMs > this.scheduler.nowMs) fail('a message is delivered at or after its arrival time');
    if (next.state !== 'scheduled') fail('only a scheduled message is delivered');
    next.state = 'delivered';
    next.handle = null;
    this.dequeue(next);
    // The delivery is caused by what scheduled it, even when the chooser ran a later message's event first.
    this.scheduler.causeSeq = next.cause;
    const event = next.event;
    const stamp = this.log.stamp();
    const delivered = this.log.append({
      seq: stamp.seq,
      atMs: stamp.atMs,
      causeSeq: stamp.causeSeq,
      kind: 'delivered',
      messageSeq: event.seq,
      from: event.from,
      to: event.to,
      summary: this.summaryOf(next),
    } satisfies DeliveredEvent);
    this.answered(event);
    // A request's second copy (a duplicate fault) is not handed to the receiver: an id names one
    // request of its sender, so the receiver that took the first copy ignores the second, not runs it twice.
    const { message } = event;
    const ignoreReason =
      event.duplicateOf !== undefined && isRequest(message)
        ? duplicateRequestReason(event, message.id)
        : next.deliver(event);
    if (ignoreReason !== null) {
      event.ignoredBy = event.to;
      event.reason = ignoreReason;
      Object.assign(delivered, { ignoredBy: event.to, reason: ignoreReason });
    }
    if (next.then !== null) for (const action of next.then) action();
  }

  private summaryOf(flight: InFlight): string {
    flight.summaryText ??= this.log.keepText(this.summarize(flight.event.message));
    return flight.summaryText;
  }

  private dequeue(flight: InFlight): void {
    const queue = flight.channel.inFlight;
    // Usually the channel's oldest.
    const index = queue[0] === flight ? 0 : queue.indexOf(flight);
    if (index === 0) queue.shift();
    else if (index > 0) queue.splice(index, 1);
  }
}

/** A JSON-RPC request: it has a method and an id (a notification has no id, a response no method). */
function isRequest(message: JsonRpcMessage): message is Extract<JsonRpcMessage, { method: string; id: RequestId }> {
  return 'method' in message && 'id' in message;
}

function duplicateRequestReason(event: MessageEvent, id: RequestId): string {
  return `a second copy of request ${JSON.stringify(id)} (the first is message seq ${String(event.duplicateOf)}): an id names one request of its sender, so the ${event.to} that took the first copy ignores this one and does not run it twice`;
}
