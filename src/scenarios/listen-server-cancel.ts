import { listenServerCancelDefaults } from '../engine';
import type { ListenScenario } from '../engine';

/** RC-9: the server ends a subscriptions/listen call — its only cancellation — apart from the client's own cancellations. */
export const listenServerCancel: ListenScenario = {
  id: 'listen-server-cancel',
  kind: 'listen',
  title: 'The server ends a subscriptions/listen — its only cancellation',
  topic: 'Cancellation and timeouts',
  summary:
    'The client holds a subscriptions/listen call (#1) and runs a tool call (#2). At 150 ms the user cancels the tool ' +
    "call: that is the client's path, notifications/cancelled from client to server on stdio (on Streamable HTTP the " +
    "client closes #2's stream). At 250 ms the server ends the subscription. On both transports it sends its own " +
    "notifications/cancelled naming #1 — a server's one use of it: tearing down a listen stream, never any other " +
    'request — then a successful subscriptions/listen response that marks a graceful end (a close without it would ' +
    "be an unexpected disconnect), and on Streamable HTTP it then closes #1's stream. The two paths are kept apart: the server's " +
    "cancellation touches only the listen call, the client's only its own request.",
  requirements: ['RC-9', 'RC-5', 'RC-6'],
  defaultTransport: 'stdio',
  settings: { ...listenServerCancelDefaults },
  expected: { serverCancelled: [1], clientCancelled: [2] },
};
