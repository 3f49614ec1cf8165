import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { Transport } from '../../core/transcript';
import type { CancellationSignal, ClientOutcome, McpEvent, TerminalState } from '../../mcp/events';
import type { RequestRaceSettings } from './settings';

/** What the request race records: the wire's events and the MCP rules' events, nothing of its own. */
export type RequestRaceEvent = McpEvent;

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
  /**
   * RC-8: the client's own ending, beside the single terminal state: `completed` only when it used
   * the final response. It differs from what the server saw when the two crossed.
   */
  clientOutcome: ClientOutcome;
  clientOutcomeAtMs: number;
  /** RC-8: the server completed and sent its response, but the client ended otherwise and never uses it. */
  viewsDiverge: boolean;
  /**
   * How long after its own ending the client put its cancellation on the wire: 0 as the spec has it
   * (cancel on timeout), more under clientProfile=ts-sdk-1.x (its left-armed timer); null when it
   * never cancelled.
   */
  cancelDelayMs: number | null;
}

export interface ScriptStep {
  /** A virtual time, or the name of a setting that holds one (a null setting skips the step). */
  readonly at: number | 'cancelAtMs';
  /** call; cancel (the user); cancel-malformed / cancel-unknown: a client bug the server must ignore (RC-7). */
  readonly do: 'call' | 'cancel' | 'cancel-malformed' | 'cancel-unknown';
}

export interface ExpectedOutcome {
  readonly terminalState: TerminalState;
  readonly finalResponse: boolean;
  readonly cancellationSignal: CancellationSignal;
  /** The summaries of the messages the client must ignore, in order. */
  readonly clientIgnores: readonly string[];
  readonly clientOutcome: ClientOutcome;
}

export interface RequestRaceScenario extends ScenarioMeta {
  readonly kind: 'request-race';
  readonly settings: RequestRaceSettings;
  readonly script: readonly ScriptStep[];
  /** Label prefixes that pin the order of same-instant events; empty: insertion order. */
  readonly pinnedOrder: readonly string[];
  readonly expected: Readonly<Record<Transport, ExpectedOutcome>>;
}
