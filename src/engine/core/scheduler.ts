import { assert, fail } from './assert';
import { BinaryHeap } from './heap';
import { LabError } from './errors';
import type { SeededRandom } from './prng';

export type Actor = 'client' | 'server' | 'worker' | 'transport';

/** What names an event for choosers and errors; a function is called only when someone reads it. */
export type Label = string | (() => string);
/** The label of an event scheduled with an argument (see `Scheduler.at`): read from that argument. */
export type LabelOf<A> = string | ((arg: A) => string);

const labelText = <A>(label: LabelOf<A>, arg: A): string => (typeof label === 'string' ? label : label(arg));

/**
 * One queued event, and the handle `at` hands back (the handle is the event itself, so withdrawing
 * one needs no lookup table: a Map set and delete per event was a tenth of a fast run).
 */
class QueuedEvent implements DueEvent {
  /** Queued, run or withdrawn: one field, not two flags (a long run keeps a six-figure count of these). */
  state: 'queued' | 'ran' | 'withdrawn' = 'queued';
  private labelText: LabelOf<unknown>;

  constructor(
    readonly atMs: number,
    readonly seq: number,
    label: LabelOf<unknown>,
    readonly actor: Actor,
    readonly run: (arg: unknown) => void,
    /** What `run` and a label function are called with (undefined for a closure that needs none). */
    readonly arg: unknown,
    /** The log event that was latest when this was scheduled: what caused it. */
    readonly cause: number | null,
  ) {
    this.labelText = label;
  }

  get label(): string {
    if (typeof this.labelText !== 'string') this.labelText = this.labelText(this.arg);
    return this.labelText;
  }
}

/**
 * A model's handle on a queued event as its state description writes it (`Sim.exploreState`): whether
 * it is still queued, when, whose and its label, not its seq (two orderings that reach one state may
 * have queued its events in another order). Null for any other object.
 */
export function handleText(value: object): string | null {
  return value instanceof QueuedEvent ? `${value.state} ${value.atMs} ${value.actor} ${value.label}` : null;
}

/** What a chooser sees of an event that is due: enough to pin or enumerate orders, nothing to mutate. */
export interface DueEvent {
  readonly atMs: number;
  readonly seq: number;
  readonly label: string;
  readonly actor: Actor;
}

/**
 * Orders events that are due at the same virtual instant
 * (docs/architecture.md#same-instant-events-are-chosen-not-accidental). Given the candidates in
 * insertion order, returns the index of the one to run. The others stay queued and are offered again,
 * with any newly scheduled same-instant events.
 */
export type Chooser = (candidates: readonly DueEvent[]) => number;

/** The order of `atMs actor label` lines, read from the parts (see `Scheduler.queuedInOrder`). */
function byLine(a: QueuedEvent, b: QueuedEvent): number {
  if (a.atMs !== b.atMs) return a.atMs - b.atMs;
  if (a.actor !== b.actor) return a.actor < b.actor ? -1 : 1;
  const labelA = a.label;
  const labelB = b.label;
  return labelA < labelB ? -1 : labelA > labelB ? 1 : 0;
}

/**
 * Puts `event` into `sorted` after every event that sorts before it or equal to it (`byLine`): an
 * insertion sort, for a queue of a few events, which needs none of the work array `Array.sort` makes
 * per call (it was a tenth of what a state key allocated). Stable, as `sort` is.
 */
function insertInOrder(sorted: QueuedEvent[], event: QueuedEvent): void {
  let index = sorted.length;
  sorted.push(event);
  while (index > 0 && byLine(sorted[index - 1] as QueuedEvent, event) > 0) {
    sorted[index] = sorted[index - 1] as QueuedEvent;
    index -= 1;
  }
  sorted[index] = event;
}

/** What `Scheduler.beingChosen` holds while no chooser looks: one empty list for every scheduler. */
const NONE_BEING_CHOSEN: readonly QueuedEvent[] = Object.freeze([]);

