import { assert, fail } from '../core/assert';
import type { ExplorerHooks } from '../core/scheduler';
import { isRequestId, type ProgressToken, type RequestId } from './protocol';
import type { ClientOutcome, DeadlineName, TerminalState } from './events';

/**
 * RequestCoordinator: the lifecycle of in-flight requests (docs/requirements.md#request-lifecycle-rc, RC-1 … RC-9).
 *
 * It keeps what each side knows apart, because the race lives in that gap:
 * - the server's view (`server`): active until it sends the final response or accepts a cancellation;
 * - the client's view (`client`): waiting until it receives the response, abandons the request, or
 *   a deadline fires;
 * - one `terminal` state per request, set exactly once by whichever of those happens first in
 *   virtual time (server sent the response, server accepted a cancellation, a client deadline fired).
 *
 * It is pure bookkeeping over explicit times: no clock, no I/O. The simulation wires it to the
 * scheduler and the transport; unit tests drive it directly.
 */
export type ServerPhase = 'active' | 'completed' | 'cancelled';
export type ClientPhase = 'waiting' | 'settled' | 'abandoned';

export interface RequestRecord {
  readonly id: RequestId;
  readonly progressToken: ProgressToken | null;
  readonly startedAtMs: number;
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  /** Where the maximum clock counts from: the start, unless a catalogued failure mode lets progress move it. */
  maxOriginMs: number;
  /** The a catalogued failure mode "progress resets every deadline": accepted progress also restarts the maximum clock. */
  readonly progressResetsMax: boolean;
  /** Last useful activity the client saw (start or accepted progress): the idle clock's origin. */
  lastActivityAtMs: number;
  lastProgressSent: number | null;
  lastProgressSeen: number | null;
  server: ServerPhase;
  /** Whether the request reached the server: false when a fault lost it on the way. */
  serverReceived: boolean;
  client: ClientPhase;
  terminal: { state: TerminalState; atMs: number } | null;
  /** RC-8: how the client's own view ended (it used the response, gave up, or a deadline fired), and when. */
  clientEnd: { outcome: ClientOutcome; atMs: number } | null;
  /** RC-8: when the server's own view ended (it sent the final response, or accepted a cancellation). */
  serverEndedAtMs: number | null;
}

export interface StartOptions {
  readonly atMs: number;
  readonly progressToken: ProgressToken | null;
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  /** a catalogued failure mode only: progress also restarts the maximum clock (RC-2 forbids it). */
  readonly progressResetsMax?: boolean;
}

export type Verdict = { accepted: true } | { accepted: false; reason: string };

/**
 * What the server did with a cancellation, and which request it named. `afterEnd`: only a student's
 * coordinator (the coordinator exercise) answers so: it accepted the cancellation of a request that
 * had already ended on the server, giving it a second terminal state.
 */
export type CancelVerdict = Verdict & { requestId: RequestId | null; afterEnd?: boolean };

const accepted: Verdict = { accepted: true };

/** The channel name an event that used the coordinator touches (the partial-order reduction's footprint). */
export const COORDINATOR_CHANNEL = 'coordinator';
const refuse = (reason: string): Verdict => ({ accepted: false, reason });

export class RequestCoordinator {
  private readonly records = new Map<RequestId, RequestRecord>();
  /** The open `subscriptions/listen` calls; null until the first opens (most runs have none). */
  private listenStreams: Set<RequestId> | null = null;
  private lastId: RequestId | null = null;
  private lastRecord: RequestRecord | undefined = undefined;
  /** Exploring with the partial-order reduction: names the coordinator in the running event's footprint; null otherwise. */
  private touch: (() => void) | null = null;

  /**
   * Under an explorer that reduces: every read or write of a record (or of the open listens) from now
   * on names the coordinator as a channel of the running event (`ExplorerHooks.touch`). Both sides read
   * and write it (the terminal state is set by whichever side ends the request first; the client reads
   * whether the server received the request, the server the client's view), so two events that used it
   * are never commuted. Every access goes through `get` or the listens, which both name it.
   */
  reduceUnder(explorer: ExplorerHooks | null): void {
    if (explorer?.touch === undefined) return;
    this.touch = () => explorer.touch?.(COORDINATOR_CHANNEL);
  }

  /** A Map keeps 41 and "41" apart by itself (SameValueZero): the id is the key. */
  private static key(id: RequestId): RequestId {
    return id;
  }

