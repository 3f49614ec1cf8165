import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { SqlEvent } from '../../core/sqlite';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { TaskSettings } from './settings';

/** Transcript events and outcome of the durable-task model (field names are contracts). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskEvent extends EventBase {
  kind: 'task';
  /**
   * reported: the client tells its user a status without having polled it (only ackIsFinal, a catalogued failure mode).
   * crashed, restarted, retried: a crash fault: the server dies after COMMIT, restarts from its file, and
   * the client retries what it safely can.
   * request-lost: a run with faults: a request's deadline passed with no answer (it or its response stream was lost),
   * so the client stops waiting for it; `retried` or `retry-skipped` says what it does next.
   */
  action:
    | 'created'
    | 'polled'
    | 'cancel-acknowledged'
    | 'cancel-skipped'
    | 'cancelled'
    | 'completed'
    | 'reported'
    | 'crashed'
    | 'restarted'
    | 'retried'
    | 'retry-skipped'
    | 'request-lost';
  taskId: string;
  status: TaskStatus | null;
  detail: string;
}

export interface TaskOutcome {
  taskId: string;
  /** The task's status in the durable store at the end of the run; null only when a fault lost the tools/call before it reached the server (no task was created). */
  taskStatus: TaskStatus | null;
  cancelAcknowledged: boolean;
  /** The status the client saw on its first poll after the cancel acknowledgement (VF-12: not terminal yet). */
  statusAfterAck: TaskStatus | null;
  statusesSeen: TaskStatus[];
  polls: number;
  resultRetrieved: boolean;
  streamClosed: boolean;
  /**
   * The terminal status the client reports to its user: the one it polled (TK-2), or, when it takes
   * the acknowledgement as final (ackIsFinal, a catalogued failure mode), `cancelled` whatever the
   * task did; null while it reports none.
   */
  clientReported: TaskStatus | null;
  /**
   * A run with faults only (absent otherwise): each request of the client that got no answer (lost on the
   * way, its response or its stream lost, or the server crashed before answering), and the request id it was
   * re-issued under, or null when the client did not re-issue it.
   */
  lostRequests?: TaskLostRequest[];
  /**
   * A run with faults only: whether the task's outcome stayed unknown to the client: it never learned the
   * taskId, or it ended without polling a terminal status (and did not take an acknowledgement as final).
   */
  outcomeUnknown?: boolean;
}

export interface TaskLostRequest {
  requestId: RequestId;
  method: string;
  /** The new request id it was sent again under (tasks/get, tasks/cancel), or null (a tools/call is not retried, RT-1; or the client gave up). */
  reissuedAs: RequestId | null;
}

/** What the task model records: the wire's events, its SQL statements and its task steps. */
export type TaskModelEvent = WireEvent | SqlEvent | TaskEvent;

/** What a durable-task scenario must end with (docs/requirements.md#durable-tasks-tk). */
export interface TaskScenario extends ScenarioMeta {
  readonly kind: 'task';
  readonly settings: TaskSettings;
  readonly expected: {
    readonly taskStatus: TaskStatus;
    readonly statusAfterAck: TaskStatus | null;
    readonly resultRetrieved: boolean;
  };
}
