import { assert } from './core/assert';
import type { Components } from './core/components';
import type { Actor } from './core/scheduler';
import { LabError } from './core/errors';
import type { Settings, Transport } from './core/transcript';
import { LedgerRecycler } from './core/sqlite';
import { runScenario, scenarioRunner, type OwnRun, type Scenario } from './scenario';
import type { ModelKind, Outcome, OutcomeByKind, Transcript } from './transcript';
import {
  Driver,
  FieldNames,
  Hash,
  NO_FIXED_TIMES,
  Pruned,
  Stop,
  type Asleep,
  type FixedTimes,
  type Footprint,
  type HistoryMark,
  type SleepPlan,
  type SurveyChain,
  type Chain,
} from './explore/driver';
import type { InvariantName } from './explore/invariants';
import { EMPTY_SCHEDULE, type Choice } from './core/schedule';
import { orderingRun, orderingsRun, type ExplorationRun } from './explore/explorationRun';
import { shortestOrderings, type ShortestOrdering } from './shrink';

/**
 * The race explorer: runs a scenario in every ordering its model allows and checks the
 * invariants after every step of each.
 *
 * Choice points. (1) Events due at one virtual instant: any of them may run first (the scheduler's
 * chooser). (2) When a message is sent, where its arrival falls inside its latency window
 * [now + latencyMs, now + latencyMs + latencyJitterMs], raised to its channel's last arrival (FIFO).
 * The window is continuous in effect but what the run does depends only on the arrival's order
 * against the other events, so the explorer picks among the distinct orders rather than sampling:
 * the window's two ends, the instant of every event already queued inside it, and the critical
 * points of the timers the arrival re-arms (each t where t + d lands on a queued instant, for every
 * delay d the run schedules with: an idle deadline restarted by progress). Landing exactly on a
 * queued event's instant, the same-instant choice then runs the arrival (or its timer) before or
 * after it, so every order of the arrival and its timers against what is queued is met, and against
 * what is queued later too (a later message's own choice includes this arrival's instant). Also the
 * instants where a queued event's own timer falls (q + d, for the fixed delays of a survey ordering run
 * first: `surveyOf`), and the instants where what the arrival's work sends after one delay d reaches
 * its receiver at the earliest exactly when an event no arrival moves is due (f − d − latency: progress
 * the user sees just before cancelling, for a script step f not yet queued; progress that beats an idle
 * deadline armed at the request's start, which the survey's own progress withdrew), and f − d − latency
 * − jitter, where it can arrive at f at the latest. The same for chains of work the survey saw (one
 * actor's events each armed by the one before, a worker's chunks): f − S − latency (− jitter) for every
 * event S of the chain the message starts, a queued chain event's later ones (q + A), and where the
 * cancellation a re-armed timer sends meets the sender's later chain event, bounded by a fixed event
 * (`Driver.chainInstants`). What stays approximate: other chains of two or more delays (t + d1 + d2 =
 * q, q + d1 + d2) and delays the survey ordering never schedules: their critical points are not
 * offered (explore/arrivalOracle.test.ts samples random arrivals to catch an ending they would hide).
 *
 * Equivalent orderings are explored once: a state is the run's history (every stamped event, in
 * order) with the queue of pending events and the clock — or, for a model that describes its whole
 * state (`Sim.exploreState`), that description between two events (see `Driver.stateKey` for why
 * merging by it is sound). Two choices that give the same state — two deliveries on one FIFO channel,
 * which deliver the oldest either way; two events that record nothing — are one ordering; a state met
 * again is not explored again (its endings are reused).
 */

/**
 * What to explore: the run (`ExplorationRun`: transport, seed, settings, the ledger, faults, a student's
 * parts), and how. A student's parts' breaches are reported beside the invariants' (`componentBreaches`);
 * a component's state is hidden from the model's description: states merge by that description and the
 * trail of calls the component was given (`ComponentProbe.trail`), which decides its state.
 */
export interface ExploreOptions extends ExplorationRun {
  /** Most runs (states) to visit; reaching it ends the exploration with `complete: false`. */
  readonly bound?: number;
  /**
   * Merge orderings that reach one state where the model describes its state (default true); false
   * tells states apart by their history only (what the tests hold the merging to).
   */
  readonly mergeStates?: boolean;
  /**
   * The partial-order reduction (default true): of the orderings that only swap independent
   * same-instant events (disjoint parties and channels, see `independent` in driver.ts), one is run;
   * the endings and the broken invariants are the same as with it off (docs/orderings-causality.md says
   * why). It applies to the models in `REDUCIBLE_MODELS` only. False runs every ordering (what the
   * soundness test compares with; `lab explore --no-reduction`).
   */
  readonly reduction?: boolean;
  /**
   * Whether a run goes on past each new state it meets with that state's first option (default true),
   * instead of stopping at the first: a state's first child then costs no replay of its prefix. The
   * states visited, their order and the result are the same either way (false: what the tests compare with).
   */
  readonly continueRuns?: boolean;
  /** The models the reduction may commute events of (default `REDUCIBLE_MODELS`): what the soundness script tries a candidate model with. */
  readonly reducible?: ReadonlySet<ModelKind>;
}

