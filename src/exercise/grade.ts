import {
  ComponentProbe,
  Exploration,
  LabError,
  parseSchedule,
  runScenario,
  shrinkBreak,
  type ComponentBreach,
  type ComponentViolation,
  type Transcript,
  type ExploreResult,
  type Violation,
} from '../engine';
import { findScenario } from '../scenarios';
import { Caller, CALLS_KEPT } from './caller';
import type { ExerciseDef, ExerciseRun, GradeEnv } from './exercise';
import type { ComponentInstance, ComponentSource } from './runtime';
import { StudentCodeError } from './runtime';
import type { CheckReport, CodeError, ComponentCall, FailingRun, StatementResult } from './types';

/** Every ordering of every run ends (no run stopped by what the component answered): checked for every exercise. */
export const RUNS_TO_END = 'runs-to-end';

const DEFAULT_BOUND = 20_000;

interface Candidate {
  readonly run: ExerciseRun;
  readonly schedule: string;
  readonly step: number;
  readonly atMs: number;
  readonly explanation: string;
  /** A break in an explored ordering, by the id a replay names it with (the invariant's name, or the component's statement): shrunk at the end with replays of the component. */
  readonly shrinkId?: string;
}

/** Replays the shrinking of one component breach may spend (each runs the student's code afresh). */
const SHRINK_REPLAYS = 120;

/** Shortest first: fewest events before the break, then the earliest break in virtual time (an unknown time, -1, counts as late). */
function shorter(a: Candidate, b: Candidate): boolean {
  const late = (atMs: number) => (atMs < 0 ? Number.MAX_SAFE_INTEGER : atMs);
  return a.step < b.step || (a.step === b.step && late(a.atMs) < late(b.atMs));
}

function now(): number {
  return performance.now();
}

/** One ordering replayed with a fresh component: its transcript (null when the run stopped part-way, with why), and every call made. */
export interface Replayed {
  readonly transcript: Transcript | null;
  readonly stopped?: string;
  readonly calls: readonly ComponentCall[];
  readonly breaches: readonly ComponentBreach[];
}

/** Replays one ordering of one of an exercise's runs with a fresh instance of the student's component (what the page draws and `--show` prints). */
export function replayOrdering(
  def: ExerciseDef,
  source: ComponentSource,
  run: Pick<FailingRun, 'scenario' | 'transport' | 'settings' | 'schedule'>,
  env: GradeEnv = {},
): Replayed {
  const calls: ComponentCall[] = [];
  const instance = source.open();
  const probe = new ComponentProbe();
  try {
    const caller = new Caller(instance, calls, probe, () => source.open());
    try {
      const transcript = runScenario(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
        schedule: parseSchedule(run.schedule),
        ledger: env.ledger,
        components: { probe, ...def.components(caller, probe) },
      });
      return { transcript, calls, breaches: probe.breaches };
    } finally {
      caller.dispose();
    }
  } catch (error) {
    // The ordering may end in the failure itself: the calls up to it are what is shown.
    return {
      transcript: null,
      stopped: error instanceof Error ? error.message : String(error),
      calls,
      breaches: probe.breaches,
    };
  } finally {
    instance.dispose();
  }
}

/**
 * The shortest ordering that breaks a statement of the student's component: the one the exploration
 * kept, shrunk as the explorer shrinks an invariant's (shrink.ts), each candidate replayed with a fresh
 * component. What a student is shown is then the smallest failing ordering found, not the first.
 */
function shrinkCandidate(
  def: ExerciseDef,
  source: ComponentSource,
  statement: string,
  candidate: Candidate,
  env: GradeEnv,
): Candidate {
  let instance: ComponentInstance | null = null;
  let caller: Caller | null = null;
  const dispose = () => {
    caller?.dispose();
    instance?.dispose();
  };
  const components = () => {
    dispose();
    const probe = new ComponentProbe();
    instance = source.open();
    caller = new Caller(instance, null, probe, () => source.open());
    return { probe, ...def.components(caller, probe) };
  };
  try {
    const best = shrinkBreak(
      findScenario(candidate.run.scenario),
      {
        transport: candidate.run.transport ?? findScenario(candidate.run.scenario).defaultTransport,
        settings: candidate.run.settings,
        ledger: env.ledger,
        components,
      },
      // An instant not known yet (-1) is measured by the replay: it must not count as the earliest.
      { id: statement, ...candidate, atMs: candidate.atMs < 0 ? Number.MAX_SAFE_INTEGER : candidate.atMs },
      SHRINK_REPLAYS,
    );
    return { ...candidate, schedule: best.schedule, step: best.step, atMs: best.atMs, explanation: best.explanation };
  } finally {
    dispose();
  }
}

