import type { RequestId, JsonObject } from '../../mcp/protocol';

/** Transcript events and outcome of the ledger model (field names are contracts: extend, never rename). */
import type { ScenarioMeta } from '../../core/model';
import type { SqlEvent } from '../../core/sqlite';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { LedgerSettings } from './settings';
import type { KeyProfile } from './ledger';
export type { SqlEvent } from '../../core/sqlite';
export { sqlEvent } from '../../core/sqlite';

export interface LedgerEvent extends EventBase {
  kind: 'ledger';
  action:
    | 'opened'
    | 'barrier'
    | 'busy-wait'
    | 'executed'
    | 'replayed'
    | 'rejected'
    | 'failed'
    | 'caller-mutated'
    | 'saved'
    | 'closed'
    | 'reopened'
    | 'retry'
    | 'no-retry'
    | 'reconcile'
    | 'reconciled'
    | 'aborted'
    /** A run with faults: a call's deadline passed with no response, so its outcome is unknown to the client (not failed). */
    | 'unknown';
  requestId?: RequestId;
  connection?: string;
  detail: string;
}

export interface LedgerResponseRecord {
  requestId: RequestId;
  connection: string;
  status: 'executed' | 'replayed' | 'rejected' | 'failed';
  /** The result as the server returned it (executed/replayed), or the error (rejected/failed). */
  body: JsonObject;
}

export interface LedgerOutcome {
  /** How many times the business effect ran (committed) in this run. */
  executions: number;
  /** Requests refused with nothing executed (422-like key reuse, 409-like in flight). */
  rejected: number;
  replayed: number;
  /** Requests that ended in an error; `executions` counts any effect they committed first. */
  failed: number;
  requests: number;
  busyRetries: number;
  /** Rows stored for the scenario's idempotency key (0 without a key). */
  keyRecords: number;
  /** The committed result for the key, rebuilt from its stored JSON, or null. */
  storedResult: JsonObject | null;
  /** Whether the stored result still equals the first committed one after the caller mutated its copy (null: no mutation). */
  aliasIntact: boolean | null;
  responses: LedgerResponseRecord[];
  /**
   * LG-P5: whether the payment token the call carried was found anywhere in the ledger file (every
   * row of every table) or in a returned result; null when the call carried no secret.
   */
  paymentTokenInLedger: boolean | null;
  /** How this run answers a repeated key (keyProfile), with the source the Ledger tab cites. */
  keyProfile: KeyProfile;
  /**
   * A run with faults only (absent otherwise, so a run without faults is as it always was): the client's own
   * record of every call it made, in the order it made them, with what the server actually did beside it.
   */
  clientRecord?: LedgerClientOperation[];
  /**
   * A run with faults only: the smallest history that proves the effect ran more than once for one intent
   * (the first two calls that committed it), or null when it ran at most once.
   */
  duplicateEffect?: LedgerDuplicateEffect | null;
}

/**
 * One call as its client knows it. `answered`: its response reached the client. `unknown`: its deadline
 * (retryAfterMs) passed with no response, lost or late, so the client cannot tell whether it ran: not
 * failed, unknown. `reconciled`: it was unknown, then a later answer about the same intent told the client
 * what it did (a retry with the same key answered, or a read by key or of the inventory).
 */
export interface LedgerClientOperation {
  requestId: RequestId;
  tool: string;
  state: 'answered' | 'unknown' | 'reconciled';
  /** The request whose answer reconciled it (reconciled only). */
  reconciledBy?: RequestId;
  /** What the server did with it, which the client may not know: its response's status, `read` (a read it answered), or `not-received` (the network or a restart lost the request). */
  server: LedgerResponseRecord['status'] | 'read' | 'not-received';
}

export interface LedgerDuplicateEffect {
  /** The calls whose effects committed for the one intent, the first two: the whole proof. */
  requestIds: RequestId[];
  /** What the client knew of each, and why nothing stopped the second. */
  detail: string;
}

/** What the ledger model records: the wire's events, its SQL statements and its ledger steps. */
export type LedgerModelEvent = WireEvent | SqlEvent | LedgerEvent;

/** What a ledger scenario must show (docs/requirements.md#idempotency-ledger-lg); the test and the CLI compare the outcome with it. */
export interface LedgerScenario extends ScenarioMeta {
  readonly kind: 'ledger';
  readonly settings: LedgerSettings;
  readonly expected: {
    readonly executions: number;
    readonly rejected: number;
    readonly replayed: number;
    readonly aliasIntact?: boolean | null;
  };
}