export interface Ending {
  /**
   * The run's outcome of the ordering `schedule` replays: the very type `lab run --json` prints as its
   * `outcome` (times and sequence numbers included, those of that one ordering); null when the
   * orderings of this ending failed (`error`).
   */
  outcome: Outcome | null;
  /** What tells this ending from the others: the outcome without times, sequence numbers and reasons. */
  distinct: Record<string, unknown>;
  /** The failure's message, when the orderings of this ending failed instead of ending with an outcome. */
  error?: string;
  /** How many orderings end so. */
  count: number;
  /** One ordering that ends so. */
  schedule: string;
}

export interface Violation {
  invariant: InvariantName;
  /** The ordering that breaks it soonest among those explored (see `Exploration.collect` for exactly which). */
  schedule: string;
  /** `seq` of the event at which it broke, in the run that `schedule` replays: the fewest events before it among the orderings run. */
  step: number;
  explanation: string;
}

/** A statement a student's component broke: as `Violation`, named by the exercise's statement id. */
export interface ComponentViolation {
  statement: string;
  schedule: string;
  step: number;
  atMs: number;
  explanation: string;
}

/** The `--json` shape of `lab explore` (a contract). */
export interface ExploreResult {
  scenario: string;
  /** The scenario's model: which member of the outcome union every ending's `outcome` is. */
  kind: ModelKind;
  transport: Transport;
  settings: Settings;
  /** Orderings told apart (distinct histories from start to end). */
  schedules: number;
  /** States visited (each what a run from the start up to its next new choice visits; one run may go on past several). */
  states: number;
  complete: boolean;
  endings: Ending[];
  violations: Violation[];
  /** Per broken invariant, the shortest ordering that breaks it (shrink.ts): fewest events, then earliest break. Empty with `components` (the grader shrinks those itself). */
  shortest: ShortestOrdering[];
  /** With `components`: each statement the student's parts broke, once per explanation, with the ordering that breaks it soonest among those explored (smallest step, then earliest atMs). */
  componentBreaches?: ComponentViolation[];
  /** What the violation count means: a bound that cut the exploration leaves "none found", never "none". */
  verdict: string;
}

/** What `toLocaleString('en-US')` formats with, made once: making one per exploration cost as much as a short exploration's runs. */
const EN_US = new Intl.NumberFormat('en-US');

/** The words for a result's violations: how many, and whether every ordering was explored. */
export function violationsVerdict(result: {
  readonly violations: readonly unknown[];
  readonly complete: boolean;
  readonly states: number;
}): string {
  const states = EN_US.format(result.states);
  const count = result.violations.length;
  if (count === 0)
    return result.complete
      ? 'none: every invariant holds in every ordering'
      : `none found in ${states} states, not complete`;
  return `${count} found${result.complete ? ' (every ordering explored)' : ` in ${states} states, not complete`}`;
}

export const DEFAULT_EXPLORE_BOUND = 200_000;

/**
 * An exploration's runs (its `states`) by what each tried at its last choice: the first run; another
 * instant for a message's arrival (`j`), which the reduction never prunes since the instant moves the
 * timers and replies after it; another order of events due at one instant (`c`), the only kind of
 * choice whose options can be independent. `pruned` of them (either kind: a sleeping event is inherited
 * past arrivals) stopped where the reduction found them redundant: a pruned run is still a run, so only
 * what it would have opened below saves states.
 */
export interface RunsByChoice {
  first: number;
  arrival: number;
  sameInstant: number;
  pruned: number;
  /**
   * The runs actually made, each from the scenario's start: the other states were visited by a run
   * going on past a new state it met (`ExploreOptions.continueRuns`), with no replay of their prefix.
   */
  made: number;
}