/** The calls of the failing ordering up to the break (the last few), and the break's time where only its step was known. */
function replayCalls(
  def: ExerciseDef,
  source: ComponentSource,
  candidate: Candidate,
  env: GradeEnv,
): { calls: ComponentCall[]; atMs: number; step: number } {
  const replayed = replayOrdering(
    def,
    source,
    {
      scenario: candidate.run.scenario,
      transport: candidate.run.transport,
      settings: { ...(candidate.run.settings ?? {}) },
      schedule: candidate.schedule,
    },
    env,
  );
  const events = replayed.transcript?.events ?? [];
  const atMs =
    candidate.atMs >= 0
      ? candidate.atMs
      : (events.find((event) => event.seq === candidate.step)?.atMs ?? Number.MAX_SAFE_INTEGER);
  // A breach a call's answer showed before the model wrote that call's event names the event before it,
  // from an earlier instant: the break is the event the call then produced (the first one at its time).
  let step = candidate.step;
  const named = events.find((event) => event.seq === step);
  if (candidate.atMs >= 0 && named !== undefined && named.atMs < atMs) {
    const produced = events.find((event) => event.seq > step && event.atMs >= atMs);
    if (produced !== undefined && produced.atMs === atMs) step = produced.seq;
  }
  return {
    calls: replayed.calls.filter((call) => call.atMs <= atMs).slice(-CALLS_KEPT),
    atMs: atMs === Number.MAX_SAFE_INTEGER ? 0 : atMs,
    step,
  };
}

function failingRun(candidate: Candidate): FailingRun {
  return {
    scenario: candidate.run.scenario,
    transport: candidate.run.transport,
    settings: { ...(candidate.run.settings ?? {}) },
    schedule: candidate.schedule,
    step: candidate.step,
    atMs: candidate.atMs,
    events: candidate.step + 1,
  };
}

/**
 * Grades a student's component: each of the exercise's runs explored in every ordering with the
 * component in the lab's part's place (a fresh instance per ordering), then the direct checks. A
 * failure of the student's code (syntax, exception, budget, shape) ends the check with that error and
 * the ordering where it happened. Each broken statement gets the shortest failing ordering found.
 */
