import type { JsonRpcMessage, RequestId } from './protocol';
import type { LedgerEvent, LedgerOutcome, SqlEvent } from './ledger/events';
import type { TaskEvent, TaskOutcome } from './tasks/events';
import type { FlowEvent, FlowOutcome } from './flowTypes';

/**
 * The transcript is the one record of a run: the command line prints it, the UI renders it and the
 * tests assert it. Field names here are a contract (issue #2): extend, never rename.
 */
export type Transport = 'stdio' | 'http';
export type Side = 'client' | 'server';
export type TerminalState = 'completed' | 'cancelled' | 'timeout-idle' | 'timeout-max';
export type CancellationSignal = 'notifications/cancelled' | 'stream-close' | null;
export type DeadlineName = 'idle' | 'max';

interface EventBase {
  /** Position in `events`; stable across runs with the same inputs. */
  seq: number;
  atMs: number;
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

export interface RequestStartedEvent extends EventBase {
  kind: 'request-started';
  requestId: RequestId;
  idleTimeoutMs: number;
  maxTimeoutMs: number;
  progressToken: string | number | null;
}

export interface DeadlineEvent extends EventBase {
  kind: 'deadline';
  requestId: RequestId;
  deadline: DeadlineName;
  action: 'armed' | 'reset' | 'fired' | 'disarmed';
  dueAtMs: number;
  reason: string;
}

export interface StateEvent extends EventBase {
  kind: 'state';
  side: Side;
  requestId: RequestId;
  from: string;
  to: string;
  reason: string;
}

export interface TerminalEvent extends EventBase {
  kind: 'terminal';
  requestId: RequestId;
  state: TerminalState;
  reason: string;
}

export interface WorkerEvent extends EventBase {
  kind: 'worker';
  requestId: RequestId;
  step: 'started' | 'checkpoint' | 'finished' | 'stopped';
  reason: string;
}

export interface SuppressedEvent extends EventBase {
  kind: 'suppressed';
  by: Side;
  requestId: RequestId;
  what: 'response' | 'progress';
  reason: string;
}

export interface IgnoredSignalEvent extends EventBase {
  kind: 'cancel-ignored' | 'cancel-accepted';
  by: Side;
  requestId: RequestId | null;
  reason: string;
}

export type LabEvent =
  | MessageEvent
  | DeliveredEvent
  | StreamOpenedEvent
  | StreamClosedEvent
  | DisconnectObservedEvent
  | RequestStartedEvent
  | DeadlineEvent
  | StateEvent
  | TerminalEvent
  | WorkerEvent
  | SuppressedEvent
  | IgnoredSignalEvent
  | SqlEvent
  | LedgerEvent
  | TaskEvent
  | FlowEvent;

export type LabEventKind = LabEvent['kind'];

/** One message the client received and had to drop. */
export interface ClientIgnore {
  /** `seq` of the message event. */
  seq: number;
  /** When it reached the client. */
  atMs: number;
  summary: string;
  reason: string;
}

/** Outcome of a request race (scenarios A–D). */
export interface RequestOutcome {
  requestId: RequestId;
  terminalState: TerminalState;
  terminalAtMs: number;
  /** A final response for the request reached the wire. */
  finalResponse: boolean;
  /** What the client put on the wire to cancel (timeouts included); null when it never cancelled. */
  cancellationSignal: CancellationSignal;
  clientIgnores: ClientIgnore[];
}

/**
 * Every model's outcome. Each model adds its own member here (with its own field names, which are
 * contracts too); the transcript's `kind` says which one a transcript carries.
 */
export type Outcome = RequestOutcome | LedgerOutcome | TaskOutcome | FlowOutcome;

export type SettingValue = number | boolean | string | null;
export type Settings = Record<string, SettingValue>;

export interface Transcript<O extends Outcome = Outcome> {
  scenario: string;
  transport: Transport;
  seed: number;
  settings: Settings;
  /** Which model produced it: `request-race` for A–D. */
  kind: string;
  title: string;
  requirements: string[];
  protocolVersion: string;
  events: LabEvent[];
  outcome: O;
}
