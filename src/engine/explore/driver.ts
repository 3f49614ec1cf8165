import { assert } from '../core/assert';
import { LabError } from '../core/errors';
import type { ArrivalWindow, DueEvent, ExplorerHooks, ExploringChooser, Scheduler } from '../core/scheduler';
import type { Settings } from '../core/transcript';
import { InvariantChecker, type Seen } from './invariants';
import { formatSchedule, parseSchedule, type Choice } from './schedule';

/** Distinct delays an arrival's critical points are computed from: a bound, like everything else. */
const DELAYS_MAX = 64;

/** Thrown inside a run when it meets its first new choice: the explorer has what it needs. */
export class Stop {
  constructor(
    readonly key: string,
    readonly options: Choice[],
  ) {}
}

/** A 64-bit string hash (two FNV-1a lanes): collisions are negligible for the states one explorer meets. */
class Hash {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x5bd1e995;

  add(text: string): void {
    let { a, b } = this;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
  }

  digest(): string {
    return (this.a >>> 0).toString(36) + ':' + (this.b >>> 0).toString(36);
  }

  fork(): Hash {
    const copy = new Hash();
    copy.a = this.a;
    copy.b = this.b;
    return copy;
  }
}

/**
 * Drives one run: follows the given choices, then either takes the first option of every further
 * choice (a replay) or stops at the first new one (the explorer). Also checks the invariants.
 */
export class Driver {
  readonly taken: Choice[] = [];
  /** Per choice taken, whether it was its point's first option (what a schedule may leave out at its end). */
  private readonly tookFirst: boolean[] = [];
  readonly checker: InvariantChecker;
  private readonly history = new Hash();
  private scheduler: Scheduler | null = null;
  /** Every delay this run has scheduled an event with (timer lengths, latencies), for arrival candidates. */
  private readonly delays = new Set<number>();
  /** The model's own description of its state, when it gives one (`Sim.exploreState`). */
  private describe: (() => string) | null = null;
  /** The choices taken when each breach was found (so its schedule reaches it). */
  readonly breachSchedules: string[] = [];
  readonly chooser: ExploringChooser;

  constructor(
    private readonly given: readonly Choice[],
    private readonly stopAtNew: boolean,
    settings: Settings,
    private readonly mergeStates = true,
    private readonly criticalArrivals = true,
    /** State outside the model's fields that its description must carry (a student's component's call trail). */
    private readonly extraState: (() => string) | null = null,
  ) {
    this.checker = new InvariantChecker(settings);
    const hooks: ExplorerHooks = {
      arrival: (window) => this.arrival(window),
      observe: (event) => this.observe(event),
      attach: (scheduler) => {
        this.scheduler = scheduler;
      },
      armed: (delayMs) => {
        if (delayMs > 0 && this.criticalArrivals && this.delays.size < DELAYS_MAX) this.delays.add(delayMs);
      },
      state: (describe) => {
        if (this.mergeStates) this.describe = describe;
      },
    };
    this.chooser = Object.assign((candidates: readonly DueEvent[]) => this.choose(candidates), { explorer: hooks });
  }

  private observe(event: { readonly kind: string; readonly seq: number }): void {
    this.history.add(JSON.stringify(event));
    const before = this.checker.found.length;
    this.checker.observe(event as Seen);
    for (let index = before; index < this.checker.found.length; index += 1) this.breachSchedules.push(this.schedule());
  }

  /**
   * The state now, which decides everything that can follow: the choice met, the clock, the queue (read
   * from the scheduler) and either the run's history or, where the model describes its state and the
   * run stands between two events (a same-instant choice, or the end), that description.
   *
   * Why merging by description is sound: between events no handler is half run, so what follows is a
   * function of the model's fields, the wire's messages, the random stream, the queue (each closure told
   * apart by its label, its time, or the fields it reads; `Sim.exploreState` says so for the model) and
   * the invariant checker's memory. Two orderings equal in all of these run the same events from here,
   * with the same outcome (an ending is read from the model's fields) and the same breaches (the checker
   * decides each from its memory and the event). Only seq numbers differ, which no outcome or invariant
   * reads. An arrival choice falls inside a handler (a message is being sent), whose locals no
   * description sees, so its state stays the history.
   */
  private stateKey(point: string, between: boolean): string {
    const scheduler = this.scheduler;
    const describe = this.describe;
    if (between && describe !== null) {
      const state = new Hash();
      state.add(`${describe()}|${this.checker.stateKey()}${this.extraState === null ? '' : `|${this.extraState()}`}`);
      // The delays seen so far decide the arrival instants offered from here: part of the state.
      if (this.criticalArrivals) state.add(`~${[...this.delays].sort((x, y) => x - y).join(',')}`);
      if (scheduler !== null) {
        state.add(`@${scheduler.nowMs}`);
        for (const queued of scheduler.queuedEvents()) state.add(`|${queued.text}`);
      }
      state.add(`?${point}`);
      return `s${state.digest()}`;
    }
    const state = this.history.fork();
    if (scheduler !== null) {
      state.add(`@${scheduler.nowMs}`);
      for (const queued of scheduler.queuedEvents()) state.add(`|${queued.text}`);
    }
    state.add(`?${point}`);
    return `h${state.digest()}`;
  }

