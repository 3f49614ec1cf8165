// Planted wrong (tasks): the failure mode "task ack treated as final cancellation", done carefully
// otherwise: tasks/cancel marks the task cancelled at once, and the store then keeps that terminal
// status even when the work finishes. Breaks cancel-only-acknowledges and working-until-checkpoint
// (the client is told cancelled while the worker runs), and late-cancel-keeps-completed (work that
// finished first ends cancelled, its result dropped).

const TERMINAL = ['completed', 'failed', 'cancelled'];

export function createTaskStore() {
  const tasks = new Map();
  const terminal = (task) => TERMINAL.includes(task.status);
  return {
    create(taskId) {
      tasks.set(taskId, { status: 'working', cancelRequested: false });
      return 'working';
    },
    onCancelRequest(taskId) {
      const task = tasks.get(taskId);
      task.cancelRequested = true;
      // The bug: the acknowledgement is taken for the cancellation.
      if (!terminal(task)) task.status = 'cancelled';
      return task.status;
    },
    checkpoint(taskId) {
      return tasks.get(taskId).cancelRequested ? 'stop' : 'continue';
    },
    complete(taskId) {
      const task = tasks.get(taskId);
      if (!terminal(task)) task.status = 'completed';
      return task.status;
    },
    status(taskId) {
      return tasks.get(taskId).status;
    },
  };
}