  get(id: RequestId): RequestRecord | undefined {
    this.touch?.();
    // Most calls name the request the call before named (each checkpoint asks several times): a record,
    // once made, is never replaced, so the last one found is kept at hand.
    if (id === this.lastId && this.lastRecord !== undefined) return this.lastRecord;
    const record = this.records.get(RequestCoordinator.key(id));
    if (record !== undefined) {
      this.lastId = id;
      this.lastRecord = record;
    }
    return record;
  }

  private must(id: RequestId): RequestRecord {
    const record = this.get(id);
    if (record === undefined) fail(`unknown request ${JSON.stringify(id)}`);
    return record;
  }

  /** RC-1: a request starts with an idle and a maximum deadline. RC-4: a token never removes them. */
  start(id: RequestId, options: StartOptions): RequestRecord {
    assert(this.get(id) === undefined, () => `request id ${JSON.stringify(id)} is already in use`);
    assert(options.idleTimeoutMs > 0, 'idleTimeoutMs must be positive');
    assert(options.maxTimeoutMs > 0, 'maxTimeoutMs must be positive');
    assert(Number.isFinite(options.idleTimeoutMs), 'idleTimeoutMs must be finite');
    assert(Number.isFinite(options.maxTimeoutMs), 'maxTimeoutMs must be finite');
    const record: RequestRecord = {
      id,
      progressToken: options.progressToken,
      startedAtMs: options.atMs,
      idleTimeoutMs: options.idleTimeoutMs,
      maxTimeoutMs: options.maxTimeoutMs,
      maxOriginMs: options.atMs,
      progressResetsMax: options.progressResetsMax === true,
      lastActivityAtMs: options.atMs,
      lastProgressSent: null,
      lastProgressSeen: null,
      server: 'active',
      serverReceived: true,
      client: 'waiting',
      terminal: null,
      clientEnd: null,
      serverEndedAtMs: null,
    };
    this.records.set(RequestCoordinator.key(id), record);
    return record;
  }

  idleDueAtMs(id: RequestId): number {
    const record = this.must(id);
    return record.lastActivityAtMs + record.idleTimeoutMs;
  }

  /** RC-2: the maximum deadline is fixed at start; nothing moves it. */
  maxDueAtMs(id: RequestId): number {
    const record = this.must(id);
    return record.maxOriginMs + record.maxTimeoutMs;
  }

  /** Active for the client: still waiting and no deadline has passed at `atMs`. */
  isActive(id: RequestId, atMs: number): boolean {
    const record = this.must(id);
    return record.client === 'waiting' && this.dueDeadline(record, atMs) === null;
  }

  private dueDeadline(record: RequestRecord, atMs: number): DeadlineName | null {
    // The absolute budget is checked first: when both are due it is the one that explains the end.
    if (atMs >= record.maxOriginMs + record.maxTimeoutMs) return 'max';
    if (atMs >= record.lastActivityAtMs + record.idleTimeoutMs) return 'idle';
    return null;
  }

  private isDue(record: RequestRecord, deadline: DeadlineName, atMs: number): boolean {
    return deadline === 'max'
      ? atMs >= record.maxOriginMs + record.maxTimeoutMs
      : atMs >= record.lastActivityAtMs + record.idleTimeoutMs;
  }

  private setTerminal(record: RequestRecord, state: TerminalState, atMs: number): void {
    assert(
      record.terminal === null,
      () =>
        `request ${JSON.stringify(record.id)} already ended as ${record.terminal?.state}; refusing a second terminal state ${state}`,
    );
    assert(
      atMs >= record.startedAtMs,
      () =>
        `request ${JSON.stringify(record.id)} cannot end at ${atMs} ms, before it started at ${record.startedAtMs} ms`,
    );
    record.terminal = { state, atMs };
  }

  // ── client side ──────────────────────────────────────────────────────────────────────────────

  /**
   * RC-2: progress the client accepts resets the idle clock, never the maximum one. Progress for a
   * request the client no longer waits on, or that does not increase, is ignored.
   */
  clientProgress(id: RequestId, progress: number, atMs: number): Verdict {
    const record = this.must(id);
    if (record.client !== 'waiting')
      return refuse(
        `the client already ${record.client === 'settled' ? 'has the final response' : 'abandoned this request'}`,
      );
    if (record.lastProgressSeen !== null && progress <= record.lastProgressSeen)
      return refuse(`progress ${progress} does not increase past ${record.lastProgressSeen}`);
    // Runs on every progress: the checks build no closure unless they fail.
    if (atMs < record.lastActivityAtMs)
      fail(`progress at ${atMs} ms is before the last activity at ${record.lastActivityAtMs} ms`);
    record.lastProgressSeen = progress;
    record.lastActivityAtMs = atMs;
    if (record.progressResetsMax) record.maxOriginMs = atMs;
    // RC-2, paired with maxDueAtMs: accepted progress moves the idle deadline only (unless the §9 failure mode is on).
    if (this.idleDueAtMs(id) !== atMs + record.idleTimeoutMs) fail('progress restarts the idle deadline from now');
    if (!(record.progressResetsMax || record.maxOriginMs === record.startedAtMs))
      fail('progress never moves the maximum deadline');
    return accepted;
  }

