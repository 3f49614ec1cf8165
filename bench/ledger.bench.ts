/**
 * Ledger benchmark (a script, not a test): keyed mutations per second through the MutationLedger's
 * atomic program on a real sql.js connection, next to raw sql.js prepared statements running the same
 * SQL in the same process, and their ratio (the cost of the program, fingerprinting and canonical JSON).
 */
import { atomicMutation, fingerprint, type Program } from '../src/engine';
import { LedgerFile } from '../src/engine';
import { loadSqlJs } from '../src/cli/sqlite';

const MUTATIONS = 20_000;
const REPEATS = 3;
const sql = await loadSqlJs();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function throughLedger(): number {
  const file = LedgerFile.open(sql, null);
  const connection = file.connect('bench');
  const started = performance.now();
  for (let i = 0; i < MUTATIONS; i += 1) {
    const program: Program = atomicMutation(
      { operation: 'charge_account', args: { account: 'acct-7', cents: 1200 + i }, key: `key-${i}`, requestId: String(i), connection: 'bench' },
      { busyRetryMs: 1, busyAttemptsMax: 1, nowMs: () => i },
    );
    let next = program.next(undefined);
    while (next.done !== true) {
      const step = next.value;
      if ('waitMs' in step) throw new Error('no contention expected in this benchmark');
      next = program.next(connection.run(step.sql, step.params));
    }
    if (next.value.status !== 'executed') throw new Error(`mutation ${i} ended ${next.value.status}`);
  }
  const elapsedMs = performance.now() - started;
  file.close();
  return elapsedMs;
}

/**
 * The same SQL, byte for byte, through raw sql.js prepared statements. `attached`: on a connection to
 * a lab ledger file, as the program runs it (the file lives in sql.js's in-memory file system, which
 * each transaction crosses); `memory`: unqualified tables in a connection's own in-memory database,
 * for reference (what the file costs).
 */
function rawStatements(target: 'attached' | 'memory'): number {
  const file = LedgerFile.open(sql, null);
  const connection = file.connect('raw');
  const db = target === 'attached' ? connection.database : new sql.Database();
  const table = (name: string) => (target === 'attached' ? `ledger.${name}` : name);
  if (target === 'memory') {
    db.exec('PRAGMA journal_mode=MEMORY');
    db.exec(`CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, operation TEXT NOT NULL, fingerprint TEXT NOT NULL, result_json TEXT NOT NULL, request_id TEXT NOT NULL, connection TEXT NOT NULL, committed_at_ms INTEGER NOT NULL)`);
    db.exec(`CREATE TABLE effects (effect_id INTEGER PRIMARY KEY AUTOINCREMENT, operation TEXT NOT NULL, subject TEXT NOT NULL, amount INTEGER NOT NULL, tenant TEXT, request_id TEXT NOT NULL, connection TEXT NOT NULL, at_ms INTEGER NOT NULL)`);
    db.exec(`CREATE TABLE executions (operation TEXT PRIMARY KEY, count INTEGER NOT NULL)`);
  }
  const begin = db.prepare('BEGIN IMMEDIATE');
  const select = db.prepare(`SELECT operation, fingerprint, result_json FROM ${table('idempotency_keys')} WHERE key = ?`);
  const effect = db.prepare(`INSERT INTO ${table('effects')} (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING effect_id`);
  const count = db.prepare(`INSERT INTO ${table('executions')} (operation, count) VALUES (?, 1) ON CONFLICT(operation) DO UPDATE SET count = count + 1`);
  const key = db.prepare(`INSERT INTO ${table('idempotency_keys')} (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const commit = db.prepare('COMMIT');
  const fp = fingerprint('charge_account', { account: 'acct-7', cents: 1200 });
  const started = performance.now();
  for (let i = 0; i < MUTATIONS; i += 1) {
    begin.run();
    select.bind([`key-${i}`]);
    select.step();
    select.reset();
    effect.bind(['charge_account', 'acct-7', 1200 + i, null, String(i), 'bench', i]);
    effect.step();
    const effectId = effect.get()[0];
    effect.reset();
    count.run(['charge_account']);
    key.run([`key-${i}`, 'charge_account', fp, `{"chargeId":"ch_${String(effectId)}"}`, String(i), 'bench', i]);
    commit.run();
  }
  const elapsedMs = performance.now() - started;
  for (const statement of [begin, select, effect, count, key, commit]) statement.free();
  if (target === 'memory') db.close();
  file.close();
  return elapsedMs;
}

const ledgerMs: number[] = [];
const rawMs: number[] = [];
const memoryMs: number[] = [];
for (let r = 0; r < REPEATS; r += 1) {
  ledgerMs.push(throughLedger());
  rawMs.push(rawStatements('attached'));
  memoryMs.push(rawStatements('memory'));
}
const ledgerRate = MUTATIONS / (median(ledgerMs) / 1000);
const rawRate = MUTATIONS / (median(rawMs) / 1000);
const memoryRate = MUTATIONS / (median(memoryMs) / 1000);
console.log(`bench: ledger, ${MUTATIONS} keyed mutations each (new key every time), sql.js, journal_mode=MEMORY, median of ${REPEATS}`);
console.log(`  MutationLedger atomic program             ${median(ledgerMs).toFixed(1).padStart(9)} ms  ${Math.round(ledgerRate).toLocaleString('en-US').padStart(9)} mutations/s`);
console.log(`  raw sql.js prepared statements, same SQL  ${median(rawMs).toFixed(1).padStart(9)} ms  ${Math.round(rawRate).toLocaleString('en-US').padStart(9)} mutations/s`);
console.log(`  raw, in-memory tables (reference)         ${median(memoryMs).toFixed(1).padStart(9)} ms  ${Math.round(memoryRate).toLocaleString('en-US').padStart(9)} mutations/s`);
console.log(`  ratio ledger/raw: ${(ledgerRate / rawRate).toFixed(3)} (same SQL on the same ledger file; target >= 0.8); ledger/in-memory: ${(ledgerRate / memoryRate).toFixed(3)}`);
