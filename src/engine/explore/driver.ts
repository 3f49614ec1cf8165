import { assert } from '../core/assert';
import { LabError } from '../core/errors';
import type { Actor, ArrivalWindow, DueEvent, ExplorerHooks, ExploringChooser, Scheduler } from '../core/scheduler';
import type { Settings } from '../core/transcript';
import { InvariantChecker, type Seen } from './invariants';
import { formatSchedule, type Choice } from '../core/schedule';

/** Distinct delays an arrival's critical points are computed from: a bound, like everything else. */
const DELAYS_MAX = 64;

/**
 * What the survey run finds of the events no arrival moves (`SurveyFinds.fixedEvents`): their instants
 * and parties (every one it armed, run or withdrawn), and the delays the other events arm
 * (`SurveyFinds.reactiveDelays`). The same for every run.
 */
export interface FixedTimes {
  readonly instants: readonly { readonly atMs: number; readonly parties: number }[];
  readonly reactiveDelays: readonly number[];
  /** The chains a delivery of a message on each channel (by its key) started: the work a tools/call starts, the idle deadline progress re-arms. */
  readonly channelChains: ReadonlyMap<string, readonly Chain[]>;
  /** The chains of each actor's events: where a queued or running event of that actor's chain goes on. */
  readonly actorChains: ReadonlyMap<Actor, readonly Chain[]>;
}

/**
 * A chain of events (`SurveyFinds.chains`): one actor's events, each armed by the one before it (a
 * worker's chunks of work), started by a delivery or by another actor's event.
 */
export interface Chain {
  /** Each event's instant less the instant the chain started at (the first chunk's end, the second's, …). */
  readonly offsets: readonly number[];
  /** From an event of the chain to a later one: every difference of two offsets, ascending. */
  readonly ahead: readonly number[];
  /**
   * The step every event of the chain was armed with, when it is one step throughout and the chain has at
   * least two events (the survey may have stopped the work early: it goes on by this step); else 0.
   */
  readonly stepMs: number;
}

export const NO_FIXED_TIMES: FixedTimes = {
  instants: [],
  reactiveDelays: [],
  channelChains: new Map(),
  actorChains: new Map(),
};

/** What the survey run keeps as it goes (`Driver.startSurvey`), for `surveyOf` to read. */
export interface SurveyFinds {
  /**
   * The delays of the events it scheduled that are not a message's delivery (timers, chunks of work,
   * the user's actions) and the base latency of every window it met: the fixed lengths a chain of
   * events is made of (`knownDelays`).
   */
  readonly fixedDelays: Set<number>;
  /** The instant and party of each event no arrival moves, by `atMs parties`: every one armed, run or withdrawn. */
  readonly fixedEvents: Map<string, { readonly atMs: number; readonly parties: number }>;
  /** The delays every other event arms: the chunks of work a request's arrival starts, a deadline progress resets. */
  readonly reactiveDelays: Set<number>;
  /** The seqs of the events no arrival moves. */
  readonly fixedSeqs: Set<number>;
  /** The channel key of every delivery's message, by the delivery's seq. */
  readonly deliveries: Map<number, string>;
  /** The chains of events one actor armed one after another (no delivery, none fixed), by the seq of the first. */
  readonly chains: Map<number, SurveyChain>;
  /** For each event of a chain, by seq: its chain's first event's seq and its offset from the chain's start. */
  readonly inChain: Map<number, { readonly first: number; readonly offsetMs: number }>;
}

/** A chain as the survey run records it (see `Chain`): its actor, the channel of the delivery that started it ('' for none). */
export interface SurveyChain {
  readonly actor: Actor;
  readonly channel: string;
  readonly offsets: number[];
}

/** Thrown inside a run when it meets its first new choice: the explorer has what it needs. */
export class Stop {
  constructor(
    readonly key: string,
    readonly options: Choice[],
    /** The events asleep at this choice (the partial-order reduction): what runs from here inherit. */
    readonly sleep: readonly Asleep[],
    /** The run's history up to this choice: what a run through it again starts hashing from. */
    readonly mark: HistoryMark,
  ) {}
}

/**
 * The history of a run at a choice it met: the hash of every event observed before it, and how many.
 * Every run that gives the same choices up to there replays the same events (a run is a function of
 * its choices), so a run from that choice need not hash them again: it observes them (the invariants
 * still see each one) and takes the hash from the mark when it reaches the choice. The keys are the
 * very ones a run that hashed every event computes.
 */
export interface HistoryMark {
  readonly hash: Hash;
  readonly observed: number;
}

/**
 * Thrown inside a run the partial-order reduction finds redundant: it is about to run an event that
 * sleeps (an ordering that only swaps it with independent events was explored already), or a
 * same-instant choice where every event due sleeps.
 */
export class Pruned {}

/**
 * What an event touched as it ran (the partial-order reduction's footprint): the parties it is or
 * changed (bit 1 the client, bit 2 the server with its worker; the transport is both), the channels
 * it sent on or delivered from, and `all` when it touched what every event touches (a fault counted
 * over the log, every channel at once).
 */
export interface Footprint {
  parties: number;
  /** `NO_CHANNELS` until the event touches one (`touched`): many touch none, and a set made per event for nothing cost. */
  channels: ReadonlySet<string>;
  all: boolean;
}

/** The channels of an event that touched none yet: shared, never added to (`touched` makes a set of the event's own). */
const NO_CHANNELS: ReadonlySet<string> = new Set();

/**
 * A running event's footprint (`Driver.step`), made by `new`, not written as an object literal: most
 * die with their run, but those a frame keeps for its siblings live as long as the frame, and V8 came
 * to allocate the literal straight in its old generation (allocation-site pretenuring), where every
 * short-lived one then waited for a full collection. Instances of a class are allocated young.
 */
class EventFootprint implements Footprint {
  parties: number;
  channels: ReadonlySet<string> = NO_CHANNELS;
  all = false;

  constructor(parties: number) {
    this.parties = parties;
  }
}

/**
 * The set of one channel, for every footprint whose event touched only that channel: shared, never
 * added to (most events touch one channel, the same few over an exploration's runs; a set made for
 * each was a fiftieth of what a run allocated). Bounded like the checker's tables.
 */
const ONE_CHANNEL = new Map<string, ReadonlySet<string>>();
const ONE_CHANNEL_MAX = 4096;

function oneChannel(channel: string): ReadonlySet<string> {
  let channels = ONE_CHANNEL.get(channel);
  if (channels === undefined) {
    if (ONE_CHANNEL.size >= ONE_CHANNEL_MAX) ONE_CHANNEL.clear();
    channels = new Set([channel]);
    ONE_CHANNEL.set(channel, channels);
  }
  return channels;
}

