import { LabError, type ComponentClock, type ComponentProbe } from '../engine';
import { StudentCodeError, type ComponentInstance } from './runtime';
import type { ComponentCall, Json } from './types';

/** How many calls a replayed failing ordering keeps for the page (the last ones before the break). */
export const CALLS_KEPT = 12;

/** What a logged call shows of a long argument or answer (a whole JSON-RPC message is rarely the point). */
const CALL_TEXT_MAX = 240;
const clip = (text: string): string => (text.length <= CALL_TEXT_MAX ? text : `${text.slice(0, CALL_TEXT_MAX - 1)}…`);

/**
 * The one path from an exercise's adapter into a student's component: it logs each call (when asked,
 * for the failing ordering shown), and turns a failure of the student's code into a LAB050 that ends
 * the exploration, keeping the student's error (kind, message, line) and where it happened.
 */
export class Caller {
  clock: ComponentClock | null = null;
  failure: { error: StudentCodeError; atMs: number; step: number } | null = null;
  /** The caller whose `failure` the grader reads: itself, or the one a replica was opened from. */
  private readonly root: Caller;
  /** Replicas opened from this caller and not yet disposed (ended with it). */
  private readonly replicas = new Set<Caller>();

  constructor(
    private readonly instance: ComponentInstance,
    private readonly log: ComponentCall[] | null,
    private readonly probe: ComponentProbe,
    /** Opens a fresh copy of the student's module (for `replica`); null where none may be opened. */
    private readonly opener: (() => ComponentInstance) | null = null,
    root?: Caller,
  ) {
    this.root = root ?? this;
  }

  /**
   * A fresh copy of the student's module, called through the same log and probe, whose failures are
   * this caller's: for a part that runs in a process of its own (a server replica), so nothing in
   * module memory carries over from one to the next. `dispose` ends it; the root's `dispose` ends
   * every replica still open.
   */
  replica(): Caller {
    if (this.opener === null) throw new LabError('LAB050', 'this check cannot open another copy of the component');
    const root = this.root;
    const replica = new Caller(this.opener(), this.log, this.probe, null, root);
    replica.clock = this.clock;
    root.replicas.add(replica);
    return replica;
  }

  /** Ends a replica (its instance), or, on the root, every replica still open (the root's own instance is its owner's). */
  dispose(): void {
    if (this.root !== this) {
      this.root.replicas.delete(this);
      this.instance.dispose();
      return;
    }
    for (const replica of [...this.replicas]) replica.dispose();
  }

  private guard<T extends Json | number>(label: string, run: () => T): T {
    try {
      const value = run();
      this.probe.note(`${label}=${JSON.stringify(value) ?? 'undefined'}`);
      if (this.log !== null)
        this.log.push({
          atMs: this.clock?.nowMs ?? 0,
          call: clip(label),
          returned: clip(JSON.stringify(value) ?? 'undefined'),
        });
      return value;
    } catch (error) {
      if (!(error instanceof StudentCodeError)) throw error;
      this.root.failure = { error, atMs: this.clock?.nowMs ?? 0, step: this.clock?.lastSeq() ?? 0 };
      if (this.log !== null)
        this.log.push({ atMs: this.clock?.nowMs ?? 0, call: clip(label), returned: clip(`threw ${error.message}`) });
      throw new LabError('LAB050', `${label}: ${error.message}`);
    }
  }

  call(fn: string, args: readonly Json[]): Json {
    return this.guard(`${fn}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`, () =>
      this.instance.call(fn, args),
    );
  }

  make(fn: string, args: readonly Json[]): number {
    return this.guard(`${fn}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`, () =>
      this.instance.make(fn, args),
    );
  }

  method(handle: number, name: string, args: readonly Json[]): Json {
    return this.guard(`${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`, () =>
      this.instance.method(handle, name, args),
    );
  }

  /** A value of the wrong shape: the same path as a thrown exception, kind `shape`. */
  shape(message: string): never {
    const error = new StudentCodeError('shape', message);
    this.root.failure = { error, atMs: this.clock?.nowMs ?? 0, step: this.clock?.lastSeq() ?? 0 };
    throw new LabError('LAB050', message);
  }
}
