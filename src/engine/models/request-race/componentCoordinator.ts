import type { ComponentClock, ComponentProbe, CoordinatorComponent } from '../../core/components';
import type { RequestId } from '../../core/jsonrpc';
import { RequestCoordinator, type CancelVerdict, type Verdict } from '../../mcp/coordinator';
import { isRequestId, type ProgressToken } from '../../mcp/protocol';

/**
 * The coordinator exercise's statements the adapter itself checks (the others are the engine's
 * invariants on the wire: nothing-after-accepted-cancel, progress-increasing, no-progress-after-final,
 * one-terminal-state).
 */
export const COORDINATOR_STATEMENTS = [
  'invalid-cancel-ignored',
  'late-cancel-ignored',
  'response-when-completed',
] as const;
export type CoordinatorStatement = (typeof COORDINATOR_STATEMENTS)[number];

const refuse = (reason: string): Verdict => ({ accepted: false, reason });

/**
 * A student's server-side RequestCoordinator (the `coordinator` exercise) in the place of the lab's
 * server decisions: the client's side stays the lab's. The student decides every server race —
 * whether a cancellation is accepted, whether a progress report goes on the wire, whether the worker's
 * result is sent — and the run follows: a response sent after an accepted cancellation really crosses
 * the wire (the engine's invariants catch what the wire shows), a late cancellation accepted gives the
 * request a second terminal state. Where the run cannot follow (a malformed or unknown cancellation
 * accepted cancels nothing; a result suppressed though nothing was cancelled would leave the request
 * without an end) the adapter reports the breach, and the run goes on as the lab's server would.
 */
export class ComponentCoordinator extends RequestCoordinator {
  /** The student said 'send' for a request whose cancellation it had accepted: the model sends the response anyway. */
  respondAfterCancel = false;
  /** Requests the server received (onRequest was called for them). */
  private readonly received = new Set<RequestId>();

  constructor(
    private readonly component: CoordinatorComponent,
    private readonly probe: ComponentProbe,
    private readonly clock: ComponentClock,
  ) {
    super();
  }

  private breach(statement: CoordinatorStatement, explanation: string): void {
    this.probe.breach(statement, explanation, this.clock);
  }

  /** The request reached the server (its id and progress token, as the student is told). */
  serverReceives(id: RequestId, progressToken: ProgressToken | null): void {
    this.received.add(id);
    this.component.onRequest(id, progressToken);
  }

  /**
   * What the cancellation names, as the lab's coordinator reads it: malformed or unknown (nothing to
   * cancel), an active request, or one already ended on the server.
   */
  private target(
    params: unknown,
  ): { kind: 'invalid'; why: string } | { kind: 'active' | 'ended'; requestId: RequestId } {
    if (typeof params !== 'object' || params === null) return { kind: 'invalid', why: 'its params are not an object' };
    const requestId: unknown = (params as { requestId?: unknown }).requestId;
    if (requestId === undefined) return { kind: 'invalid', why: 'it has no requestId' };
    if (!isRequestId(requestId)) return { kind: 'invalid', why: 'its requestId is neither a string nor an integer' };
    const record = this.get(requestId);
    if (record === undefined || !record.serverReceived || !this.received.has(requestId))
      return {
        kind: 'invalid',
        why: `it names request ${JSON.stringify(requestId)}, which this server never received`,
      };
    return { kind: record.server === 'active' ? 'active' : 'ended', requestId };
  }

  override serverCancel(params: unknown, atMs: number): CancelVerdict {
    const answer = this.component.onCancel(params);
    const target = this.target(params);
    if (target.kind === 'invalid') {
      if (answer === 'accept')
        this.breach(
          'invalid-cancel-ignored',
          `onCancel(${JSON.stringify(params)}) answered 'accept', but ${target.why}: a malformed cancellation, or one for a request the server does not know, is ignored (RC-7); the run goes on as if ignored, since it cancels nothing`,
        );
      return super.serverCancel(params, atMs);
    }
    if (target.kind === 'ended') {
      const record = this.get(target.requestId);
      if (answer === 'ignore') return super.serverCancel(params, atMs);
      const how = record?.server === 'completed' ? 'completed and its response was sent' : 'was already cancelled';
      this.breach(
        'late-cancel-ignored',
        `onCancel(${JSON.stringify(params)}) answered 'accept', but request ${JSON.stringify(target.requestId)} ${how}: a cancellation that arrives after the request ended is ignored (RC-7); accepting it gives the request a second terminal state`,
      );
      return { accepted: true, requestId: target.requestId, afterEnd: true };
    }
    if (answer === 'ignore')
      return {
        ...refuse(
          `the server's coordinator ignored the cancellation of the running request ${JSON.stringify(target.requestId)} (onCancel answered 'ignore')`,
        ),
        requestId: target.requestId,
      };
    return super.serverCancel(params, atMs);
  }

  override serverProgress(id: RequestId, progress: number): Verdict {
    const record = this.get(id);
    const answer = this.component.onProgress(id, progress);
    if (record === undefined) return refuse(`no request ${JSON.stringify(id)}`);
    if (answer === 'send') {
      record.lastProgressSent =
        record.lastProgressSent === null ? progress : Math.max(record.lastProgressSent, progress);
      return { accepted: true };
    }
    if (record.server !== 'active')
      return refuse(
        `the request already ended on the server (its coordinator dropped the report: onProgress answered 'drop')`,
      );
    if (record.lastProgressSent !== null && progress <= record.lastProgressSent)
      return refuse(
        `progress ${progress} does not increase past ${record.lastProgressSent} (its coordinator dropped it: onProgress answered 'drop')`,
      );
    return refuse(`the server's coordinator dropped it (onProgress answered 'drop')`);
  }

  override serverComplete(id: RequestId, atMs: number): boolean {
    const record = this.get(id);
    const answer = this.component.onComplete(id);
    if (record?.server === 'cancelled') {
      if (answer === 'send') this.respondAfterCancel = true;
      return false;
    }
    // A result suppressed though nothing was cancelled would leave the request with no end on the server: the
    // breach is reported, and the run goes on as the lab's server would, sending it.
    if (answer === 'suppress')
      this.breach(
        'response-when-completed',
        `onComplete(${JSON.stringify(id)}) answered 'suppress', but no cancellation of request ${JSON.stringify(id)} was accepted: a request whose work finished gets its final response (RC-8), or it never ends; the run goes on as if it answered 'send'`,
      );
    return super.serverComplete(id, atMs);
  }
}