  /** Fires whichever deadline is due at `atMs`; that ends the request as timeout-idle or timeout-max. */
  clientExpire(id: RequestId, atMs: number, only?: DeadlineName): DeadlineName | null {
    const record = this.must(id);
    if (record.client !== 'waiting') return null;
    // `only`: a client whose timer knows one deadline (the TypeScript SDK 1.x's `timeout`) ends by that one.
    const due = only === undefined ? this.dueDeadline(record, atMs) : this.isDue(record, only, atMs) ? only : null;
    if (due === null) return null;
    record.client = 'abandoned';
    this.setClientEnd(record, due === 'max' ? 'timeout-max' : 'timeout-idle', atMs);
    if (record.terminal === null) this.setTerminal(record, due === 'max' ? 'timeout-max' : 'timeout-idle', atMs);
    return due;
  }

  /**
   * The client gives up (user cancel). Not terminal: the server decides which of cancel or completion
   * won — unless the request never reached the server, when giving up ends it (terminal cancelled).
   */
  clientAbandon(id: RequestId, atMs: number): Verdict {
    const record = this.must(id);
    if (record.client !== 'waiting')
      return refuse(
        `the client already ${record.client === 'settled' ? 'has the final response' : 'abandoned this request'}`,
      );
    record.client = 'abandoned';
    this.setClientEnd(record, 'cancelled', atMs);
    // A request a fault lost on its way: no server will decide anything, so the client's giving up ends it.
    this.endUnreceived(id, atMs);
    return accepted;
  }

  /** RC-8: a response for a request the client abandoned is ignored; one it waits for ends its view as completed. */
  clientResponse(id: RequestId, atMs: number): Verdict {
    const record = this.must(id);
    if (record.client === 'abandoned')
      return refuse('the client abandoned this request before the response arrived; a late result is unusable');
    assert(record.client === 'waiting', 'a second final response for one request');
    record.client = 'settled';
    this.setClientEnd(record, 'completed', atMs);
    return accepted;
  }

  /** RC-8: the client's own ending, or null while it still waits. */
  clientOutcome(id: RequestId): RequestRecord['clientEnd'] {
    return this.must(id).clientEnd;
  }

  /**
   * RC-8: whether the two sides' views of the request disagree: the server completed and sent its
   * final response, but the client ended otherwise and never uses it. Null while either side still
   * has not ended (only then can it be known).
   */
  viewsDiverge(id: RequestId): boolean | null {
    const record = this.must(id);
    if (record.clientEnd === null || record.serverEndedAtMs === null) return null;
    return record.server === 'completed' && record.clientEnd.outcome !== 'completed';
  }

  private setClientEnd(record: RequestRecord, outcome: ClientOutcome, atMs: number): void {
    assert(
      record.clientEnd === null,
      () => `the client's view of ${JSON.stringify(record.id)} already ended as ${record.clientEnd?.outcome}`,
    );
    assert(
      atMs >= record.startedAtMs,
      () => `the client cannot end ${JSON.stringify(record.id)} at ${atMs} ms, before it started`,
    );
    record.clientEnd = { outcome, atMs };
  }

  // ── server side ──────────────────────────────────────────────────────────────────────────────

  /** A fault lost the request on its way: the server never knows its id. */
  lostBeforeServer(id: RequestId): void {
    const record = this.must(id);
    assert(
      record.server === 'active' && record.terminal === null,
      () => `request ${JSON.stringify(id)} is lost on its way only before anything happened to it`,
    );
    record.serverReceived = false;
  }

