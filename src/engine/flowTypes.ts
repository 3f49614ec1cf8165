import type { BackoffPolicy } from './backoff';
import type { BufferOverloadSettings } from './bufferOverload';
import type { HerdSettings } from './herd';
import type { ProxyBufferingSettings } from './proxyBuffering';
import type { ReconnectListenSettings } from './reconnectListen';
import type { JsonObject, RequestId } from './protocol';
import type { ScenarioMeta } from './scenario';
import type { TerminalState } from './transcript';

/**
 * The transcript vocabulary of the flow-control and recovery models (SPEC §5 BF, §6 RV): their
 * events, outcomes and scenario shapes. Field names here are contracts, as in transcript.ts.
 */
interface FlowEventBase {
  seq: number;
  atMs: number;
}

// ── bounded buffer (BF) ──────────────────────────────────────────────────────────────────────────

export interface BufferEvent extends FlowEventBase {
  kind: 'buffer';
  /** enqueued / coalesced (BF-1) / dropped (BF-2) / needs-refetch (BF-3). */
  action: 'enqueued' | 'coalesced' | 'dropped' | 'needs-refetch';
  requestId: RequestId;
  what: 'progress' | 'final';
  /** The held message, e.g. `progress 4/20 of #2`. */
  summary: string;
  occupancyEvents: number;
  capacityEvents: number;
  reason: string;
}

// ── proxies and keep-alives (RV-1, RV-2) ─────────────────────────────────────────────────────────

export interface ProxyEvent extends FlowEventBase {
  kind: 'proxy';
  /** headers: what the proxy made of the response headers; held / flushed: buffering; discarded: held events lost. */
  action: 'headers' | 'held' | 'flushed' | 'discarded';
  requestId: RequestId;
  /** Events the proxy holds after this action. */
  heldEvents: number;
  /** Events this action forwarded (flushed) or threw away (discarded). */
  events: number;
  reason: string;
}

export interface SseCommentEvent extends FlowEventBase {
  kind: 'sse-comment';
  action: 'sent' | 'received';
  requestId: RequestId;
  channel: string;
  /** The SSE comment line exactly as written: it starts with `:` and carries no JSON-RPC. */
  line: string;
  /** For `sent`: when it reaches the client (when a buffering proxy forwards it). */
  arrivesAtMs: number | null;
  reason: string;
}

// ── reconnect (RV-3) ─────────────────────────────────────────────────────────────────────────────

export interface HttpRequestEvent extends FlowEventBase {
  kind: 'http-request';
  requestId: RequestId;
  method: 'POST';
  /** Every header the client sends with the POST; never `Last-Event-ID` (RV-3). */
  headers: Record<string, string>;
}

export interface StreamDroppedEvent extends FlowEventBase {
  kind: 'stream-dropped';
  requestId: RequestId;
  channel: string;
  reason: string;
}

export interface MessageLostEvent extends FlowEventBase {
  kind: 'message-lost';
  /** `seq` of the message event that never arrived. */
  messageSeq: number;
  summary: string;
  reason: string;
}

/** What the client does after a `subscriptions/listen` stream drops (RV-3): data, shown and exported. */
export interface ReconnectPlan {
  previousRequestId: RequestId;
  /** A new JSON-RPC id: the old request is over, nothing resumes it. */
  newRequestId: RequestId;
  /** The filter of the dropped listen request, sent again unchanged. */
  restoredFilter: JsonObject;
  /** Authoritative methods re-read after the new stream is acknowledged, in the order sent. */
  refetch: string[];
  /** The stable id each kind of state is de-duplicated by when refetched items meet cached ones. */
  dedupeBy: Record<string, string>;
  /** Requests whose responses were lost and that are mutations without business de-duplication: reconciled, never re-sent. */
  reconcileInsteadOfReplay: RequestId[];
  replayUnsafeMutations: false;
  sendLastEventId: false;
  backoff: { policy: BackoffPolicy; attempt: number; delayMs: number; ceilingMs: number };
}

export interface ReconnectPlanEvent extends FlowEventBase {
  kind: 'reconnect-plan';
  plan: ReconnectPlan;
  reason: string;
}

