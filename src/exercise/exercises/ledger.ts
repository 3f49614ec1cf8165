import type { ExerciseDef } from '../exercise';
import { RUNS_TO_END } from '../grade';
import { ledgerComponents } from './ledgerProgram';

/** The interface both ledger exercises share, as the starters document it (a contract). */
export const EXECUTE_INTERFACE = `// Interface (a contract; keep the names):
//   export function* execute(key, args, effect)
//     key     the idempotency key (a string), or null when the call carries none
//     args    the tool's arguments without the key. A retry may send the same arguments with their
//             members in another order: JSON objects have no order
//     effect  the business effect as one SQL statement { sql, params }, with what a record names:
//             effect.operation (the tool), effect.requestId, effect.connection, effect.atMs
//
// execute never touches SQLite itself: it is a generator. It YIELDS one step at a time; the lab runs
// the step on this request's own SQLite connection and resumes the generator with the answer:
//   yield { sql, params }  ->  { ok: true, rows: [{ column: value, … }], changes }
//                              or { ok: false, code: 'SQLITE_BUSY' | 'SQLITE_CONSTRAINT' | …, message }
//   yield effect           ->  { ok: true, rows: [{ effect_id }], changes, result }: result is the
//                              effect's result object, the value to record and hand back
//   yield { waitMs }       ->  undefined, once waitMs of virtual time have passed (after SQLITE_BUSY)
// Each yielded statement is a step of its own: another connection's statements may run between any
// two of yours, and the lab tries every order.
//
// It RETURNS, with every transaction it began ended (COMMIT or ROLLBACK) first:
//   { status: 'executed', result }  the effect committed in this call (result: what the effect answered)
//   { status: 'replayed', result }  the key is recorded for these arguments: the recorded result
//   { status: 'rejected', code: 'IDEMPOTENCY_KEY_REUSED', reason }     recorded for other arguments (422-like)
//   { status: 'rejected', code: 'IDEMPOTENCY_KEY_IN_FLIGHT', reason }  held by a call still in flight (409-like)
//   { status: 'failed', code, reason }                                 anything else
//
// The ledger file, attached to every connection as \`ledger\` (its schema is fixed; every column NOT NULL):
//   ledger.idempotency_keys (key TEXT PRIMARY KEY, operation TEXT, fingerprint TEXT, result_json TEXT,
//                            request_id TEXT, connection TEXT, committed_at_ms INTEGER)
// SQLite: BEGIN IMMEDIATE takes the write lock, or answers SQLITE_BUSY while another connection holds
// it; COMMIT makes everything since BEGIN durable at once; ROLLBACK undoes it.
//
// Your module runs afresh for every call (each may land on another server replica, and a restart
// forgets memory): anything that must last goes into the ledger, committed. There is no Date and no
// Math.random: use effect.atMs for the time.`;

