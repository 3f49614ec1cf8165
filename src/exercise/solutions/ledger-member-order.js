// Planted wrong: atomic, but the fingerprint is JSON.stringify of the arguments as they arrived, not
// canonical JSON: a retry that sends the same arguments in another member order is refused as a reuse.
const ATTEMPTS = 50;
const RETRY_MS = 2;

function* fail(answer) {
  yield { sql: 'ROLLBACK', params: [] };
  return { status: 'failed', code: answer.code, reason: answer.message };
}

export function* execute(key, args, effect) {
  for (let attempt = 1; ; attempt += 1) {
    const begin = yield { sql: 'BEGIN IMMEDIATE', params: [], purpose: 'claim the write lock' };
    if (begin.ok) break;
    if (begin.code !== 'SQLITE_BUSY') return { status: 'failed', code: begin.code, reason: begin.message };
    if (attempt >= ATTEMPTS) return { status: 'rejected', code: 'IDEMPOTENCY_KEY_IN_FLIGHT', reason: 'the ledger stayed locked by another call' };
    yield { waitMs: RETRY_MS, reason: 'SQLITE_BUSY: another connection holds the write lock' };
  }
  const fingerprint = JSON.stringify({ operation: effect.operation, args });
  if (key !== null) {
    const found = yield { sql: 'SELECT fingerprint, result_json FROM ledger.idempotency_keys WHERE key = ?', params: [key], purpose: 'is the key recorded?' };
    if (!found.ok) return yield* fail(found);
    const row = found.rows[0];
    if (row !== undefined) {
      yield { sql: 'ROLLBACK', params: [], purpose: 'nothing to write' };
      if (row.fingerprint !== fingerprint) return { status: 'rejected', code: 'IDEMPOTENCY_KEY_REUSED', reason: 'key "' + key + '" was recorded for other arguments' };
      return { status: 'replayed', result: JSON.parse(row.result_json) };
    }
  }
  const done = yield effect;
  if (!done.ok) return yield* fail(done);
  if (key !== null) {
    const stored = yield {
      sql: 'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      params: [key, effect.operation, fingerprint, JSON.stringify(done.result), effect.requestId, effect.connection, effect.atMs],
      purpose: 'record key, fingerprint and result',
    };
    if (!stored.ok) return yield* fail(stored);
  }
  const commit = yield { sql: 'COMMIT', params: [], purpose: 'key, effect and result become durable together' };
  if (!commit.ok) return yield* fail(commit);
  return { status: 'executed', result: done.result };
}
