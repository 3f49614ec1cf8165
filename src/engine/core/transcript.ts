import type { JsonRpcMessage, RequestId } from './jsonrpc';

/**
 * The kit's part of the transcript: what every model records through the one event log and wire.
 * The MCP rules add their events in src/engine/mcp/events.ts, each model its own next to it, and
 * src/engine/transcript.ts joins them into the one discriminated union every consumer reads.
 * Field names here are a contract: extend, never rename.
 */
export type Transport = 'stdio' | 'http';
export type Side = 'client' | 'server';

export type SettingValue = number | boolean | string | null;
export type Settings = Record<string, SettingValue>;

export interface EventBase {
  /** Position in `events`; stable across runs with the same inputs. */
  seq: number;
  atMs: number;
  /**
   * `seq` of the event that caused it: the one recorded just before it in the same step, or, for a
   * step's first event, the last one recorded when that step was scheduled (a delivery is caused by
   * its message, a firing deadline by its arming). Null for what the script starts.
   */
  causeSeq: number | null;
}

export interface MessageEvent extends EventBase {
  kind: 'message';
  from: Side;
  to: Side;
  /** `stdio`, or on Streamable HTTP the POST that carries it / the response stream it travels on. */
  channel: string;
  /** The JSON-RPC object exactly as sent. */
  message: JsonRpcMessage;
  arrivesAtMs: number;
  /** Set when the receiver drops the message on arrival. */
  ignoredBy?: Side;
  /** Set when the message never arrives (the connection carrying it broke). */
  lost?: true;
  /** Why it was ignored or lost. */
  reason?: string;
  /**
   * Set when the sender puts a deliberately invalid message on the wire (RC-7: a cancellation with
   * no requestId, to show the receiver ignoring it); says how it breaks the schema. The schema tests
   * require such a message to fail validation, and every other message to pass.
   */
  malformed?: string;
  /** The fault injected on this message: `drop:12`, `delay:12:300`, `duplicate:12` (on the copy too), `stream-drop:12`. */
  fault?: string;
  /** On the network's second copy of a duplicated message: the seq of the original. */
  duplicateOf?: number;
  /** Streamable HTTP, a client's message: the request headers of the POST that carries it (2026-07-28 Request Metadata). */
  headers?: Record<string, string>;
}

export interface DeliveredEvent extends EventBase {
  kind: 'delivered';
  /** `seq` of the message event this delivery completes. */
  messageSeq: number;
  from: Side;
  to: Side;
  summary: string;
  ignoredBy?: Side;
  reason?: string;
}

/** A message that was on its way when what carried it went away: it never arrives. */
export interface MessageLostEvent extends EventBase {
  kind: 'message-lost';
  /** `seq` of the message event that never arrived. */
  messageSeq: number;
  summary: string;
  reason: string;
}

export interface StreamOpenedEvent extends EventBase {
  kind: 'stream-opened';
  by: Side;
  requestId: RequestId;
  headers: Record<string, string>;
}

export interface StreamClosedEvent extends EventBase {
  kind: 'stream-closed';
  by: Side;
  requestId: RequestId;
  reason: string;
}

export interface DisconnectObservedEvent extends EventBase {
  kind: 'disconnect-observed';
  by: Side;
  requestId: RequestId;
  reason: string;
}

/** The events the kit's wire itself records. */
export type WireEvent =
  MessageEvent | DeliveredEvent | MessageLostEvent | StreamOpenedEvent | StreamClosedEvent | DisconnectObservedEvent;

/** Any transcript event: a `kind` and the two stamps the log adds. */
export interface AnyEvent extends EventBase {
  kind: string;
}

/**
 * An event as a model hands it to the log: the log stamps `seq`, `atMs` and `causeSeq`. Distributive:
 * `Unstamped<A | B>` is `Unstamped<A> | Unstamped<B>`, so a union stays discriminated by `kind`.
 */
export type Unstamped<E> = E extends EventBase ? Omit<E, 'seq' | 'atMs' | 'causeSeq'> : never;

/** An event as the log keeps it: what the model handed it, with the log's stamps. */
export type Stamped<U> = U & EventBase;