/**
 * The models whose events the reduction may commute: those where an event of one actor changes and
 * reads only its own side's fields, and reaches the other side only through the wire, or through an
 * object that every event using it names (`ExplorerHooks.touch`). An event's footprint is read from its
 * actor (client; server with its worker) and the channels it touched, so a model where a handler of
 * one side touches an object of the other without saying so must stay out.
 *
 * The buffer is in: its consumer (a client event) takes from the server's buffer, releases the held
 * producer and reads whether it is done, so both the producer and the consumer touch `buffer` and are
 * never commuted (read from actors alone, they were, and the buffer lost endings: the unit test keeps
 * that counterexample). The request race (A–D, cancel-ignored) is in: its request coordinator, which
 * both sides read and write (the terminal state goes to whichever side ends the request first), names
 * itself (`coordinator`) on every access (`RequestCoordinator.reduceUnder`); read from actors alone, a
 * worker's completion and a client deadline due at one instant were commuted and the ending where the
 * completion won was lost (the unit test keeps that case too). The listen is in: it shares only the
 * same coordinator (the client's open listens, which the server reads when a stream breaks, are read
 * only in runs with faults, where every send touches everything). The proxy keeps a buffer of held
 * messages that the client's close discards, the ledger and task models a SQLite file both connections
 * write: out until their shared objects touch a channel of their own.
 * scripts/exploreSoundness.ts checks a candidate on the whole matrix (`--reducible`).
 */
export const REDUCIBLE_MODELS: ReadonlySet<ModelKind> = new Set<ModelKind>(['buffer', 'request-race', 'listen']);
const VIOLATIONS_KEPT = 100;

/** A run's outcome with the kind of model that produced it: a transcript is one. */
export type KindedOutcome = { [K in ModelKind]: { readonly kind: K; readonly outcome: OutcomeByKind[K] } }[ModelKind];

/** Times and sequence numbers out: what is left says how a run ended. */
export function endingOf(run: KindedOutcome): Record<string, unknown> {
  if (run.kind === 'request-race') {
    const o = run.outcome;
    return {
      terminalState: o.terminalState,
      clientOutcome: o.clientOutcome,
      finalResponse: o.finalResponse,
      cancellationSignal: o.cancellationSignal,
      viewsDiverge: o.viewsDiverge,
      clientIgnores: o.clientIgnores.map((ignore) => ignore.summary),
    };
  }
  if (run.kind === 'ledger') {
    // Which connection won and the ids it drew tell orderings apart, not endings: the counts do.
    const o = run.outcome;
    return {
      executions: o.executions,
      rejected: o.rejected,
      replayed: o.replayed,
      failed: o.failed,
      requests: o.requests,
      keyRecords: o.keyRecords,
      aliasIntact: o.aliasIntact,
      paymentTokenInLedger: o.paymentTokenInLedger,
    };
  }
  const kept = strip(run.outcome);
  return kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? { ...kept } : {};
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (/(Ms|AtMs|seq|Seq)$/.test(field) || field === 'atMs' || field === 'reason' || field === 'detail') continue;
    kept[field] = strip(inner);
  }
  return kept;
}

/** How many choices a schedule string holds (`-` holds none). */
function choiceCount(schedule: string): number {
  return schedule === EMPTY_SCHEDULE ? 0 : schedule.split('.').length;
}

/**
 * Whether breach `a` comes sooner than `b`: fewer events before it (`step`), then (a component's) an
 * earlier virtual instant, then fewer choices to replay. Ties keep `b`, the one found first.
 */
function sooner(
  a: { readonly step: number; readonly schedule: string; readonly atMs?: number },
  b: { readonly step: number; readonly schedule: string; readonly atMs?: number },
): boolean {
  if (a.step !== b.step) return a.step < b.step;
  if (a.atMs !== undefined && b.atMs !== undefined && a.atMs !== b.atMs) return a.atMs < b.atMs;
  return choiceCount(a.schedule) < choiceCount(b.schedule);
}

interface Tally {
  count: number;
  /** By `endingKey`, in the order first met. */
  endings: Map<string, Ending>;
}

interface Frame {
  readonly prefix: Choice[];
  readonly key: string;
  readonly options: Choice[];
  next: number;
  readonly children: Set<string>;
  readonly tally: Tally;
  /** The events asleep at this choice (the reduction), as the run that found it left them. */
  readonly sleep: readonly Asleep[];
  /** Per option explored (a same-instant choice), the footprint of the event it ran, once a run finished that event. */
  readonly footprints: (Footprint | undefined)[];
  /** The history of the run that found this choice, up to it: runs through it hash on from there. */
  readonly mark: HistoryMark;
}

/** A new choice a run met: the state a frame is made of. */
interface Point {
  readonly prefix: Choice[];
  readonly key: string;
  readonly options: Choice[];
  readonly sleep: readonly Asleep[];
  readonly mark: HistoryMark;
}

/**
 * A run that ended: its state key, how it ended, and its driver, whose choices give the ending's
 * schedule once the ending is kept (`settle`): most leaves are an ending their frame has already, and
 * need none.
 */
interface Leaf {
  readonly kind: 'leaf';
  readonly key: string;
  readonly ended: Pick<Ending, 'outcome' | 'distinct' | 'error'>;
  readonly driver: Driver;
}

