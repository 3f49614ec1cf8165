import type { RaceQuestion } from './raceQuestion';
import { LabError } from './errors';
import type { Chooser, SchedulerOptions } from './scheduler';
import { assert } from './assert';
import type { SettingsOf, SettingsSpec } from './settings';
import type { SqliteHost } from './sqlite';
import type { AnyEvent, Settings, Transport } from './transcript';
import type { MessageFault } from './faults';
import type { Choice } from './schedule';
import type { Components } from './components';

/**
 * What every model shares with the registry (src/engine/scenario.ts): the scenario's common fields,
 * how a run is asked for, and the one method a model implements. Kept in the kit so a model never
 * imports the registry that imports it.
 */
export interface ScenarioMeta {
  readonly id: string;
  readonly title: string;
  readonly topic: string;
  /** One paragraph for someone who has never seen MCP. */
  readonly summary: string;
  readonly requirements: readonly string[];
  readonly defaultTransport: Transport;
  /** A race scenario's Predict question (see ../predict.ts): what races, where it stops, what decides it. */
  readonly race?: RaceQuestion;
}

/**
 * One run as the engine runs it, every dimension judged: transport and seed checked, settings resolved
 * by the model's spec, an ordering to replay turned into its chooser, faults parsed. The engine's one
 * type of a run: the run options (`RunOptions`), the kit (`Sim`) and every model take their dimensions
 * from it, so a new dimension is added here. `S` types the settings (a model's, by its spec).
 */
export interface ResolvedRun<S = Settings> {
  readonly transport: Transport;
  readonly seed: number;
  readonly settings: S;
  /** Overrides the scenario's pinned order (property tests and explorers draw their own). */
  readonly chooser?: Chooser;
  /** Faults on given messages, as `parseFaults` gives them (ordered by seq); the transcript carries them. */
  readonly faults?: readonly MessageFault[];
  readonly trace?: SchedulerOptions['trace'];
  /** sql.js and the ledger file, for SQLite scenarios (the host loads sql.js; the engine stays synchronous). */
  readonly ledger?: SqliteHost;
  /**
   * False: run without keeping the events (the transcript's `events` is empty; the outcome is
   * exact). Supported by the request race (A–D) so far; other models always record.
   */
  readonly record?: boolean;
  /** A student's parts in the place of the lab's own (the graded exercises); absent: the lab's own. */
  readonly components?: Components;
}

/**
 * A run as it is asked of the engine (`runScenario`): the resolved run's dimensions, each optional (the
 * scenario's default, `DEFAULT_SEED`), settings not yet judged, and an ordering given as its choices.
 */
export interface RunOptions extends Partial<Omit<ResolvedRun, 'settings'>> {
  readonly settings?: Readonly<Record<string, unknown>>;
  /**
   * Replays exactly one ordering the explorer found: its choices (`parseSchedule` reads its text).
   * Overrides `chooser`; the transcript carries it, so the run replays byte for byte.
   */
  readonly schedule?: readonly Choice[];
}

/** A model of scenarios `S`: its runs end in outcome `O` and record events `E`. */
export interface Model<S, O, E extends AnyEvent = AnyEvent> {
  readonly settingsSpec: SettingsSpec;
  execute(scenario: S, run: ResolvedRun): { events: E[]; outcome: O };
}

/** What a model builds for one run: it runs, then reports its events and its outcome. */
export interface Lab<O, E extends AnyEvent = AnyEvent> {
  run(): unknown;
  outcome(): O;
  readonly events: E[];
}

/**
 * A model from its settings spec and the lab it builds for one run: the one place that
 * types the resolved settings by the spec (they were validated against it by `resolveSettings`), runs
 * the lab and reads its outcome, so no model repeats that plumbing or casts its settings.
 */
export function defineModel<Spec extends SettingsSpec, S, O, E extends AnyEvent>(
  settingsSpec: Spec,
  build: (run: ResolvedRun<SettingsOf<Spec>>, scenario: S) => Lab<O, E>,
): Model<S, O, E> {
  return {
    settingsSpec,
    execute(scenario, run) {
      // Precondition: the registry resolved every setting of the spec, and nothing else. A loop, not
      // `Object.keys(…).every(…)`: an explorer executes a model once per ordering.
      for (const key in settingsSpec)
        assert(Object.hasOwn(run.settings, key), 'the run carries every setting of the model’s spec');
      const lab = build(run as ResolvedRun<SettingsOf<Spec>>, scenario);
      lab.run();
      const outcome = lab.outcome();
      return { events: lab.events, outcome };
    },
  };
}

export const DEFAULT_SEED = 1;

export function checkTransport(value: unknown): Transport {
  if (value === 'stdio' || value === 'http') return value;
  throw new LabError('LAB002', `${JSON.stringify(value)} is not a transport; use "stdio" or "http" (Streamable HTTP)`);
}

export function checkSeed(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 0xffff_ffff) return value;
  throw new LabError('LAB003', `${JSON.stringify(value)} is not a seed; use an integer from 0 to 4294967295`);
}

/** A model that holds a file (SQLite) it must close, and may hand to the host only after a completed run. */
export interface ClosingLab<E, O> {
  run(): unknown;
  outcome(): O;
  readonly events: E[];
  close(completed: boolean): void;
}

/**
 * Runs `lab` to its outcome and closes it either way: only a completed run tells `close` so (and so
 * hands its file to the host); one that failed part-way leaves the host's file as it was.
 */
export function runAndClose<E, O>(lab: ClosingLab<E, O>): { events: E[]; outcome: O } {
  let completed = false;
  try {
    lab.run();
    const outcome = lab.outcome();
    completed = true;
    return { events: lab.events, outcome };
  } finally {
    lab.close(completed);
  }
}
