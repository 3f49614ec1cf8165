// Proves every row of a large stored ledger is reachable a page at a time: `ledger-rows` reads any page of
// each table in the Ledger section's order, bounds what one request may ask for, and reads the file the worker holds
// open, so neither a page nor a snapshot of the same stored bytes opens and checks the file again; a ledger stored
// since (a kept run, another tab) is opened and checked anew.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { bigLedgerBytes, bigLedgerKey, bigLedgerSubject } from '../testing/bigLedger';
import { createLabHost, type LabHost } from './host';
import { memoryLedgerStorage, type LedgerStorage } from './ledgerStorage';
import { LEDGER_ROWS_LIMIT_MAX, type LabAnswer, type LedgerRows } from './protocol';

let sql: SqlModule;
const ROWS = { keys: 1_500, effects: 3_001 };
let bytes: Uint8Array;

beforeAll(async () => {
  sql = await loadSqlJs();
  bytes = bigLedgerBytes(sql, ROWS);
});

/**
 * Real sql.js, counting the databases opened from a file's bytes: each is one open (and one check) of a
 * stored ledger. Everything else passes through untouched.
 */
function countingSql(): { sql: SqlModule; opened: () => number } {
  let opened = 0;
  const Database = new Proxy(sql.Database, {
    construct(target, args: [Uint8Array?]) {
      if (args[0] !== undefined && args[0] !== null) opened += 1;
      return new target(...args);
    },
  });
  return { sql: { ...sql, Database } as SqlModule, opened: () => opened };
}

let nextId = 1;
async function ask(lab: LabHost, request: Record<string, unknown>): Promise<LabAnswer> {
  return lab.handleMessage({ ...request, requestId: nextId++ });
}