/** How a run ended: at its end, at a new choice it did not go on from, or pruned by the reduction. */
type RunResult = Leaf | ({ kind: 'point' } & Point) | { kind: 'pruned' };

/**
 * What tells endings apart in a tally: the hash of the ending's JSON (`Hash.addValue`, which tells two
 * values apart exactly as their JSON texts, up to a 64-bit hash, as a state's key does). Its text was
 * the key before; writing it and hashing it again as a map key cost twice the walk.
 */
function endingKey(distinct: Ending['distinct']): string {
  const hash = new Hash();
  hash.addValue(distinct);
  return hash.digest();
}

/** A leaf's ending as a tally keeps it: one ordering, with the schedule that replays it. */
function keptEnding(leaf: Leaf): Ending {
  const { ended } = leaf;
  const schedule = leaf.driver.schedule();
  // Written out, not spread (a spread here cost a tenth of a short run); the fields in `Ending`'s order.
  return ended.error === undefined
    ? { outcome: ended.outcome, distinct: ended.distinct, count: 1, schedule }
    : { outcome: ended.outcome, distinct: ended.distinct, error: ended.error, count: 1, schedule };
}

function merge(into: Tally, from: Tally): void {
  into.count += from.count;
  for (const [key, ending] of from.endings) {
    const have = into.endings.get(key);
    if (have === undefined) into.endings.set(key, { ...ending });
    else have.count += ending.count;
  }
}

/**
 * A run's plan and its parts, made by `new` and `Array.of`, not written as literals: V8 came to
 * allocate those literals straight in its old generation (allocation-site pretenuring), where a dead
 * run's plan kept what it holds alive through the young-generation collections after it (see
 * `DriverHooks` in explore/driver.ts). Instances of a class are allocated young.
 */
class Plan implements SleepPlan {
  constructor(
    readonly inherited: readonly Asleep[],
    readonly siblings: readonly Sibling[],
  ) {}
}

class Sibling {
  constructor(
    readonly value: number,
    readonly footprint: Footprint,
  ) {}
}

/** Progress of an exploration, for a bar: states visited, orderings told apart so far. */
export interface ExploreProgress {
  states: number;
  schedules: number;
  violations: number;
  /** Share of the tree's first levels already explored, 0 … 1 (an estimate). */
  fraction: number;
}

/**
 * An exploration that runs in slices (`advance`), so a worker can report progress and stop between
 * them; `explore` runs one to the end.
 */
export class Exploration {
  private readonly scenario: Scenario;
  private readonly options: ExploreOptions;
  private readonly bound: number;
  readonly transport: Transport;
  private settings: Settings | null = null;
  private readonly memo = new Map<string, Tally>();
  private readonly stack: Frame[] = [];
  private readonly violations = new Map<string, Violation>();
  private readonly componentBreaches = new Map<string, ComponentViolation>();
  private violationCount = 0;
  private root: Tally | null = null;
  private runs = 0;
  private cut = false;
  /** Whether a run goes on past the new states it meets (`ExploreOptions.continueRuns`). */
  private readonly continueRuns: boolean;
  /** Whether the partial-order reduction applies: on, and the scenario's model is reducible. */
  private readonly reducible: boolean;
  /** Every run starts on a new empty ledger: one the last run closed, made new (see `LedgerRecycler`). */
  private readonly recycler: LedgerRecycler | null;
  /** The run every ordering runs: the options, with the host's ledger given the recycler (built once, not per run). */
  private readonly run: ExploreOptions;
  /** The settings the invariants are checked with: the scenario's, overridden by the exploration's (the same for every run). */
  private readonly checkedSettings: Settings;
  /** The runs made, by the kind of their last choice, and those the reduction pruned (`runsByChoice`). */
  private readonly runsBy: RunsByChoice = { first: 0, arrival: 0, sameInstant: 0, pruned: 0, made: 0 };
  /** The fixed delays the runs of this pass offer arrivals from (`Driver`'s `knownDelays`); null before the survey run. */
  private knownDelays: number[] | null = null;
  /** The survey run's events no arrival moves (`Driver`'s `fixedTimes`). */
  private fixedTimes: FixedTimes = NO_FIXED_TIMES;
  /** The words its runs hash field names by (`FieldNames`): one table for every run, so equal histories hash alike. */
  private readonly names = new FieldNames();
  /** The chooser and hooks every run's driver takes (`Driver.slot`): made once, not per run. */
  private readonly slot = Driver.slot();

