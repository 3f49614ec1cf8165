import type { RequestId, JsonObject } from '../protocol';
import type { StatementParams, StatementResult } from './sqlite';

/** Transcript events and outcome of the ledger model (field names are contracts: extend, never rename). */
interface EventBase {
  seq: number;
  atMs: number;
}

/** One SQL statement as a connection ran it: the SQL, its parameters, and its result or error. */
export interface SqlEvent extends EventBase {
  kind: 'sql';
  connection: string;
  requestId: RequestId;
  sql: string;
  params: (string | number | null)[];
  purpose: string;
  ok: boolean;
  rows?: Record<string, string | number | null>[];
  changes?: number;
  error?: { code: string; message: string };
}

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
    | 'reconciled';
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
}

/** The transcript line for one statement a connection ran: the SQL, its parameters, its rows or error. */
export function sqlEvent(connection: string, requestId: RequestId, sql: string, params: StatementParams, purpose: string, result: StatementResult): Omit<SqlEvent, 'seq' | 'atMs'> {
  return {
    kind: 'sql',
    connection,
    requestId,
    sql,
    params: [...params],
    purpose,
    ok: result.ok,
    ...(result.ok ? { rows: result.rows as Record<string, string | number | null>[], changes: result.changes } : { error: { code: result.code, message: result.message } }),
  };
}
