import type { CodeError, CodeErrorKind, Json } from './types';

/**
 * Where a student's component runs: the QuickJS sandbox (JavaScript, in the worker and under Node) or a
 * process speaking the JSON-lines protocol (`--cmd`, e.g. Python). Both look the same to an exercise:
 * synchronous calls with JSON in and out, so the virtual clock still drives everything.
 */
export interface ComponentInstance {
  /** Calls an exported function; returns its result. */
  call(fn: string, args: readonly Json[]): Json;
  /** Calls an exported factory and keeps the object it returns; answers the object's handle. */
  make(fn: string, args: readonly Json[]): number;
  /** Calls a method of an object `make` kept. */
  method(handle: number, name: string, args: readonly Json[]): Json;
  dispose(): void;
}

/** A student's component, loaded once, opened afresh for every run (no state crosses orderings). */
export interface ComponentSource {
  /** A fresh instance: module state and every object start anew. */
  open(): ComponentInstance;
  /** Ends what `open` needs (a process, a runtime). */
  close(): void;
}

/** Thrown by a component instance: the student's code failed, not the lab. */
export class StudentCodeError extends Error {
  readonly kind: CodeErrorKind;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(kind: CodeErrorKind, message: string, line?: number, column?: number) {
    super(message);
    this.name = 'StudentCodeError';
    this.kind = kind;
    this.line = line;
    this.column = column;
  }

  toCodeError(): CodeError {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.line === undefined ? {} : { line: this.line }),
      ...(this.column === undefined ? {} : { column: this.column }),
    };
  }
}