async function page(lab: LabHost, table: LedgerRows['table'], offset: number, limit: number): Promise<LedgerRows> {
  const answer = await ask(lab, { type: 'ledger-rows', table, offset, limit });
  if (answer.type !== 'ledger-rows') throw new Error(`expected rows, got ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.page;
}

function host(storage: LedgerStorage = memoryLedgerStorage()) {
  const counting = countingSql();
  return { lab: createLabHost({ sql: Promise.resolve(counting.sql), storage }), opened: counting.opened, storage };
}

describe('ledger-rows: every row of the stored ledger, a page at a time', () => {
  it('walks each table page by page to its last row, in the order the section shows', async () => {
    const { lab } = host();
    expect(await ask(lab, { type: 'ledger-import', bytes })).toMatchObject({
      type: 'ledger',
      ledger: { totals: { idempotencyKeys: ROWS.keys, effects: ROWS.effects, executions: 1 } },
    });

    const subjects: unknown[] = [];
    for (let offset = 0; offset < ROWS.effects; offset += LEDGER_ROWS_LIMIT_MAX) {
      const rows = await page(lab, 'effects', offset, LEDGER_ROWS_LIMIT_MAX);
      expect(rows).toMatchObject({ table: 'effects', offset, total: ROWS.effects });
      subjects.push(...rows.rows.map((row) => row.subject));
    }
    expect(subjects).toEqual(Array.from({ length: ROWS.effects }, (_, i) => bigLedgerSubject(i + 1)));

    const lastKeys = await page(lab, 'idempotencyKeys', ROWS.keys - 2, 50);
    expect(lastKeys.rows.map((row) => row.key)).toEqual([bigLedgerKey(ROWS.keys - 1), bigLedgerKey(ROWS.keys)]);
    expect(lastKeys.rows[1]).toMatchObject({
      committed_at_ms: ROWS.keys,
      result_json: expect.stringContaining('structuredContent'),
    });
    expect(await page(lab, 'executions', 0, 50)).toMatchObject({
      rows: [{ operation: 'charge', count: ROWS.effects }],
      total: 1,
    });
    // Past the end: no rows, and the count says where the end is.
    expect(await page(lab, 'effects', ROWS.effects + 10, 50)).toMatchObject({ rows: [], total: ROWS.effects });
  });

  it('refuses a page beyond its bounds with LAB008, naming the field', async () => {
    const { lab } = host();
    for (const [field, request] of [
      ['limit', { table: 'effects', offset: 0, limit: LEDGER_ROWS_LIMIT_MAX + 1 }],
      ['limit', { table: 'effects', offset: 0, limit: 0 }],
      ['offset', { table: 'effects', offset: -1, limit: 10 }],
      ['offset', { table: 'effects', offset: 1.5, limit: 10 }],
      ['table', { table: 'sqlite_master', offset: 0, limit: 10 }],
    ] as const) {
      expect(await ask(lab, { type: 'ledger-rows', ...request })).toMatchObject({
        type: 'error',
        code: 'LAB008',
        message: expect.stringContaining(field),
      });
    }
  });

  it('reads pages and snapshots of the same stored bytes from the file held open, checked once', async () => {
    const { lab, opened } = host();
    await ask(lab, { type: 'ledger-import', bytes });
    expect(opened()).toBe(1);
    await page(lab, 'effects', 2_000, 50);
    await page(lab, 'idempotencyKeys', 1_000, 50);
    expect(await ask(lab, { type: 'ledger-snapshot' })).toMatchObject({
      type: 'ledger',
      ledger: { stored: true, totals: { effects: ROWS.effects } },
    });
    await page(lab, 'effects', 3_000, 50);
    expect(opened()).toBe(1);
  });

  it('opens and checks anew a ledger stored since: by a kept run, or by another tab', async () => {
    const { lab, opened, storage } = host();
    const imported = await ask(lab, { type: 'ledger-import', bytes });
    const importedId = imported.type === 'ledger' ? imported.ledger.ledgerId : undefined;
    expect(importedId).toEqual(expect.any(String));
    expect((await page(lab, 'effects', 0, 1)).ledgerId).toBe(importedId);
    await ask(lab, {
      type: 'run',
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    const afterRun = opened();
    // A page asked for before the page reads the new view names another ledger than the view it has.
    const pageAfterRun = await page(lab, 'effects', ROWS.effects, 50);
    expect(pageAfterRun.ledgerId).not.toBe(importedId);
    expect(opened()).toBe(afterRun + 1);
    expect(await ask(lab, { type: 'ledger-snapshot' })).toMatchObject({
      ledger: { ledgerId: pageAfterRun.ledgerId, totals: { effects: ROWS.effects + 1 } },
    });
    expect(opened()).toBe(afterRun + 1);
    expect((await page(lab, 'effects', ROWS.effects, 50)).rows).toHaveLength(1);
    expect(opened()).toBe(afterRun + 1);

    // Another tab of the lab imports a smaller ledger into the same storage.
    await storage.save(bigLedgerBytes(sql, { keys: 3, effects: 5 }));
    expect(await ask(lab, { type: 'ledger-snapshot' })).toMatchObject({
      ledger: { totals: { idempotencyKeys: 3, effects: 5 } },
    });
    expect(opened()).toBe(afterRun + 2);
    expect(await page(lab, 'effects', 0, 50)).toMatchObject({ total: 5 });
  });

  it('a refused import leaves the held ledger and its pages as they were', async () => {
    const { lab, storage } = host();
    await ask(lab, { type: 'ledger-import', bytes });
    const before = await page(lab, 'effects', 3_000, 50);
    const db = new sql.Database(bytes);
    db.exec(`CREATE VIEW totals AS SELECT sum(amount) FROM effects`);
    const withView = db.export();
    db.close();
    expect(await ask(lab, { type: 'ledger-import', bytes: withView })).toMatchObject({ type: 'error', code: 'LAB010' });
    expect(await page(lab, 'effects', 3_000, 50)).toEqual(before);
    const stored = await storage.load();
    expect(stored !== null && Buffer.from(stored).equals(bytes)).toBe(true);
  });

  it('after a reset, the pages are those of an empty ledger', async () => {
    const { lab } = host();
    await ask(lab, { type: 'ledger-import', bytes });
    expect(await ask(lab, { type: 'ledger-reset' })).toMatchObject({
      ledger: { stored: false, totals: { effects: 0 } },
    });
    expect(await page(lab, 'effects', 0, 50)).toMatchObject({ rows: [], total: 0 });
  });
});
