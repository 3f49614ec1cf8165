/**
 * How long a run's texts may be, each written once: the page's link reader and the worker's run
 * request read these numbers (a link refuses what the worker would, with a message, and never cuts a
 * text short). Kept in a file of its own so the page reads them without loading the engine.
 */

/** A run spec. It travels in the page's address (Compare's runA, runB and runC). */
export const RUN_SPEC_CHARS_MAX = 2_000;

/** An explored ordering (`schedule=`): a string of choices; longer than this it is not an ordering the lab made. */
export const SCHEDULE_CHARS_MAX = 100_000;

/** Faults on given messages (`faults=drop:12,delay:14:300`). */
export const FAULTS_CHARS_MAX = 10_000;
