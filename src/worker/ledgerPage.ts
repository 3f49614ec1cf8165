import { LedgerFile, type Row, type SqlModule } from '../engine';

/**
 * The stored ledger as the worker holds it open for the Ledger section: checked once when
 * opened (LedgerFile.open refuses anything but a lab ledger with LAB010), then read a page at a time.
 * Reading and cloning all 200,000 rows of an imported ledger takes seconds before the page draws a single
 * one; the page is sent the first rows of each table and each table's row count, and asks for any
 * other page (`ledger-rows`) of the same open file, which is neither reopened nor checked again.
 */

/** Rows of each table a ledger view carries: the Ledger section's first page, with room to spare. */
export const LEDGER_VIEW_ROWS_MAX = 100;

export type LedgerTableName = 'idempotencyKeys' | 'effects' | 'executions';

/** Each table's columns and order, as the Ledger section shows it (one order for every page). */
const TABLES: Record<LedgerTableName, { from: string; columns: string; orderBy: string }> = {
  idempotencyKeys: {
    from: 'idempotency_keys',
    columns: 'key, operation, fingerprint, result_json, request_id, connection, committed_at_ms',
    orderBy: 'committed_at_ms, key',
  },
  effects: {
    from: 'effects',
    columns: 'effect_id, operation, subject, amount, tenant, request_id, connection, at_ms',
    orderBy: 'effect_id',
  },
  executions: { from: 'executions', columns: 'operation, count', orderBy: 'operation' },
};

/**
 * Random per worker, so a fresh worker (after Stop) never reuses an id. getRandomValues, not randomUUID:
 * the lab may be served over plain http, where randomUUID does not exist.
 */
const WORKER_TAG = Array.from(crypto.getRandomValues(new Uint32Array(2)), (word) => word.toString(36)).join('');
let openedCount = 0;

export type LedgerTotals = Record<LedgerTableName, number>;

export interface LedgerPage {
  idempotencyKeys: Row[];
  effects: Row[];
  executions: Row[];
  totals: LedgerTotals;
  bytes: number;
}

export class OpenLedger {
  private closed = false;
  /** Names this opened file to the page, so it can tell a page of rows from a ledger stored since its view (unique across workers). */
  readonly id = `${WORKER_TAG}-${(openedCount += 1)}`;

  private constructor(
    /** The bytes the file was opened from (null: a new, empty ledger); the file's tables never change while it is open. */
    readonly bytes: Uint8Array | null,
    private readonly file: LedgerFile,
    readonly totals: LedgerTotals,
  ) {}

  /** Opens and checks saved bytes (LAB010 if they are not a lab ledger, and nothing is kept open). */
  static open(sql: SqlModule, bytes: Uint8Array | null): OpenLedger {
    const file = LedgerFile.open(sql, bytes);
    try {
      const count = (name: LedgerTableName) =>
        Number(file.query(`SELECT count(*) AS n FROM ${TABLES[name].from}`)[0]?.n ?? 0);
      return new OpenLedger(bytes, file, {
        idempotencyKeys: count('idempotencyKeys'),
        effects: count('effects'),
        executions: count('executions'),
      });
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /** Up to `limit` rows of `table` from row `offset` (0-based) on, in the Ledger section's order. */
  rows(table: LedgerTableName, offset: number, limit: number): Row[] {
    if (this.closed) throw new Error('the ledger was closed');
    const { from, columns, orderBy } = TABLES[table];
    return this.file.query(`SELECT ${columns} FROM ${from} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [limit, offset]);
  }

  /** The first rows of each table and every table's count. */
  page(rowsMax = LEDGER_VIEW_ROWS_MAX): LedgerPage {
    return {
      idempotencyKeys: this.rows('idempotencyKeys', 0, rowsMax),
      effects: this.rows('effects', 0, rowsMax),
      executions: this.rows('executions', 0, rowsMax),
      totals: { ...this.totals },
      bytes: this.bytes?.length ?? 0,
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.file.close();
  }
}

/** Opens saved bytes (LAB010 if they are not a lab ledger), reads the first rows and the counts, and closes. */
export function ledgerPage(sql: SqlModule, bytes: Uint8Array | null, rowsMax = LEDGER_VIEW_ROWS_MAX): LedgerPage {
  const ledger = OpenLedger.open(sql, bytes);
  try {
    return ledger.page(rowsMax);
  } finally {
    ledger.close();
  }
}

/** Whether two files hold the same bytes (the stored ledger is the one held open, so it needs no new check). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // Four bytes at a time where both are aligned (a stored ledger is a whole number of 4 KiB pages).
  const words = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 ? Math.floor(a.length / 4) : 0;
  if (words > 0) {
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (let i = 0; i < words; i++) if (wa[i] !== wb[i]) return false;
  }
  for (let i = words * 4; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