  /** RC-3: progress strictly increases and stops at the server's terminal point. */
  serverProgress(id: RequestId, progress: number): Verdict {
    const record = this.must(id);
    if (record.server !== 'active')
      return refuse(`the request is already ${record.server} on the server; nothing more is sent for it`);
    if (record.progressToken === null) return refuse('the request carried no progressToken');
    if (!Number.isFinite(progress)) return refuse('progress must be a finite number');
    if (record.lastProgressSent !== null && progress <= record.lastProgressSent)
      return refuse(`progress ${progress} does not increase past ${record.lastProgressSent}`);
    record.lastProgressSent = progress;
    return accepted;
  }

  /**
   * RC-5/RC-6/RC-7: a cancellation as it reaches the server. `params` is the notification's params
   * (stdio) or `{ requestId }` for an observed stream disconnect (Streamable HTTP). Malformed,
   * unknown and already-finished targets are ignored without error and without reply.
   */
  serverCancel(params: unknown, atMs: number): CancelVerdict {
    if (typeof params !== 'object' || params === null)
      return { ...refuse('malformed cancellation: params is not an object'), requestId: null };
    const requestId: unknown = (params as { requestId?: unknown }).requestId;
    if (requestId === undefined) return { ...refuse('malformed cancellation: requestId is missing'), requestId: null };
    if (!isRequestId(requestId))
      return { ...refuse('malformed cancellation: requestId is neither a string nor an integer'), requestId: null };
    const record = this.get(requestId);
    if (record === undefined)
      return { ...refuse(`no request ${JSON.stringify(requestId)} is known to the server`), requestId };
    // The request was lost on its way (a fault): the server ignores a cancellation of an id it never saw (RC-7).
    if (!record.serverReceived)
      return {
        ...refuse(`the server never received request ${JSON.stringify(requestId)}, so it knows no such id`),
        requestId,
      };
    this.listenStreams?.delete(RequestCoordinator.key(requestId));
    if (record.server !== 'active')
      return {
        ...refuse(
          `the request already ${record.server === 'completed' ? 'completed and its response was sent' : 'was cancelled'}`,
        ),
        requestId,
      };
    record.server = 'cancelled';
    record.serverEndedAtMs = atMs;
    if (record.terminal === null) this.setTerminal(record, 'cancelled', atMs);
    assert(record.terminal !== null, 'an accepted cancellation leaves the request with a terminal state');
    return { accepted: true, requestId };
  }

  /** A request a fault lost before the server got it, which the client abandoned: giving up ends it (nothing is left to decide). */
  private endUnreceived(id: RequestId, atMs: number): void {
    const record = this.must(id);
    if (!record.serverReceived && record.client === 'abandoned' && record.terminal === null)
      this.setTerminal(record, 'cancelled', atMs);
  }

  /**
   * RC-8: the worker finished. Returns true when the server must send the final response, false
   * when cancellation won and the response is suppressed (`complete()` after cancel sends nothing).
   */
  serverComplete(id: RequestId, atMs: number): boolean {
    const record = this.must(id);
    if (record.server === 'cancelled') return false;
    assert(record.server === 'active', () => `complete() called twice for request ${JSON.stringify(id)}`);
    record.server = 'completed';
    record.serverEndedAtMs = atMs;
    if (record.terminal === null) this.setTerminal(record, 'completed', atMs);
    return true;
  }

  terminal(id: RequestId): RequestRecord['terminal'] {
    return this.must(id).terminal;
  }

  // ── RC-9: server-initiated cancellation, only for subscriptions/listen ───────────────────────

  openListen(id: RequestId, atMs: number): void {
    this.start(id, {
      atMs,
      progressToken: null,
      idleTimeoutMs: Number.MAX_SAFE_INTEGER,
      maxTimeoutMs: Number.MAX_SAFE_INTEGER,
    });
    (this.listenStreams ??= new Set<RequestId>()).add(RequestCoordinator.key(id));
  }

  /**
   * The server ends a client's `subscriptions/listen` call (on stdio with notifications/cancelled,
   * on Streamable HTTP by closing the stream). Any other request is refused: a server never
   * cancels a client's ordinary request.
   */
  serverEndListen(id: RequestId, atMs: number): Verdict {
    this.touch?.();
    const key = RequestCoordinator.key(id);
    if (this.listenStreams?.has(key) !== true)
      return refuse(
        `request ${JSON.stringify(id)} is not an open subscriptions/listen call; servers MUST NOT cancel other requests`,
      );
    const record = this.must(id);
    this.listenStreams?.delete(key);
    record.server = 'cancelled';
    record.serverEndedAtMs = atMs;
    record.client = 'settled';
    this.setTerminal(record, 'cancelled', atMs);
    return accepted;
  }
}
