import type { JsonObject, RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { EventBase } from '../../core/transcript';
import type { McpEvent } from '../../mcp/events';
import type { BackoffPolicy } from '../herd/backoff';
import type { ReconnectListenSettings } from './settings';

/** Transcript vocabulary of this model: its events, outcome and scenario shape (field names are contracts). */
export interface HttpRequestEvent extends EventBase {
  kind: 'http-request';
  requestId: RequestId;
  method: 'POST';
  /** Every header the client sends with the POST; never `Last-Event-ID` (RV-3). */
  headers: Record<string, string>;
}

export interface StreamDroppedEvent extends EventBase {
  kind: 'stream-dropped';
  requestId: RequestId;
  channel: string;
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
  /** RV-3: false. True only in the catalogued failure mode (resume=last-event-id), which also refetches nothing. */
  sendLastEventId: boolean;
  backoff: { policy: BackoffPolicy; attempt: number; delayMs: number; ceilingMs: number };
}

export interface ReconnectPlanEvent extends EventBase {
  kind: 'reconnect-plan';
  plan: ReconnectPlan;
  reason: string;
}

export interface RecoveryEvent extends EventBase {
  kind: 'recovery';
  /** resume-assumed: a catalogued failure mode, the client waits for a replay that never comes. */
  step: 'backoff' | 'restored-filter' | 'refetched' | 'deduplicated' | 'not-replayed' | 'reconciled' | 'resume-assumed';
  requestId: RequestId | null;
  reason: string;
}

export type ReconnectModelEvent = McpEvent | HttpRequestEvent | StreamDroppedEvent | ReconnectPlanEvent | RecoveryEvent;

export interface ReconnectOutcome {
  reconnectPlan: ReconnectPlan;
  /** Ids of every subscriptions/listen request sent, in order: each one new. */
  listenRequestIds: RequestId[];
  refetchedMethods: string[];
  messagesLost: number;
  mutationsReplayed: number;
  /** When the new listen stream was acknowledged. */
  reconnectedAtMs: number;
  /**
   * Whether the client ends with state that differs from the server's authoritative state (a tool it
   * does not know, a charge it cannot account for): false after a refetch, true when it assumed a
   * Last-Event-ID resumption (docs/requirements.md#failure-modes-each-runnable-next-to-its-fix).
   */
  clientStateStale: boolean;
}

export interface ReconnectScenario extends ScenarioMeta {
  readonly kind: 'reconnect';
  readonly settings: ReconnectListenSettings;
  readonly expected: Readonly<Pick<ReconnectPlan, 'refetch' | 'replayUnsafeMutations' | 'sendLastEventId'>>;
}
