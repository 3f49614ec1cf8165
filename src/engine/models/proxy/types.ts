import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { EventBase } from '../../core/transcript';
import type { McpEvent, TerminalState } from '../../mcp/events';
import type { ProxyBufferingSettings } from './settings';

/** Transcript vocabulary of this model: its events, outcome and scenario shape (field names are contracts). */
export interface ProxyEvent extends EventBase {
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

export interface SseCommentEvent extends EventBase {
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

export type ProxyModelEvent = McpEvent | ProxyEvent | SseCommentEvent;

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

export interface ProxyScenario extends ScenarioMeta {
  readonly kind: 'proxy';
  readonly settings: ProxyBufferingSettings;
  /** What the default settings show on Streamable HTTP, and with honourNoBuffering=true. */
  readonly expected: Readonly<
    Record<'buffering' | 'honoured', Pick<ProxyOutcome, 'requestEndedAs' | 'idleTimeoutFired'>>
  >;
}
