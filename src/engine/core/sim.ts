import type { ComponentClock } from './components';
import { assert } from './assert';
import type { JsonRpcMessage } from './jsonrpc';
import { SeededRandom } from './prng';
import { snapshot } from './snapshot';
import { handleText, Scheduler, type Actor, type EventHandle, type Label, type LabelOf } from './scheduler';
import type { AnyEvent, MessageEvent, Stamped, Transport, Unstamped, WireEvent } from './transcript';
import type { ResolvedRun } from './model';
import { EventLog, Wire, type LatencySettings, type Stamp } from './wire';

/**
 * What the kit needs beside the run: its bounds, its wire's latency and how it names messages. The run's
 * own dimensions (transport, seed, chooser, trace, faults) come from the run (`ResolvedRun`) itself.
 */
export interface SimOptions {
  /** Bound on events run; reaching it is LAB006, never a hang. */
  readonly eventsMax: number;
  /** Latency of the wire; a model without a wire of its own passes none (zero latency, no draws). */
  readonly latency?: LatencySettings;
  /** How the wire names a message in deliveries and errors. */
  readonly summarize: (message: JsonRpcMessage) => string;
  /** False: events are not kept (an explorer's fast run); default true. */
  readonly record?: boolean;
}

const NO_LATENCY: LatencySettings = { latencyMs: 0, latencyJitterMs: 0 };

/**
 * What a model's log takes: the model's own events and the wire's. Spelled as a union of the two,
 * not `Unstamped<E | WireEvent>`, so the wire's part is known inside a generic `Sim<E>`.
 */
export type SimInput<E> = Unstamped<E> | Unstamped<WireEvent>;

/** What a model's log keeps: for a model whose events include the wire's (all do), its events `E`. */
export type SimEvent<E> = Stamped<SimInput<E>>;

/**
 * The simulation kit every model composes: one virtual clock with its scheduler, one
 * event log, one seeded random stream and one FIFO wire. A model is its handlers and its script on
 * top of this; it never builds its own scheduler, log or message delivery.
 */
export class Sim<E extends AnyEvent> {
  readonly transport: Transport;
  readonly seed: number;
  readonly scheduler: Scheduler;
  readonly log: EventLog<SimInput<E>>;
  readonly random: SeededRandom;
  readonly wire: Wire;
  private readonly summarize: (message: JsonRpcMessage) => string;

  /** `run`: the run's transport, seed, chooser, trace and faults (its settings are the model's to read). */
  constructor(run: ResolvedRun<unknown>, options: SimOptions) {
    assert(run.transport === 'stdio' || run.transport === 'http', () => `unknown transport ${String(run.transport)}`);
    assert(
      Number.isSafeInteger(run.seed) && run.seed >= 0,
      () => `seed must be a non-negative integer, got ${run.seed}`,
    );
    this.transport = run.transport;
    this.seed = run.seed;
    this.scheduler = new Scheduler({ eventsMax: options.eventsMax, chooser: run.chooser, trace: run.trace });
    this.log = new EventLog<SimInput<E>>(this.scheduler, undefined, options.record ?? true);
    if (this.scheduler.explorer !== null) this.log.observer = this.scheduler.explorer.observe;
    this.random = new SeededRandom(run.seed);
    this.summarize = options.summarize;
    this.wire = new Wire(
      this.scheduler,
      this.log,
      this.random,
      options.latency ?? NO_LATENCY,
      options.summarize,
      run.faults,
    );
    this.wire.http = this.transport === 'http';
  }

  /**
   * For the race explorer: declares that `model`'s fields, with this kit's wire and random
   * stream and the scheduler's queue, are the run's whole state, so two orderings that reach the same
   * state at a choice between events can be explored once. Only for a model whose queued closures are
   * told apart by their labels or by those fields (each captures nothing else). A model with state
   * outside its JS fields (a SQLite file: snapshot cannot see WebAssembly memory) leaves that out with
   * `hidden` and describes it with `extra` (its rows, read with a query that changes nothing). A handle
   * on a queued event is written by its label and instant (`handleText`), not its seq.
   */
  exploreState(
    model: object,
    extra: (() => string) | null = null,
    hidden: (value: object) => boolean = () => false,
  ): void {
    const explorer = this.scheduler.explorer;
    if (explorer?.state === undefined) return;
    const kit = (value: object): boolean | string =>
      value === this ||
      value instanceof Scheduler ||
      value instanceof EventLog ||
      value instanceof Wire ||
      hidden(value) ||
      (handleText(value) ?? false);
    explorer.state(
      () =>
        `${this.wire.exploreKey()}|${snapshot(this.random)}|${snapshot(model, kit)}${extra === null ? '' : `|${extra()}`}`,
    );
  }

  get nowMs(): number {
    return this.scheduler.nowMs;
  }

  /** What a student's component adapter reads of the run (see core/components.ts). */
  componentClock(): ComponentClock {
    const scheduler = this.scheduler;
    const log = this.log;
    return {
      get nowMs() {
        return scheduler.nowMs;
      },
      // Before any event the log's last seq is -1; the contract says 0 (a step below 0 means a check outside the runs).
      lastSeq: () => Math.max(0, log.lastSeq),
    };
  }

  get http(): boolean {
    return this.transport === 'http';
  }

  get events(): SimEvent<E>[] {
    return this.log.events;
  }

  record<N extends Unstamped<E>>(event: N, atMs?: number): Stamped<N> {
    return this.log.record(event, atMs);
  }

  /** The next event's stamps, for an event built with them in place and appended at once (see EventLog.stamp). */
  stamp(): Readonly<Stamp> {
    return this.log.stamp();
  }

  append<F extends Stamped<Unstamped<E>>>(event: F): F {
    return this.log.append(event);
  }

  at(atMs: number, actor: Actor, label: Label, run: () => void): EventHandle;
  at<A>(atMs: number, actor: Actor, label: LabelOf<A>, run: (arg: A) => void, arg: A): EventHandle;
  at(atMs: number, actor: Actor, label: LabelOf<unknown>, run: (arg: unknown) => void, arg?: unknown): EventHandle {
    return this.scheduler.at(atMs, actor, label, run, arg);
  }

  after(delayMs: number, actor: Actor, label: Label, run: () => void): EventHandle {
    return this.scheduler.after(delayMs, actor, label, run);
  }

  cancel(handle: EventHandle | null | undefined): boolean {
    return handle === null || handle === undefined ? false : this.scheduler.cancel(handle);
  }

  /**
   * A message never arrives (the stream or pipe carrying it went away): the wire drops it and the log
   * records the loss with `reason`. Returns whether it was still in flight; the caller asserts what
   * it expects (a message a fault already lost is recorded lost again: the proxy's behaviour, kept).
   */
  lose(event: MessageEvent, reason: string): boolean {
    const inFlight = this.wire.lose(event, reason);
    this.log.record({ kind: 'message-lost', messageSeq: event.seq, summary: this.summarize(event.message), reason });
    return inFlight;
  }

  /** The connection drops: every message still in flight is lost with `reason` (oldest first); returns how many. */
  dropAll(reason: string): number {
    const inFlight = this.wire.inFlightAll();
    for (const event of inFlight) assert(this.lose(event, reason), 'a message in flight can be lost');
    return inFlight.length;
  }

  /** Runs every queued event; the scheduler's bound ends a run that would not stop. */
  run(): void {
    this.scheduler.runUntilIdle();
    assert(this.scheduler.pending === 0, 'a finished run leaves nothing queued');
    this.wire.assertFaultsApplied();
  }
}
