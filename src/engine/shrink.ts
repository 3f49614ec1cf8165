import { formatFaults } from './core/faults';
import { LabError } from './core/errors';
import type { Settings } from './core/transcript';
import { Driver, Stop } from './explore/driver';
import type { InvariantName, Seen } from './explore/invariants';
import { formatSchedule, parseSchedule, type Choice } from './core/schedule';
import { runScenario, type Scenario } from './scenario';
import { orderingRun, type ExplorationRun } from './explore/explorationRun';

/**
 * The smallest failing ordering. The explorer keeps, per broken statement, the ordering that broke it
 * soonest among the orderings it ran; merging states and the partial-order reduction skip orderings,
 * so a shorter one can exist that it never ran. This shrinks one, the way property-based testers do:
 * it replays candidates made from the ordering's choices (a prefix, a choice left out, a choice set
 * to an earlier option) and keeps one that breaks the same statement strictly sooner, until none of
 * them does. Every candidate is a whole run, so what is kept replays as it is (`run --schedule`).
 *
 * "Sooner" (`shorter`): fewer events up to the break (`step`), then an earlier break on the virtual
 * clock, then fewer choices, then the smaller choices one by one. Deterministic: the candidates come
 * in one fixed order, so the same ordering shrinks to the same one every time.
 */

/** One break of a statement in one replayed ordering. */
export interface Break {
  /** The invariant's name, or (a student's component) the statement's id. */
  readonly id: string;
  /** The ordering up to the break (trailing first options left out). */
  readonly schedule: string;
  readonly step: number;
  readonly atMs: number;
  readonly explanation: string;
}

/** The shortest ordering found for one broken invariant (`ExploreResult.shortest`). */
export interface ShortestOrdering {
  invariant: InvariantName;
  /** The ordering: `run --schedule` replays it to the break. */
  schedule: string;
  /** `seq` of the event at which it broke: the fewest events before a break of this invariant found. */
  step: number;
  /** The virtual instant of that event. */
  atMs: number;
  explanation: string;
  /** The ordering the exploration kept before shrinking (the soonest among those it ran). */
  explored: string;
  /** With faults (`lab explore --fault`): the smallest set of them that still breaks it, comma-separated. */
  faults?: string;
}

/** Replays per shrink, at most: a bound like every other (a replay is one run). */
export const SHRINK_REPLAYS_MAX = 400;

function choicesOf(schedule: string): Choice[] {
  return parseSchedule(schedule);
}

/** Whether `a` breaks sooner than `b`: fewer events, earlier instant, fewer choices, smaller choices. */
export function shorter(a: Break, b: Break): boolean {
  if (a.step !== b.step) return a.step < b.step;
  if (a.atMs !== b.atMs) return a.atMs < b.atMs;
  const x = choicesOf(a.schedule);
  const y = choicesOf(b.schedule);
  if (x.length !== y.length) return x.length < y.length;
  for (let index = 0; index < x.length; index += 1) {
    const p = x[index] as Choice;
    const q = y[index] as Choice;
    if (p.value !== q.value) return p.value < q.value;
  }
  return false;
}

/**
 * Runs one ordering (its choices, then every further choice's first option) and returns every break
 * in it; null when the choices do not fit the run (LAB022: a candidate that leaves the run's tree).
 */
export function replayBreaks(scenario: Scenario, params: ExplorationRun, choices: readonly Choice[]): Break[] | null {
  const components = params.components?.();
  const driver = new Driver(
    choices,
    false,
    { ...scenario.settings, ...(params.settings as Settings | undefined) },
    true,
    params.criticalArrivals ?? true,
    components === undefined ? null : () => components.probe.trail,
  );
  if (components !== undefined) components.probe.scheduleNow = () => driver.schedule();
  const atMsOf = new Map<number, number>();
  const hooks = driver.chooser.explorer;
  const chooser = Object.assign((candidates: Parameters<typeof driver.chooser>[0]) => driver.chooser(candidates), {
    explorer: {
      ...hooks,
      observe: (event: { readonly kind: string; readonly seq: number }) => {
        atMsOf.set(event.seq, (event as Seen).atMs ?? 0);
        hooks.observe(event);
      },
    },
  });
  try {
    const transcript = runScenario(scenario, orderingRun(params, chooser, components));
    driver.finish();
    driver.checker.finish(scenario.kind, transcript.outcome);
  } catch (error) {
    if (error instanceof LabError && error.code === 'LAB022') return null;
    // Any other failure ends this ordering: the breaks before it stand (as in the explorer).
  }
  const lastAtMs = Math.max(0, ...atMsOf.values());
  const breaks: Break[] = driver.checker.found.map((breach, index) => ({
    id: breach.invariant,
    schedule: driver.breachSchedules[index] ?? driver.schedule(),
    step: breach.step,
    atMs: atMsOf.get(breach.step) ?? lastAtMs,
    explanation: breach.explanation,
  }));
  for (const breach of components?.probe.breaches ?? [])
    breaks.push({
      id: breach.statement,
      schedule: breach.schedule ?? driver.schedule(),
      step: breach.step,
      atMs: breach.atMs,
      explanation: breach.explanation,
    });
  return breaks;
}