  constructor(scenario: Scenario, options: ExploreOptions = {}) {
    const bound = options.bound ?? DEFAULT_EXPLORE_BOUND;
    if (!(Number.isSafeInteger(bound) && bound >= 1))
      throw new LabError(
        'LAB005',
        `bound=${JSON.stringify(bound)} is not a whole number of at least 1; nothing was explored`,
      );
    this.scenario = scenario;
    this.options = options;
    this.bound = bound;
    this.transport = options.transport ?? scenario.defaultTransport;
    this.continueRuns = options.continueRuns ?? true;
    this.reducible = options.reduction !== false && (options.reducible ?? REDUCIBLE_MODELS).has(scenario.kind);
    this.checkedSettings = { ...scenario.settings, ...((options.settings ?? {}) as Settings) };
    const ledger = options.ledger;
    // A student's parts may run any SQL on the connections (a TEMP table lives as long as its
    // connection): their runs start on new files, as do those of a host that keeps the bytes.
    this.recycler =
      ledger === undefined || ledger.save !== undefined || options.components !== undefined
        ? null
        : new LedgerRecycler();
    this.run =
      ledger === undefined || this.recycler === null
        ? options
        : { ...options, ledger: { ...ledger, recycle: this.recycler } };
  }

  get done(): boolean {
    return this.root !== null;
  }

  /** What the runs so far tried at their last choice, and how many the reduction pruned: what a reduction ratio is made of. */
  runsByChoice(): RunsByChoice {
    return { ...this.runsBy };
  }

  progress(): ExploreProgress {
    let fraction = 0;
    let width = 1;
    for (const frame of this.stack.slice(0, 4)) {
      width /= Math.max(1, frame.options.length);
      fraction += Math.max(0, frame.next - 1) * width;
    }
    return {
      states: this.runs,
      schedules: (this.root ?? this.stack[0]?.tally)?.count ?? 0,
      violations: this.violationCount,
      fraction: this.done ? 1 : Math.min(1, fraction),
    };
  }

  /** Runs up to `runs` more runs; true when the exploration is over (complete or bounded). */
  advance(runs: number): boolean {
    // Over, or failed (a LabError on bad input ends it too): the recycled ledgers are closed.
    let over = true;
    try {
      over = this.advanceRuns(runs);
      return over;
    } finally {
      if (over) this.recycler?.dispose();
    }
  }

  private advanceRuns(runs: number): boolean {
    this.knownDelays ??= this.survey();
    return this.advancePass(runs);
  }

  private survey(): number[] {
    if (this.options.criticalArrivals === false) return [];
    const survey = surveyOf(this.scenario, this.run, this.checkedSettings, this.options.components?.());
    this.fixedTimes = survey.fixedTimes;
    return survey.knownDelays;
  }

  private advancePass(runs: number): boolean {
    if (this.root !== null) return true;
    for (let left = runs; left > 0; left -= 1) {
      if (this.stack.length === 0) {
        // The first run: the whole tree is one leaf, or its root is the first choice.
        const first = this.runOnce([]);
        this.runsBy.first += 1;
        if (this.settle(first)) return true;
        continue;
      }
      const top = this.stack[this.stack.length - 1] as Frame;
      if (top.next >= top.options.length) {
        this.stack.pop();
        this.memo.set(top.key, top.tally);
        const parent = this.stack[this.stack.length - 1];
        if (parent === undefined) {
          this.root = top.tally;
          return true;
        }
        parent.children.add(top.key);
        merge(parent.tally, top.tally);
        left += 1; // popping runs nothing
        continue;
      }
      if (this.runs >= this.bound) {
        this.cut = true;
        this.unwind();
        return true;
      }
      const option = top.options[top.next] as Choice;
      const choices = [...top.prefix, option];
      const plan = this.planFor(top);
      top.next += 1;
      this.countState(option);
      this.settle(this.runOnce(choices, plan, top.mark));
    }
    return false;
  }

  /** Counts a state by the kind of the choice its run took last (`runsByChoice`). */
  private countState(option: Choice): void {
    if (option.kind === 'j') this.runsBy.arrival += 1;
    else this.runsBy.sameInstant += 1;
  }

