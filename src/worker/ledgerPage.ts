import { LedgerFile, type Row, type SqlModule } from '../engine';

/**
 * What the page is sent of a stored ledger: the first rows of each table and each table's row count
 * (issue #14). Reading and cloning all 200,000 rows of an imported ledger took seconds before the page
 * drew a single one; the page shows a page at a time and says how many rows there are in all.
 */
export const LEDGER_VIEW_ROWS_MAX = 1_000;

export interface LedgerPage {
  idempotencyKeys: Row[];
  effects: Row[];
  executions: Row[];
  totals: { idempotencyKeys: number; effects: number; executions: number };
  bytes: number;
}

/** Opens saved bytes (LAB010 if they are not a lab ledger), reads the first rows and the counts, and closes. */
export function ledgerPage(sql: SqlModule, bytes: Uint8Array | null, rowsMax = LEDGER_VIEW_ROWS_MAX): LedgerPage {
  const file = LedgerFile.open(sql, bytes);
  const count = (table: string) => Number(file.query(`SELECT count(*) AS n FROM ${table}`)[0]?.n ?? 0);
  try {
    return {
      idempotencyKeys: file.query(`SELECT key, operation, fingerprint, result_json, request_id, connection, committed_at_ms FROM idempotency_keys ORDER BY committed_at_ms, key LIMIT ${rowsMax}`),
      effects: file.query(`SELECT effect_id, operation, subject, amount, tenant, request_id, connection, at_ms FROM effects ORDER BY effect_id LIMIT ${rowsMax}`),
      executions: file.query(`SELECT operation, count FROM executions ORDER BY operation LIMIT ${rowsMax}`),
      totals: { idempotencyKeys: count('idempotency_keys'), effects: count('effects'), executions: count('executions') },
      bytes: bytes?.length ?? 0,
    };
  } finally {
    file.close();
  }
}
