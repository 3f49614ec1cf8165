import { RESPONSE_SENT, USER_GIVES_UP } from './racePatterns';
import { requestRaceDefaults } from '../engine';
import type { RequestRaceScenario } from '../engine';

/** Scenario B (docs/requirements.md#the-race-and-its-four-recorded-facts): completion wins; the late cancellation is ignored, and so is the late response (RC-7, RC-8, VF-4). */
export const scenarioB: RequestRaceScenario = {
  id: 'B',
  kind: 'request-race',
  title: 'B — complete, then the cancellation arrives late',
  topic: 'Cancellation and timeouts',
  summary:
    'The worker finishes at 205 ms and the server sends the response. The user cancels at 207 ms, while that ' +
    'response is still in flight: the two messages cross. The server receives the cancellation after it already ' +
    'completed, so it ignores it without error or reply. The client receives a response for a request it already ' +
    'abandoned, so it ignores the response. One terminal state is stored: completed.' +
    ' clientProfile=ts-sdk-1.x runs the official TypeScript SDK 1.x client instead: on Streamable HTTP it POSTs notifications/cancelled rather than closing the stream, so the server works on (scenario C shows its deadlines).',
  requirements: ['RC-7', 'RC-8', 'VF-4'],
  defaultTransport: 'stdio',
  settings: { ...requestRaceDefaults, workMs: 200, progressEveryMs: 100, cancelAtMs: 207 },
  script: [
    { at: 0, do: 'call' },
    { at: 'cancelAtMs', do: 'cancel' },
  ],
  pinnedOrder: [],
  race: {
    neutralTitle: 'B — cancel as the work finishes',
    contenders: [
      { label: "the server's response", on: RESPONSE_SENT },
      // The user gives up (the cancellation follows at once); the engine's note that the views diverge comes next, so the question is asked before it.
      { label: "the user's cancel", on: USER_GIVES_UP },
    ],
    question:
      "The user cancels while the server's response is in flight to the client. What does the client do with the response when it arrives?",
    answers: [
      {
        value: 'uses',
        label: 'Uses it: the call completes for the client',
        when: [{ where: { kind: 'delivered', from: 'server', summary: 'response #41', ignoredBy: null } }],
        winner: 0,
        why: 'The response arrived before the client gave up, so the client used the result.',
      },
      {
        value: 'ignores',
        label: 'Ignores it: the client already gave up',
        when: [{ where: { kind: 'delivered', from: 'server', summary: 'response #41', ignoredBy: 'client' } }],
        winner: 1,
        why: 'The client abandoned the request before the response arrived, so it drops the response; the server, already completed, ignores the cancellation: the two views diverge.',
      },
    ],
    pointAt: 'first',
  },
  expected: {
    stdio: {
      terminalState: 'completed',
      finalResponse: true,
      cancellationSignal: 'notifications/cancelled',
      clientIgnores: ['response #41'],
      clientOutcome: 'cancelled',
    },
    http: {
      terminalState: 'completed',
      finalResponse: true,
      cancellationSignal: 'stream-close',
      clientIgnores: ['response #41'],
      clientOutcome: 'cancelled',
    },
  },
};
