// A recycled ledger (what the explorer runs each ordering on) reads as a new one, and an exploration gives the same answer with it as with real new files.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../cli/sqlite';
import { findScenario } from '../../../scenarios/index';
import { explore } from '../../explorer';
import { LedgerFile, LedgerRecycler, type LedgerConnection, type SqlModule } from '../../core/sqlite';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const INSERT = `INSERT INTO ledger.effects (operation, subject, amount, request_id, connection, at_ms) VALUES ('charge', 'card', 5, '1', 'conn-1', 0)`;

describe('LedgerRecycler', () => {
  it('gives back a closed ledger as a new one: committed rows gone, an open transaction ended, ids and change count restarted', () => {
    const recycler = new LedgerRecycler();
    const first = LedgerFile.open(sql, null, recycler);
    const one = first.connect('conn-1');
    const two = first.connect('conn-2');
    expect(one.run(INSERT)).toMatchObject({ ok: true, changes: 1 });
    expect(one.run(INSERT)).toMatchObject({ ok: true, changes: 1 });
    // A run the explorer stops part-way leaves a write transaction open.
    expect(two.run('BEGIN IMMEDIATE').ok).toBe(true);
    expect(two.run(INSERT).ok).toBe(true);
    first.close();

    const second = LedgerFile.open(sql, null, recycler);
    const again = second.connect('conn-1');
    expect(again).toBe(one); // recycled, not opened anew
    const other = second.connect('conn-2');
    expect(other).toBe(two);
    expect(again.run('SELECT count(*) AS n FROM ledger.effects')).toEqual({ ok: true, rows: [{ n: 0 }], changes: 0 });
    expect(again.run(INSERT).ok).toBe(true);
    expect(again.run('SELECT effect_id FROM ledger.effects')).toMatchObject({ rows: [{ effect_id: 1 }] });
    // SQLite's own lock still arbitrates between the two connections.
    expect(again.run('BEGIN IMMEDIATE').ok).toBe(true);
    expect(other.run('BEGIN IMMEDIATE')).toMatchObject({ ok: false, code: 'SQLITE_BUSY' });
    expect(again.run('COMMIT').ok).toBe(true);
    second.close();
    recycler.dispose();
  });

  it('gives back every table as a new ledger has it, without moving the schema: the statements each connection prepared stay valid', () => {
    const fresh = LedgerFile.open(sql, null);
    const tables = fresh
      .query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .map((row) => String(row.name));
    expect(tables).toContain('sqlite_sequence');
    const schemaVersion = (connection: LedgerConnection) => {
      const result = connection.run('PRAGMA ledger.schema_version');
      return result.ok ? result.rows : result;
    };
    const dump = (file: LedgerFile) => tables.map((table) => JSON.stringify(file.query(`SELECT * FROM ${table}`)));
    const recycler = new LedgerRecycler();
    const used = LedgerFile.open(sql, null, recycler);
    const one = used.connect('conn-1');
    for (const statement of [
      INSERT,
      `INSERT INTO ledger.idempotency_keys VALUES ('k', 'charge', 'f', '{}', '1', 'conn-1', 0)`,
      `INSERT INTO ledger.executions VALUES ('charge', 1)`,
      `INSERT INTO ledger.tasks (task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms) VALUES ('t', 'working', 0, 0, 1, 1)`,
      `INSERT INTO ledger.lab_meta VALUES ('other', 'row')`,
    ])
      expect(one.run(statement).ok).toBe(true);
    expect(dump(used)).not.toEqual(dump(fresh));
    const schema = schemaVersion(one);
    used.close();

    const again = LedgerFile.open(sql, null, recycler);
    expect(dump(again)).toEqual(dump(fresh));
    expect(schemaVersion(again.connect('conn-1'))).toEqual(schema);
    again.close();
    fresh.close();
    recycler.dispose();
  });

  it('empties what the statements wrote, named or counted: every table as a new ledger has it, the format row kept, ids from 1 again', () => {
    const fresh = LedgerFile.open(sql, null);
    const tables = ['lab_meta', 'idempotency_keys', 'effects', 'executions', 'tasks', 'sqlite_sequence'];
    const dump = (file: LedgerFile) => tables.map((table) => JSON.stringify(file.query(`SELECT * FROM ${table}`)));
    const recycler = new LedgerRecycler();
    const used = LedgerFile.open(sql, null, recycler);
    const one = used.connect('conn-1');
    // The lab's own kinds of statement: each names the table it writes; the effect's id also writes sqlite_sequence.
    expect(one.run('BEGIN IMMEDIATE').ok).toBe(true);
    expect(one.run(INSERT).ok).toBe(true);
    expect(one.run(`INSERT INTO ledger.idempotency_keys VALUES ('k', 'charge', 'f', '{}', '1', 'conn-1', 0)`).ok).toBe(
      true,
    );
    expect(one.run('COMMIT').ok).toBe(true);
    // Through the holder too.
    expect(
      used.query(
        `INSERT INTO tasks (task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms) VALUES ('t', 'working', 0, 0, 1, 1) RETURNING task_id`,
      ),
    ).toEqual([{ task_id: 't' }]);
    expect(dump(used)).not.toEqual(dump(fresh));
    used.close();

    const again = LedgerFile.open(sql, null, recycler);
    expect(dump(again)).toEqual(dump(fresh));
    const conn = again.connect('conn-1');
    expect(conn).toBe(one);
    expect(conn.run(`${INSERT} RETURNING effect_id`)).toMatchObject({ ok: true, rows: [{ effect_id: 1 }], changes: 1 });
    again.close();
    const third = LedgerFile.open(sql, null, recycler);
    expect(dump(third)).toEqual(dump(fresh));
    third.close();
    fresh.close();
    recycler.dispose();
  });

  it('a ledger on which other SQL ran is emptied whole ever after: a TEMP trigger outlives the run and writes a table no statement names', () => {
    const recycler = new LedgerRecycler();
    const used = LedgerFile.open(sql, null, recycler);
    const one = used.connect('conn-1');
    expect(
      one.run(
        `CREATE TEMP TRIGGER lab_test_writes_tasks AFTER INSERT ON ledger.effects BEGIN INSERT INTO ledger.tasks (task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms) VALUES ('t' || NEW.effect_id, 'working', 0, 0, 1, 1); END`,
      ).ok,
    ).toBe(true);
    used.close();
    // No read of tasks in between (a statement naming it would count it written): a row the trigger left
    // behind would make the next run's insert fail, its task id ('t1' again) taken.
    for (let run = 0; run < 3; run += 1) {
      const file = LedgerFile.open(sql, null, recycler);
      const connection = file.connect('conn-1');
      expect(connection).toBe(one);
      expect(connection.run(INSERT)).toMatchObject({ ok: true, changes: 1 });
      file.close();
    }
    const last = LedgerFile.open(sql, null, recycler);
    expect(last.connect('conn-1').run(INSERT).ok).toBe(true);
    expect(last.query('SELECT task_id FROM tasks')).toEqual([{ task_id: 't1' }]);
    last.close();
    // Exported, the ledger (and the connection with the trigger) is closed for real, not shelved.
    const exported = LedgerFile.open(sql, null, recycler);
    const bytes = exported.export();
    exported.close();
    const check = LedgerFile.open(sql, bytes);
    expect(check.query('SELECT count(*) AS n FROM tasks')).toEqual([{ n: 0 }]);
    check.close();
    recycler.dispose();
  });

  it('a connection whose last write changed rows starts its next run with a change count of 0, as does one that wrote nothing', () => {
    const recycler = new LedgerRecycler();
    const used = LedgerFile.open(sql, null, recycler);
    const one = used.connect('conn-1');
    const two = used.connect('conn-2');
    expect(one.run(INSERT)).toMatchObject({ ok: true, changes: 1 });
    expect(two.run('SELECT count(*) AS n FROM ledger.effects')).toMatchObject({ ok: true, changes: 0 });
    used.close();
    const again = LedgerFile.open(sql, null, recycler);
    expect(again.connect('conn-1').run('BEGIN IMMEDIATE')).toEqual({ ok: true, rows: [], changes: 0 });
    expect(again.connect('conn-2').run('SELECT 1 AS one')).toEqual({ ok: true, rows: [{ one: 1 }], changes: 0 });
    again.close();
    recycler.dispose();
  });

  it('a ledger given back (empty journal and WAL files beside it, LedgerFile.quieten) rolls back, commits and locks as a new one, and both files stay empty', () => {
    const recycler = new LedgerRecycler();
    const first = LedgerFile.open(sql, null, recycler);
    first.connect('conn-1');
    first.connect('conn-2');
    first.close();
    const file = LedgerFile.open(sql, null, recycler);
    const one = file.connect('conn-1');
    const two = file.connect('conn-2');
    const ledgerPath = one.run('PRAGMA database_list');
    const path = ledgerPath.ok ? String(ledgerPath.rows.find((row) => row.name === 'ledger')?.file) : '';
    expect(path).toMatch(/dbfile_/);
    // Empty, as SQLite's access check needs to count them as no file (SQL cannot tell a missing file from an empty one: attaching makes it).
    for (const suffix of ['journal', 'wal']) {
      expect(one.run(`ATTACH '${path}-${suffix}' AS probe`).ok).toBe(true);
      expect(one.run('PRAGMA probe.page_count')).toMatchObject({ ok: true, rows: [{ page_count: 0 }] });
      expect(one.run('DETACH probe').ok).toBe(true);
    }
    expect(one.run('BEGIN IMMEDIATE').ok).toBe(true);
    expect(one.run(INSERT).ok).toBe(true);
    expect(two.run('BEGIN IMMEDIATE')).toMatchObject({ ok: false, code: 'SQLITE_BUSY' });
    expect(one.run('ROLLBACK').ok).toBe(true);
    expect(two.run('SELECT count(*) AS n FROM ledger.effects')).toMatchObject({ ok: true, rows: [{ n: 0 }] });
    expect(one.run(INSERT).ok).toBe(true);
    expect(two.run('SELECT count(*) AS n FROM ledger.effects')).toMatchObject({ ok: true, rows: [{ n: 1 }] });
    // The rolled-back and committed writes left the journal file as it was: empty.
    expect(one.run(`ATTACH '${path}-journal' AS probe`).ok).toBe(true);
    expect(one.run('PRAGMA probe.page_count')).toMatchObject({ ok: true, rows: [{ page_count: 0 }] });
    expect(one.run('DETACH probe').ok).toBe(true);
    file.close();
    recycler.dispose();
  });

  it('closes for real a ledger whose bytes were exported (sql.js reopened its holder)', () => {
    const recycler = new LedgerRecycler();
    const file = LedgerFile.open(sql, null, recycler);
    const connection = file.connect('tasks');
    file.export();
    file.close();
    const next = LedgerFile.open(sql, null, recycler);
    expect(next.connect('tasks')).not.toBe(connection);
    next.close();
    recycler.dispose();
  });

  it('an exploration gives the same report on recycled ledgers as on new files (a host that keeps the bytes gets new files)', () => {
    for (const id of ['ledger-race-keyed', 'ledger-race-unsafe', 'inventory-race']) {
      const recycled = explore(findScenario(id), { transport: 'http', ledger: { sql } });
      const fresh = explore(findScenario(id), { transport: 'http', ledger: { sql, save: () => undefined } });
      expect(recycled.states).toBeGreaterThan(1);
      expect(JSON.stringify(recycled)).toBe(JSON.stringify(fresh));
    }
  });
});
