import { atomicMutation, LedgerFile, type Program } from '../src/engine';
import { loadSqlJs } from '../src/cli/sqlite';
const sql = await loadSqlJs();
const file = LedgerFile.open(sql, null);
const connection = file.connect('bench');
const t0 = performance.now();
for (let i = 0; i < 30000; i += 1) {
  const program: Program = atomicMutation({ operation: 'charge_account', args: { account: 'acct-7', cents: 1200 + i }, key: `key-${i}`, requestId: String(i), connection: 'bench' }, { busyRetryMs: 1, busyAttemptsMax: 1, nowMs: () => i });
  let next = program.next(undefined);
  while (next.done !== true) { const step = next.value; if ('waitMs' in step) throw new Error('x'); next = program.next(connection.run(step.sql, step.params)); }
}
console.log(performance.now() - t0);
