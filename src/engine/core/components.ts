/**
 * Components: the seam where a student's own implementation of one of the lesson's parts takes the
 * place of the lab's (the graded exercises, src/exercise/). A model that offers a seam reads it from
 * the run (`ResolvedRun.components`); with none given it uses its own part, so every run without one is
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
    this.breaches.push({
      statement,
      explanation,
      atMs: clock.nowMs,
      step: clock.lastSeq(),
      ...(schedule === undefined ? {} : { schedule }),
    });
  }
}

/** A progress item or a final response, as the buffer exercise's contract names them. */
export type BufferItem =
  | {
      readonly kind: 'progress';
      readonly token: string;
      readonly progress: number;
      readonly total: number;
      readonly needsRefetch?: boolean;
    }
  | { readonly kind: 'final'; readonly requestId: number; readonly message: unknown; readonly needsRefetch?: boolean };

export type OfferResult = 'queued' | 'coalesced' | 'dropped-oldest' | 'refused';

/** The bounded SSE buffer as a student writes it: `createBuffer(capacity)` → `{ offer(item), take() }`. */
export interface BufferComponent {
  offer(item: BufferItem): OfferResult;
  take(): BufferItem | null;
}

/** The coordinator exercise's answers: a cancellation accepted or ignored, progress sent or dropped, a response sent or suppressed. */
export type CancelAnswer = 'accept' | 'ignore';
export type ProgressAnswer = 'send' | 'drop';
export type CompleteAnswer = 'send' | 'suppress';

/**
 * The server's side of the RequestCoordinator as a student writes it (`createCoordinator()`): told of
 * each request the server receives, it decides what the server does with a cancellation (the params of
 * notifications/cancelled on stdio, `{ requestId }` for an observed stream close on Streamable HTTP),
 * with each progress report of the worker, and with the worker's result.
 */
export interface CoordinatorComponent {
  onRequest(id: string | number, progressToken: string | number | null): void;
  onCancel(params: unknown): CancelAnswer;
  onProgress(id: string | number, progress: number): ProgressAnswer;
  onComplete(id: string | number): CompleteAnswer;
}

/** A scalar of a ledger statement's parameters or a row's column. */
export type LedgerValue = string | number | null;

/** One SQL statement a ledger program asks its connection to run (`purpose`: a few words for the transcript). */
export interface LedgerStatementStep {
  readonly sql: string;
  readonly params: readonly LedgerValue[];
  readonly purpose?: string;
}

/** A step of a ledger program: a statement, or a wait on the virtual clock (after SQLITE_BUSY). */
export type LedgerStepRequest = LedgerStatementStep | { readonly waitMs: number; readonly reason?: string };

/** What a statement step answers: its rows (the business effect's also carries `result`), or SQLite's error. */
export type LedgerStepAnswer =
  | {
      readonly ok: true;
      readonly rows: readonly Readonly<Record<string, LedgerValue>>[];
      readonly changes: number;
      readonly result?: Readonly<Record<string, LedgerValue>>;
    }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** How a ledger program ended, as its author says (the adapter checks it against what ran). */
export type LedgerProgramEnd =
  | { readonly status: 'executed' | 'replayed'; readonly result: unknown }
  | { readonly status: 'rejected'; readonly code: string; readonly reason: string }
  | { readonly status: 'failed'; readonly code: string; readonly reason: string };

/** One mutating call as the ledger exercises hand it to `execute(key, args, effect)`. */
export interface LedgerCall {
  readonly key: string | null;
  /** The tool's arguments without the key, in the member order the client sent them. */
  readonly args: Readonly<Record<string, LedgerValue>>;
  /** The business effect as one statement: the program yields it to run it. */
  readonly effect: LedgerStatementStep;
  /** The tool, and what a stored record names: the request, its connection, the virtual time the call began. */
  readonly operation: string;
  readonly requestId: string;
  readonly connection: string;
  readonly atMs: number;
}

/** One running `execute`: the next step after each answer (undefined first), until it ends. */
export interface LedgerProgramComponent {
  next(
    answer: LedgerStepAnswer | undefined,
  ):
    | { readonly done: false; readonly step: LedgerStepRequest }
    | { readonly done: true; readonly end: LedgerProgramEnd };
  /** The program is over, or its run ended: frees what it holds. */
  close(): void;
}

/** A durable task's status as the tasks exercise's store answers it (the tasks extension's statuses). */
export type TaskStoreStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * The durable task's status logic as a student writes it (the `tasks` exercise): `createTaskStore()` →
 * this. The lab keeps the SQLite row and the worker's clock; the store decides the status at each point
 * where the lab's own logic does: a new task, a tasks/cancel (the status it answers), each worker
 * checkpoint ('stop' ends the work as cancelled), the work finishing, and what tasks/get reports.
 */
export interface TaskStoreComponent {
  create(taskId: string): TaskStoreStatus;
  onCancelRequest(taskId: string): TaskStoreStatus;
  checkpoint(taskId: string): 'continue' | 'stop';
  complete(taskId: string): TaskStoreStatus;
  status(taskId: string): TaskStoreStatus;
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
   * herd: the wait before a client's reconnect attempt n (docs/requirements.md RV-4), in place of the backoff policy:
   * an integer in [0, min(capMs, baseMs·2ⁿ)], the same for the same arguments. Breaches are reported as
   * `delay-in-range` (models/herd/componentBackoff.ts).
   */
  readonly backoffDelayMs?: (clientId: number, attempt: number, clock: ComponentClock) => number;
  /** request-race (A–D, cancel-ignored): the server's side of the RequestCoordinator, one per run. */
  readonly coordinator?: (clock: ComponentClock) => CoordinatorComponent;
  /**
   * ledger and inventory scenarios: the idempotent mutation, one program per request in the place of
   * `atomicMutation` (every statement a scheduler event of its own, so two connections interleave).
   */
  readonly ledgerExecute?: (call: LedgerCall, clock: ComponentClock) => LedgerProgramComponent;
  /** task scenarios: the durable task's status logic (what tasks/cancel, the checkpoints and tasks/get answer). */
  readonly taskStore?: (clock: ComponentClock) => TaskStoreComponent;
  /**
   * A client's request (request-race): its two deadlines (docs/requirements.md RC-1, RC-2, RC-4), in place of the
   * lab's own (the coordinator's due times): made at the request's start, told of every progress the
   * client accepts, asked when each deadline is due. Breaches are reported as `armed-at-start`,
   * `idle-reset-by-progress`, `max-never-moves` and `token-keeps-deadlines` (mcp/componentDeadlines.ts).
   */
  readonly deadlines?: (start: DeadlinesStart, clock: ComponentClock) => DeadlinesComponent;
}
