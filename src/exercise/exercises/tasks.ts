import type { TaskStoreStatus } from '../../engine';
import type { Caller } from '../caller';
import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import type { Json } from '../types';

const STATUSES: readonly string[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

const STARTER = `// Exercise: the durable task's status (docs/requirements.md#durable-tasks-tk, TK-1, TK-2; the io.modelcontextprotocol/tasks extension).
//
// A tools/call starts a durable task: the server stores it, answers with its taskId, and a worker does
// the work in chunks, reaching a checkpoint between two chunks. The client polls tasks/get until the
// task reaches a terminal status (completed, failed, cancelled), and may send tasks/cancel. Write the
// status logic; the lab keeps the SQLite row, the worker and the clock, and asks your store at each
// point where a status is decided.
//
// Interface (a contract; keep the names):
//   export function createTaskStore()  ->  { create, onCancelRequest, checkpoint, complete, status }
//   create(taskId)           a task was created; returns the status it starts in
//   onCancelRequest(taskId)  tasks/cancel arrived; returns the task's status after it (written to the row,
//                            shown in the acknowledgement's event)
//   checkpoint(taskId)       the worker, between two chunks of work: returns 'continue' or 'stop'
//                            ('stop': the worker ends the work there, and the task is cancelled)
//   complete(taskId)         the work's last chunk finished: returns the status the task ends with
//   status(taskId)           what tasks/get reports now
//   A status is 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'.
//
// The lab checks, in every ordering of task-cancel-ack, task-cancel-too-late and task-http-close:
//   - tasks/cancel only records the request: while the worker runs, the task stays working;
//   - tasks/get reports working until the worker stops at a checkpoint (cancelled) or finishes (completed);
//   - a checkpoint answers 'stop' when, and only when, a cancel was requested;
//   - a cancel too late to stop the work (the work finished first) leaves the task completed;
//   - a terminal status never changes.
//
// This starter is the failure mode "task ack treated as final cancellation": it marks the task
// cancelled the moment tasks/cancel arrives, so the client stops polling and tells its user "stopped"
// while the worker runs on — and may still complete. Make the acknowledgement only an acknowledgement.

export function createTaskStore() {
  const tasks = new Map();
  return {
    create(taskId) {
      tasks.set(taskId, { status: 'working', cancelRequested: false });
      return 'working';
    },
    onCancelRequest(taskId) {
      const task = tasks.get(taskId);
      task.cancelRequested = true;
      task.status = 'cancelled';
      return task.status;
    },
    checkpoint(taskId) {
      return tasks.get(taskId).cancelRequested ? 'stop' : 'continue';
    },
    complete(taskId) {
      const task = tasks.get(taskId);
      task.status = 'completed';
      return task.status;
    },
    status(taskId) {
      return tasks.get(taskId).status;
    },
  };
}
`;

function taskStatus(value: Json, what: string, caller: Caller): TaskStoreStatus {
  if (typeof value !== 'string' || !STATUSES.includes(value))
    caller.shape(
      `${what} returned ${JSON.stringify(value)}; it must return a task status: 'working', 'input_required', 'completed', 'failed' or 'cancelled'`,
    );
  return value as TaskStoreStatus;
}

export const tasksExercise: ExerciseDef = {
  id: 'tasks',
  title: 'The durable task: cancel is only acknowledged',
  summary:
    "A durable task's status through tasks/cancel: the cancel is acknowledged at once but only recorded; the task stays working " +
    'until the worker reaches a checkpoint and stops, the work may finish first and the task ends completed, and a terminal status never changes.',
  exports: ['createTaskStore'],
  statements: [
    {
      id: 'cancel-only-acknowledges',
      text: 'tasks/cancel only records the request: while the worker runs, its answer leaves the task working, not cancelled.',
      requirements: ['TK-1', 'VF-12'],
    },
    {
      id: 'working-until-checkpoint',
      text: 'tasks/get reports working until the worker stops at a checkpoint (then cancelled) or finishes (then completed).',
      requirements: ['TK-1', 'TK-2', 'VF-12'],
    },
    {
      id: 'checkpoint-observes-cancel',
      text: "A checkpoint answers 'stop' when, and only when, a cancel was requested.",
      requirements: ['TK-1'],
    },
    {
      id: 'late-cancel-keeps-completed',
      text: 'A cancel too late to stop the work (it finished before a checkpoint observed the cancel, or before the cancel arrived) leaves the task completed.',
      requirements: ['TK-1'],
    },
    {
      id: 'terminal-stable',
      text: 'A terminal status (completed, failed, cancelled) never changes.',
      requirements: ['TK-2'],
    },
    {
      id: RUNS_TO_END,
      text: 'Every ordering runs to its end: the client polls until the task reaches a terminal status.',
      requirements: ['TK-2'],
    },
  ],
  starter: STARTER,
  // Jitter 0, so each run explores the same-instant orders (a few states; the task model re-runs SQLite
  // from the start for every state, about 10 ms each, and any jitter doubles the orderings per message:
  // task-cancel-ack at jitter 2 is 8,191 states, over 90 s). The cancel is timed to arrive exactly when
  // the worker reaches a checkpoint, or finishes, so both orders of that race are explored.
  runs: [
    // The cancel arrives as checkpoint 1 runs (405 ms): observed there, or at checkpoint 2.
    { scenario: 'task-cancel-ack', transport: 'http', settings: { latencyJitterMs: 0, cancelAtMs: 400 } },
    // The cancel arrives while the worker runs its last chunk (705 ms): the work finishes first, completed.
    { scenario: 'task-cancel-too-late', transport: 'http', settings: { latencyJitterMs: 0 } },
    // The cancel arrives as the work finishes (1,005 ms): just before (too late to stop it) or just after (after completed).
    { scenario: 'task-cancel-too-late', transport: 'http', settings: { latencyJitterMs: 0, cancelAtMs: 1_000 } },
    // No cancel: the creating connection closes, and the task works on to completed.
    { scenario: 'task-http-close', transport: 'http', settings: { latencyJitterMs: 0 } },
  ],
  invariantStatements: { 'task-terminal-stable': 'terminal-stable' },
  sqlite: true,
  components(caller) {
    return {
      taskStore: (clock) => {
        caller.clock = clock;
        const handle = caller.make('createTaskStore', []);
        return {
          create: (taskId) => taskStatus(caller.method(handle, 'create', [taskId]), 'create()', caller),
          onCancelRequest: (taskId) =>
            taskStatus(caller.method(handle, 'onCancelRequest', [taskId]), 'onCancelRequest()', caller),
          checkpoint(taskId): 'continue' | 'stop' {
            const answer = caller.method(handle, 'checkpoint', [taskId]);
            if (answer === 'continue' || answer === 'stop') return answer;
            return caller.shape(`checkpoint() returned ${JSON.stringify(answer)}; it must return 'continue' or 'stop'`);
          },
          complete: (taskId) => taskStatus(caller.method(handle, 'complete', [taskId]), 'complete()', caller),
          status: (taskId) => taskStatus(caller.method(handle, 'status', [taskId]), 'status()', caller),
        };
      },
    };
  },
};
