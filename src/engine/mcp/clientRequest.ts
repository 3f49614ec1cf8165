import { assert } from '../core/assert';
import type { Components, DeadlinesDue } from '../core/components';
import { ComponentDeadlines } from './componentDeadlines';
import type { JsonObject, ProgressToken, RequestId } from '../core/jsonrpc';
import type { MessageEvent } from '../core/transcript';
import type { Delivery } from '../core/wire';
import type { RequestCoordinator, Verdict } from './coordinator';
import { ClientDeadlines, noteTerminal } from './deadlines';
import type { CancellationSignal, DeadlineName } from './events';
import { callToolRequest, cancelledNotification } from './protocol';
import type { CallSim, ServerRequest } from './serverRequest';
import { closeResponseStream, sendOn } from './stream';
import { noteViews } from './views';
import { cancelHow, clientClosesStream, clientSettled, deadlineWording, disconnectObserved } from './wording';

const UNRECEIVED_TERMINAL = 'the client gave up on a request that never reached the server: it never ran there';

export interface ClientRequestOptions {
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly progressToken: ProgressToken | null;
  /** The a catalogued failure mode "progress resets every deadline" (RC-2 forbids it). */
  readonly progressResetsMax?: boolean;
  /** RC-8: record when the two sides' views diverge. */
  readonly views?: boolean;
  /** What the client does when a deadline it armed fires (`expire`, then `cancel`, as a rule). */
  readonly onDeadline: () => void;
  /** A student's deadlines (`components.deadlines`) in place of the coordinator's due times; absent: the lab's own. */
  readonly components?: Components;
}

/** How a model's cancellation differs from the spec's words and ways (each field optional). */
export interface CancelWays {
  /** Streamable HTTP: POST notifications/cancelled instead of closing the stream (a catalogued failure mode); the server's delivery of it. */
  readonly post?: Delivery;
  /** stdio: the server's delivery of notifications/cancelled; default: `server.acceptCancel(params, cancelHow.notified)`. */
  readonly notified?: Delivery;
  /** Why the client gave up, for the stream-closed sentence (default: the cancellation's reason). */
  readonly closedWhy?: string;
  /** Runs once the client closed the stream, before the server observes it. */
  readonly onClosed?: () => void;
  /** What closed, as the server observes it (the disconnect-observed sentence). */
  readonly observed?: string;
}

/**
 * The client's side of one request (RC-1, RC-2, RC-5, RC-8), shared by every model whose client
 * calls a tool: it starts the request with its two deadlines, takes progress and the final response,
 * gives up when a deadline fires or the user cancels, and puts its cancellation on the wire the way
 * the transport wants it. The coordinator decides every race; this part records the client's view.
 */
export class ClientRequest {
  readonly deadlines: ClientDeadlines;
  private closedAtMs: number | null = null;
  private signal: CancellationSignal = null;
  private cancelledAtMs: number | null = null;
  /** A student's deadlines, made at the start when the run brings them. */
  private student: ComponentDeadlines | null = null;
  /**
   * The options, read into fields: the caller's object literal, kept for the run, held `onDeadline` and
   * so the run, and V8 came to allocate such literals in its old generation, where a dead one kept its
   * run alive through the young-generation collections after it.
   */
  private readonly idleTimeoutMs: number;
  private readonly maxTimeoutMs: number;
  private readonly progressToken: ProgressToken | null;
  private readonly progressResetsMax: boolean;
  private readonly views: boolean;
  private readonly components: Components | undefined;

  constructor(
    private readonly sim: CallSim,
    private readonly coordinator: RequestCoordinator,
    readonly id: RequestId,
    options: ClientRequestOptions,
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.maxTimeoutMs = options.maxTimeoutMs;
    this.progressToken = options.progressToken;
    this.progressResetsMax = options.progressResetsMax === true;
    this.views = options.views === true;
    this.components = options.components;
    this.deadlines = new ClientDeadlines(sim, coordinator, id, options.onDeadline);
  }

  /** Streamable HTTP: when the client closed the request's response stream (what arrives later is discarded); null while open. */
  get closedStreamAtMs(): number | null {
    return this.closedAtMs;
  }

  /** What the client put on the wire to cancel; null while it never did. */
  get cancellationSignal(): CancellationSignal {
    return this.signal;
  }

  /** When the client first put its cancellation on the wire; null while it never did. */
  get cancelSentAtMs(): number | null {
    return this.cancelledAtMs;
  }

  /** RC-1: the client calls tool `name` now: the request starts and goes on the wire; `deliver` is the server's reception. The caller arms the deadlines it keeps. */
  callTool(name: string, args: JsonObject, deliver: Delivery): MessageEvent {
    const { idleTimeoutMs, maxTimeoutMs, progressToken, progressResetsMax, components } = this;
    const factory = components?.deadlines;
    // A student's deadlines may move the maximum: the coordinator then follows them rather than refuse it.
    this.coordinator.start(this.id, {
      atMs: this.sim.nowMs,
      progressToken,
      idleTimeoutMs,
      maxTimeoutMs,
      progressResetsMax: progressResetsMax || factory !== undefined,
    });
    this.sim.record({ kind: 'request-started', requestId: this.id, idleTimeoutMs, maxTimeoutMs, progressToken });
    if (factory !== undefined && components !== undefined) {
      this.student = new ComponentDeadlines(
        factory,
        { idleTimeoutMs, maxTimeoutMs, startedAtMs: this.sim.nowMs, progressToken },
        components.probe,
        this.sim.componentClock(),
      );
      this.follow(this.student.atStart());
    }
    const sent = sendOn(this.sim, 'client', callToolRequest(this.id, name, args, progressToken), this.id, deliver);
    // A fault (drop, or the stream dropped under it) lost it as it left: the server will never know this id.
    if (sent.lost === true) this.coordinator.lostBeforeServer(this.id);
    return sent;
  }