/** The default: the event scheduled first runs first. */
export const insertionOrder: Chooser = () => 0;

/** Draws the order from a seeded generator: what property tests use to explore interleavings. */
export function seededChooser(random: SeededRandom): Chooser {
  return (candidates) => random.int(0, candidates.length - 1);
}

/**
 * Prefers candidates whose label starts with one of `preferredLabelPrefixes`, earliest prefix first;
 * falls back to insertion order. What a scenario uses to pin a race.
 */
export function pinnedChooser(preferredLabelPrefixes: readonly string[]): Chooser {
  return (candidates) => {
    for (const prefix of preferredLabelPrefixes) {
      const index = candidates.findIndex((candidate) => candidate.label.startsWith(prefix));
      if (index >= 0) return index;
    }
    return 0;
  };
}

/** The arrival window of one message: every arrival time the latency range and its channel's FIFO order permit. */
export interface ArrivalWindow {
  readonly nowMs: number;
  /** `${channel}:${sender}`: the FIFO channel the message travels on. */
  readonly channelKey: string;
  /** now + latencyMs, the arrival with no jitter (an arrival time minus this is the jitter it stands for). */
  readonly baseMs: number;
  readonly earliestMs: number;
  readonly latestMs: number;
}

/**
 * What an explorer adds to a chooser: it also picks each message's arrival inside its
 * latency window (instead of a seeded draw), and sees every event the log stamps. A scheduler built
 * with such a chooser hands these hooks to its wire and log; every other run ignores them.
 */
export interface ExplorerHooks {
  /** Picks an arrival in [earliestMs, latestMs]; called only when the window holds more than one instant. */
  arrival(window: ArrivalWindow): number;
  /** Sees every stamped event, recorded or not (the invariants read the run as it goes). */
  observe(event: { readonly kind: string; readonly seq: number }): void;
  /** Called once by the scheduler the chooser is given to (the explorer reads its queue to hash a state). */
  attach(scheduler: Scheduler): void;
  /** Sees the delay of every event scheduled (a timer's length: where an arrival that re-arms it moves it to), its seq and its actor. */
  armed?(delayMs: number, seq: number, actor: Actor): void;
  /** Told by the wire just before it schedules a message's delivery (that event's delay is a latency the explorer picked, not a timer's). */
  delivering?(): void;
  /**
   * Called by a model that can describe its whole state (`Sim.exploreState`): the explorer then tells
   * states apart by that text instead of by the run's history, and merges orderings that reach one state.
   */
  state?(describe: () => string): void;
  /**
   * The partial-order reduction's footprints: `step` sees each event just before it runs, `touch` each
   * channel a message is sent on or delivered from (`*`: a send whose fault is named by the log's
   * count, which every event moves), `withdrawn` the actor of each queued event withdrawn.
   */
  step?(event: DueEvent): void;
  touch?(channelKey: string): void;
  withdrawn?(actor: Actor): void;
}

/** A chooser that explores: `explorer` carries the hooks above. */
export type ExploringChooser = Chooser & { readonly explorer: ExplorerHooks };

export interface EventHandle {
  readonly atMs: number;
  readonly seq: number;
}

export interface SchedulerOptions {
  /** Upper bound on events run; reaching it is a clear error, never a hang. */
  readonly eventsMax: number;
  readonly chooser?: Chooser;
  /** Observes every push and every pop (the benchmark replays the same sequence on a bare heap). */
  readonly trace?: { push(atMs: number, seq: number): void; pop(atMs: number, seq: number): void };
}

/**
 * The virtual clock and its event queue. Time only moves when an event runs, never backwards, and
 * nothing here reads a wall clock.
 */
