// Proves an imported ledger is treated as data, not code: a file whose schema is not exactly the lab's
// (a trigger, a view, an altered table), whose rows break the lab's types (non-JSON result_json), or that fails
// PRAGMA integrity_check is refused with LAB010 before any lab statement runs on it; a genuine ledger still opens.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { runScenarioById } from '../../scenarios/index';
import { LedgerFile, type SqlModule } from './sqlite';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

/** A genuine lab ledger after a keyed retry, then altered by `tamper` (run with the sqlite3 shell's freedom). */
function tampered(tamper: string): Uint8Array {
  let bytes: Uint8Array | null = null;
  runScenarioById('ledger-keyed-retry', { ledger: { sql, save: (saved) => (bytes = saved) } });
  const db = new sql.Database(bytes ?? undefined);
  db.exec(tamper);
  const out = db.export();
  db.close();
  return out;
}

describe('an imported ledger must be exactly the lab schema', () => {
  it('a genuine ledger opens', () => {
    expect(() => LedgerFile.open(sql, tampered('SELECT 1')).close()).not.toThrow();
  });

  const refused: [string, string, RegExp][] = [
    [
      'an extra trigger',
      `CREATE TRIGGER double_charge AFTER INSERT ON effects BEGIN INSERT INTO effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (NEW.operation, NEW.subject, NEW.amount, NEW.tenant, NEW.request_id, NEW.connection, NEW.at_ms); END`,
      /trigger double_charge/,
    ],
    ['an extra view', `CREATE VIEW totals AS SELECT sum(amount) FROM effects`, /view totals/],
    ['an altered table', `ALTER TABLE effects ADD COLUMN note TEXT`, /table effects/],
    ['an extra table', `CREATE TABLE notes (x)`, /table notes/],
    ['a non-JSON result_json', `UPDATE idempotency_keys SET result_json = 'not json {'`, /result_json/],
    ['a wrong-typed amount', `UPDATE effects SET amount = 'a lot'`, /amount/],
    [
      'a recursive trigger',
      `CREATE TRIGGER forever BEFORE INSERT ON effects BEGIN SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n); END`,
      /trigger forever/,
    ],
  ];
  for (const [what, tamper, detail] of refused) {
    it(`refuses ${what} with LAB010, leaving the bytes untouched`, () => {
      const bytes = tampered(tamper);
      const copy = bytes.slice();
      let error: unknown;
      try {
        LedgerFile.open(sql, bytes).close();
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: 'LAB010' });
      expect(String((error as Error).message)).toMatch(detail);
      expect(bytes).toEqual(copy);
    });
  }

  it("refuses a file that fails PRAGMA integrity_check, though its schema text is the lab's", () => {
    // Point the idempotency key index at another table's index pages: the schema reads the same, the b-trees disagree.
    const db = new sql.Database(tampered(`INSERT INTO executions (operation, count) VALUES ('zzz', 1)`));
    const root = db.exec(`SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_executions_1'`)[0]
      ?.values[0]?.[0];
    db.exec(
      `PRAGMA writable_schema=ON; UPDATE sqlite_master SET rootpage = ${String(root)} WHERE name = 'sqlite_autoindex_idempotency_keys_1'; PRAGMA writable_schema=OFF`,
    );
    const broken = db.export();
    db.close();
    expect(() => LedgerFile.open(sql, broken)).toThrow(/LAB010.*integrity/);
  });

  it('opens connections with trusted_schema=OFF', () => {
    const file = LedgerFile.open(sql, null);
    const connection = file.connect('probe');
    const result = connection.run('PRAGMA trusted_schema');
    expect(result).toMatchObject({ ok: true, rows: [{ trusted_schema: 0 }] });
    file.close();
  });
});