export function grade(def: ExerciseDef, source: ComponentSource, env: GradeEnv = {}): CheckReport {
  const started = now();
  const broken = new Map<string, Candidate>();
  let orderings = 0;
  let states = 0;
  let complete = true;
  const consider = (id: string, candidate: Candidate) => {
    const have = broken.get(id);
    if (have === undefined || shorter(candidate, have)) broken.set(id, candidate);
  };
  const report = (error?: CodeError): CheckReport => {
    const statements: StatementResult[] = def.statements.map((statement) => {
      const candidate = broken.get(statement.id);
      if (candidate === undefined) return { id: statement.id, holds: true };
      // A statement checked outside the runs (step -1) has no ordering to show.
      if (candidate.step < 0) return { id: statement.id, holds: false, explanation: candidate.explanation };
      const shortest =
        candidate.shrinkId === undefined ? candidate : shrinkCandidate(def, source, candidate.shrinkId, candidate, env);
      const { calls, atMs, step } = replayCalls(def, source, shortest, env);
      return {
        id: statement.id,
        holds: false,
        explanation: shortest.explanation,
        failing: failingRun({ ...shortest, atMs, step }),
        calls,
      };
    });
    return {
      exercise: def.id,
      statements,
      orderings,
      states,
      complete,
      elapsedMs: Math.round(now() - started),
      ...(error === undefined ? {} : { error }),
      passed: error === undefined && complete && statements.every((statement) => statement.holds),
    };
  };

  for (const [index, run] of def.runs.entries()) {
    const scenario = findScenario(run.scenario);
    let instance: ComponentInstance | null = null;
    let caller: Caller | null = null;
    let probe: ComponentProbe | null = null;
    const components = () => {
      (caller as Caller | null)?.dispose();
      instance?.dispose();
      instance = source.open();
      probe = new ComponentProbe();
      caller = new Caller(instance, null, probe, () => source.open());
      return { probe, ...def.components(caller, probe) };
    };
    const exploration = new Exploration(scenario, {
      transport: run.transport,
      settings: run.settings,
      ledger: env.ledger,
      bound: env.bound ?? DEFAULT_BOUND,
      components,
    });
    try {
      while (!exploration.advance(500)) {
        // slices of 500 runs
      }
    } catch (error) {
      const failure = (caller as Caller | null)?.failure ?? null;
      const schedule = (probe as ComponentProbe | null)?.scheduleNow?.() ?? '';
      if (error instanceof LabError && error.code === 'LAB050') {
        const studentError = failure?.error ?? new StudentCodeError('shape', error.detail);
        const where = failingRun({
          run,
          schedule,
          step: failure?.step ?? 0,
          atMs: failure?.atMs ?? 0,
          explanation: studentError.message,
        });
        return report({ ...studentError.toCodeError(), where });
      }
      throw error;
    } finally {
      (caller as Caller | null)?.dispose();
      (instance as ComponentInstance | null)?.dispose();
    }
    const result = exploration.result();
    orderings += result.schedules;
    states += result.states;
    complete &&= result.complete;
    for (const [id, candidate] of findings(def, run, result)) consider(id, candidate);
    env.onProgress?.(index + 1, def.runs.length);
  }
  const directError = checkDirect(def, source, broken);
  if (directError !== undefined) return report(directError);
  return report();
}

/** What one run's exploration found, in order: each broken invariant, component statement and unfinished ordering, for its statement. */
function findings(def: ExerciseDef, run: ExerciseRun, result: ExploreResult): Array<[string, Candidate]> {
  const found: Array<[string, Candidate]> = [];
  for (const violation of result.violations as Violation[]) {
    const id = def.invariantStatements[violation.invariant];
    // The invariant names the step; its time is read when the ordering is replayed (-1: not known yet).
    if (id !== undefined)
      found.push([
        id,
        {
          run,
          schedule: violation.schedule,
          step: violation.step,
          atMs: -1,
          explanation: violation.explanation,
          shrinkId: violation.invariant,
        },
      ]);
  }
  for (const breach of result.componentBreaches ?? ([] as ComponentViolation[]))
    found.push([
      breach.statement,
      {
        run,
        schedule: breach.schedule,
        step: breach.step,
        atMs: breach.atMs,
        explanation: breach.explanation,
        shrinkId: breach.statement,
      },
    ]);
  for (const ending of result.endings) {
    if (ending.error !== undefined)
      found.push([
        RUNS_TO_END,
        {
          run,
          schedule: ending.schedule,
          step: Number.MAX_SAFE_INTEGER,
          atMs: Number.MAX_SAFE_INTEGER,
          explanation: `an ordering could not run to its end: ${ending.error}`,
        },
      ]);
  }
  return found;
}

/** The exercise's direct checks, after the runs: a statement they break gets no ordering; a failure of the student's code ends the check. */
function checkDirect(def: ExerciseDef, source: ComponentSource, broken: Map<string, Candidate>): CodeError | undefined {
  if (def.direct === undefined) return undefined;
  try {
    for (const result of def.direct(() => source.open())) {
      // A statement a run already broke keeps its failing ordering; the direct check adds what the runs did not find.
      if (!result.holds && !broken.has(result.id))
        broken.set(result.id, {
          run: def.runs[0] as ExerciseRun,
          schedule: '',
          step: -1,
          atMs: 0,
          explanation: result.explanation ?? 'broken',
        });
    }
  } catch (error) {
    if (error instanceof StudentCodeError) return error.toCodeError();
    throw error;
  }
  return undefined;
}