export class Scheduler {
  private readonly queue = new BinaryHeap<QueuedEvent>();
  /** Events queued and neither run nor withdrawn (withdrawn ones stay in the heap until they reach its head). */
  private live = 0;
  /** The same-instant candidates while the chooser picks among them (popped, not yet pushed back). */
  private beingChosen: readonly QueuedEvent[] = NONE_BEING_CHOSEN;
  private readonly chooser: Chooser;
  /** The explorer's hooks when the chooser is an explorer's; null otherwise. */
  readonly explorer: ExplorerHooks | null;
  private readonly trace: SchedulerOptions['trace'];
  private nextSeq = 0;
  readonly eventsMax: number;
  nowMs = 0;
  eventsRun = 0;
  /** How many times the chooser was consulted with more than one candidate. */
  choicesMade = 0;
  /**
   * The causal context: the `seq` of the last event the log recorded in this step, or, at a step's
   * start, of the event that was latest when the step was scheduled. The log reads and advances it.
   */
  causeSeq: number | null = null;

  constructor(options: SchedulerOptions) {
    assert(Number.isInteger(options.eventsMax) && options.eventsMax > 0, 'eventsMax must be a positive integer');
    this.eventsMax = options.eventsMax;
    this.chooser = options.chooser ?? insertionOrder;
    this.explorer = (options.chooser as Partial<ExploringChooser> | undefined)?.explorer ?? null;
    this.explorer?.attach(this);
    this.trace = options.trace;
  }

  get pending(): number {
    return this.live;
  }

  /**
   * Queues `run` at `atMs`. With `arg`, `run` and a label function are called with it (as setTimeout
   * passes its extra arguments): a caller that schedules an event per message or per chunk passes one
   * function it keeps and the per-event value, instead of building closures for every event.
   */
  at(atMs: number, actor: Actor, label: Label, run: () => void): EventHandle;
  at<A>(atMs: number, actor: Actor, label: LabelOf<A>, run: (arg: A) => void, arg: A): EventHandle;
  at(atMs: number, actor: Actor, label: LabelOf<unknown>, run: (arg: unknown) => void, arg?: unknown): EventHandle {
    // A hot path: the checks build their message only when they fail.
    if (!Number.isFinite(atMs)) fail(`event "${labelText(label, arg)}" has a non-finite time`);
    if (atMs < this.nowMs)
      fail(
        `event "${labelText(label, arg)}" scheduled at ${atMs} ms, before now (${this.nowMs} ms): time never runs backwards`,
      );
    const event = new QueuedEvent(atMs, this.nextSeq++, label, actor, run, arg, this.causeSeq);
    if (this.explorer !== null) this.explorer.armed?.(atMs - this.nowMs, event.seq, actor);
    this.queue.push(event);
    this.live += 1;
    this.trace?.push(atMs, event.seq);
    return event;
  }

  after(delayMs: number, actor: Actor, label: Label, run: () => void): EventHandle {
    if (!(delayMs >= 0)) fail(`event "${labelText(label, undefined)}" has a negative delay ${delayMs}`);
    return this.at(this.nowMs + delayMs, actor, label, run);
  }

  /**
   * Every queued event that was not withdrawn, sorted as their `atMs actor label` lines sort (what an
   * explorer hashes into a state): by instant, then actor, then label. No line is built: an explorer
   * hashes the three parts as it would the line, and no actor's name starts with another's, so
   * comparing actor, then label, orders them as comparing the lines did. Reads labels.
   */
  queuedInOrder(): DueEvent[] {
    const queued: QueuedEvent[] = [];
    for (const event of this.queue.values()) if (event.state === 'queued') insertInOrder(queued, event);
    for (const event of this.beingChosen) if (event.state === 'queued') insertInOrder(queued, event);
    return queued;
  }

  /**
   * The instant of every queued event that was not withdrawn, in no particular order (where an
   * explorer looks for the instants an arrival can fall on). Reads no label.
   */
  queuedInstants(): number[] {
    const instants: number[] = [];
    for (const event of this.queue.values()) if (event.state === 'queued') instants.push(event.atMs);
    for (const event of this.beingChosen) if (event.state === 'queued') instants.push(event.atMs);
    return instants;
  }

