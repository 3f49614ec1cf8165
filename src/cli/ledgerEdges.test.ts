// Proves odd --ledger paths and files end in a catalogued LAB error naming what was wrong, never a raw stack:
// a folder that is a broken link, a name past the file system's limit, a UTF-16 ledger, and integers past
// what JavaScript carries exactly (refused, not rounded: the id a run reports is the id it stored).
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_INTEGER_MAX, LedgerFile, SCHEMA } from '../engine';
import { lab } from './captured';
import { loadSqlJs } from './sqlite';

const tmp = () => mkdtempSync(join(tmpdir(), 'lab-edge-'));

async function editLedger(path: string, sql: string): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(path));
  db.exec(sql);
  writeFileSync(path, db.export());
  db.close();
}

describe('--ledger paths that used to end in a stack trace', () => {
  it('a folder that is a symbolic link to nothing', async () => {
    const dir = tmp();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangle'));
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', join(dir, 'dangle', 'x.sqlite'));
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB012 .*dangle, a symbolic link to nothing; create the folder it points to/),
    });
  });

  it('a 300-character name, and a folder name past the limit', async () => {
    const dir = tmp();
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', join(dir, `${'a'.repeat(300)}.sqlite`));
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB012 .*has a name of 307 bytes; .* at most 250; pick a shorter name/),
    });
    const deep = await lab('run', 'ledger-keyed-retry', '--ledger', join(dir, 'd'.repeat(300), 'x.sqlite'));
    expect(deep).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB012 .*cannot be inspected \(ENAMETOOLONG\)/),
    });
  });
});

describe('ledger files that used to crash or round', () => {
  it('a UTF-16 ledger with the lab schema is refused with LAB010 and left unchanged', async () => {
    const path = join(tmp(), 'utf16.sqlite');
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.exec('PRAGMA encoding = "UTF-16le"');
    for (const statement of SCHEMA) db.exec(statement);
    db.exec(`INSERT INTO lab_meta (name, value) VALUES ('format', 'mcp-reliability-lab/ledger@1')`);
    writeFileSync(path, db.export());
    db.close();
    const before = readFileSync(path);
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB010 .*stores its text as UTF-16le; the lab's ledgers are UTF-8/),
    });
    expect(readFileSync(path)).toEqual(before);
  });

  it('an effect id sequence past 2^53 is refused, not rounded', async () => {
    const path = join(tmp(), 'seq.sqlite');
    expect((await lab('run', 'ledger-new-id-retry', '--ledger', path)).code).toBe(0);
    await editLedger(path, 'UPDATE sqlite_sequence SET seq = 9007199254740993');
    const before = readFileSync(path);
    const r = await lab('run', 'ledger-new-id-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB010 .*sqlite_sequence gives effects its next id after 9007199254740993, beyond/),
    });
    expect(readFileSync(path)).toEqual(before);
  });

  it('an execution count at the 64-bit maximum is refused before a run could turn it into a REAL', async () => {
    const path = join(tmp(), 'count.sqlite');
    expect((await lab('run', 'ledger-new-id-retry', '--ledger', path)).code).toBe(0);
    await editLedger(path, 'UPDATE executions SET count = 9223372036854775807');
    const r = await lab('run', 'ledger-new-id-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB010 .*row\(s\) of executions have a count an integer beyond/),
    });
  });

  it('at the limit, the ids the run reports are the ids it stored', async () => {
    const path = join(tmp(), 'edge.sqlite');
    expect((await lab('run', 'ledger-new-id-retry', '--ledger', path)).code).toBe(0);
    await editLedger(
      path,
      `UPDATE sqlite_sequence SET seq = ${LEDGER_INTEGER_MAX - 10}; UPDATE executions SET count = ${LEDGER_INTEGER_MAX - 10}`,
    );
    const r = await lab('run', 'ledger-new-id-retry', '--ledger', path, '--json');
    expect(r.code, r.err).toBe(0);
    const file = LedgerFile.open(await loadSqlJs(), new Uint8Array(readFileSync(path)));
    const stored = file
      .query(
        `SELECT CAST(effect_id AS TEXT) AS id FROM effects WHERE effect_id > ${LEDGER_INTEGER_MAX - 10} ORDER BY effect_id`,
      )
      .map((row) => String(row.id));
    const count = file.query(`SELECT CAST(count AS TEXT) AS n, typeof(count) AS t FROM executions`);
    file.close();
    expect(stored.length).toBeGreaterThan(0);
    for (const id of stored) expect(r.out).toContain(`ch_${id}`);
    expect(count).toEqual([{ n: String(LEDGER_INTEGER_MAX - 10 + stored.length), t: 'integer' }]);
  });

  it('a stored result that is a JSON string is refused: structuredContent must be an object', async () => {
    const path = join(tmp(), 'string.sqlite');
    expect((await lab('run', 'ledger-keyed-retry', '--ledger', path)).code).toBe(0);
    await editLedger(path, `UPDATE idempotency_keys SET result_json = '"\\u001b]0;PWNED\\u0007\\u001b[31mred"'`);
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(
        /LAB010 .*idempotency_keys have a result_json the lab never writes \(wrong type, or not a JSON object\)/,
      ),
    });
  });

  it('terminal escapes inside a stored result are printed escaped, in the timeline and in JSON', async () => {
    const path = join(tmp(), 'osc.sqlite');
    expect((await lab('run', 'ledger-keyed-retry', '--ledger', path)).code).toBe(0);
    const hostile = JSON.stringify({
      chargeId: '\u001b]0;PWNED\u0007\u001b[31mred\u009b2J',
      account: 'acct-7',
      cents: 1200,
      status: 'captured',
    });
    await editLedger(path, `UPDATE idempotency_keys SET result_json = '${hostile.replace(/'/g, "''")}'`);
    for (const args of [[], ['--json']]) {
      const r = await lab('run', 'ledger-keyed-retry', '--ledger', path, ...args);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/PWNED/);
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    }
    // And --json stays JSON: the stored string comes back exactly (escaped as \u009b, not \x9b).
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path, '--json');
    expect(JSON.stringify(JSON.parse(r.out))).toContain(JSON.stringify('\u001b]0;PWNED\u0007\u001b[31mred\u009b2J'));
  });
});