export interface RecoveryEvent extends FlowEventBase {
  kind: 'recovery';
  step: 'backoff' | 'restored-filter' | 'refetched' | 'deduplicated' | 'not-replayed' | 'reconciled';
  requestId: RequestId | null;
  reason: string;
}

// ── herd (RV-4, RV-5) ────────────────────────────────────────────────────────────────────────────

/** One admission window of the herd, summarised: the herd never records one event per attempt. */
export interface HerdWindowEvent extends FlowEventBase {
  kind: 'herd-window';
  window: number;
  startMs: number;
  endMs: number;
  attempts: number;
  admitted: number;
  refused: number;
  /** Clients still not reconnected when the window closes. */
  waiting: number;
}

export type FlowEvent =
  | BufferEvent
  | ProxyEvent
  | SseCommentEvent
  | HttpRequestEvent
  | StreamDroppedEvent
  | MessageLostEvent
  | ReconnectPlanEvent
  | RecoveryEvent
  | HerdWindowEvent;

export type FlowEventKind = FlowEvent['kind'];

// ── outcomes ─────────────────────────────────────────────────────────────────────────────────────

export interface BufferOutcome {
  /** The buffer's capacity, in events. */
  capacity: number;
  maxOccupancy: number;
  dropped: number;
  coalesced: number;
  needsRefetch: boolean;
  /** Every request's final response reached the client. */
  finalDelivered: boolean;
}

export interface ProxyOutcome {
  requestEndedAs: TerminalState;
  idleTimeoutFired: boolean;
  progressSent: number;
  progressDelivered: number;
  /** Instants at which the client received more than one event at once. */
  bursts: number;
  largestBurstEvents: number;
  /** Longest stretch the client saw without a useful event (keep-alive comments do not count). */
  longestSilenceMs: number;
  keepAlivesSent: number;
  keepAlivesDelivered: number;
  /** The SSE response headers of the request's stream; null on stdio. */
  sseHeaders: Record<string, string> | null;
}

export interface ReconnectOutcome {
  reconnectPlan: ReconnectPlan;
  /** Ids of every subscriptions/listen request sent, in order: each one new. */
  listenRequestIds: RequestId[];
  refetchedMethods: string[];
  messagesLost: number;
  mutationsReplayed: number;
  /** When the new listen stream was acknowledged. */
  reconnectedAtMs: number;
}

export interface HerdOutcome {
  clients: number;
  totalAttempts: number;
  peakAttemptsPerWindow: number;
  allReconnectedAtMs: number;
  windowMs: number;
  /** Attempts in each admission window from 0 ms, empty windows included: the plot's series. */
  attemptsPerWindow: number[];
}

export type FlowOutcome = BufferOutcome | ProxyOutcome | ReconnectOutcome | HerdOutcome;

// ── scenarios ────────────────────────────────────────────────────────────────────────────────────

export interface BufferScenario extends ScenarioMeta {
  readonly kind: 'buffer';
  readonly settings: BufferOverloadSettings;
  readonly expected: Readonly<Pick<BufferOutcome, 'needsRefetch' | 'finalDelivered'>>;
}

export interface ProxyScenario extends ScenarioMeta {
  readonly kind: 'proxy';
  readonly settings: ProxyBufferingSettings;
  /** What the default settings show on Streamable HTTP, and with honourNoBuffering=true. */
  readonly expected: Readonly<Record<'buffering' | 'honoured', Pick<ProxyOutcome, 'requestEndedAs' | 'idleTimeoutFired'>>>;
}

export interface ReconnectScenario extends ScenarioMeta {
  readonly kind: 'reconnect';
  readonly settings: ReconnectListenSettings;
  readonly expected: Readonly<Pick<ReconnectPlan, 'refetch' | 'replayUnsafeMutations' | 'sendLastEventId'>>;
}

export interface HerdScenario extends ScenarioMeta {
  readonly kind: 'herd';
  readonly settings: HerdSettings;
}

export type FlowScenario = BufferScenario | ProxyScenario | ReconnectScenario | HerdScenario;

// ── recording ────────────────────────────────────────────────────────────────────────────────────

/** Every model records through the one EventLog in wire.ts. */
export { EventLog } from './wire';
