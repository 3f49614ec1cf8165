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
    | 'aborted';
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
}


/** What the ledger model records: the wire's events, its SQL statements and its ledger steps. */
export type LedgerModelEvent = WireEvent | SqlEvent | LedgerEvent;

/** What a ledger scenario must show (SPEC §2); the test and the CLI compare the outcome with it. */
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