/**
 * `footprint`'s event touched `channel`. Its channels are `NO_CHANNELS`, a shared set of one
 * (`oneChannel`), or, from its second channel on, a set of its own: only a set of two or more is added to.
 */
function touched(footprint: Footprint, channel: string): void {
  const channels = footprint.channels;
  if (channels.size === 0) footprint.channels = oneChannel(channel);
  else if (channels.has(channel)) return;
  else if (channels.size === 1) footprint.channels = new Set([...channels, channel]);
  else (channels as Set<string>).add(channel);
}

const PARTY: Record<Actor, number> = { client: 1, server: 2, worker: 2, transport: 3 };

/**
 * Two events are independent when neither touched what the other did: disjoint parties, disjoint
 * channels, neither touching everything. Withdrawing an event counts as touching its party, so an
 * event that disables another is never independent of it.
 */
export function independent(a: Footprint, b: Footprint): boolean {
  if (a.all || b.all || (a.parties & b.parties) !== 0) return false;
  for (const channel of a.channels) if (b.channels.has(channel)) return false;
  return true;
}

/** An event that sleeps: explored first from an earlier state, only commuted past since. */
export interface Asleep {
  readonly seq: number;
  /** `atMs actor label`, as the queue lists it: what the state key names it by. */
  readonly text: string;
  readonly footprint: Footprint;
}

/** What the explorer tells a run about the reduction at the last choice it gives. */
export interface SleepPlan {
  /** The events asleep at that choice (inherited from where it was found). */
  readonly inherited: readonly Asleep[];
  /** For a same-instant choice: the options explored before this one, with the footprint of the event each ran. */
  readonly siblings: readonly { readonly value: number; readonly footprint: Footprint }[];
}

/** `Hash.addValue`'s tags: past every UTF-16 code unit, so none is read as a character. */
const TAG_NULL = 0x10000;
const TAG_TRUE = 0x10001;
const TAG_FALSE = 0x10002;
const TAG_INTEGER = 0x10003;
const TAG_NUMBER = 0x10004;
const TAG_STRING = 0x10005;
const TAG_ARRAY = 0x10006;
const TAG_OBJECT = 0x10007;
const TAG_END = 0x10008;
/** Not a tag: what `valueTag` returns when the value's words are all added already. */
const TAG_DONE = -1;
/** A float64's bits as four 16-bit words (the byte order of the machine: the same for every run of one exploration). */
const FLOAT = new Float64Array(1);
const FLOAT_WORDS = new Uint16Array(FLOAT.buffer);

/** What JSON writes for `value` as the member `name`: its `toJSON(name)` where it has one, else itself. */
function jsonOf(value: unknown, name: string | number): unknown {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON(key: string): unknown }).toJSON(String(name))
    : value;
}

/** The word of the first field name a `FieldNames` names: past every tag. */
const NAME_FIRST = 0x10010;
/** Most field names one `FieldNames` names; a name met after it is full is hashed by its code units, always. */
const NAMES_MAX = 4096;

/**
 * One word for each field name an exploration's histories hold, in place of its tag, length and code
 * units: the same few dozen names (`causeSeq`, `io.modelcontextprotocol/protocolVersion`) recur in
 * every event of every run, and hashing their characters was two fifths of a history's words. A
 * name's word is its place in first-met order and is kept for the whole exploration (never reused or
 * dropped), so equal histories hash alike; distinct names get distinct words, all past the tags and
 * the code units, and a value never starts with one, so an object's members still read one way only.
 * Once full, a name not met yet is hashed as a string, each time: still one encoding per name. Only
 * names: a property name's own hash is cached by the engine, so looking one up is cheaper than hashing
 * its characters, while a string value (a reason, a summary) is mostly made afresh in each run, and
 * a lookup would hash it all the same. Words are compared only within one exploration.
 */
export class FieldNames {
  private readonly words = new Map<string, number>();