  /**
   * Takes a run's result into the frame whose option it ran last: the deepest on the stack (a run
   * that went on past new states pushed a frame for each, see `goOn`). True when the exploration is
   * over (the first run met no choice).
   */
  private settle(result: RunResult): boolean {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      assert(result.kind !== 'pruned', 'the first run has nothing asleep');
      if (result.kind === 'leaf') {
        this.root = { count: 1, endings: new Map([[endingKey(result.ended.distinct), keptEnding(result)]]) };
        return true;
      }
      this.push(result, 0);
      return false;
    }
    if (result.kind === 'pruned') {
      this.runsBy.pruned += 1;
      return false;
    }
    if (top.children.has(result.key)) return false;
    if (result.kind === 'leaf') {
      top.children.add(result.key);
      // One ordering's ending, made for this run and held by no other tally: counted in as it is.
      // Its key is made only here: a leaf the frame has met already is dropped above.
      const key = endingKey(result.ended.distinct);
      top.tally.count += 1;
      const have = top.tally.endings.get(key);
      if (have === undefined) top.tally.endings.set(key, keptEnding(result));
      else have.count += 1;
      return false;
    }
    const known = this.memo.get(result.key);
    if (known !== undefined) {
      top.children.add(result.key);
      merge(top.tally, known);
      return false;
    }
    this.push(result, 0);
    return false;
  }

  /** A new state's frame on the stack, its options from `next` on still to run. */
  private push(point: Point, next: number): void {
    this.stack.push({
      prefix: point.prefix,
      key: point.key,
      options: point.options,
      next,
      children: new Set(),
      tally: { count: 0, endings: new Map() },
      sleep: point.sleep,
      footprints: [],
      mark: point.mark,
    });
  }

  /**
   * A run met a new choice: it goes on with the choice's first option (true) when the state is new
   * and the bound leaves room for it, exactly where the run of that option would have been made next
   * (the deepest frame's first option runs first); else it stops there, and `settle` takes what it
   * found as a run stopped at its first new choice. Either way the same states are visited in the
   * same order, with the same results: going on only saves the replay of the choices before it.
   */
  private goOn(stop: Stop, taken: readonly Choice[]): boolean {
    const top = this.stack[this.stack.length - 1];
    if ((top !== undefined && top.children.has(stop.key)) || this.memo.has(stop.key) || this.runs >= this.bound)
      return false;
    // The run goes on: the sleep set it leaves here moves on with it.
    this.push(
      { prefix: taken.slice(), key: stop.key, options: stop.options, sleep: [...stop.sleep], mark: stop.mark },
      1,
    );
    this.runs += 1;
    this.countState(stop.options[0] as Choice);
    return true;
  }

  /**
   * What a run from `frame`'s next option is told of the reduction: the events asleep there, and for a
   * same-instant choice the options explored before it whose event's footprint is known (one whose
   * runs all stopped before its event was over stays awake: never asleep wrongly). Null: reduction off.
   */
  private planFor(frame: Frame): SleepPlan | null {
    if (!this.reducible) return null;
    const siblings = Array.of<Sibling>();
    const option = frame.options[frame.next] as Choice;
    if (option.kind === 'c') {
      for (let index = 0; index < frame.next; index += 1) {
        const footprint = frame.footprints[index];
        if (footprint !== undefined) siblings.push(new Sibling((frame.options[index] as Choice).value, footprint));
      }
    }
    return new Plan(frame.sleep, siblings);
  }

  /** Keeps, for each frame on the path a run went through, the footprint of the event its current option ran. */
  private keepFootprints(driver: Driver): void {
    for (const frame of this.stack) {
      const depth = frame.prefix.length;
      const index = frame.next - 1;
      if (index < 0 || frame.footprints[index] !== undefined) continue;
      const footprint = driver.footprints[depth];
      if (footprint !== undefined) frame.footprints[index] = footprint;
    }
  }

  /** Ends a bounded exploration: what was explored so far is merged up to the root. */
  private unwind(): void {
    let below: Frame | undefined;
    while (this.stack.length > 0) {
      const frame = this.stack.pop() as Frame;
      if (below !== undefined && !frame.children.has(below.key)) merge(frame.tally, below.tally);
      below = frame;
    }
    this.root = below?.tally ?? { count: 0, endings: new Map() };
  }

  /** Every run's dimensions, checked and resolved by the first run that gets that far (`scenarioRunner`). */
  private runner: ((run: OwnRun) => Transcript) | null = null;

  /** One ordering's run: `runScenario` with the exploration's run (`orderingRun`), its dimensions resolved once. */
  private runOrdering(run: OwnRun): Transcript {
    this.runner ??= scenarioRunner(this.scenario, orderingsRun(this.run));
    return this.runner(run);
  }

  /** The run of `driver`'s ordering: the shared hooks (`slot`) forward to it till the run is over, and to no driver after. */
  private runWith(driver: Driver, components: Components | undefined): Transcript {
    try {
      return this.runOrdering({ chooser: driver.chooser, components });
    } finally {
      this.slot.driver = null;
    }
  }

  private runOnce(choices: Choice[], plan: SleepPlan | null = null, mark: HistoryMark | null = null): RunResult {
    this.runs += 1;
    this.runsBy.made += 1;
    const components = this.options.components?.();
    const driver = new Driver(
      choices,
      true,
      this.checkedSettings,
      this.options.mergeStates ?? true,
      this.options.criticalArrivals ?? true,
      components === undefined ? null : () => components.probe.trail,
      plan,
      this.reducible,
      mark,
      this.knownDelays ?? [],
      this.fixedTimes,
      this.names,
      this.slot,
    );
    if (components !== undefined) components.probe.scheduleNow = () => driver.schedule();
    if (this.continueRuns) driver.goOn = (stop) => this.goOn(stop, driver.taken);
    let ended: Leaf['ended'];
    try {
      const transcript = this.runWith(driver, components);
      this.settings ??= transcript.settings;
      driver.finish();
      // A run is a function of its choices: one given the choices of a state found earlier meets them all again.
      assert(
        driver.taken.length >= choices.length,
        () => `the run met ${driver.taken.length} of the ${choices.length} choices it replays`,
      );
      this.keepFootprints(driver);
      driver.checker.finish(this.scenario.kind, transcript.outcome);
      ended = { outcome: transcript.outcome, distinct: endingOf(transcript) };
    } catch (error) {
      this.keepFootprints(driver);
      if (error instanceof Stop) {
        // Past the choices it replays and those it went on with: one per frame it pushed, the deepest's included.
        const took = this.stack.length === 0 ? 0 : (this.stack[this.stack.length - 1] as Frame).prefix.length + 1;
        assert(
          driver.taken.length === took && error.options.length > 0,
          () =>
            `a run stops at the first choice it does not go on from, past the ${took} it took, with an option to take (it took ${driver.taken.length}, offered ${error.options.length})`,
        );
        this.collect(driver, components);
        return {
          kind: 'point',
          prefix: driver.taken,
          key: error.key,
          options: error.options,
          sleep: error.sleep,
          mark: error.mark,
        };
      }
      if (error instanceof Pruned) {
        // Another ordering, the same but for swapped independent events, was explored: its breaches stand for this one's.
        this.collect(driver, components);
        return { kind: 'pruned' };
      }
      // A LabError on bad input is the user's to see; any other failure in some ordering is an ending of its own.
      if (
        error instanceof LabError &&
        (error.code === 'LAB004' ||
          error.code === 'LAB005' ||
          error.code === 'LAB022' ||
          error.code === 'LAB011' ||
          error.code === 'LAB050')
      )
        throw error;
      const message = error instanceof Error ? error.message : String(error);
      ended = { outcome: null, distinct: { error: message }, error: message };
    }
    this.collect(driver, components);
    return { kind: 'leaf', key: driver.endKey(), ended, driver };
  }

  /**
   * Keeps, per broken statement (`invariant|explanation`), the ordering that breaks it soonest among
   * the runs made so far: the fewest events before the break (smallest `step`), then the fewest
   * choices in its schedule; a later run replaces the kept one only when strictly sooner, so the same
   * exploration keeps the same one every time. A statement the cap (`VIOLATIONS_KEPT`) leaves out
   * stays out: `violationCount` counts exactly as when the first ordering found was kept.
   *
   * What "soonest" means exactly: the minimum over the orderings this exploration actually ran, each
   * up to the point where it stopped (a new choice, or a state already explored). Every run's
   * breaches are collected, including those before it stops at a merged state, so with
   * `mergeStates: false` (states told apart by their whole history: two runs merge only when their
   * events are identical, and then so are their breach steps) the kept step is the true minimum over
   * every ordering. With merging it can be larger: a state reached first by a longer prefix is
   * explored once, so a breach in its suffix is observed only at that prefix's step; a second
   * prefix reaching the same state in fewer events (events whose order or count the model's
   * description does not keep) would break it sooner but is never run past the merge. Shortest then
   * means shortest among the orderings run, and its schedule still replays to that breach at that
   * step (`run --schedule`).
   */
  private collect(driver: Driver, components: Components | undefined): void {
    for (const breach of components?.probe.breaches ?? []) {
      const id = `${breach.statement}|${breach.explanation}`;
      const kept = this.componentBreaches.get(id);
      if (kept === undefined && this.componentBreaches.size >= VIOLATIONS_KEPT) continue;
      const found: ComponentViolation = {
        statement: breach.statement,
        schedule: breach.schedule ?? driver.schedule(),
        step: breach.step,
        atMs: breach.atMs,
        explanation: breach.explanation,
      };
      if (kept === undefined || sooner(found, kept)) this.componentBreaches.set(id, found);
    }
    driver.checker.found.forEach((breach, index) => {
      const id = `${breach.invariant}|${breach.explanation}`;
      const kept = this.violations.get(id);
      const found: Violation = {
        invariant: breach.invariant,
        schedule: driver.breachSchedules[index] ?? driver.schedule(),
        step: breach.step,
        explanation: breach.explanation,
      };
      if (kept !== undefined) {
        // Map.set on a key it has keeps the key's place: the report's order stays that of first finding.
        if (sooner(found, kept)) this.violations.set(id, found);
        return;
      }
      this.violationCount += 1;
      if (this.violations.size >= VIOLATIONS_KEPT) return;
      this.violations.set(id, found);
    });
  }

  private shortest: ShortestOrdering[] | null = null;

  result(): ExploreResult {
    assert(this.root !== null, 'the exploration is over before its result is read');
    const root = this.root;
    assert(
      [...root.endings.values()].reduce((sum, ending) => sum + ending.count, 0) === root.count,
      'every ordering counted ends in exactly one ending',
    );
    const { options } = this;
    // With a student's parts the grader shrinks (exercise/grade.ts): it owns their instances and disposes each.
    this.shortest ??=
      options.components === undefined ? shortestOrderings(this.scenario, options, [...this.violations.values()]) : [];
    const endings = [...this.root.endings.values()].sort(
      (a, b) => b.count - a.count || JSON.stringify(a.distinct).localeCompare(JSON.stringify(b.distinct)),
    );
    return {
      scenario: this.scenario.id,
      kind: this.scenario.kind,
      transport: this.transport,
      // Every ordering may have failed before its transcript: the settings given, over the scenario's, then.
      settings: this.settings ?? ({ ...this.scenario.settings, ...this.options.settings } as Settings),
      schedules: this.root.count,
      states: this.runs,
      complete: !this.cut,
      endings,
      violations: [...this.violations.values()],
      shortest: this.shortest,
      ...(this.options.components === undefined ? {} : { componentBreaches: [...this.componentBreaches.values()] }),
      verdict: violationsVerdict({ violations: [...this.violations.values()], complete: !this.cut, states: this.runs }),
    };
  }
}

