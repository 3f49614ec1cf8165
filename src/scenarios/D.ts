import { CLIENT_CANCEL_SIGNAL, WORKER_RUNNING, terminal } from './racePatterns';
import { requestRaceDefaults } from '../engine';
import type { RequestRaceScenario } from '../engine';

/** Scenario D (docs/requirements.md#the-race-and-its-four-recorded-facts): on Streamable HTTP closing the response stream is the cancellation; flip to stdio (RC-5, VF-1, VF-2). */
export const scenarioD: RequestRaceScenario = {
  id: 'D',
  kind: 'request-race',
  title: 'D — Streamable HTTP: closing the stream is the cancellation',
  topic: 'Cancellation and timeouts',
  summary:
    'Over Streamable HTTP every request is its own POST whose response is an SSE stream. To cancel, the client ' +
    'closes that stream; it POSTs no notifications/cancelled. The server sees the disconnect, treats it as ' +
    'cancellation and stops at its next checkpoint. Flip the transport to stdio: the operation is identical and ' +
    'only the signal on the wire changes, to notifications/cancelled. Set httpCancel=post-notification to see the ' +
    'failure mode where an HTTP client POSTs the notification instead and the server keeps working.' +
    ' clientProfile=ts-sdk-1.x runs the official TypeScript SDK 1.x client instead: on Streamable HTTP it POSTs notifications/cancelled rather than closing the stream, so the server works on (scenario C shows its deadlines).',
  requirements: ['RC-5', 'RC-6', 'VF-1', 'VF-2'],
  defaultTransport: 'http',
  settings: { ...requestRaceDefaults, workMs: 400, progressEveryMs: 100, cancelAtMs: 150 },
  script: [
    { at: 0, do: 'call' },
    { at: 'cancelAtMs', do: 'cancel' },
  ],
  pinnedOrder: [],
  race: {
    neutralTitle: 'D — cancel over a long call',
    contenders: [
      { label: "the client's cancellation signal", on: CLIENT_CANCEL_SIGNAL },
      { label: 'the worker', on: WORKER_RUNNING },
    ],
    question:
      'The client gives up at {cancelAtMs} ms and signals it while the worker runs its {workMs} ms of work. How does the request end?',
    answers: [
      {
        value: 'cancelled',
        label: 'Cancelled: the server hears the signal and the worker stops at a checkpoint',
        when: terminal('cancelled'),
        winner: 0,
        why: 'The server treats the signal (notifications/cancelled on stdio, the closed stream on HTTP) as the cancellation and ends the request.',
      },
      {
        value: 'completed',
        label: 'Completed: the worker works on and the response is sent',
        when: terminal('completed'),
        winner: 1,
        why: 'The server never took the signal as a cancellation, so the work ran to the end.',
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
