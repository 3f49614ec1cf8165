/** Transcript events and outcome of the durable-task model (field names are contracts). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskEvent {
  seq: number;
  atMs: number;
  kind: 'task';
  action: 'created' | 'polled' | 'cancel-acknowledged' | 'cancel-skipped' | 'cancelled' | 'completed';
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
}
