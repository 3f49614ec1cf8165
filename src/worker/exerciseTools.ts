import {
  ComponentProbe,
  LabError,
  parseSchedule,
  runScenario,
  wordEvents,
  type EventWording,
  type SqlModule,
  type Transcript,
} from '../engine';
import { Caller } from '../exercise/caller';
import { grade } from '../exercise/grade';
import { exerciseInfo, EXERCISES, findExercise } from '../exercise/registry';
import { StudentCodeError } from '../exercise/runtime';
import { loadQuickJs, sandboxSource } from '../exercise/sandbox';
import type { CheckReport, ComponentCall, ExerciseInfo, FailingRun } from '../exercise/types';
import { findScenario } from '../scenarios/index';

/**
 * The Exercises tab's work in the tools worker, loaded (with QuickJS) the first time the tab asks:
 * the list of exercises with their starters, a Check (grade() over the student's code in the
 * sandbox) and one ordering replayed with the student's component in place, as a transcript the
 * page draws.
 */

export interface ExerciseListing {
  id: string;
  title: string;
  summary: string;
  exports: string[];
  statements: { id: string; text: string; requirements: string[] }[];
  starter: string;
}

/** Every exercise of the registry, as the tab lists it, with the starter its editor begins from. */
export function listExercises(): ExerciseListing[] {
  return EXERCISES.map((def) => {
    const info: ExerciseInfo = exerciseInfo(def);
    return {
      id: info.id,
      title: info.title,
      summary: info.summary,
      exports: [...info.exports],
      statements: info.statements.map((statement) => ({
        id: statement.id,
        text: statement.text,
        requirements: [...statement.requirements],
      })),
      starter: def.starter,
    };
  });
}

/** A failure of the student's code before any run (syntax, a missing export): the same report grade() gives for one inside a run. */
function refused(exercise: string, error: StudentCodeError, started: number): CheckReport {
  return {
    exercise,
    statements: [],
    orderings: 0,
    states: 0,
    complete: false,
    elapsedMs: Math.round(performance.now() - started),
    error: error.toCodeError(),
    passed: false,
  };
}

export async function checkExercise(
  id: string,
  code: string,
  sqlModule: () => Promise<SqlModule>,
  onProgress?: (done: number, total: number) => void,
): Promise<CheckReport> {
  const def = findExercise(id);
  const started = performance.now();
  const quickjs = await loadQuickJs();
  const ledger = def.sqlite === true ? { sql: await sqlModule() } : undefined;
  let source;
  try {
    source = sandboxSource(quickjs, code, def.exports);
  } catch (error) {
    if (error instanceof StudentCodeError) return refused(id, error, started);
    throw error;
  }
  try {
    return grade(def, source, { ledger, onProgress });
  } finally {
    source.close();
  }
}

export interface ExerciseRunAnswer {
  transcript: Transcript | null;
  wording: EventWording[];
  calls: ComponentCall[];
  /** Why the run did not reach its end (the component broke it, or the code did not load); null: it ran. */
  failure: string | null;
}

/**
 * One ordering of one of the exercise's runs with a fresh instance of the student's component in the
 * lab's part's place: the transcript the diagram draws, the calls into the student's code, or, when
 * the run could not go on (a thrown exception, a value the model cannot follow), why.
 */
export async function runExercise(
  id: string,
  code: string,
  run: FailingRun,
  sqlModule: () => Promise<SqlModule>,
): Promise<ExerciseRunAnswer> {
  const def = findExercise(id);
  const quickjs = await loadQuickJs();
  const ledger = def.sqlite === true ? { sql: await sqlModule() } : undefined;
  const calls: ComponentCall[] = [];
  let source;
  try {
    source = sandboxSource(quickjs, code, def.exports);
  } catch (error) {
    if (error instanceof StudentCodeError) return { transcript: null, wording: [], calls, failure: error.message };
    throw error;
  }
  try {
    const instance = source.open();
    const probe = new ComponentProbe();
    // A part that runs as replicas (the ledger's two servers) opens its copies of the module from the same source, as the Check did.
    const opened = source;
    const caller = new Caller(instance, calls, probe, () => opened.open());
    try {
      const transcript = runScenario(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
        schedule: parseSchedule(run.schedule),
        ledger,
        components: { probe, ...def.components(caller, probe) },
      }) as Transcript;
      return { transcript, wording: wordEvents(transcript.events), calls, failure: null };
    } catch (error) {
      if (caller.failure !== null)
        return {
          transcript: null,
          wording: [],
          calls,
          failure: `${caller.failure.error.message} (at ${caller.failure.atMs} ms, after event ${caller.failure.step})`,
        };
      if (error instanceof LabError)
        return { transcript: null, wording: [], calls, failure: `${error.code}: ${error.detail}` };
      throw error;
    } finally {
      caller.dispose();
      instance.dispose();
    }
  } finally {
    source.close();
  }
}
