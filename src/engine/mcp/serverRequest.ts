import { assert, fail } from '../core/assert';
import type { RequestId } from '../core/jsonrpc';
import type { RequestCoordinator, ServerPhase } from './coordinator';
import { noteTerminal, type McpSim } from './deadlines';
import type { WorkerEvent } from './events';
import { endResponseStream, openResponseStream, type StreamSim } from './stream';
import { noteViews } from './views';
import { cancelAccepted, cancelIgnored, serverCompleted, TERMINAL_COMPLETED, terminalCancelled } from './wording';
import { ServerWorker } from './worker';

/** What the server side of a request needs of a simulation: the MCP rules' log and the wire. */
export type CallSim = McpSim & StreamSim;

export interface ServerRequestOptions {
  /** RC-8: record when the two sides' views diverge. */
  readonly views?: boolean;
  /**
   * What the server does once it accepted a cancellation, when it departs from the spec (a catalogued
   * failure mode): said after how the cancellation arrived (cancel-accepted); default: the shared sentence.
   */
  readonly afterCancel?: string;
  /** Runs when the server accepts a cancellation: it stops what it runs beside the worker (a keep-alive timer). */
  readonly onCancelAccepted?: () => void;
}

/**
 * The server's side of one request (RC-3 … RC-8), shared by every model whose server answers a call:
 * it opens the response stream, runs the worker in checkpointed chunks, accepts or ignores the
 * client's cancellation, and completes by sending the final response and ending the stream. The
 * coordinator decides every race; this part records what the server did, in the one wording.
 */
export class ServerRequest {
  /** The options, read into fields (as `ClientRequest` reads its own: no caller's literal kept for the run). */
  private readonly views: boolean;
  private readonly afterCancel: string | undefined;
  private readonly onCancelAccepted: (() => void) | undefined;

  constructor(
    private readonly sim: CallSim,
    private readonly coordinator: RequestCoordinator,
    readonly id: RequestId,
    options?: ServerRequestOptions,
  ) {
    this.views = options?.views === true;
    this.afterCancel = options?.afterCancel;
    this.onCancelAccepted = options?.onCancelAccepted;
  }

  /** The server's phase of the request (active until it completes or accepts a cancellation). */
  get phase(): ServerPhase {
    const record = this.coordinator.get(this.id);
    if (record === undefined) fail(`request ${JSON.stringify(this.id)} never reached the server`);
    return record.server;
  }

  /** The request arrived: on Streamable HTTP the server answers with its SSE response stream. */
  opened(): void {
    openResponseStream(this.sim, this.id);
  }

  /** Records a step of the server's worker (at every checkpoint: built with its stamps, one object). */
  work(step: WorkerEvent['step'], reason: string): void {
    const stamp = this.sim.stamp();
    this.sim.append({
      seq: stamp.seq,
      atMs: stamp.atMs,
      causeSeq: stamp.causeSeq,
      kind: 'worker',
      requestId: this.id,
      step,
      reason,
    });
  }

  /**
   * Starts the worker: `workMs` of work in uninterruptible chunks, a checkpoint every `everyMs`;
   * `step` decides at each checkpoint whether the work goes on. Records the start with `reason(chunks)`.
   */
  startWorker(
    workMs: number,
    everyMs: number,
    reason: (chunks: number) => string,
    step: (chunk: number, chunks: number, isLast: boolean) => boolean,
  ): ServerWorker {
    const worker = new ServerWorker(this.sim, workMs, everyMs, step);
    this.work('started', reason(worker.chunks));
    worker.start();
    return worker;
  }

  /**
   * The worker reached completion. If cancellation did not win, the request completes: recorded,
   * `respond` sends the final response, and the response stream ends. Returns false (and sends
   * nothing) when the server had accepted a cancellation first (RC-6).
   */
  complete(finished: string, respond: () => void): boolean {
    const hadTerminal = this.coordinator.terminal(this.id) !== null;
    this.work('finished', finished);
    if (!this.coordinator.serverComplete(this.id, this.sim.nowMs)) return false;
    this.sim.record({
      kind: 'state',
      side: 'server',
      requestId: this.id,
      from: 'active',
      to: 'completed',
      reason: serverCompleted(),
    });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, TERMINAL_COMPLETED);
    if (this.views) noteViews(this.sim, this.coordinator, this.id, 'server');
    respond();
    endResponseStream(this.sim, this.id);
    assert(this.phase === 'completed', 'a completed request stays completed');
    return true;
  }

  /**
   * A cancellation reached the server (`params` of notifications/cancelled, or `{ requestId }` for an
   * observed disconnect). Malformed, unknown and finished targets are ignored without error or reply
   * (RC-7); returns why, or null when the server accepted it and stops the work.
   */
  acceptCancel(params: unknown, how: string): string | null {
    const hadTerminal = (this.coordinator.get(this.id)?.terminal ?? null) !== null;
    const verdict = this.coordinator.serverCancel(params, this.sim.nowMs);
    if (!verdict.accepted) {
      this.sim.record({
        kind: 'cancel-ignored',
        by: 'server',
        requestId: verdict.requestId,
        reason: cancelIgnored(verdict.reason),
      });
      return verdict.reason;
    }
    if (verdict.afterEnd === true) {
      // Only a student's coordinator (the coordinator exercise): it accepted the cancellation of a request
      // that had already ended, so the request ends a second time; the engine's invariant sees it.
      if (verdict.requestId !== this.id)
        fail(
          `a cancellation accepted after the end names ${JSON.stringify(verdict.requestId)}, not request ${JSON.stringify(this.id)}`,
        );
      this.sim.record({
        kind: 'cancel-accepted',
        by: 'server',
        requestId: verdict.requestId,
        reason: cancelAccepted(
          how,
          `although the request had already ended (${this.phase}): its coordinator accepted a late cancellation`,
        ),
      });
      this.sim.record({ kind: 'terminal', requestId: this.id, state: 'cancelled', reason: terminalCancelled(how) });
      return null;
    }
    this.onCancelAccepted?.();
    this.sim.record({
      kind: 'cancel-accepted',
      by: 'server',
      requestId: verdict.requestId,
      reason: cancelAccepted(how, this.afterCancel),
    });
    this.sim.record({
      kind: 'state',
      side: 'server',
      requestId: this.id,
      from: 'active',
      to: 'cancelled',
      reason: how,
    });
    noteTerminal(this.sim, this.coordinator, this.id, hadTerminal, terminalCancelled(how));
    // Paired with the coordinator: the request the cancellation named is this one, and it is over on the server.
    if (verdict.requestId !== this.id || this.phase !== 'cancelled')
      fail(
        `an accepted cancellation of ${JSON.stringify(verdict.requestId)} leaves request ${JSON.stringify(this.id)} ${this.phase}`,
      );
    return null;
  }
}
