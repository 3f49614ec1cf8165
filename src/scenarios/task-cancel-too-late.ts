import { taskDefaults } from '../engine';
import type { TaskScenario } from '../engine';

/** TK-1: cancellation is eventually consistent; the work can finish first and the task ends completed. */
export const taskCancelTooLate: TaskScenario = {
  id: 'task-cancel-too-late',
  kind: 'task',
  title: 'Tasks — acknowledged, but the work finishes first: completed',
  topic: 'Durable tasks',
  summary:
    'The client cancels during the last stretch of work. The server acknowledges tasks/cancel, but the worker finishes ' +
    'before any checkpoint reads the flag, so the task ends completed and its result is kept. An acknowledgement is ' +
    'not a cancellation: the client must keep polling and accept whatever terminal status the task reaches.',
  requirements: ['TK-1', 'TK-2'],
  defaultTransport: 'http',
  settings: { ...taskDefaults, workMs: 1_000, checkpointEveryMs: 600, pollIntervalMs: 150, cancelAtMs: 700 },
  expected: { taskStatus: 'completed', statusAfterAck: 'working', resultRetrieved: true },
};
