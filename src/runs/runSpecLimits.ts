/**
 * How long a run's texts may be, and how many faults and choices a run takes, each written once: the
 * page's link reader reads the texts up to these lengths and the values up to these counts, and the
 * worker's run request takes the same counts (a link refuses what the worker would, with a message,
 * and never cuts a text short). Kept in a file of its own so the page reads them without loading the engine.
 */

/** A run spec. It travels in the page's address (Compare's runA, runB and runC). */
export const RUN_SPEC_CHARS_MAX = 2_000;

/** An explored ordering (`schedule=`): a string of choices; longer than this it is not an ordering the lab made. */
export const SCHEDULE_CHARS_MAX = 100_000;

/** Faults on given messages (`faults=drop:12,delay:14:300`). */
export const FAULTS_CHARS_MAX = 10_000;

/** The choices of an ordering a run request carries: more than the longest schedule text a link reads holds. */
export const SCHEDULE_CHOICES_MAX = 50_000;

/** The faults a run request carries (one per message). */
export const FAULTS_MAX = 1_000;
