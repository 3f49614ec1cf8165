import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import { EXECUTE_INTERFACE } from './ledger';
import { ledgerComponents } from './ledgerProgram';

const STARTER = `// Exercise: the practice lab, reserve_inventory (docs/requirements.md#the-practice-lab-reserve_inventory-lg-p, LG-P1 … LG-P10), in SQL on real SQLite.
// The idempotency key is an application contract, not part of MCP: the protocol has only the
// idempotentHint tool annotation, a hint.
//
// reserve_inventory reserves stock: { sku, quantity, tenant, paymentToken }. The payment token only
// travels with the call for a later step. A reservation's response can be lost after it committed;
// the client then either retries with the same key or first reads the ledger by key
// (get_mutation_by_key reads ledger.idempotency_keys and hands back result_json, parsed).
//
${EXECUTE_INTERFACE}
//
// The lab checks, in every ordering of the practice lab's scenarios (inventory-race,
// inventory-changed-quantity, inventory-key-binding, inventory-reconcile, inventory-reopen-reconcile):
//   - two connections racing on one key reserve once;
//   - the key binds the operation, SKU, quantity and tenant: other values under it are refused;
//   - the same key with the same arguments (in any member order) gets the first reservation back;
//   - the payment token is never written to the ledger (not in a fingerprint, not in a result);
//   - a reservation committed before its response was lost is found by its key (result_json holds
//     the result as JSON), before and after the ledger file is closed and reopened.
//
// This starter is the failure mode "key reused with changed arguments": it records no fingerprint,
// so one key stands for whatever was first reserved under it. Bind the key to its intent.

export function* execute(key, args, effect) {
  for (let attempt = 1; ; attempt += 1) {
    const begin = yield { sql: 'BEGIN IMMEDIATE', params: [] };
    if (begin.ok) break;
    if (begin.code !== 'SQLITE_BUSY') return { status: 'failed', code: begin.code, reason: begin.message };
    if (attempt >= 50) return { status: 'rejected', code: 'IDEMPOTENCY_KEY_IN_FLIGHT', reason: 'the ledger stayed locked' };
    yield { waitMs: 2 };
  }
  if (key !== null) {
    const found = yield { sql: 'SELECT result_json FROM ledger.idempotency_keys WHERE key = ?', params: [key] };
    const row = found.ok ? found.rows[0] : undefined;
    if (row !== undefined) {
      yield { sql: 'ROLLBACK', params: [] };
      return { status: 'replayed', result: JSON.parse(row.result_json) };
    }
  }
  const done = yield effect;
  if (!done.ok) {
    yield { sql: 'ROLLBACK', params: [] };
    return { status: 'failed', code: done.code, reason: done.message };
  }
  if (key !== null) {
    yield {
      sql: 'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      params: [key, effect.operation, '', JSON.stringify(done.result), effect.requestId, effect.connection, effect.atMs],
    };
  }
  yield { sql: 'COMMIT', params: [] };
  return { status: 'executed', result: done.result };
}
`;

const EVENTS_MAX = 3_000;
const run = (scenario: string) => ({ scenario, transport: 'http' as const, settings: { eventsMax: EVENTS_MAX } });

export const reserveInventoryExercise: ExerciseDef = {
  id: 'reserve-inventory',
  title: 'The practice lab: reserve_inventory',
  summary:
    'reserve_inventory under an idempotency key, written as SQL on real SQLite: the key bound to the operation, SKU, quantity ' +
    'and tenant (never the payment token), one reservation when two connections race, and a committed reservation whose ' +
    'response was lost found again by its key, also after the ledger file is reopened.',
  exports: ['execute'],
  statements: [
    {
      id: 'one-execution-per-key',
      text: 'Two connections racing on one key reserve the stock once, in every interleaving.',
      requirements: ['LG-P8', 'LG-5'],
    },
    {
      id: 'changed-arguments-refused',
      text: 'The key binds the operation, SKU, quantity and tenant: the same key with another quantity or tenant is refused and reserves nothing.',
      requirements: ['LG-P1', 'LG-P3'],
    },
    {
      id: 'same-arguments-replayed',
      text: 'The same key with the same arguments, in any member order, gets the first reservation back.',
      requirements: ['LG-P2'],
    },
    { id: 'no-secret-stored', text: 'The payment token is never written to the ledger.', requirements: ['LG-P5'] },
    {
      id: 'reconcile-by-key',
      text: 'A reservation that committed but lost its response is found by its key, with its result.',
      requirements: ['LG-P4', 'LG-P10'],
    },
    {
      id: 'survives-reopen',
      text: 'A reservation committed before the ledger file is closed and reopened is found after it.',
      requirements: ['LG-P10', 'LG-7'],
    },
    { id: RUNS_TO_END, text: 'Every ordering runs to its end: no call waits for ever.', requirements: ['LG-5'] },
  ],
  starter: STARTER,
  runs: [
    run('inventory-race'),
    run('inventory-changed-quantity'),
    run('inventory-key-binding'),
    run('inventory-reconcile'),
    run('inventory-reopen-reconcile'),
  ],
  invariantStatements: { 'one-execution-per-key': 'one-execution-per-key' },
  components: (caller) => ledgerComponents(caller),
  sqlite: true,
  javascriptOnly:
    'its execute is a JavaScript generator the lab steps statement by statement, and each call runs in a fresh copy of the module (a replica), which one --cmd process cannot be',
};