const STARTER = `// Exercise: the idempotency ledger, in SQL on real SQLite (docs/requirements.md#idempotency-ledger-lg, LG-2 … LG-7).
// The idempotency key is an application contract, not part of MCP: the protocol has only the
// idempotentHint tool annotation, a hint.
//
// charge_account charges an account. Its call can reach the server twice: a retry after a lost
// response, or two replicas taking the same call at once on two SQLite connections. The call carries
// an idempotency key. Write the ledger: the business effect runs at most once per key, and every
// other call with that key learns what happened.
//
${EXECUTE_INTERFACE}
//
// The lab checks, in every interleaving of the statements of two connections racing on one key
// (ledger-race-keyed), a retry with other arguments (ledger-key-mismatch) and a retry after the
// ledger file is closed and reopened (ledger-reopen):
//   - the effect runs once per key, whatever the interleaving;
//   - the same key with other arguments is refused (IDEMPOTENCY_KEY_REUSED) and nothing runs;
//   - the same key with the same arguments (in any member order) gets the recorded result back;
//   - a record committed before the ledger is closed and reopened is found after it.
//
// This starter is the failure mode "key check and effect are separate" (check-then-act): it looks
// the key up, then runs the effect and records the key as separate autocommit statements, so two
// connections can both see the key missing and both run the effect. Make it atomic.

/** The arguments' fingerprint: canonical JSON (members sorted), so member order does not matter. */
function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  return '{' + Object.keys(value).sort().map((name) => JSON.stringify(name) + ':' + canonical(value[name])).join(',') + '}';
}

export function* execute(key, args, effect) {
  const fingerprint = canonical({ operation: effect.operation, args });
  if (key !== null) {
    const found = yield { sql: 'SELECT fingerprint, result_json FROM ledger.idempotency_keys WHERE key = ?', params: [key] };
    if (!found.ok) return { status: 'failed', code: found.code, reason: found.message };
    const row = found.rows[0];
    if (row !== undefined) {
      if (row.fingerprint !== fingerprint) return { status: 'rejected', code: 'IDEMPOTENCY_KEY_REUSED', reason: 'key "' + key + '" was recorded for other arguments' };
      return { status: 'replayed', result: JSON.parse(row.result_json) };
    }
  }
  const done = yield effect;
  if (!done.ok) return { status: 'failed', code: done.code, reason: done.message };
  if (key !== null) {
    yield {
      sql: 'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      params: [key, effect.operation, fingerprint, JSON.stringify(done.result), effect.requestId, effect.connection, effect.atMs],
    };
  }
  return { status: 'executed', result: done.result };
}
`;

/** Runs need few events: a program that waits for ever ends at this bound (an ending of its own). */
const EVENTS_MAX = 3_000;

export const ledgerExercise: ExerciseDef = {
  id: 'ledger',
  title: 'The idempotency ledger, in SQL',
  summary:
    'A mutating tool call under an idempotency key, written as the SQL statements the lab runs on real SQLite connections: ' +
    'the key check, the business effect and the record committed in one BEGIN IMMEDIATE transaction, so two connections ' +
    'racing on one key run the effect once, a reused key with other arguments is refused, and the record outlives a reopen.',
  exports: ['execute'],
  statements: [
    {
      id: 'one-execution-per-key',
      text: 'The effect runs once per idempotency key, in every interleaving of two connections racing on it.',
      requirements: ['LG-4', 'LG-5', 'VF-7'],
    },
    {
      id: 'changed-arguments-refused',
      text: 'The same key with other arguments is refused (IDEMPOTENCY_KEY_REUSED) and nothing runs.',
      requirements: ['LG-2', 'LG-3'],
    },
    {
      id: 'same-arguments-replayed',
      text: 'The same key with the same arguments, in any member order, gets the recorded result back and runs nothing.',
      requirements: ['LG-2', 'LG-3', 'RT-1'],
    },
    {
      id: 'survives-reopen',
      text: 'A record committed before the ledger file is closed and reopened is found after it.',
      requirements: ['LG-7', 'LG-8', 'VF-8'],
    },
    { id: RUNS_TO_END, text: 'Every ordering runs to its end: no call waits for ever.', requirements: ['LG-5'] },
  ],
  starter: STARTER,
  runs: [
    { scenario: 'ledger-race-keyed', transport: 'http', settings: { eventsMax: EVENTS_MAX } },
    { scenario: 'ledger-key-mismatch', transport: 'http', settings: { eventsMax: EVENTS_MAX } },
    { scenario: 'ledger-reopen', transport: 'http', settings: { eventsMax: EVENTS_MAX } },
  ],
  invariantStatements: { 'one-execution-per-key': 'one-execution-per-key' },
  components: (caller) => ledgerComponents(caller),
  sqlite: true,
  javascriptOnly:
    'its execute is a JavaScript generator the lab steps statement by statement, and each call runs in a fresh copy of the module (a replica), which one --cmd process cannot be',
};
