/**
 * The graded exercises (issue: "Build it yourself"): a student writes one of the lesson's components,
 * the lab runs the exercise's scenarios with it in the place of its own part, through the explorer
 * (every ordering the network allows), and says which statements hold and, for each broken one, the
 * shortest ordering found that breaks it.
 *
 * These types are shared by the CLI (`lab exercise`), the engine worker and the page.
 */
import type { Transport } from '../engine';

/** A JSON value: what crosses between the lab and a student's code, both ways. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One statement an exercise checks: a "verify" sentence of the lesson, with its requirement ids. */
export interface Statement {
  /** Stable id (a contract: `--json`, the `--dir` table's columns and the page use it). */
  readonly id: string;
  readonly text: string;
  readonly requirements: readonly string[];
}

/** What went wrong with the student's code itself, rather than a statement it broke. */
export type CodeErrorKind = 'syntax' | 'exception' | 'budget' | 'shape' | 'missing-export' | 'process';

/** A failure of the student's code: the page shows it beside the editor, the CLI prints it and exits 2. */
export interface CodeError {
  readonly kind: CodeErrorKind;
  readonly message: string;
  /** 1-based line and column in the student's file, where known. */
  readonly line?: number;
  readonly column?: number;
  /** The run where it happened, when it happened inside one (a thrown exception, a budget, a shape). */
  readonly where?: FailingRun;
}

/** One run of a scenario, enough to replay it: the ordering is the explorer's schedule string. */
export interface FailingRun {
  readonly scenario: string;
  readonly transport: Transport;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly schedule: string;
  /** `seq` of the event at (or after) which the statement broke. */
  readonly step: number;
  readonly atMs: number;
  /** Events in the ordering up to the break (its length: what "shortest" is measured in). */
  readonly events: number;
}

/** A call the lab made into the student's code, and what it got back (shown at the failing step). */
export interface ComponentCall {
  readonly atMs: number;
  readonly call: string;
  readonly returned: string;
}

export interface StatementResult {
  readonly id: string;
  readonly holds: boolean;
  /** Why it broke, in words (the first explanation of the shortest failing ordering). */
  readonly explanation?: string;
  /** The shortest failing ordering found. */
  readonly failing?: FailingRun;
  /** The calls into the student's code in that ordering, up to the break (the last few). */
  readonly calls?: readonly ComponentCall[];
}

/** The answer to one Check: every statement, how many orderings were explored, and how long it took. */
export interface CheckReport {
  readonly exercise: string;
  readonly statements: readonly StatementResult[];
  /** Orderings explored across all the exercise's scenarios (distinct histories). */
  readonly orderings: number;
  /** Explorer states visited (runs). */
  readonly states: number;
  readonly elapsedMs: number;
  /** Every ordering of every run was explored (false: a bound cut one, so "holds" means "none found"). */
  readonly complete: boolean;
  /** Set when the student's code could not be graded (nothing else is then meaningful). */
  readonly error?: CodeError;
  /** All statements hold and there is no error. */
  readonly passed: boolean;
}

/** One exercise as the lists show it. */
export interface ExerciseInfo {
  readonly id: string;
  readonly title: string;
  /** The component in the lesson's terms, one paragraph. */
  readonly summary: string;
  /** The names the student's module must export. */
  readonly exports: readonly string[];
  readonly statements: readonly Statement[];
}
