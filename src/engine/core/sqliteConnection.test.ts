// A ledger connection's statements answer as SQLite does, whatever the connection does to run them fast.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { LedgerFile, type SqlModule } from './sqlite';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const INSERT = `INSERT INTO ledger.effects (operation, subject, amount, request_id, connection, at_ms) VALUES ('charge', 'card', 5, '1', 'conn-1', 0)`;
const limitBefore = Error.stackTraceLimit;
afterEach(() => {
  Error.stackTraceLimit = limitBefore;
});

describe('LedgerConnection', () => {
  it("a refused statement answers with SQLite's code and message, and the host's stack trace limit is as it was after every statement", () => {
    Error.stackTraceLimit = 17;
    const file = LedgerFile.open(sql, null);
    const one = file.connect('conn-1');
    const two = file.connect('conn-2');
    expect(one.run('BEGIN IMMEDIATE')).toEqual({ ok: true, rows: [], changes: 0 });
    expect(Error.stackTraceLimit).toBe(17);
    expect(two.run('BEGIN IMMEDIATE')).toEqual({ ok: false, code: 'SQLITE_BUSY', message: 'database is locked' });
    expect(Error.stackTraceLimit).toBe(17);
    expect(one.run(`INSERT INTO ledger.lab_meta (name, value) VALUES ('format', 'x')`)).toMatchObject({
      ok: false,
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      message: expect.stringContaining('UNIQUE constraint failed: lab_meta.name'),
    });
    expect(one.run('SELECT * FROM no_such_table')).toMatchObject({ ok: false, code: 'SQLITE_ERROR' });
    expect(Error.stackTraceLimit).toBe(17);
    expect(one.run('ROLLBACK').ok).toBe(true);
    // An Error made after them still carries its trace.
    expect(new Error('after').stack).toContain('sqliteConnection.test');
    file.close();
  });

  it("each connection holds its own (empty) main database's lock for good, the ledger's only while a transaction needs it: SQLite's lock still arbitrates, and a commit is seen at once", () => {
    const file = LedgerFile.open(sql, null);
    const one = file.connect('conn-1');
    const two = file.connect('conn-2');
    for (const connection of [one, two]) {
      expect(connection.run('PRAGMA main.locking_mode')).toMatchObject({ rows: [{ locking_mode: 'exclusive' }] });
      expect(connection.run('PRAGMA ledger.locking_mode')).toMatchObject({ rows: [{ locking_mode: 'normal' }] });
    }
    for (let round = 0; round < 3; round += 1) {
      expect(one.run('BEGIN IMMEDIATE').ok).toBe(true);
      expect(two.run('BEGIN IMMEDIATE')).toMatchObject({ ok: false, code: 'SQLITE_BUSY' });
      expect(one.run(INSERT)).toMatchObject({ ok: true, changes: 1 });
      expect(two.run('SELECT count(*) AS n FROM ledger.effects')).toMatchObject({ rows: [{ n: round }] });
      expect(one.run('COMMIT').ok).toBe(true);
      expect(two.run('SELECT count(*) AS n FROM ledger.effects')).toMatchObject({ rows: [{ n: round + 1 }] });
      // The other way round: the first connection's main lock does not keep the second out of the ledger.
      expect(two.run('BEGIN IMMEDIATE').ok).toBe(true);
      expect(one.run('BEGIN IMMEDIATE')).toMatchObject({ ok: false, code: 'SQLITE_BUSY' });
      expect(two.run('ROLLBACK').ok).toBe(true);
    }
    expect(file.query('SELECT count(*) AS n FROM effects')).toEqual([{ n: 3 }]);
    file.close();
  });
});
