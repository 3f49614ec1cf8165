import { CLIENT_CANCEL_SIGNAL, WORKER_RUNNING, terminal } from './racePatterns';
import { requestRaceDefaults } from '../engine';
import type { RequestRaceScenario } from '../engine';

/** Scenario A (docs/requirements.md#the-race-and-its-four-recorded-facts): cancellation wins the race; complete() after cancel sends nothing (RC-8, VF-1/VF-2/VF-3). */
export const scenarioA: RequestRaceScenario = {
  id: 'A',
  kind: 'request-race',
  title: 'A — cancel, then complete(): the response is suppressed',
  topic: 'Cancellation and timeouts',
  summary:
    'The client calls a slow tool, then the user cancels at 120 ms. The cancellation reaches the server while the ' +
    'worker is inside an uninterruptible chunk. When the worker finishes and calls complete(), the server already ' +
    'accepted the cancellation, so complete() returns no response and nothing more is sent for the request. ' +
    'On stdio the client cancels with notifications/cancelled; on Streamable HTTP it closes the response stream.' +
    ' clientProfile=ts-sdk-1.x runs the official TypeScript SDK 1.x client instead: on Streamable HTTP it POSTs notifications/cancelled rather than closing the stream, so the server works on (scenario C shows its deadlines).',
  requirements: ['RC-5', 'RC-6', 'RC-8', 'VF-1', 'VF-2', 'VF-3'],
  defaultTransport: 'stdio',
  settings: { ...requestRaceDefaults, workMs: 200, progressEveryMs: 100, cancelAtMs: 120 },
  script: [
    { at: 0, do: 'call' },
    { at: 'cancelAtMs', do: 'cancel' },
  ],
  pinnedOrder: [],
  race: {
    neutralTitle: 'A — cancel during work',
    contenders: [
      { label: "the user's cancellation", on: CLIENT_CANCEL_SIGNAL },
      { label: "the worker's chunk of work", on: WORKER_RUNNING },
    ],
    question:
      "The user's cancellation is on its way while the worker is inside an uninterruptible chunk of its {workMs} ms of work. How does the request end?",
    answers: [
      {
        value: 'cancelled',
        label: 'Cancelled: the server takes the cancellation before the work is done',
        when: terminal('cancelled'),
        winner: 0,
        why: 'The cancellation reaches the server before the worker finishes; its later complete() finds the request ended and sends nothing.',
      },
      {
        value: 'completed',
        label: 'Completed: the worker finishes and its response is sent',
        when: terminal('completed'),
        winner: 1,
        why: 'The worker finished before the cancellation reached the server, so the response went out and the cancellation came too late.',
      },
    ],
    pointAt: 'first',
  },
  expected: {
    stdio: {
      terminalState: 'cancelled',
      finalResponse: false,
      cancellationSignal: 'notifications/cancelled',
      clientIgnores: [],
      clientOutcome: 'cancelled',
    },
    http: {
      terminalState: 'cancelled',
      finalResponse: false,
      cancellationSignal: 'stream-close',
      clientIgnores: [],
      clientOutcome: 'cancelled',
    },
  },
};
