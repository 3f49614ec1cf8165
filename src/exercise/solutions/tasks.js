// Reference solution of the tasks exercise: tasks/cancel only records the request; the worker's next
// checkpoint observes it and stops (cancelled); work that finishes first ends completed; a terminal
// status is never changed again.

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
      // Only the intent: the worker decides at its next checkpoint. A finished task keeps its status.
      if (!terminal(task)) task.cancelRequested = true;
      return task.status;
    },
    checkpoint(taskId) {
      const task = tasks.get(taskId);
      if (terminal(task)) return 'stop';
      if (!task.cancelRequested) return 'continue';
      task.status = 'cancelled';
      return 'stop';
    },
    complete(taskId) {
      const task = tasks.get(taskId);
      // The last chunk finished before any checkpoint observed a cancel: the result stands.
      if (!terminal(task)) task.status = 'completed';
      return task.status;
    },
    status(taskId) {
      return tasks.get(taskId).status;
    },
  };
}
