// Planted wrong (tasks): the acknowledgement is honest, but the checkpoint never reads the cancel
// request, so the worker always runs to the end. Breaks checkpoint-observes-cancel only: the task
// then completes, which is the right status for work that finished.

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
      return task.status;
    },
    checkpoint(_taskId) {
      // The bug: the cancel request is recorded but never looked at.
      return 'continue';
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
