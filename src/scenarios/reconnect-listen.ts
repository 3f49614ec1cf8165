import { reconnectListenDefaults } from '../engine';
import type { ReconnectScenario } from '../engine';

/** docs/requirements.md RV-3 and VF-11: a dropped subscriptions/listen stream is replaced by a new request, never resumed. */
export const reconnectListen: ReconnectScenario = {
  id: 'reconnect-listen',
  kind: 'reconnect',
  title: 'Reconnect — new listen request, restored filter, refetch, no Last-Event-ID',
  topic: 'Proxies and recovery',
  summary:
    'The client listens for changes with subscriptions/listen; the server acknowledges, and every message on that stream ' +
    "carries the listen request's id as its subscriptionId. A charge without an idempotency key is in flight when the " +
    'connection drops: its response and two notifications are lost. MCP 2026-07-28 removed Last-Event-ID resumption: a ' +
    'broken stream loses its in-flight requests, and a client re-issues what it still needs as new requests with new ids. ' +
    'So the client backs off, opens a new listen request with a new id and the same filter, and once it is acknowledged re-reads tools, ' +
    'resources, prompts and the account from their authoritative methods, merges them by stable id, and learns from the ' +
    'account that the charge committed instead of charging again.',
  requirements: ['RV-3', 'RV-4', 'VF-11'],
  defaultTransport: 'http',
  settings: { ...reconnectListenDefaults },
  expected: {
    refetch: ['tools/list', 'resources/list', 'prompts/list', 'resources/read'],
    replayUnsafeMutations: false,
    sendLastEventId: false,
  },
};
