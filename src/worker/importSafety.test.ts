// Proves the worker refuses an imported ledger that carries code (a trigger) with LAB010 and keeps the stored ledger
// byte for byte, so a kept keyed retry afterwards still charges exactly once.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { LEDGER_FORMAT, SCHEMA, type SqlModule } from '../engine';
import { createLabHost } from './host';
import { memoryLedgerStorage } from './ledgerStorage';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

describe('ledger import is data, not code', () => {
  it('an extra trigger is refused and the stored ledger stays as it was', async () => {
    const storage = memoryLedgerStorage();
    const lab = createLabHost({ sql: Promise.resolve(sql), storage });
    await lab.handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    const stored = await storage.load();
    if (stored === null) throw new Error('the kept run stored nothing');
    const db = new sql.Database(stored);
    db.exec(
      `CREATE TRIGGER twice AFTER INSERT ON effects BEGIN INSERT INTO effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (NEW.operation, NEW.subject, NEW.amount, NEW.tenant, NEW.request_id, NEW.connection, NEW.at_ms); END`,
    );
    const withTrigger = db.export();
    db.close();
    const answer = await lab.handleMessage({ type: 'ledger-import', requestId: 2, bytes: withTrigger });
    expect(answer).toMatchObject({
      type: 'error',
      code: 'LAB010',
      message: expect.stringMatching(/trigger twice.*unchanged/),
    });
    expect(await storage.load()).toEqual(stored);
    const snapshot = await lab.handleMessage({ type: 'ledger-snapshot', requestId: 3 });
    expect(snapshot).toMatchObject({ type: 'ledger', ledger: { effects: [expect.anything()] } });
  });

  it('a UTF-16 ledger with the lab schema is refused at import, and the kept runs go on', async () => {
    const storage = memoryLedgerStorage();
    const lab = createLabHost({ sql: Promise.resolve(sql), storage });
    const db = new sql.Database();
    db.exec('PRAGMA encoding = "UTF-16le"');
    for (const statement of SCHEMA) db.exec(statement);
    db.exec(`INSERT INTO lab_meta (name, value) VALUES ('format', '${LEDGER_FORMAT}')`);
    const utf16 = db.export();
    db.close();
    const answer = await lab.handleMessage({ type: 'ledger-import', requestId: 1, bytes: utf16 });
    expect(answer).toMatchObject({
      type: 'error',
      code: 'LAB010',
      message: expect.stringMatching(/UTF-16le.*unchanged/),
    });
    expect(await storage.load()).toBeNull();
    const run = await lab.handleMessage({
      type: 'run',
      requestId: 2,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    expect(run.type).toBe('transcript');
  });
});