  /** Progress arrived: accepted progress restarts the idle deadline (in the failure mode every deadline). Returns why the client ignores it, or null. */
  progress(progress: number, resetReason: string): string | null {
    const verdict = this.coordinator.clientProgress(this.id, progress, this.sim.nowMs);
    if (!verdict.accepted) return verdict.reason;
    if (this.student !== null) {
      this.follow(this.student.progress(this.sim.nowMs));
      this.deadlines.followComponent(resetReason);
      return null;
    }
    if (this.progressResetsMax) this.deadlines.resetBothFailureMode(resetReason);
    else this.deadlines.resetIdle(resetReason);
    return null;
  }

  /** The final response arrived: the client settles and disarms its deadlines. Returns why it ignores it, or null. */
  response(): string | null {
    const verdict = this.coordinator.clientResponse(this.id, this.sim.nowMs);
    if (!verdict.accepted) return verdict.reason;
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: this.id,
      from: 'waiting',
      to: 'settled',
      reason: clientSettled(),
    });
    this.noteViews();
    this.deadlines.disarm(deadlineWording.disarmedByResponse);
    return null;
  }

  /**
   * A deadline fired (`only`: the one deadline this client keeps): the client abandons the request and
   * records why; `disarm` false leaves its other timer armed (the TypeScript SDK 1.x). Null when
   * nothing was due or the client had already ended its view.
   */
  expire(
    reasonFor: (deadline: DeadlineName) => string,
    only?: DeadlineName,
    disarm = true,
  ): { deadline: DeadlineName; reason: string } | null {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    const deadline = this.coordinator.clientExpire(this.id, this.sim.nowMs, only);
    if (deadline === null) return null;
    const reason = reasonFor(deadline);
    this.deadlines.fired(deadline, reason);
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, reason);
    this.noteViews();
    if (disarm) this.deadlines.disarm(deadlineWording.disarmedAfterEnd);
    // Paired with the coordinator: the client's view ended by this deadline, now.
    assert(
      this.coordinator.clientOutcome(this.id)?.atMs === this.sim.nowMs,
      "the expired request ended the client's view now",
    );
    return { deadline, reason };
  }

  /** The user gives up now (RC-5); refused when the client already ended its view. The caller then cancels. */
  abandon(reason: string): Verdict {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    const verdict = this.coordinator.clientAbandon(this.id, this.sim.nowMs);
    if (!verdict.accepted) return verdict;
    this.sim.record({ kind: 'state', side: 'client', requestId: this.id, from: 'waiting', to: 'abandoned', reason });
    // Only when a fault lost the request on its way: giving up is then what ended it.
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, UNRECEIVED_TERMINAL);
    this.noteViews();
    this.deadlines.disarm(deadlineWording.disarmedByAbandon);
    assert(
      !this.deadlines.armed('idle') && !this.deadlines.armed('max'),
      'an abandoned request keeps no deadline armed',
    );
    return verdict;
  }

  /**
   * Puts the client's cancellation on the wire (RC-5) and stops owing it a response: on stdio
   * notifications/cancelled; on Streamable HTTP closing the request's response stream, which the
   * server observes one latency later (or, in `ways.post`, a POSTed notification).
   */
  cancel(reason: string, server: ServerRequest, ways: CancelWays = {}): void {
    this.sim.wire.settle('client', this.id);
    this.cancelledAtMs ??= this.sim.nowMs;
    const post = this.sim.http ? ways.post : undefined;
    if (!this.sim.http || post !== undefined) {
      this.signal = 'notifications/cancelled';
      const deliver: Delivery =
        post ??
        ways.notified ??
        ((event) =>
          server.acceptCancel('params' in event.message ? event.message.params : undefined, cancelHow.notified));
      sendOn(this.sim, 'client', cancelledNotification(this.id, reason), this.id, deliver);
      return;
    }
    this.signal = 'stream-close';
    this.closedAtMs = this.sim.nowMs;
    closeResponseStream(this.sim, this.id, {
      reason: clientClosesStream(ways.closedWhy ?? reason),
      closed: ways.onClosed,
      observed: disconnectObserved(ways.observed ?? 'the client closed the response stream'),
      onObserved: () => server.acceptCancel({ requestId: this.id }, cancelHow.disconnected),
      unseen: () => this.coordinator.get(this.id)?.serverReceived === false,
    });
  }

  /**
   * Puts a student's due times into the coordinator, which decides which deadline a firing timer ends
   * the request by, so the client follows them where the clock can: a due time in the past is now, an
   * idle one is at most idleTimeoutMs away (it counts from the last activity, never from the future),
   * and none (null) is never armed.
   */
  private follow(due: DeadlinesDue): void {
    const record = this.coordinator.get(this.id);
    assert(record !== undefined, 'the request started before its deadlines are followed');
    const nowMs = this.sim.nowMs;
    const { idleTimeoutMs, maxTimeoutMs } = this;
    this.deadlines.markAbsent('idle', due.idle === null);
    if (due.idle !== null)
      record.lastActivityAtMs = Math.min(Math.max(due.idle, nowMs), nowMs + idleTimeoutMs) - idleTimeoutMs;
    this.deadlines.markAbsent('max', due.max === null);
    record.maxOriginMs = due.max === null ? Number.POSITIVE_INFINITY : Math.max(due.max, nowMs) - maxTimeoutMs;
  }

  private noteViews(): void {
    if (this.views) noteViews(this.sim, this.coordinator, this.id, 'client');
  }
}
