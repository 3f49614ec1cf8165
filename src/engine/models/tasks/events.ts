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
   */
  action: 'created' | 'polled' | 'cancel-acknowledged' | 'cancel-skipped' | 'cancelled' | 'completed' | 'reported' | 'crashed' | 'restarted' | 'retried' | 'retry-skipped';
  taskId: string;
  status: TaskStatus | null;
  detail: string;
}

export interface TaskOutcome {
  taskId: string;
  /** The task's status in the durable store at the end of the run. */
  taskStatus: TaskStatus;
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
}

/** What the task model records: the wire's events, its SQL statements and its task steps. */
export type TaskModelEvent = WireEvent | SqlEvent | TaskEvent;

/** What a durable-task scenario must end with (SPEC §4). */
export interface TaskScenario extends ScenarioMeta {
  readonly kind: 'task';
  readonly settings: TaskSettings;
  readonly expected: { readonly taskStatus: TaskStatus; readonly statusAfterAck: TaskStatus | null; readonly resultRetrieved: boolean };
}