  private decide(kind: 'c' | 'j', options: Choice[], point: () => string): number {
    const index = this.taken.length;
    if (index < this.given.length) {
      const choice = this.given[index] as Choice;
      const found = options.findIndex((option) => option.kind === choice.kind && option.value === choice.value);
      if (found < 0) {
        const offered = options.map((option) => `${option.kind}${option.value}`).join(', ');
        throw new LabError('LAB022', `choice ${index + 1} of the schedule is ${choice.kind}${choice.value}, but this run offers ${offered} there (a schedule replays the run it came from: same scenario, transport and settings)`);
      }
      this.taken.push(choice);
      this.tookFirst.push(found === 0);
      return choice.value;
    }
    if (this.stopAtNew) throw new Stop(this.stateKey(point(), kind === 'c'), options);
    const first = options[0] as Choice;
    assert(first.kind === kind, 'a choice offers options of its own kind');
    this.taken.push(first);
    this.tookFirst.push(true);
    return first.value;
  }

  private choose(candidates: readonly DueEvent[]): number {
    const options: Choice[] = candidates.map((_, index) => ({ kind: 'c', value: index }));
    return this.decide('c', options, () => `c ${candidates.map((candidate) => `${candidate.actor} ${candidate.label}`).join(' / ')}`);
  }

  /**
   * The arrival instants that give every order against what is queued: the window's ends, the queued
   * instants inside it, and the critical points of what the arrival re-arms: each instant t where t + d
   * lands exactly on a queued instant q, for every delay d this run has scheduled with (a timer the
   * delivery restarts, such as an idle deadline after progress, falls at t + d). Between two critical
   * points the order of everything queued against the arrival and its timer is the same; landing on
   * one, the same-instant choice at q runs the timer before or after q's event, so both sides are met.
   */
  private arrival(window: ArrivalWindow): number {
    const instants = new Set<number>([window.earliestMs]);
    const inside = (atMs: number) => atMs > window.earliestMs && atMs < window.latestMs;
    for (const queued of this.scheduler?.queuedEvents() ?? []) {
      if (inside(queued.atMs)) instants.add(queued.atMs);
      for (const delayMs of this.delays) if (inside(queued.atMs - delayMs)) instants.add(queued.atMs - delayMs);
    }
    instants.add(window.latestMs);
    const options: Choice[] = [...instants].sort((a, b) => a - b).map((atMs) => ({ kind: 'j', value: atMs - window.baseMs }));
    const jitter = this.decide('j', options, () => `j ${window.channelKey} ${window.earliestMs}..${window.latestMs}`);
    return window.baseMs + jitter;
  }

  /** The choices taken so far as a schedule; trailing first options go, since a replay takes them anyway. */
  schedule(): string {
    let length = this.taken.length;
    while (length > 0 && this.tookFirst[length - 1] === true) length -= 1;
    return formatSchedule(this.taken.slice(0, length));
  }

  /** The whole run's state at its end (what tells two complete orderings apart). */
  endKey(): string {
    return this.stateKey('end', true);
  }
}

/**
 * The chooser that replays one ordering (`lab run --schedule`, the page's `schedule=`): same
 * scenario, transport and settings, exactly that ordering, the same transcript bytes every time.
 * `finish` refuses a schedule with choices the run never met (it came from another run).
 */
export function replaySchedule(schedule: string): { chooser: ExploringChooser; finish(): void } {
  const choices = parseSchedule(schedule);
  const driver = new Driver(choices, false, {});
  return {
    chooser: driver.chooser,
    finish: () => {
      if (driver.taken.length < choices.length) {
        throw new LabError('LAB022', `the schedule has ${choices.length} choices but this run meets only ${driver.taken.length} (a schedule replays the run it came from: same scenario, transport and settings)`);
      }
    },
  };
}
