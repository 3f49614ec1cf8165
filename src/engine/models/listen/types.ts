import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { McpEvent, TerminalState } from '../../mcp/events';
import type { ListenServerCancelSettings } from './settings';

/** Transcript vocabulary of this model (field names are contracts): the MCP rules' events, nothing of its own. */
export type ListenModelEvent = McpEvent;

export interface ListenOutcome {
  listenRequestId: RequestId;
  /** How the server ended the listen: `notifications/cancelled` on stdio, closing its SSE stream on Streamable HTTP. */
  serverEndSignal: 'notifications/cancelled' | 'stream-close';
  /** When the server ended the (first) listen it held; null only when a fault lost every listen before it reached the server. */
  listenEndedAtMs: number | null;
  /** RC-9: the requests the server cancelled — only subscriptions/listen calls. */
  serverCancelled: RequestId[];
  /** The requests the client cancelled — its own ordinary requests, on the separate client path. */
  clientCancelled: RequestId[];
  toolCallRequestId: RequestId;
  toolCallTerminal: TerminalState;
  /** Notifications the listen stream delivered before the server ended it. */
  notificationsReceived: number;
  /**
   * A run with faults only (absent otherwise): the listens the client opened again, each with a new request
   * id, because an earlier one was lost (no acknowledgement came, or its response stream broke).
   */
  listensReissued?: RequestId[];
}

export interface ListenScenario extends ScenarioMeta {
  readonly kind: 'listen';
  readonly settings: ListenServerCancelSettings;
  readonly expected: Readonly<Pick<ListenOutcome, 'serverCancelled' | 'clientCancelled'>>;
}
