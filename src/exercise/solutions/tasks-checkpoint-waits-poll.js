// Planted wrong (tasks): the checkpoint stops for a cancel only once tasks/get has reported the task
// after the request ("let the client see it still working first"). It breaks checkpoint-observes-cancel
// only when the cancel arrives in the very instant of a checkpoint, just before it: the one ordering of
// that instant the explorer must find (in the other, a poll comes between and the next checkpoint stops).

export function createTaskStore() {
  const tasks = new Map();
  return {
    create(taskId) {
      tasks.set(taskId, { status: 'working', cancelRequested: false, polledSince: false });
      return 'working';
    },
    onCancelRequest(taskId) {
      const task = tasks.get(taskId);
      task.cancelRequested = true;
      return task.status;
    },
    checkpoint(taskId) {
      const task = tasks.get(taskId);
      // The bug: a requested cancel waits for a tasks/get in between.
      if (!task.cancelRequested || !task.polledSince) return 'continue';
      task.status = 'cancelled';
      return 'stop';
    },
    complete(taskId) {
      const task = tasks.get(taskId);
      task.status = 'completed';
      return task.status;
    },
    status(taskId) {
      const task = tasks.get(taskId);
      if (task.cancelRequested) task.polledSince = true;
      return task.status;
    },
  };
}
