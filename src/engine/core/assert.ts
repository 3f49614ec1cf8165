/** Thrown when an engine invariant breaks: a bug in the lab, never a user error. */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

/**
 * States an invariant at the point where the engine would otherwise go wrong quietly.
 * Keep conditions simple: split compound assertions so the message names the one that failed.
 * A message that interpolates values is passed as a function, so the hot path builds no string
 * unless the assertion fails (the engine asserts on every event).
 */
export function assert(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new InvariantError(typeof message === 'string' ? message : message());
}

/** Throws the InvariantError for a check written as `if (!ok) fail(...)` on a hot path (no closure per call). */
export function fail(message: string): never {
  throw new InvariantError(message);
}

/**
 * Ends an exhaustive switch over a closed union: `value` has type `never` once every member has its
 * case, so a new member fails to compile at the switch instead of falling into a quiet default.
 */
export function unreachable(_value: never, message: string): never {
  throw new InvariantError(message);
}
