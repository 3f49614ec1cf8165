import type { ComponentProbe, Components, InvariantName, SqliteHost, Transport } from '../engine';
import type { Caller } from './caller';
import type { ComponentInstance } from './runtime';
import type { ExerciseInfo, StatementResult } from './types';

/** One scenario an exercise explores with the student's component in place. */
export interface ExerciseRun {
  readonly scenario: string;
  readonly transport: Transport;
  /** Settings over the scenario's (the exercise fixes the jitter it explores at). */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/** What a statement checked outside any run says (e.g. backoff's spread over a herd). */
export type DirectResult = Pick<StatementResult, 'id' | 'holds' | 'explanation'>;

export interface ExerciseDef extends ExerciseInfo {
  /** The starter the student begins from: the interface documented, wrong the way a failure mode says. */
  readonly starter: string;
  readonly runs: readonly ExerciseRun[];
  /** Engine invariants that check a statement of this exercise, by statement id. */
  readonly invariantStatements: Partial<Record<InvariantName, string>>;
  /** Wraps one fresh instance as one run's components. */
  components(caller: Caller, probe: ComponentProbe): Omit<Components, 'probe'>;
  /** Statements checked by calling the component directly, outside the runs. */
  direct?(open: () => ComponentInstance): DirectResult[];
  /** Whether a run needs SQLite (the ledger exercises). */
  readonly sqlite?: boolean;
  /** Set when the exercise can be written in JavaScript only (not through `--cmd`): why. */
  readonly javascriptOnly?: string;
}

export interface GradeEnv {
  /** sql.js, for exercises whose runs use SQLite. */
  readonly ledger?: SqliteHost;
  /** Most explorer states per run (default 20,000). */
  readonly bound?: number;
  /** Called after each run's exploration, for a progress bar: runs done of runs in all. */
  readonly onProgress?: (done: number, total: number) => void;
}