/**
 * The survey run (the ordering that takes every first option; not counted as a state): the fixed
 * delays an exploration offers arrivals from (`Driver`'s `knownDelays`), and the events no arrival
 * moves with the delays the others arm (`Driver`'s `fixedTimes`), sorted. Every run of the
 * exploration is given the same ones, so they are no part of a state's key.
 */
export function surveyOf(
  scenario: Scenario,
  run: ExplorationRun,
  settings: Settings,
  components: Components | undefined = undefined,
): { knownDelays: number[]; fixedTimes: FixedTimes } {
  const driver = new Driver([], false, settings, false, true);
  const finds = driver.startSurvey();
  try {
    runScenario(scenario, orderingRun(run, driver.chooser, components));
  } catch {
    // A failing ordering still scheduled what it did before failing.
  }
  const sorted = (values: Set<number>): number[] => [...values].sort((a, b) => a - b);
  return {
    knownDelays: sorted(finds.fixedDelays),
    fixedTimes: {
      instants: [...finds.fixedEvents.values()].sort((a, b) => a.atMs - b.atMs || a.parties - b.parties),
      reactiveDelays: sorted(finds.reactiveDelays),
      ...chainsOf(finds.chains.values()),
    },
  };
}

/**
 * The survey's chains by the channel whose delivery started them and by actor, each as `Chain` (equal
 * ones once, in the order met).
 */
