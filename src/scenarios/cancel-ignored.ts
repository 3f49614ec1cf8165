import { CLIENT_CANCEL_SIGNAL, RESPONSE_SENT } from './racePatterns';
import { requestRaceDefaults } from '../engine';
import type { RequestRaceScenario } from '../engine';

/** RC-7: malformed cancellations, cancellations of unknown requests and of finished ones are ignored without error or reply. */
export const cancelIgnored: RequestRaceScenario = {
  id: 'cancel-ignored',
  kind: 'request-race',
  title: 'Cancellations the server must ignore — malformed, unknown, already finished',
  topic: 'Cancellation and timeouts',
  summary:
    'A buggy client sends three cancellations while one tool call runs. At 30 ms one names no request at all ' +
    '(notifications/cancelled without a requestId: it breaks the schema, and the lab marks it so). At 60 ms one names ' +
    'request 99, which this client never sent. At 207 ms the user cancels request 41, but the worker finished at 200 ms ' +
    'and the response is already on its way. The server ignores all three without an error and without a reply: it ' +
    'answers no notification, and the work and its response go on as if nothing arrived. The client, having cancelled, ' +
    "discards the response (its own ending, cancelled, differs from the server's completed). On Streamable HTTP only " +
    'the third exists: 2026-07-28 sends notifications/cancelled only on stdio, and a client cancels by closing the ' +
    "request's own response stream, so the first two are stdio-only and the lab says so instead of POSTing them.",
  requirements: ['RC-7', 'RC-8'],
  defaultTransport: 'stdio',
  settings: { ...requestRaceDefaults, workMs: 200, progressEveryMs: 100, cancelAtMs: 207 },
  script: [
    { at: 0, do: 'call' },
    { at: 30, do: 'cancel-malformed' },
    { at: 60, do: 'cancel-unknown' },
    { at: 'cancelAtMs', do: 'cancel' },
  ],
  pinnedOrder: [],
  race: {
    neutralTitle: 'Three odd cancellations during one call',
    contenders: [
      { label: "the user's cancellation of request 41", on: CLIENT_CANCEL_SIGNAL },
      { label: "the server's response to request 41", on: RESPONSE_SENT },
    ],
    question:
      "The user's cancellation of request 41 and the server's response to it cross on the wire. What does the server do with the cancellation?",
    answers: [
      {
        value: 'ignores',
        label: 'Ignores it, without an error or a reply',
        when: [{ where: { kind: 'cancel-ignored', requestId: 41 } }],
        winner: 1,
        why: 'The request already completed and its response is sent: a cancellation for a finished request is ignored (RC-7).',
      },
      {
        value: 'accepts',
        label: 'Accepts it: the request ends cancelled',
        when: [{ where: { kind: 'cancel-accepted', requestId: 41 } }],
        winner: 0,
        why: 'The cancellation arrived while the request was still running.',
      },
      {
        value: 'error',
        label: 'Answers it with an error',
        when: [{ where: { kind: 'message', from: 'server', 'message.error': { present: true } } }],
        why: 'The server replied to a notification, which the protocol forbids.',
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