  /**
   * The instant and actor of every queued event that was not withdrawn, in no particular order (where an
   * explorer looks for the later events of a queued event's chain, known by its actor). Reads no label.
   */
  queuedWithActors(): { readonly atMs: number; readonly actor: Actor }[] {
    const queued: { atMs: number; actor: Actor }[] = [];
    for (const event of this.queue.values()) if (event.state === 'queued') queued.push(event);
    for (const event of this.beingChosen) if (event.state === 'queued') queued.push(event);
    return queued;
  }

  /** Withdraws a queued event; returns false if it already ran or was withdrawn. */
  cancel(handle: EventHandle): boolean {
    if (!(handle instanceof QueuedEvent)) fail(`event #${handle.seq} was not scheduled by a scheduler`);
    if (handle.state !== 'queued') return false;
    handle.state = 'withdrawn';
    this.live -= 1;
    this.explorer?.withdrawn?.(handle.actor);
    return true;
  }

  /** The earliest queued event that was not withdrawn (withdrawn heads are discarded here). */
  private peekLive(): QueuedEvent | undefined {
    for (let head = this.queue.peek(); head !== undefined; head = this.queue.peek()) {
      if (head.state !== 'withdrawn') return head;
      this.queue.pop();
      this.trace?.pop(head.atMs, head.seq);
    }
    return undefined;
  }

  private popLive(): QueuedEvent | undefined {
    const head = this.peekLive();
    if (head === undefined) return undefined;
    this.queue.pop();
    this.trace?.pop(head.atMs, head.seq);
    return head;
  }

  private popChosen(): QueuedEvent | undefined {
    const first = this.popLive();
    if (first === undefined || this.chooser === insertionOrder) return first;
    // Most steps have one event due: the candidates' array is made only when a second one is.
    if (this.peekLive()?.atMs !== first.atMs) return first;
    const candidates: QueuedEvent[] = [first];
    while (this.peekLive()?.atMs === first.atMs) candidates.push(this.popLive() as QueuedEvent);
    this.choicesMade += 1;
    // While the chooser looks, the candidates are out of the heap but still queued (an explorer reads the queue then).
    this.beingChosen = candidates;
    let index: number;
    try {
      index = this.chooser(candidates);
    } finally {
      this.beingChosen = NONE_BEING_CHOSEN;
    }
    assert(Number.isInteger(index), () => `chooser returned a non-integer ${index}`);
    assert(
      index >= 0 && index < candidates.length,
      () => `chooser returned ${index} for ${candidates.length} candidates`,
    );
    const chosen = candidates[index] as QueuedEvent;
    for (const event of candidates) if (event !== chosen) this.queue.push(event);
    return chosen;
  }

  /** Runs the next due event. Returns false when nothing is queued. */
  step(): boolean {
    const event = this.popChosen();
    if (event === undefined) return false;
    assert(event.atMs >= this.nowMs, 'time never runs backwards');
    if (this.eventsRun >= this.eventsMax) {
      throw new LabError(
        'LAB006',
        `more than eventsMax=${this.eventsMax} events; raise eventsMax or shorten the run (stopped at ${this.nowMs} ms)`,
      );
    }
    event.state = 'ran';
    this.live -= 1;
    this.nowMs = event.atMs;
    this.eventsRun += 1;
    this.causeSeq = event.cause;
    this.explorer?.step?.(event);
    event.run(event.arg);
    return true;
  }

  runUntilIdle(): void {
    while (this.step()) {
      // each step runs one event; the eventsMax bound ends a run that would not stop
    }
  }

  /** Runs every event due at or before `atMs`, then sets the clock to `atMs`. */
  runUntil(atMs: number): void {
    assert(atMs >= this.nowMs, () => `runUntil(${atMs}) is before now (${this.nowMs} ms)`);
    for (let next = this.peekLive(); next !== undefined && next.atMs <= atMs; next = this.peekLive()) this.step();
    this.nowMs = atMs;
  }
}
