/**
 * Ledger benchmark (a script, not a test): keyed mutations per second through the MutationLedger's
 * atomic program on a real sql.js connection, next to raw sql.js prepared statements running the same
 * SQL with the same values in the same process, and their ratio (the cost of the program, the
 * connection's row handling, fingerprinting and canonical JSON).
 *
 * Method: one untimed warm-up run of each (the first run in a process pays for JIT compilation),
 * then REPEATS rounds that alternate which of the two goes first, each on a fresh ledger file; the
 * median of each. Wall time is the figure; CPU time (process.cpuUsage) is printed beside it, as a
 * cross-check on a machine other processes load. Both leave byte-identical ledger files: checked.
 */
import { atomicMutation, fingerprint, type Program } from '../src/engine';
import { LedgerFile } from '../src/engine';
import { loadSqlJs } from '../src/cli/sqlite';
import { budgetMark, budgetSummary } from './budget';

const MUTATIONS = 20_000;
const WARMUP = 2_000;
const REPEATS = 5;
const sql = await loadSqlJs();

interface Timing {
  wallMs: number;
  cpuMs: number;
  /** The ledger file's bytes afterwards. */
  bytes: Uint8Array;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function throughLedger(mutations: number): Timing {
  const file = LedgerFile.open(sql, null);
  const connection = file.connect('bench');
  const started = performance.now();
  const cpuStarted = cpuMs();
  for (let i = 0; i < mutations; i += 1) {
    const program: Program = atomicMutation(
      {
        operation: 'charge_account',
        args: { account: 'acct-7', cents: 1200 + i },
        key: `key-${i}`,
        requestId: String(i),
        connection: 'bench',
      },
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
  const timing = { wallMs: performance.now() - started, cpuMs: cpuMs() - cpuStarted };
  const bytes = file.export();
  file.close();
  return { ...timing, bytes };
}

/**
 * The same SQL, byte for byte, with the same values, through raw sql.js prepared statements.
 * `attached`: on a connection to a lab ledger file, as the program runs it (the file lives in sql.js's
 * in-memory file system, which each transaction crosses); `memory`: unqualified tables in a
 * connection's own in-memory database, for reference (what the file costs). The fingerprints are
 * computed before the clock starts (hashing is part of what the ratio measures); the stored result is
 * written with a template string, as a hand-written caller would.
 */
function rawStatements(target: 'attached' | 'memory', mutations: number): Timing {
  const file = LedgerFile.open(sql, null);
  const connection = file.connect('raw');
  const db = target === 'attached' ? connection.database : new sql.Database();
  const table = (name: string) => (target === 'attached' ? `ledger.${name}` : name);
  if (target === 'memory') {
    db.exec('PRAGMA journal_mode=MEMORY');
    db.exec(
      `CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, operation TEXT NOT NULL, fingerprint TEXT NOT NULL, result_json TEXT NOT NULL, request_id TEXT NOT NULL, connection TEXT NOT NULL, committed_at_ms INTEGER NOT NULL)`,
    );
    db.exec(
      `CREATE TABLE effects (effect_id INTEGER PRIMARY KEY AUTOINCREMENT, operation TEXT NOT NULL, subject TEXT NOT NULL, amount INTEGER NOT NULL, tenant TEXT, request_id TEXT NOT NULL, connection TEXT NOT NULL, at_ms INTEGER NOT NULL)`,
    );
    db.exec(`CREATE TABLE executions (operation TEXT PRIMARY KEY, count INTEGER NOT NULL)`);
  }
  const begin = db.prepare('BEGIN IMMEDIATE');
  const select = db.prepare(
    `SELECT operation, fingerprint, result_json FROM ${table('idempotency_keys')} WHERE key = ?`,
  );
  const effect = db.prepare(
    `INSERT INTO ${table('effects')} (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING effect_id`,
  );
  const count = db.prepare(
    `INSERT INTO ${table('executions')} (operation, count) VALUES (?, 1) ON CONFLICT(operation) DO UPDATE SET count = count + 1`,
  );
  const key = db.prepare(
    `INSERT INTO ${table('idempotency_keys')} (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const commit = db.prepare('COMMIT');
  const fingerprints = Array.from({ length: mutations }, (_, i) =>
    fingerprint('charge_account', { account: 'acct-7', cents: 1200 + i }),
  );
  const started = performance.now();
  const cpuStarted = cpuMs();
  for (let i = 0; i < mutations; i += 1) {
    begin.run();
    select.bind([`key-${i}`]);
    select.step();
    select.reset();
    effect.bind(['charge_account', 'acct-7', 1200 + i, null, String(i), 'bench', i]);
    effect.step();
    const effectId = effect.get()[0];
    effect.reset();
    count.run(['charge_account']);
    const resultJson = `{"account":"acct-7","cents":${1200 + i},"chargeId":"ch_${String(effectId)}","status":"captured"}`;
    key.run([`key-${i}`, 'charge_account', fingerprints[i] as string, resultJson, String(i), 'bench', i]);
    commit.run();
  }
  const timing = { wallMs: performance.now() - started, cpuMs: cpuMs() - cpuStarted };
  for (const statement of [begin, select, effect, count, key, commit]) statement.free();
  const bytes = target === 'memory' ? db.export() : file.export();
  if (target === 'memory') db.close();
  file.close();
  return { ...timing, bytes };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

const warmLedger = throughLedger(WARMUP);
const warmRaw = rawStatements('attached', WARMUP);
rawStatements('memory', WARMUP);
if (!sameBytes(warmLedger.bytes, warmRaw.bytes))
  throw new Error('the raw baseline did not leave the same ledger file as the program: it is not the same work');

const ledger: Timing[] = [];
const raw: Timing[] = [];
const memory: Timing[] = [];
for (let r = 0; r < REPEATS; r += 1) {
  // Alternate the order, so a drift in the machine's load falls on both sides.
  if (r % 2 === 0) {
    ledger.push(throughLedger(MUTATIONS));
    raw.push(rawStatements('attached', MUTATIONS));
  } else {
    raw.push(rawStatements('attached', MUTATIONS));
    ledger.push(throughLedger(MUTATIONS));
  }
  memory.push(rawStatements('memory', MUTATIONS));
  if (!sameBytes(ledger[r]?.bytes as Uint8Array, raw[r]?.bytes as Uint8Array))
    throw new Error('the raw baseline did not leave the same ledger file as the program');
}
const wall = (timings: Timing[]) => median(timings.map((t) => t.wallMs));
const cpu = (timings: Timing[]) => median(timings.map((t) => t.cpuMs));
const perSecond = (ms: number) =>
  Math.round(MUTATIONS / (ms / 1000))
    .toLocaleString('en-US')
    .padStart(7);
const row = (label: string, timings: Timing[]) =>
  `  ${label.padEnd(42)}${wall(timings).toFixed(1).padStart(8)} ms ${perSecond(wall(timings))} mutations/s   CPU ${cpu(timings).toFixed(1).padStart(7)} ms ${perSecond(cpu(timings))} mutations/CPU-s`;
console.log(
  `bench: ledger, ${MUTATIONS} keyed mutations each (new key every time), sql.js, journal_mode=MEMORY, after a ${WARMUP}-mutation warm-up, median of ${REPEATS} (order alternating)`,
);
console.log(row('MutationLedger atomic program', ledger));
console.log(row('raw sql.js prepared statements, same SQL', raw));
console.log(row('raw, in-memory tables (reference)', memory));
console.log(
  `  ratio ledger/raw: ${(wall(raw) / wall(ledger)).toFixed(3)} wall, ${(cpu(raw) / cpu(ledger)).toFixed(3)} CPU (target >= 0.8; the same SQL and values on the same kind of ledger file, byte-identical files afterwards)${budgetMark('ledger/raw CPU', cpu(raw) / cpu(ledger) >= 0.8)}`,
);
console.log(
  `  ratio ledger/in-memory: ${(wall(memory) / wall(ledger)).toFixed(3)} wall, ${(cpu(memory) / cpu(ledger)).toFixed(3)} CPU`,
);
console.log(budgetSummary('bench, ledger'));