/** The soonest break of `id` among `breaks` (null: none). */
function soonest(breaks: readonly Break[] | null, id: string): Break | null {
  let best: Break | null = null;
  for (const found of breaks ?? []) if (found.id === id && (best === null || shorter(found, best))) best = found;
  return best;
}

/** The options a run offers at choice `index` after `prefix` (null: the run meets no further choice). */
function optionsAt(scenario: Scenario, params: ExplorationRun, prefix: readonly Choice[]): Choice[] | null {
  const driver = new Driver(
    prefix,
    true,
    { ...scenario.settings, ...(params.settings as Settings | undefined) },
    false,
    params.criticalArrivals ?? true,
  );
  try {
    runScenario(scenario, orderingRun(params, driver.chooser, params.components?.()));
  } catch (error) {
    if (error instanceof Stop) return error.options;
  }
  return null;
}

/**
 * The candidates made from one ordering, most shrinking first: each prefix; the ordering with one
 * choice left out; with one choice set to another option of its point and the next choice left out;
 * with one choice set to an earlier option (the rest kept, or dropped).
 */
function* candidates(scenario: Scenario, params: ExplorationRun, choices: readonly Choice[]): Generator<Choice[]> {
  for (let length = 0; length < choices.length; length += 1) yield choices.slice(0, length);
  for (let index = 0; index < choices.length; index += 1)
    yield [...choices.slice(0, index), ...choices.slice(index + 1)];
  const offered = choices.map((_, index) => optionsAt(scenario, params, choices.slice(0, index)) ?? []);
  for (let index = 0; index + 1 < choices.length; index += 1) {
    const choice = choices[index] as Choice;
    for (const option of offered[index] as Choice[])
      if (option.value !== choice.value) yield [...choices.slice(0, index), option, ...choices.slice(index + 2)];
  }
  for (let index = 0; index < choices.length; index += 1) {
    const choice = choices[index] as Choice;
    for (const option of (offered[index] as Choice[]).filter((option) => option.value < choice.value)) {
      yield [...choices.slice(0, index), option, ...choices.slice(index + 1)];
      yield [...choices.slice(0, index), option];
    }
  }
}

/**
 * Shrinks the ordering `start` breaks statement `start.id` in: replays candidates until none breaks it
 * sooner (or `replaysMax` replays are spent) and returns the shortest break found.
 */
export function shrinkBreak(
  scenario: Scenario,
  params: ExplorationRun,
  start: Break,
  replaysMax = SHRINK_REPLAYS_MAX,
): Break {
  // The start itself, replayed: its instant and canonical schedule as a replay measures them.
  let best = soonest(replayBreaks(scenario, params, choicesOf(start.schedule)), start.id) ?? start;
  if (shorter(start, best)) best = start;
  const tried = new Set<string>([start.schedule, best.schedule]);
  let replays = 1;
  let improved = true;
  while (improved && replays < replaysMax) {
    improved = false;
    for (const candidate of candidates(scenario, params, choicesOf(best.schedule))) {
      const text = formatSchedule(candidate);
      if (tried.has(text)) continue;
      tried.add(text);
      if ((replays += 1) > replaysMax) break;
      const found = soonest(replayBreaks(scenario, params, candidate), start.id);
      if (found !== null && shorter(found, best)) {
        best = found;
        improved = true;
        break;
      }
    }
  }
  return best;
}

/**
 * Per broken invariant, the shortest ordering that breaks it: the soonest of the exploration's kept
 * violations of that invariant, shrunk. In the order the invariants were first found.
 */
export function shortestOrderings(
  scenario: Scenario,
  params: ExplorationRun,
  violations: readonly { invariant: InvariantName; schedule: string; step: number; explanation: string }[],
): ShortestOrdering[] {
  const starts = new Map<InvariantName, Break>();
  for (const violation of violations) {
    const found: Break = { id: violation.invariant, atMs: Number.MAX_SAFE_INTEGER, ...violation };
    const kept = starts.get(violation.invariant);
    if (kept === undefined || shorter(found, kept)) starts.set(violation.invariant, found);
  }
  return [...starts.values()].map((start) => {
    const best = shrinkBreak(scenario, params, start);
    return {
      invariant: start.id as InvariantName,
      schedule: best.schedule,
      step: best.step,
      atMs: best.atMs,
      explanation: best.explanation,
      explored: start.schedule,
      ...(params.faults === undefined || params.faults.length === 0 ? {} : { faults: formatFaults(params.faults) }),
    };
  });
}
