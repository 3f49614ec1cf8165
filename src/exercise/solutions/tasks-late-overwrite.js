// Planted wrong (tasks): a cancel that arrives after the work finished overwrites completed with
// cancelled ("nothing is left to observe the flag, so mark it here"). Breaks late-cancel-keeps-completed
// and, since completed was already given out, terminal-stable.

export function createTaskStore() {
  const tasks = new Map();
  return {
    create(taskId) {
      tasks.set(taskId, { status: 'working', cancelRequested: false, workerDone: false });
      return 'working';
    },
    onCancelRequest(taskId) {
      const task = tasks.get(taskId);
      task.cancelRequested = true;
      // The bug: no worker will reach a checkpoint any more, so the cancel is applied here.
      if (task.workerDone) task.status = 'cancelled';
      return task.status;
    },
    checkpoint(taskId) {
      const task = tasks.get(taskId);
      if (!task.cancelRequested) return 'continue';
      task.status = 'cancelled';
      task.workerDone = true;
      return 'stop';
    },
    complete(taskId) {
      const task = tasks.get(taskId);
      task.status = 'completed';
      task.workerDone = true;
      return task.status;
    },
    status(taskId) {
      return tasks.get(taskId).status;
    },
  };
}
