import { LedgerFile, type SqlModule } from '../engine';

/**
 * A genuine lab ledger of many rows, written through the lab's own schema (LedgerFile) with the
 * statements' own shapes: keyed results as JSON in idempotency_keys, one effect per charge, the
 * executions count. What an imported ledger of 200,000 rows looks like; the e2e test and
 * the benchmark import it. Row i of each table is predictable, so a test can name the last one.
 */
export interface BigLedgerRows {
  /** Rows of idempotency_keys. */
  keys: number;
  /** Rows of effects. */
  effects: number;
}

/** 200,000 rows in all: 198,000 effects and 2,000 keys (two tables that need paging past their first 1,000). */
export const BIG_LEDGER_ROWS: BigLedgerRows = { keys: 2_000, effects: 198_000 };

/** The subject of effect number `i` (1-based, as effect_id counts). */
export const bigLedgerSubject = (i: number) => `customer-${i}`;
/** The key of idempotency key number `i` (1-based, in committed_at_ms order). */
export const bigLedgerKey = (i: number) => `key-${String(i).padStart(6, '0')}`;

export function bigLedgerBytes(sql: SqlModule, rows: BigLedgerRows = BIG_LEDGER_ROWS): Uint8Array {
  const file = LedgerFile.open(sql, null);
  try {
    const db = file.connect('fill');
    db.run('BEGIN');
    for (let i = 1; i <= rows.effects; i++) {
      const done = db.run(
        'INSERT INTO ledger.effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ['charge', bigLedgerSubject(i), 1200 + (i % 100), 'acme', `req-${i}`, 'fill', i],
      );
      if (!done.ok) throw new Error(`effect ${i}: ${done.message}`);
    }
    for (let i = 1; i <= rows.keys; i++) {
      const result = JSON.stringify({
        content: [{ type: 'text', text: `charged ${1200 + (i % 100)}` }],
        structuredContent: { effectId: i },
      });
      const done = db.run(
        'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [bigLedgerKey(i), 'charge', `fp-${i}`, result, `req-${i}`, 'fill', i],
      );
      if (!done.ok) throw new Error(`key ${i}: ${done.message}`);
    }
    const counted = db.run('INSERT INTO ledger.executions (operation, count) VALUES (?, ?)', ['charge', rows.effects]);
    if (!counted.ok) throw new Error(`executions: ${counted.message}`);
    db.run('COMMIT');
    return file.export();
  } finally {
    file.close();
  }
}
