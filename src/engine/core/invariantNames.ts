/**
 * The invariants the explorer checks after every step of every ordering. The names are a
 * contract: the CLI's `--json`, the page and the tests use them as written here. A pure file (it
 * imports nothing), so the worker's message schemas check them without loading the engine.
 */
export const INVARIANTS = [
  'one-terminal-state',
  'nothing-after-accepted-cancel',
  'progress-increasing',
  'no-progress-after-final',
  'max-deadline-by-start-plus-max',
  'channel-fifo',
  'unique-request-ids',
  'one-execution-per-key',
  'buffer-within-capacity',
  'final-never-dropped',
  'task-terminal-stable',
  'causality',
] as const;

export type InvariantName = (typeof INVARIANTS)[number];
