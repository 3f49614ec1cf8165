/**
 * Components: the seam where a student's own implementation of one of the lesson's parts takes the
 * place of the lab's (the graded exercises, src/exercise/). A model that offers a seam reads it from
 * the run (`ModelRun.components`); with none given it uses its own part, so every run without one is
 * byte for byte what it was.
 *
 * A component is called synchronously on the virtual clock, like the lab's own part. It may break a
 * statement of the exercise's contract (a buffer over its capacity, a delay outside its range): the
 * adapter that wraps it reports that through `ComponentProbe.breach`, with the instant and the step,
 * and the run goes on where the model can follow it. Where it cannot (a return value the model has no
 * meaning for), the adapter throws, and the run ends there as an error ending of its own.
 */

/** One statement a component broke in one run: which, why in words, when and after which event. */
export interface ComponentBreach {
  readonly statement: string;
  readonly explanation: string;
  readonly atMs: number;
  /** `seq` of the last event stamped before the breach (0: before any). */
  readonly step: number;
  /** The explorer's choices up to the breach, as a schedule string (set when a run is explored). */
  readonly schedule?: string;
}

/** What an adapter reads of the run: the virtual time, and the last event's seq. */
export interface ComponentClock {
  readonly nowMs: number;
  lastSeq(): number;
}

/** Collects the breaches of one run; the explorer sets `scheduleNow` so each names the ordering that reaches it. */
export class ComponentProbe {
  readonly breaches: ComponentBreach[] = [];
  scheduleNow: (() => string) | null = null;
  /** A running hash (FNV-1a, two lanes) of every call into the component and its answer. */
  private trailA = 0x811c_9dc5;
  private trailB = 0x0100_0193;

  /**
   * Notes one call and its answer. A fresh component's state is a function of the calls it was given,
   * so the model's state and this trail together are the run's state: the explorer merges by both.
   */
  note(text: string): void {
    let a = this.trailA;
    let b = this.trailB;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      a = Math.imul(a ^ code, 0x0100_0193);
      b = Math.imul(b ^ code, 0x01b3_7a4d) + 0x2d;
    }
    this.trailA = Math.imul(a ^ 0xff, 0x0100_0193) >>> 0;
    this.trailB = b >>> 0;
  }

  get trail(): string {
    return `${this.trailA.toString(36)}.${this.trailB.toString(36)}`;
  }

  breach(statement: string, explanation: string, clock: ComponentClock): void {
    const schedule = this.scheduleNow?.();
    this.breaches.push({ statement, explanation, atMs: clock.nowMs, step: clock.lastSeq(), ...(schedule === undefined ? {} : { schedule }) });
  }
}

/** A progress item or a final response, as the buffer exercise's contract names them. */
export type BufferItem =
  | { readonly kind: 'progress'; readonly token: string; readonly progress: number; readonly total: number; readonly needsRefetch?: boolean }
  | { readonly kind: 'final'; readonly requestId: number; readonly message: unknown; readonly needsRefetch?: boolean };

export type OfferResult = 'queued' | 'coalesced' | 'dropped-oldest' | 'refused';

/** The bounded SSE buffer as a student writes it: `createBuffer(capacity)` → `{ offer(item), take() }`. */
export interface BufferComponent {
  offer(item: BufferItem): OfferResult;
  take(): BufferItem | null;
}

/** What a request's deadlines are made from, as the deadlines exercise's contract names them. */
export interface DeadlinesStart {
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly startedAtMs: number;
  readonly progressToken: string | number | null;
}

/** When each deadline is due (virtual ms); null: no such deadline (which RC-4 forbids). */
export interface DeadlinesDue {
  readonly idle: number | null;
  readonly max: number | null;
}

/**
 * The client's two deadlines as a student writes them: `createDeadlines(start)` → `{ dueAtMs(), onProgress(atMs) }`;
 * `dueAtMs()` answers the due times now (the lab asks at the start), `onProgress(atMs)` takes progress the
 * client accepted and answers the due times after it.
 */
export interface DeadlinesComponent {
  dueAtMs(): DeadlinesDue;
  onProgress(atMs: number): DeadlinesDue;
}

/**
 * The parts a run may take from outside. Each field is optional: a model uses its own part where the
 * field is absent. `probe` receives every breach the adapters see.
 */
export interface Components {
  readonly probe: ComponentProbe;
  /** buffer-overload: the buffer between the producer and the slow client. */
  readonly buffer?: (capacity: number, clock: ComponentClock) => BufferComponent;
  /**
   * herd: the wait before a client's reconnect attempt n (SPEC RV-4), in place of the backoff policy:
   * an integer in [0, min(capMs, baseMs·2ⁿ)], the same for the same arguments. Breaches are reported as
   * `delay-in-range` (models/herd/componentBackoff.ts).
   */
  readonly backoffDelayMs?: (clientId: number, attempt: number, clock: ComponentClock) => number;
  /**
   * A client's request (request-race): its two deadlines (SPEC RC-1, RC-2, RC-4), in place of the
   * lab's own (the coordinator's due times): made at the request's start, told of every progress the
   * client accepts, asked when each deadline is due. Breaches are reported as `armed-at-start`,
   * `idle-reset-by-progress`, `max-never-moves` and `token-keeps-deadlines` (mcp/componentDeadlines.ts).
   */
  readonly deadlines?: (start: DeadlinesStart, clock: ComponentClock) => DeadlinesComponent;
}
