import { taskDefaults } from '../engine';
import type { TaskScenario } from '../engine';

/** TK-3: closing the connection that created a task does not delete the task or its result. */
export const taskHttpClose: TaskScenario = {
  id: 'task-http-close',
  kind: 'task',
  title: 'Tasks — the creating connection closes; the task and its result survive',
  topic: 'Durable tasks',
  summary:
    'Right after the task is created, the Streamable HTTP connection of the tools/call that created it closes. A ' +
    'request cancellation would end that request — but the task is durable state with its own lifetime. The client ' +
    'polls tasks/get on new requests and sees it complete, the result carried by that tasks/get answer (the tasks extension polls instead of a blocking tasks/result).',
  requirements: ['TK-3', 'TK-2'],
  defaultTransport: 'http',
  settings: { ...taskDefaults, closeStreamAtMs: 20 },
  expected: { taskStatus: 'completed', statusAfterAck: null, resultRetrieved: true },
};
