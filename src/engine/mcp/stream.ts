import type { JsonRpcMessage, RequestId } from '../core/jsonrpc';
import type { Actor, EventHandle, Label } from '../core/scheduler';
import type { MessageEvent, Side, Unstamped, WireEvent } from '../core/transcript';
import type { Delivery, SendOptions, Wire } from '../core/wire';
import { fail } from '../core/assert';
import { SSE_HEADERS } from './protocol';
import { responseEndsStream } from './wording';

/** What the stream rules need of a simulation: its transport, clock, wire and log. */
export interface StreamSim {
  readonly http: boolean;
  readonly nowMs: number;
  readonly wire: Wire;
  record(event: Unstamped<WireEvent>): unknown;
  at(atMs: number, actor: Actor, label: Label, run: () => void): EventHandle;
}

/** The words every model's server uses when its final response ends a request's SSE stream. */
export const FINAL_RESPONSE_ENDS_STREAM = responseEndsStream();

/**
 * The channel a message travels on (one FIFO each): stdio is one pipe; on Streamable HTTP a client's
 * request travels on its own POST, a client's notification on a POST named by its method, and
 * whatever the server sends on the response (SSE) stream of the request it belongs to, `streamOf`.
 */
export function channelFor(http: boolean, from: Side, message: JsonRpcMessage, streamOf: RequestId): string {
  if (from === 'server') return responseChannel(http, streamOf);
  if (!http) return 'stdio';
  if ('id' in message && 'method' in message) return `POST #${String(message.id)}`;
  return `POST ${'method' in message ? message.method : 'message'}`;
}

/** The channel the server's messages for request `requestId` travel on: its SSE stream, or stdio. */
export function responseChannel(http: boolean, requestId: RequestId): string {
  return http ? `SSE #${String(requestId)}` : 'stdio';
}

/** Sends `message` on the channel `channelFor` names for it. */
export function sendOn(
  sim: StreamSim,
  from: Side,
  message: JsonRpcMessage,
  streamOf: RequestId,
  deliver: Delivery,
  options?: SendOptions,
): MessageEvent {
  return sim.wire.send(from, channelFor(sim.http, from, message, streamOf), message, deliver, options);
}

/** A request reached the server: on Streamable HTTP it answers with an SSE response stream (RV-1 headers). */
export function openResponseStream(sim: StreamSim, requestId: RequestId): void {
  if (sim.http) sim.record({ kind: 'stream-opened', by: 'server', requestId, headers: { ...SSE_HEADERS } });
}

/** The server ends a request's SSE stream (its final response went out); nothing to record on stdio. */
export function endResponseStream(
  sim: StreamSim,
  requestId: RequestId,
  reason: string = FINAL_RESPONSE_ENDS_STREAM,
): void {
  if (sim.http) sim.record({ kind: 'stream-closed', by: 'server', requestId, reason });
}

export interface StreamClose {
  /** Why the client closes it (recorded on the stream-closed event). */
  readonly reason: string;
  /** Runs right after the close is recorded, before the server's observation is scheduled (a proxy discards what it holds). */
  readonly closed?: () => void;
  /** Recorded on the server's disconnect-observed event. */
  readonly observed: string;
  /** The server's reaction once it observes the disconnect (on Streamable HTTP: the cancellation). */
  readonly onObserved: () => void;
  /** Whether the request's POST never reached the server (a fault lost it): then it has no connection to see close. */
  readonly unseen?: () => boolean;
}

/**
 * Streamable HTTP: the client closes a request's response stream. The server observes the disconnect
 * when a message sent on the request's POST now would reach it (the wire's latency, FIFO behind it).
 */
export function closeResponseStream(sim: StreamSim, requestId: RequestId, close: StreamClose): void {
  if (!sim.http) fail('only Streamable HTTP has a response stream to close');
  sim.record({ kind: 'stream-closed', by: 'client', requestId, reason: close.reason });
  close.closed?.();
  const channel = `POST #${String(requestId)}`;
  const observedAtMs = sim.wire.arrivalMs(`${channel}:client`);
  const observe = (): void => {
    if (close.unseen?.() === true) return;
    // The server reads a connection's request before it can see that connection close: at the same
    // instant as the request's arrival, the observation waits until the request was delivered.
    const request = sim.wire.oldestInFlight(channel, 'client');
    if (request !== undefined) {
      sim.wire.whenDelivered(request, observe);
      return;
    }
    sim.record({ kind: 'disconnect-observed', by: 'server', requestId, reason: close.observed });
    close.onObserved();
  };
  sim.at(observedAtMs, 'server', 'server observes disconnect', observe);
}