function chainsOf(found: Iterable<SurveyChain>): Pick<FixedTimes, 'channelChains' | 'actorChains'> {
  const channelChains = new Map<string, Chain[]>();
  const actorChains = new Map<Actor, Chain[]>();
  const seen = new Set<string>();
  for (const { actor, channel, offsets } of found) {
    const key = `${actor} ${channel} ${offsets.join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const chain = chainOf(offsets);
    if (channel !== '') channelChains.set(channel, [...(channelChains.get(channel) ?? []), chain]);
    actorChains.set(actor, [...(actorChains.get(actor) ?? []), chain]);
  }
  return { channelChains, actorChains };
}

function chainOf(offsets: readonly number[]): Chain {
  const ahead = new Set<number>();
  for (let from = 0; from < offsets.length; from += 1)
    for (let to = from + 1; to < offsets.length; to += 1)
      ahead.add((offsets[to] as number) - (offsets[from] as number));
  let stepMs = offsets.length > 1 ? (offsets[1] as number) - (offsets[0] as number) : 0;
  for (let index = 2; index < offsets.length; index += 1)
    if ((offsets[index] as number) - (offsets[index - 1] as number) !== stepMs) stepMs = 0;
  return { offsets: [...offsets], ahead: [...ahead].sort((a, b) => a - b), stepMs };
}

/** Explores every ordering of one scenario (the CLI's `lab explore`). */
export function explore(scenario: Scenario, options: ExploreOptions = {}): ExploreResult {
  const exploration = new Exploration(scenario, options);
  while (!exploration.advance(10_000)) {
    // each slice runs up to 10,000 runs; the bound ends an exploration that would not
  }
  return exploration.result();
}
