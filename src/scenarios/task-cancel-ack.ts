import { taskDefaults } from '../engine';
import type { TaskScenario } from '../engine';

/** TK-1, TK-2, VF-12: the tasks/cancel acknowledgement leaves the task working until a checkpoint observes it. */
export const taskCancelAck: TaskScenario = {
  id: 'task-cancel-ack',
  kind: 'task',
  title: 'Tasks — tasks/cancel is acknowledged, the task keeps working, then stops',
  topic: 'Durable tasks',
  summary:
    'A tools/call starts a durable task: the server commits the task row to SQLite, then answers with a ' +
    'CreateTaskResult. At 300 ms the client sends tasks/cancel and gets an empty acknowledgement at once — but the ' +
    'acknowledgement only records the intent. The next tasks/get still says working; only when the worker reaches its ' +
    'next checkpoint and reads the flag does the task become cancelled. The client polls until it sees a terminal status.',
  requirements: ['TK-1', 'TK-2', 'VF-12'],
  defaultTransport: 'http',
  settings: { ...taskDefaults, cancelAtMs: 300, checkpointEveryMs: 400, pollIntervalMs: 100 },
  expected: { taskStatus: 'cancelled', statusAfterAck: 'working', resultRetrieved: false },
};
