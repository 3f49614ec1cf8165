import type { RequestId } from '../core/jsonrpc';
import type { EventBase, WireEvent } from '../core/transcript';

/**
 * What the MCP rules record about one request: its start, the client's two deadlines, each side's
 * state, the single terminal state, the server's worker, and cancellations accepted or ignored.
 * Field names are a contract: extend, never rename.
 */
export type TerminalState = 'completed' | 'cancelled' | 'timeout-idle' | 'timeout-max';
/**
 * RC-8: how the client's own view of a request ended: it used the final response (`completed`),
 * gave up (`cancelled`), or a deadline fired. Kept beside the single terminal state, because neither
 * side can know what the other saw first.
 */
export type ClientOutcome = 'completed' | 'cancelled' | 'timeout-idle' | 'timeout-max';
export type CancellationSignal = 'notifications/cancelled' | 'stream-close' | null;
export type DeadlineName = 'idle' | 'max';

export interface RequestStartedEvent extends EventBase {
  kind: 'request-started';
  requestId: RequestId;
  idleTimeoutMs: number;
  maxTimeoutMs: number;
  progressToken: string | number | null;
}

export interface DeadlineEvent extends EventBase {
  kind: 'deadline';
  requestId: RequestId;
  deadline: DeadlineName;
  action: 'armed' | 'reset' | 'fired' | 'disarmed';
  dueAtMs: number;
  reason: string;
}

export interface StateEvent extends EventBase {
  kind: 'state';
  side: 'client' | 'server';
  requestId: RequestId;
  from: string;
  to: string;
  reason: string;
}

export interface TerminalEvent extends EventBase {
  kind: 'terminal';
  requestId: RequestId;
  state: TerminalState;
  reason: string;
}

export interface WorkerEvent extends EventBase {
  kind: 'worker';
  requestId: RequestId;
  step: 'started' | 'checkpoint' | 'finished' | 'stopped';
  reason: string;
}

export interface SuppressedEvent extends EventBase {
  kind: 'suppressed';
  by: 'client' | 'server';
  requestId: RequestId;
  what: 'response' | 'progress';
  reason: string;
}

export interface IgnoredSignalEvent extends EventBase {
  kind: 'cancel-ignored' | 'cancel-accepted';
  by: 'client' | 'server';
  requestId: RequestId | null;
  reason: string;
}

/**
 * RC-8: the moment the two sides' views of one request are known to differ: the server completed
 * and sent its final response, the client ended otherwise and will never use it. Recorded once, on
 * the lane of the side whose ending came second (the moment it became true).
 */
export interface ViewsDivergeEvent extends EventBase {
  kind: 'views-diverge';
  requestId: RequestId;
  /** The side whose ending made the views differ: the lane it is drawn on. */
  side: 'client' | 'server';
  serverView: 'completed';
  serverEndedAtMs: number;
  clientView: ClientOutcome;
  clientEndedAtMs: number;
  reason: string;
}

/** What a model built on the MCP rules records: the wire's events and these. */
export type McpEvent =
  | WireEvent
  | RequestStartedEvent
  | DeadlineEvent
  | StateEvent
  | TerminalEvent
  | WorkerEvent
  | SuppressedEvent
  | IgnoredSignalEvent
  | ViewsDivergeEvent;