  /** `name`'s word, or `TAG_DONE` when it has none (the table was full when it was first met). */
  of(name: string): number {
    const known = this.words.get(name);
    if (known !== undefined) return known;
    if (this.words.size >= NAMES_MAX) return TAG_DONE;
    const word = NAME_FIRST + this.words.size;
    this.words.set(name, word);
    return word;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A 64-bit string hash (two FNV-1a lanes): collisions are negligible for the states one explorer meets. */
export class Hash {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x5bd1e995;

  /** `names`: the exploration's words for field names (`FieldNames`); null hashes every name as a string. */
  constructor(private readonly names: FieldNames | null = null) {}

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

  /**
   * Adds a JSON value by a walk of its structure, no text built: what it adds is a function of the
   * value's `JSON.stringify` text and tells every two texts apart (up to the hash), so a history hashed
   * so discriminates exactly as one hashed from that text did. Each value starts with a tag no
   * character code takes (> 0xffff); a string adds its length, then its code units; an integer its two
   * 16-bit halves, any other finite number the four of its float64 bits; arrays and objects end with a
   * tag of their own, and an object's members are each a name (a string, or its word: `FieldNames`)
   * and a value. JSON's rules hold: `toJSON` is called, a non-finite number is null, -0 is 0,
   * an undefined, function or symbol member is left out of an object and null in an array.
   */
  addValue(value: unknown): void {
    this.word(this.valueTag(jsonOf(value, '')));
  }

  /** Adds `value` (its `toJSON` already called) up to its last word, which it returns (`TAG_DONE`: none left). */
  private valueTag(value: unknown): number {
    switch (typeof value) {
      case 'string':
        this.string(value);
        return TAG_DONE;
      case 'number':
        return this.number(value);
      case 'boolean':
        return value ? TAG_TRUE : TAG_FALSE;
      case 'object':
        break;
      // Left out of an object (`member`), null in an array. No event holds a bigint (JSON cannot write
      // one); it is named so that every typeof is a case.
      case 'undefined':
      case 'function':
      case 'symbol':
      case 'bigint':
        return TAG_NULL;
    }
    if (value === null) return TAG_NULL;
    if (Array.isArray(value)) {
      this.word(TAG_ARRAY);
      for (let index = 0; index < value.length; index += 1) this.word(this.valueTag(jsonOf(value[index], index)));
      return TAG_END;
    }
    this.word(TAG_OBJECT);
    const members = value as Record<string, unknown>;
    for (const field in members) {
      if (!hasOwn.call(members, field)) continue;
      const member = members[field];
      // The members events hold most (strings, numbers) are added here, with no call to `jsonOf` or `valueTag`.
      if (typeof member === 'string') {
        this.name(field);
        this.string(member);
      } else if (typeof member === 'number') {
        this.name(field);
        this.word(this.number(member));
      } else {
        const json = jsonOf(member, field);
        if (json === undefined || typeof json === 'function' || typeof json === 'symbol') continue;
        this.name(field);
        this.word(this.valueTag(json));
      }
    }
    return TAG_END;
  }

  /** A number up to its last word (`valueTag`'s case). */
  private number(value: number): number {
    if (value === (value | 0)) {
      // An integer of 32 bits (-0 is one: 0, as JSON writes it).
      this.word(TAG_INTEGER);
      this.word(value & 0xffff);
      this.word((value >>> 16) & 0xffff);
      return TAG_DONE;
    }
    if (!Number.isFinite(value)) return TAG_NULL;
    FLOAT[0] = value;
    this.word(TAG_NUMBER);
    for (let index = 0; index < 4; index += 1) this.word(FLOAT_WORDS[index] as number);
    return TAG_DONE;
  }

  /** A member's name: its word, where the exploration names it; else as a string. */
  private name(field: string): void {
    const word = this.names === null ? TAG_DONE : this.names.of(field);
    if (word === TAG_DONE) this.string(field);
    else this.word(word);
  }

  /** A string's tag, its length, then its code units. */
  private string(value: string): void {
    let { a, b } = this;
    const length = value.length;
    a = Math.imul(a ^ TAG_STRING, 0x01000193);
    b = Math.imul(b ^ TAG_STRING, 0x5bd1e995) ^ (b >>> 15);
    a = Math.imul(a ^ (length & 0xffff), 0x01000193);
    b = Math.imul(b ^ (length & 0xffff), 0x5bd1e995) ^ (b >>> 15);
    a = Math.imul(a ^ (length >>> 16), 0x01000193);
    b = Math.imul(b ^ (length >>> 16), 0x5bd1e995) ^ (b >>> 15);
    for (let index = 0; index < length; index += 1) {
      const code = value.charCodeAt(index);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
  }

  /**
   * Adds `value`'s text as `String` writes it (what a template literal writes), as `add` would: a whole
   * number from 0 to 2^53 by its digits, with no text made; any other number by its `String`.
   */
  addDecimal(value: number): void {
    if (!(Number.isSafeInteger(value) && value >= 0)) {
      this.add(String(value));
      return;
    }
    let unit = 1;
    while (unit * 10 <= value) unit *= 10;
    let { a, b } = this;
    for (let rest = value; unit >= 1; unit /= 10) {
      const digit = Math.floor(rest / unit);
      rest -= digit * unit;
      const code = 0x30 + digit;
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
  }

  /** One word (a code unit, or a tag past them) into both lanes, as `add` adds a character. */
  private word(code: number): void {
    if (code === TAG_DONE) return;
    this.a = Math.imul(this.a ^ code, 0x01000193);
    this.b = Math.imul(this.b ^ code, 0x5bd1e995) ^ (this.b >>> 15);
  }

  /**
   * Both lanes as four UTF-16 code units (the 16-bit halves of each): a key of four characters, one
   * for every pair of lanes, made without the number formatting two base-36 texts cost. Keys are only
   * compared (the explorer's maps and sets), never shown.
   */
  digest(): string {
    const { a, b } = this;
    return String.fromCharCode(a & 0xffff, a >>> 16, b & 0xffff, b >>> 16);
  }

  fork(): Hash {
    const copy = new Hash(this.names);
    copy.a = this.a;
    copy.b = this.b;
    return copy;
  }
}

/**
 * A driver's hooks, made by `new`, not written as an object literal: V8 comes to allocate an object
 * literal made once per run straight in its old generation (allocation-site pretenuring), and the hooks
 * reach the driver and through it the whole run (scheduler, queue, model). Such a dead run's hooks kept
 * every object of the run alive through the next young-generation collection, which copied them to the
 * old generation in turn: the explorer spent more time collecting garbage than running orderings.
 * Instances of a class are allocated young.
 */
class DriverHooks implements ExplorerHooks {
  constructor(
    readonly arrival: ExplorerHooks['arrival'],
    readonly observe: ExplorerHooks['observe'],
    readonly attach: ExplorerHooks['attach'],
    readonly armed: NonNullable<ExplorerHooks['armed']>,
    readonly delivering: NonNullable<ExplorerHooks['delivering']>,
    readonly state: NonNullable<ExplorerHooks['state']>,
    readonly step: NonNullable<ExplorerHooks['step']>,
    readonly touch: NonNullable<ExplorerHooks['touch']>,
    readonly withdrawn: NonNullable<ExplorerHooks['withdrawn']>,
  ) {}
}

/** The chooser an exploration's runs share, and the driver of the run under way (`Driver.slot`). */
export interface DriverSlot {
  driver: Driver | null;
  readonly chooser: ExploringChooser;
}

/**
 * Drives one run: follows the given choices, then either takes the first option of every further
 * choice (a replay) or stops at the first new one (the explorer). Also checks the invariants.
 */
export class Driver {
  // Its lists are made by `Array.of`, not `[]`: V8 came to allocate the array literals a driver makes
  // per run straight in its old generation (allocation-site pretenuring; `taken` lives on as a frame's
  // prefix), where a dead run's lists kept what they hold alive through the young-generation
  // collections after it (see `DriverHooks`).
  readonly taken: Choice[] = Array.of<Choice>();
  /** Per choice taken, whether it was its point's first option (what a schedule may leave out at its end). */
  private readonly tookFirst: boolean[] = Array.of<boolean>();
  readonly checker: InvariantChecker;
  private history: Hash;
  /** Events observed so far (hashed into `history`, or replayed under `resume`'s mark). */
  private observed = 0;
  /** Whether events are hashed as they are observed: not while the run replays the events `resume` already hashed, nor in a replay. */
  private hashing: boolean;
  private scheduler: Scheduler | null = null;
  /**
   * Every delay this run has scheduled an event with other than a message's delivery (timer lengths,
   * chunks of work), for arrival candidates: what an arrival at t re-arms falls at t + d. A delivery's
   * latency is left out: a message the arrival's handler sends gets its own arrival choice, which
   * offers every queued instant in its window, so t + (a latency picked earlier) adds no order of
   * events, only instants (and, kept in a state's key, states that never merge).
   */
  private readonly delays = new Set<number>();
  /** `delays` as a state key writes them (sorted, joined), made again only when a delay is added. */
  private delaysText: string | null = null;
  /**
   * What the survey run finds (`startSurvey`); null on every other run, which finds nothing: an
   * exploration reads these from its one survey run only, and a set and a map made per run for
   * nothing were a tenth of what a run allocates.
   */
  private finds: SurveyFinds | null = null;
  /** Whether the running event is one no arrival moves (true before the first event). */
  private runningFixed = true;
  /** The running event's actor (null before the first): whose chain an arrival chosen now is sent from. */
  private runningActor: Actor | null = null;
  /** The survey run's running event's seq (-1 before the first). */
  private runningSeq = -1;
  /** The survey run's last arrival's channel: the delivery armed next carries that message. */
  private surveyChannel = '';
  /** Set by the wire just before it schedules a delivery (`delivering`): that delay is a picked arrival. */
  private deliveryNext = false;
  /** The model's own description of its state, when it gives one (`Sim.exploreState`). */
  private describe: (() => string) | null = null;
  /** The choices taken when each breach was found (so its schedule reaches it). */
  readonly breachSchedules: string[] = Array.of<string>();
  readonly chooser: ExploringChooser;
  /** The footprint of the event running now (null before the first). */
  private current: Footprint | null = null;
  /** Per choice taken at a same-instant point (by its index in `taken`), the footprint of the event it ran, once that event is over. */
  readonly footprints: (Footprint | undefined)[] = Array.of<Footprint | undefined>();
  /** The index in `taken` of the same-instant choice whose event runs now, or -1. */
  private currentChoice = -1;
  /** The component trail when the running event started (an event that moved it called the component). */
  private trailAtStart: string | null = null;
  /** The events asleep now; null until the reduction's plan applies (from the last given choice on). */
  private sleep: Asleep[] | null = null;
  /**
   * Asked at each new choice the run meets (the explorer's): true when the explorer made that choice a
   * state of its own and the run goes on with its first option offered, so a state's first child costs
   * no replay of the choices before it; false stops the run there (`Stop`). Null: stop at the first.
   * A run going on is the run a replay of its choices so far would be from there: same events, hash,
   * sleep set and footprints (a run is a function of its choices).
   */
  goOn: ((point: Stop) => boolean) | null = null;
  /** Set by a same-instant choice that adds the siblings to the sleep set once its event is known. */
  private pendingSiblings: {
    readonly candidates: readonly DueEvent[];
    readonly siblings: SleepPlan['siblings'];
  } | null = null;

  constructor(
    private readonly given: readonly Choice[],
    private readonly stopAtNew: boolean,
    settings: Settings,
    private readonly mergeStates = true,
    private readonly criticalArrivals = true,
    /** State outside the model's fields that its description must carry (a student's component's call trail). */
    private readonly extraState: (() => string) | null = null,
    /** The partial-order reduction's plan for the last given choice; null: none for this run. */
    private readonly plan: SleepPlan | null = null,
    /** Whether to record each event's footprint (the reduction is on for this exploration): off, the hooks cost nothing. */
    private readonly track = plan !== null,
    /** The history at the last given choice, as the run that found that choice left it; null: hash every event. */
    private readonly resume: HistoryMark | null = null,
    /**
     * The fixed delays the exploration knows up front (its survey run's `fixedDelays`, sorted), the
     * same for every run: an arrival is also offered where a queued event's own timer falls (q + d),
     * a delay this run may not have met yet when the arrival is chosen.
     */
    private readonly knownDelays: readonly number[] = [],
    /** The survey run's events no arrival moves and the delays the others arm (`FixedTimes`). */
    private readonly fixedTimes: FixedTimes = NO_FIXED_TIMES,
    /** The exploration's words for field names its histories hash (`FieldNames`), the same for every run; null: none. */
    names: FieldNames | null = null,
    /** The exploration's shared chooser and hooks (`Driver.slot`), which this run's driver takes; null: its own. */
    slot: DriverSlot | null = null,
  ) {
    this.history = new Hash(names);
    assert(resume === null || given.length > 0, 'a history mark belongs to a choice the run is given');
    // A replay (no stop at a new choice) names no state: it hashes nothing.
    this.hashing = resume === null && stopAtNew;
    this.checker = new InvariantChecker(settings);
    // A driver given no slot (a replay, a survey, a shrinking candidate) takes one of its own.
    const shared = slot ?? Driver.slot();
    shared.driver = this;
    this.chooser = shared.chooser;
  }

  /**
   * A chooser and hooks made once for the runs of one exploration, each forwarding to the driver of
   * the run under way (`slot.driver`, set by each new driver given the slot): a run then makes none of
   * its own (eleven functions and objects per run). Runs of one exploration never overlap.
   */
  static slot(): DriverSlot {
    const slot: { driver: Driver | null; chooser: ExploringChooser | null } = { driver: null, chooser: null };
    const driver = (): Driver => {
      assert(slot.driver !== null, 'the hooks are called only while a run is under way');
      return slot.driver;
    };
    const hooks: ExplorerHooks = new DriverHooks(
      (window) => driver().arrival(window),
      (event) => driver().observe(event),
      (scheduler) => driver().attach(scheduler),
      (delayMs, seq, actor) => driver().armed(delayMs, seq, actor),
      () => driver().delivering(),
      (describe) => driver().state(describe),
      (event) => driver().step(event),
      (channelKey) => driver().touch(channelKey),
      (actor) => driver().withdrawn(actor),
    );
    const chooser = Object.assign((candidates: readonly DueEvent[]) => driver().choose(candidates), {
      explorer: hooks,
    });
    slot.chooser = chooser;
    return slot as DriverSlot;
  }

  private attach(scheduler: Scheduler): void {
    this.scheduler = scheduler;
  }

  private armed(delayMs: number, seq: number, actor: Actor): void {
    const delivery = this.deliveryNext;
    this.deliveryNext = false;
    const finds = this.finds;
    if (finds !== null && delivery) finds.deliveries.set(seq, this.surveyChannel);
    if (finds !== null && !delivery) this.survey(finds, delayMs, seq, actor);
    if (!(delayMs > 0 && this.criticalArrivals)) return;
    if (delivery) return;
    if (this.delays.size < DELAYS_MAX && !this.delays.has(delayMs)) {
      this.delays.add(delayMs);
      this.delaysText = null;
    }
    if (finds !== null && finds.fixedDelays.size < DELAYS_MAX) finds.fixedDelays.add(delayMs);
  }

  /**
   * An event the survey arms: one a fixed event arms (or the scenario, before its first event) is fixed
   * too, and its instant and party are kept as it is armed, whether it runs or is withdrawn later (an
   * idle deadline armed at the request's start, reset by progress in the survey, runs in other
   * orderings at that instant); else its delay is one the work arms.
   */
  private survey(finds: SurveyFinds, delayMs: number, seq: number, actor: Actor): void {
    if (this.runningFixed) {
      finds.fixedSeqs.add(seq);
      const atMs = (this.scheduler?.nowMs ?? 0) + delayMs;
      const parties = PARTY[actor];
      if (finds.fixedEvents.size < DELAYS_MAX) finds.fixedEvents.set(`${atMs} ${parties}`, { atMs, parties });
    } else if (delayMs > 0) {
      if (finds.reactiveDelays.size < DELAYS_MAX) finds.reactiveDelays.add(delayMs);
      this.chain(finds, delayMs, seq, actor);
    }
  }

  /**
   * A reactive event the survey arms joins the chain of the running event when both are one actor's
   * and the running one is no delivery (a checkpoint arming the next chunk); else it starts a chain,
   * kept with the channel of the delivery that started it (or of the chain the running event is in).
   */
  private chain(finds: SurveyFinds, delayMs: number, seq: number, actor: Actor): void {
    const running = finds.inChain.get(this.runningSeq);
    const before = this.runningActor === actor && !finds.deliveries.has(this.runningSeq) ? running : undefined;
    const first = before?.first ?? seq;
    const offsetMs = (before?.offsetMs ?? 0) + delayMs;
    let chain = finds.chains.get(first);
    if (chain === undefined) {
      if (finds.chains.size >= DELAYS_MAX) return;
      const channel =
        finds.deliveries.get(this.runningSeq) ??
        (running === undefined ? undefined : finds.chains.get(running.first)?.channel) ??
        '';
      chain = { actor, channel, offsets: [] };
      finds.chains.set(first, chain);
    }
    if (chain.offsets.length >= DELAYS_MAX) return;
    chain.offsets.push(offsetMs);
    finds.inChain.set(seq, { first, offsetMs });
  }

  /**
   * Makes this run the survey run (before it starts): it then tells apart the events no arrival moves
   * — those the scenario arms before its first event and those such an event arms (a script's steps at
   * their instants, its deadlines), not a delivery — and keeps what `SurveyFinds` lists.
   */
  startSurvey(): SurveyFinds {
    this.finds = {
      fixedDelays: new Set(),
      fixedEvents: new Map(),
      reactiveDelays: new Set(),
      fixedSeqs: new Set(),
      deliveries: new Map(),
      chains: new Map(),
      inChain: new Map(),
    };
    return this.finds;
  }

  private delivering(): void {
    this.deliveryNext = true;
  }

  private state(describe: () => string): void {
    if (this.mergeStates) this.describe = describe;
  }

  private touch(channelKey: string): void {
    const current = this.current;
    if (current === null) return;
    if (channelKey === '*') current.all = true;
    else touched(current, channelKey);
  }

  private withdrawn(actor: Actor): void {
    if (this.current !== null) this.current.parties |= PARTY[actor];
  }

  /**
   * An event is about to run: the one before it is over (its footprint complete), and a sleeping one is
   * not run again. Its footprint is kept only where the reduction reads it: the event a same-instant
   * choice runs (its siblings' sleep after it, and the frame's footprint of that option), and any event
   * while something sleeps or may (before the last given choice, whose inherited sleep set an event in
   * progress there must still filter). Elsewhere no footprint is read, and none is built.
   */
  private step(event: DueEvent): void {
    const finds = this.finds;
    this.runningActor = event.actor;
    if (finds !== null) {
      this.runningFixed = finds.fixedSeqs.has(event.seq);
      this.runningSeq = event.seq;
    }
    if (!this.track) return;
    this.finishEvent();
    const sleep = this.sleep;
    if (sleep !== null) for (const asleep of sleep) if (asleep.seq === event.seq) throw new Pruned();
    if (
      this.currentChoice < 0 &&
      (sleep === null ? this.plan === null || this.plan.inherited.length === 0 : sleep.length === 0)
    )
      return;
    this.current = new EventFootprint(PARTY[event.actor]);
    this.trailAtStart = this.extraState?.() ?? null;
  }

  /**
   * The event that ran is over: its footprint is kept for the choice that ran it, and the events
   * asleep stay asleep only past an event independent of them (the sleep set's rule).
   */
  private finishEvent(): void {
    const done = this.current;
    if (done === null) return;
    this.current = null;
    // A student's component is state both parties may call into: an event that called it touches it.
    if (this.extraState !== null && this.extraState() !== this.trailAtStart) touched(done, '*component');
    if (this.currentChoice >= 0) {
      this.footprints[this.currentChoice] = done;
      this.currentChoice = -1;
    }
    if (this.sleep !== null && this.sleep.length > 0)
      this.sleep = this.sleep.filter((asleep) => independent(asleep.footprint, done));
  }

  /** The run ended: the last event is over too. */
  finish(): void {
    this.finishEvent();
  }

  private observe(event: { readonly kind: string; readonly seq: number }): void {
    this.observed += 1;
    if (this.hashing) this.history.addValue(event);
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
    const asleep =
      this.sleep === null || this.sleep.length === 0
        ? ''
        : `~z${this.sleep
            .map((entry) => entry.text)
            .sort()
            .join('/')}`;
    return this.plainKey(`${point}${asleep}`, between);
  }

  private plainKey(point: string, between: boolean): string {
    const scheduler = this.scheduler;
    const describe = this.describe;
    // Each text is added in its parts, as `add` reads one text a character at a time: the same hash
    // as the joined text's, with no joined text built (and flattened to be read) per state.
    if (between && describe !== null) {
      const state = new Hash();
      state.add(describe());
      state.add('|');
      state.add(this.checker.stateKey());
      if (this.extraState !== null) {
        state.add('|');
        state.add(this.extraState());
      }
      // The delays seen so far decide the arrival instants offered from here: part of the state.
      if (this.criticalArrivals)
        state.add((this.delaysText ??= `~${[...this.delays].sort((x, y) => x - y).join(',')}`));
      if (scheduler !== null) addQueue(state, scheduler);
      state.add('?');
      state.add(point);
      return `s${state.digest()}`;
    }
    const state = this.history.fork();
    if (scheduler !== null) addQueue(state, scheduler);
    state.add('?');
    state.add(point);
    return `h${state.digest()}`;
  }

  /**
   * Takes the given choice at `index` (the run replays it): no options are built for it. `fits` says
   * whether the point offers it (else LAB022, listing the options `offered` builds), `first` whether it
   * is the point's first option (what `schedule` may leave out at its end).
   */
  private takeGiven(index: number, fits: boolean, first: boolean, offered: () => Choice[]): Choice {
    const choice = this.given[index] as Choice;
    if (!fits) {
      const listed = offered()
        .map((option) => `${option.kind}${option.value}`)
        .join(', ');
      throw new LabError(
        'LAB022',
        `choice ${index + 1} of the schedule is ${choice.kind}${choice.value}, but this run offers ${listed} there (a schedule replays the run it came from: same scenario, transport and settings)`,
      );
    }
    if (index === this.given.length - 1 && this.resume !== null) this.resumeHistory(this.resume);
    this.taken.push(choice);
    this.tookFirst.push(first);
    return choice;
  }

  /** A choice past the given ones: the explorer's new state (`Stop`, or its first option when the run goes on), or a replay's first option. */
  private decideNew(
    kind: 'c' | 'j',
    options: Choice[],
    point: () => string,
    candidates: readonly DueEvent[] = [],
  ): number {
    if (this.stopAtNew) {
      let offered = options;
      if (kind === 'c' && this.sleep !== null && this.sleep.length > 0) {
        // Only the events awake are run from here; when every one sleeps, this ordering is another's.
        const sleeping = new Set(this.sleep.map((asleep) => asleep.seq));
        offered = options.filter((option) => !sleeping.has((candidates[option.value] as DueEvent).seq));
        if (offered.length === 0) throw new Pruned();
      }
      assert(this.hashing, 'a run hashes its history from the last given choice on');
      const stop = new Stop(this.stateKey(point(), kind === 'c'), offered, this.sleep ?? [], {
        hash: this.history.fork(),
        observed: this.observed,
      });
      if (this.goOn === null || !this.goOn(stop)) throw stop;
      // The explorer made this choice a state of its own: the run goes on with its first option offered.
      const first = offered[0] as Choice;
      this.taken.push(first);
      this.tookFirst.push(first === options[0]);
      return first.value;
    }
    const first = options[0] as Choice;
    assert(first.kind === kind, 'a choice offers options of its own kind');
    this.taken.push(first);
    this.tookFirst.push(true);
    return first.value;
  }

  private choose(candidates: readonly DueEvent[]): number {
    // The event chosen runs next: it closes the one before (a choice falls between two events).
    if (this.track) this.finishEvent();
    const index = this.taken.length;
    let value: number;
    if (index < this.given.length) {
      // A replayed choice: one of the candidates by its index, the first when 0.
      const choice = this.given[index] as Choice;
      const fits =
        choice.kind === 'c' && Number.isInteger(choice.value) && choice.value >= 0 && choice.value < candidates.length;
      value = this.takeGiven(index, fits, choice.value === 0, () => sameInstantOptions(candidates)).value;
      if (index === this.given.length - 1 && this.plan !== null) this.startSleeping(candidates);
    } else if (!this.stopAtNew) {
      // A replay past its schedule takes every first option: the first event due.
      this.taken.push({ kind: 'c', value: 0 });
      this.tookFirst.push(true);
      value = 0;
    } else {
      value = this.decideNew(
        'c',
        sameInstantOptions(candidates),
        () => `c ${candidates.map((candidate) => `${candidate.actor} ${candidate.label}`).join(' / ')}`,
        candidates,
      );
    }
    this.currentChoice = this.taken.length - 1;
    const pending = this.pendingSiblings;
    if (pending !== null) {
      // The siblings explored before this option sleep from here on: after this event, those independent of it.
      this.pendingSiblings = null;
      for (const sibling of pending.siblings) {
        const event = pending.candidates[sibling.value];
        if (event !== undefined)
          (this.sleep as Asleep[]).push({
            seq: event.seq,
            text: `${event.atMs} ${event.actor} ${event.label}`,
            footprint: sibling.footprint,
          });
      }
    }
    return value;
  }

  /**
   * The last given choice is met: the events before it are those the run that found it hashed (the
   * same choices replay the same events), so its hash goes on from that run's. Fewer or more events
   * here would mean a run is not a function of its choices: the explorer's premise, checked.
   */
  private resumeHistory(mark: HistoryMark): void {
    assert(
      mark.observed === this.observed,
      () =>
        `the run replays ${this.observed} events before choice ${this.given.length}, where the run that found it saw ${mark.observed}`,
    );
    this.history = mark.hash.fork();
    this.hashing = true;
  }

  /** The last given choice is taken: the reduction's plan applies from here. */
  private startSleeping(candidates: readonly DueEvent[]): void {
    const plan = this.plan as SleepPlan;
    this.sleep = [...plan.inherited];
    if (plan.siblings.length > 0) this.pendingSiblings = { candidates, siblings: plan.siblings };
  }

  /**
   * The arrival instants that give every order against what is queued: the window's ends, the queued
   * instants inside it, the critical points of what the arrival re-arms (each instant t where t + d
   * lands exactly on a queued instant q, for every delay d this run has scheduled with but a
   * delivery's latency (`delays`): a timer the delivery restarts, such as an idle deadline after
   * progress, falls at t + d), and the instants a
   * queued event's own timers fall on (q + d for every fixed delay d the exploration knows: the next
   * chunk of work a checkpoint arms, the progress it sends). Between two critical points the order of
   * everything queued against the arrival and its timer is the same; landing on one, the same-instant
   * choice at q runs the timer before or after q's event, so both sides are met.
   *
   * Also f − d − L for every instant f of an event no arrival moves at the party that sent this message
   * and every delay d the other events arm (`fixedTimes`, from the survey), L this window's latency
   * (the lab's one latencyMs, both ways).
   * Such an f may not be queued yet (a script step is armed when the one before it has run: the user's
   * cancel at 207 ms is not queued when the call is sent at 0). The arrival's work sends a message d
   * after t (progress at the first checkpoint) whose own window starts at t + d + L: up to
   * t = f − d − L it can reach its receiver before f's event (its own choice offers f), after it never.
   * A later t also moves the rest of the work later (its completion past what f's event sends), so an
   * ending may need both: an interval of t that ends here and holds neither end of the window. B at
   * 100 ms of jitter (window 5..105): progress seen before the user cancels needs t ≤ 102, the
   * cancellation reaching the server before the work completes t + 200 > 212; only 12 < t ≤ 102 gives
   * both (`j58.j0.j0`), and 102 is this instant.
   *
   * The f's are every such event the survey arms, not only those that run in it: a deadline armed at
   * the request's start and reset by progress in the survey runs at that instant in other orderings.
   * C at 300 ms (window 5..305) ends at its maximum deadline with progress 4/13 ignored only for
   * t = 95: progress 1/13, sent at t + 400 (a chunk of work), must reach the client by the idle deadline
   * armed at 0 for 500 ms (t + 400 + 5 ≤ 500, this instant: f = 500, d = 400), and progress 4/13, sent at
   * t + 1600, must be able to reach it no earlier than the maximum deadline at 2000 (t + 1605 + 300 ≥
   * 2000), each progress between landing on the idle deadline the one before reset. The survey's first
   * progress reaches the client at 410 and withdraws the deadline at 500, so an f kept only when it ran
   * missed it (`j90.j0.c1.j100.c1.j200.c1.j300`). The other bound, a chain of four chunks and a whole
   * window, is offered by no rule (`chainInstants` offers the chains of work the survey saw); other
   * chains (q + d1 + d2, t + d1 + d2 = q for a q no fixed event gives) are not offered: the explorer's
   * oracle test samples arrival instants at random to catch an ending they would hide, and keeps the
   * orderings that found one with every arrival pinned.
   *
   * And f − d − L − J (J this window's jitter, the lab's one jitter both ways): the other end of that
   * first message's window, where it can at the latest arrive exactly at f. Before it the message
   * reaches the party before f's event however late it arrives; from it on it can come after. B with
   * latencyJitterMs=105, cancelAtMs=290, workMs=365, progressEveryMs=165 ends `cancelled` with both
   * progress notifications ignored only for 15 ≤ t ≤ 70 (window 5..110): progress 1/3 leaves at t + 165
   * and must be able to arrive after the user's cancel at 290 (t + 165 + 5 + 105 ≥ 290: this instant,
   * 15), progress 2/3 must leave (t + 330) before the cancellation arrives (by 400); no other instant
   * falls inside.
   */
  private arrival(window: ArrivalWindow): number {
    const { earliestMs, latestMs, baseMs } = window;
    const finds = this.finds;
    if (finds !== null && this.criticalArrivals && baseMs > window.nowMs && finds.fixedDelays.size < DELAYS_MAX)
      finds.fixedDelays.add(baseMs - window.nowMs);
    if (finds !== null) this.surveyChannel = window.channelKey;
    const index = this.taken.length;
    // The first option is the earliest instant offered: the window's start (every other lies past it).
    const firstMs = Math.min(earliestMs, latestMs);
    if (index < this.given.length) {
      // A replayed arrival: any instant of the window is one the network allows (a schedule found with
      // more instants offered, an exploration's known delays, replays in a run that offers fewer), and
      // the window's ends are always offered.
      const choice = this.given[index] as Choice;
      const atMs = baseMs + choice.value;
      const fits =
        choice.kind === 'j' &&
        ((atMs >= earliestMs && atMs <= latestMs) ||
          choice.value === earliestMs - baseMs ||
          choice.value === latestMs - baseMs);
      return (
        baseMs + this.takeGiven(index, fits, choice.value === firstMs - baseMs, () => this.arrivalOptions(window)).value
      );
    }
    if (!this.stopAtNew) {
      // A replay past its schedule takes every first option: the earliest arrival.
      const first: Choice = { kind: 'j', value: firstMs - baseMs };
      this.taken.push(first);
      this.tookFirst.push(true);
      return baseMs + first.value;
    }
    const jitter = this.decideNew(
      'j',
      this.arrivalOptions(window),
      () => `j ${window.channelKey} ${earliestMs}..${latestMs}`,
    );
    return baseMs + jitter;
  }

  /** The arrival instants a new choice offers (see `arrival`), as jitters past the window's base. */
  private arrivalOptions(window: ArrivalWindow): Choice[] {
    const { earliestMs, latestMs } = window;
    const instants = new Set<number>([earliestMs]);
    const known = this.knownDelays;
    // Only the instants are read here, not the labels the state key hashes; no closure per arrival either.
    for (const atMs of this.scheduler?.queuedInstants() ?? []) {
      if (atMs > earliestMs && atMs < latestMs) instants.add(atMs);
      for (const delayMs of this.delays) {
        const startMs = atMs - delayMs;
        if (startMs > earliestMs && startMs < latestMs) instants.add(startMs);
      }
      for (const delayMs of known) {
        const armedMs = atMs + delayMs;
        if (armedMs > earliestMs && armedMs < latestMs) instants.add(armedMs);
      }
    }
    const latencyMs = window.baseMs - window.nowMs;
    const sender = PARTY[window.channelKey.slice(window.channelKey.lastIndexOf(':') + 1) as Actor] ?? 0;
    // The lab's one jitter, both ways (a window that offers a choice is never raised past base + jitter).
    const jitterMs = latestMs - window.baseMs;
    for (const fixed of this.fixedTimes.instants) {
      if ((fixed.parties & sender) === 0) continue;
      for (const delayMs of this.fixedTimes.reactiveDelays)
        addSentInstants(instants, fixed.atMs - delayMs - latencyMs, jitterMs, earliestMs, latestMs);
    }
    this.chainInstants(instants, window, sender);
    instants.add(latestMs);
    return [...instants].sort((a, b) => a - b).map((atMs) => ({ kind: 'j', value: atMs - window.baseMs }));
  }

  /**
   * The arrival instants chains of events give (see docs/orderings-causality.md, "The arrivals a chain
   * of work gives"). A chain is one actor's events armed one after another (a worker's chunks); the
   * earlier rules saw one delay of it, these see the whole chain, each bounded by the window:
   * - `f − S − L` and `f − S − L − J` for a fixed event f at the party that sent this message and S the
   *   offset of an event of a chain this channel's deliveries start: the message that event sends (the
   *   k-th progress of the work this tools/call starts) reaches f's party exactly at f, at the earliest
   *   or at the latest (the earlier rule's `f − d − L` is the first event's).
   * - `q + A` for a queued event q at the receiving party whose actor's chains go on by A (a worker's
   *   next checkpoints, past the one queued): this arrival against each later event of that chain.
   * - `now + A − S − L − J` when the running event is in a chain that goes on by A and this message's
   *   delivery starts a chain S at its receiver (progress re-arms the idle deadline): the message the
   *   timer's firing sends back (the cancellation) reaches the chain's party at the latest exactly when
   *   the chain's later event runs.
   */
  private chainInstants(instants: Set<number>, window: ArrivalWindow, sender: number): void {
    const receiver = 3 & ~sender;
    if (receiver !== 1 && receiver !== 2) return;
    const { earliestMs, latestMs } = window;
    const latencyMs = window.baseMs - window.nowMs;
    const jitterMs = latestMs - window.baseMs;
    const started = this.fixedTimes.channelChains.get(window.channelKey) ?? [];
    for (const fixed of this.fixedTimes.instants) {
      if ((fixed.parties & sender) === 0) continue;
      for (const chain of started)
        for (const offsetMs of chain.offsets)
          addSentInstants(instants, fixed.atMs - offsetMs - latencyMs, jitterMs, earliestMs, latestMs);
    }
    this.queuedChainInstants(instants, window, receiver);
    if (this.runningActor !== null) this.timerChainInstants(instants, window, receiver, started);
  }

  /** `q + A`: a queued event's chain goes on (by the differences the survey saw, then by its step). */
  private queuedChainInstants(instants: Set<number>, window: ArrivalWindow, receiver: number): void {
    const { earliestMs, latestMs } = window;
    for (const queued of this.scheduler?.queuedWithActors() ?? []) {
      if ((PARTY[queued.actor] & receiver) === 0) continue;
      for (const chain of this.fixedTimes.actorChains.get(queued.actor) ?? []) {
        let lastMs = 0;
        for (const aheadMs of chain.ahead) {
          const atMs = queued.atMs + aheadMs;
          if (atMs >= latestMs) break;
          if (atMs > earliestMs) instants.add(atMs);
          lastMs = aheadMs;
        }
        if (chain.stepMs <= 0) continue;
        for (let atMs = queued.atMs + lastMs + chain.stepMs; atMs < latestMs; atMs += chain.stepMs)
          if (atMs > earliestMs) instants.add(atMs);
      }
    }
  }

  /**
   * `now + A − S − L − J`, offered only where the timer S can fire (the chain's next message, one step
   * on, can arrive after it) and where a fixed event of the receiving party closes the interval of
   * orderings on the other side inside the window (the timer must fire before it, or this message
   * arrive before it): without one, the arrivals of the chain's earlier and later messages bound the
   * same interval and offer an instant in it.
   */
  private timerChainInstants(
    instants: Set<number>,
    window: ArrivalWindow,
    receiver: number,
    started: readonly Chain[],
  ): void {
    const { earliestMs, latestMs, nowMs } = window;
    const latencyMs = window.baseMs - nowMs;
    const jitterMs = latestMs - window.baseMs;
    for (const running of this.fixedTimes.actorChains.get(this.runningActor as Actor) ?? []) {
      const nextMs = running.ahead[0] ?? 0;
      for (const aheadMs of running.ahead) {
        const cancelMs = nowMs + aheadMs - latencyMs - jitterMs;
        if (cancelMs >= nowMs + nextMs + latencyMs + jitterMs) break;
        for (const timer of started)
          for (const timerMs of timer.offsets) {
            const atMs = cancelMs - timerMs;
            if (atMs > earliestMs && atMs < latestMs && this.fixedBeyond(atMs, timerMs, receiver, latestMs))
              instants.add(atMs);
          }
      }
    }
  }

  /** Whether a fixed event of `receiver`'s party falls in (atMs, latestMs], or the timer started at atMs reaches one started by latestMs. */
  private fixedBeyond(atMs: number, timerMs: number, receiver: number, latestMs: number): boolean {
    for (const fixed of this.fixedTimes.instants) {
      if ((fixed.parties & receiver) === 0) continue;
      if (fixed.atMs > atMs && fixed.atMs <= latestMs) return true;
      if (fixed.atMs - timerMs > atMs && fixed.atMs - timerMs <= latestMs) return true;
    }
    return false;
  }

  /** The choices taken so far as a schedule; trailing first options go, since a replay takes them anyway. */
  schedule(): string {
    let length = this.taken.length;
    while (length > 0 && this.tookFirst[length - 1] === true) length -= 1;
    return formatSchedule(this.taken.slice(0, length));
  }

  /** The whole run's state at its end (what tells two complete orderings apart). */
  endKey(): string {
    assert(this.stopAtNew, 'a replay hashes no history: only an explorer run has an end state');
    return this.plainKey('end', true);
  }
}

/**
 * Arriving at `sentMs`, this message starts work whose message reaches a fixed event's party exactly at
 * that event's instant at the earliest; arriving at `sentMs − jitterMs`, at the latest. Each is offered
 * where it falls inside the window: `arrivalOptions`' `f − d − L` and `f − d − L − J`, `chainInstants`'
 * `f − S − L` and `f − S − L − J` (one body for both, so the two rules cannot drift apart).
 */
function addSentInstants(
  instants: Set<number>,
  sentMs: number,
  jitterMs: number,
  earliestMs: number,
  latestMs: number,
): void {
  if (sentMs > earliestMs && sentMs < latestMs) instants.add(sentMs);
  const lateMs = sentMs - jitterMs;
  if (lateMs > earliestMs && lateMs < latestMs) instants.add(lateMs);
}

/** The clock and the queue, as `@now` then `|atMs actor label` for each queued event in order (`Scheduler.queuedInOrder`). */
function addQueue(state: Hash, scheduler: Scheduler): void {
  state.add('@');
  state.addDecimal(scheduler.nowMs);
  for (const queued of scheduler.queuedInOrder()) {
    state.add('|');
    state.addDecimal(queued.atMs);
    state.add(' ');
    state.add(queued.actor);
    state.add(' ');
    state.add(queued.label);
  }
}

/** The options of a same-instant choice: each candidate due, by its index. */
function sameInstantOptions(candidates: readonly DueEvent[]): Choice[] {
  return candidates.map((_, index) => ({ kind: 'c', value: index }));
}

/**
 * The chooser that replays one ordering (`lab run --schedule`, the page's `schedule=`): same
 * scenario, transport and settings, exactly that ordering, the same transcript bytes every time.
 * `finish` refuses a schedule with choices the run never met (it came from another run).
 */
export function replaySchedule(choices: readonly Choice[]): { chooser: ExploringChooser; finish(): void } {
  const driver = new Driver(choices, false, {});
  return {
    chooser: driver.chooser,
    finish: () => {
      if (driver.taken.length < choices.length) {
        throw new LabError(
          'LAB022',
          `the schedule has ${choices.length} choices but this run meets only ${driver.taken.length} (a schedule replays the run it came from: same scenario, transport and settings)`,
        );
      }
    },
  };
}
