import canonicalize from 'canonicalize';
import { createHash } from 'sha256-uint8array';
import { assert } from '../../core/assert';
import type { JsonObject, JsonValue } from '../../mcp/protocol';
import type { Row, StatementParams, StatementResult } from '../../core/sqlite';

/**
 * MutationLedger (docs/requirements.md#idempotency-ledger-lg, LG-1 … LG-8): the business intent behind a mutating tool call, its
 * idempotency key, the fingerprint of its arguments, and the committed result.
 *
 * A mutation is a *program*: a generator that yields one SQL statement (or a wait) at a time. The
 * model runs each yielded statement as its own scheduler event on a real sql.js connection, so two
 * connections interleave statement by statement exactly as the scheduler's chooser orders them.
 */
export type Operation = 'charge_account' | 'reserve_inventory';

export interface Intent {
  readonly operation: Operation;
  /** The tool arguments without the idempotency key. */
  readonly args: JsonObject;
  readonly key: string | null;
  readonly requestId: string;
  readonly connection: string;
}

export type Step =
  | { readonly sql: string; readonly params: StatementParams; readonly purpose: string }
  | { readonly waitMs: number; readonly reason: string };

export type ProgramResult =
  | { status: 'executed'; resultJson: string }
  | { status: 'replayed'; resultJson: string }
  | {
      status: 'rejected';
      httpAnalogue: 400 | 409 | 422;
      code: 'IDEMPOTENCY_KEY_REUSED' | 'IDEMPOTENCY_KEY_IN_FLIGHT';
      reason: string;
    }
  | { status: 'failed'; executed: boolean; code: string; reason: string };

export type Program = Generator<Step, ProgramResult, StatementResult | undefined>;

/**
 * How an API answers a repeated idempotency key: the lab's default follows the IETF
 * draft; Stripe answers differently; a third kind of ledger simply blocks. Each carries the line the
 * Ledger tab cites.
 */
export type KeyProfileName = 'ietf' | 'stripe' | 'wait';

export interface KeyProfile {
  name: KeyProfileName;
  /** What a request gets while the same key is in flight: an HTTP-like status, or 'wait' (it blocks and replays). */
  inFlightStatus: 409 | 'wait';
  /** What a request gets for the same key with other arguments. */
  reusedStatus: 400 | 422;
  /** How long a stored key is honoured (virtual time); null: for ever. */
  expiresAfterMs: number | null;
  summary: string;
  source: string;
}

export const KEY_PROFILES: Readonly<Record<KeyProfileName, KeyProfile>> = {
  ietf: {
    name: 'ietf',
    inFlightStatus: 409,
    reusedStatus: 422,
    expiresAfterMs: null,
    summary:
      'same key in flight: wait a bounded while (busyAttemptsMax BEGIN IMMEDIATE attempts), then 409 Conflict; same key with other arguments: 422 Unprocessable Content',
    source:
      'IETF draft-ietf-httpapi-idempotency-key-header, “Error Scenarios”: 409 Conflict while the first request is still processed, 422 when the key is reused with a different request payload (https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/)',
  },
  stripe: {
    name: 'stripe',
    inFlightStatus: 409,
    reusedStatus: 400,
    expiresAfterMs: 86_400_000,
    summary:
      'same key in flight: 409 at once (idempotency_key_in_use); same key with other parameters: 400 (idempotency_error); keys may be pruned once 24 hours old, after which the key runs anew',
    source:
      'Stripe API reference, “Idempotent requests” and “Errors” (https://docs.stripe.com/api/idempotent_requests): parameters are compared with the original request; keys can be removed after they are at least 24 hours old',
  },
  wait: {
    name: 'wait',
    inFlightStatus: 'wait',
    reusedStatus: 422,
    expiresAfterMs: null,
    summary:
      'same key in flight: block until the first request commits, then replay its result (no 409; bounded only by eventsMax); other arguments: 422',
    source:
      "No standard: a ledger that serialises on the key (a lock held across the effect) — the IETF draft permits waiting; the wait is bounded only by the run's eventsMax here",
  },
};

export interface ProgramLimits {
  readonly busyRetryMs: number;
  readonly busyAttemptsMax: number;
  /** How a repeated key is answered (default ietf). */
  readonly keyProfile?: KeyProfileName;
  readonly nowMs: () => number;
  /** LG-3; false only for the catalogued failure mode where a reused key replays whatever it stored first. */
  readonly compareFingerprint?: boolean;
}

/** RFC 8785 canonical JSON: one byte sequence per value, whatever the key order. */
export function canonicalJson(value: JsonValue): string {
  const text = canonicalize(value);
  assert(typeof text === 'string', 'canonical JSON of a JSON value');
  return text;
}

/**
 * The arguments a key binds, per operation (LG-P1: SKU, quantity, tenant and — through `operation` —
 * the operation name). Anything else a call carries, such as a payment token passed through for a
 * later step, is neither fingerprinted nor stored (LG-P5).
 */
export const bindingFields: Readonly<Record<Operation, readonly string[]>> = {
  charge_account: ['account', 'cents'],
  reserve_inventory: ['sku', 'quantity', 'tenant'],
};

const boundJson: Readonly<Record<Operation, (member: (name: string) => string) => string>> = {
  charge_account: canonicalRecord(bindingFields.charge_account),
  reserve_inventory: canonicalRecord(bindingFields.reserve_inventory),
};
const fingerprintJson = canonicalRecord(['operation', 'arguments'] as const);

/** LG-2: SHA-256 of the canonical JSON of the operation name and its bound arguments (never the key). */
export function fingerprint(operation: Operation, args: JsonObject): string {
  assert(!('idempotencyKey' in args), 'the fingerprint excludes the idempotency key');
  for (const field of bindingFields[operation]) assert(args[field] !== undefined, () => `${operation} needs ${field}`);
  const bound = boundJson[operation]((field) => canonicalJson(args[field] as JsonValue));
  const text = fingerprintJson((member) => (member === 'operation' ? canonicalJson(operation) : bound));
  const known = FINGERPRINTS.get(text);
  if (known !== undefined) return known;
  // sha256-uint8array hashes the string's UTF-8 bytes itself (no encoder, no copy) and writes the hex.
  const hex = createHash().update(text).digest('hex');
  if (FINGERPRINTS.size >= FINGERPRINTS_MAX) FINGERPRINTS.clear();
  FINGERPRINTS.set(text, hex);
  return hex;
}

/**
 * The SHA-256 of each canonical text `fingerprint` hashed lately: a run hashes the same few intents
 * (the explorer, every ordering's), and the hash is a function of the text alone.
 */
const FINGERPRINTS = new Map<string, string>();
const FINGERPRINTS_MAX = 256;

/**
 * RFC 8785 canonical JSON of an object whose member names are fixed and always present. JCS orders
 * members by the UTF-16 code units of their names (what `Array.prototype.sort` does) and writes each
 * name and value in canonical form: here the names are sorted and written once, and each call
 * writes only the values, each by canonicalize. The text is `canonicalJson` of the same object.
 */
export function canonicalRecord<K extends string>(names: readonly K[]): (member: (name: K) => string) => string {
  const sorted = [...names].sort();
  if (sorted.length === 0) return () => '{}';
  const prefixes = sorted.map((name, i) => `${i === 0 ? '{' : ','}${canonicalJson(name)}:`);
  return (member) => {
    let text = '';
    for (let i = 0; i < sorted.length; i += 1) text += (prefixes[i] as string) + member(sorted[i] as K);
    return `${text}}`;
  };
}

/** The operation's effect on the business tables: what "running the mutation" means here. */
export function effectRow(intent: Intent): { subject: string; amount: number; tenant: string | null } {
  const a = intent.args;
  if (intent.operation === 'charge_account')
    return { subject: String(a.account), amount: Number(a.cents), tenant: null };
  return {
    subject: String(a.sku),
    amount: Number(a.quantity),
    tenant: a.tenant === undefined ? null : String(a.tenant),
  };
}

const chargeResultJson = canonicalRecord(['chargeId', 'account', 'cents', 'status'] as const);
const reserveResultJson = canonicalRecord(['reservationId', 'sku', 'quantity', 'tenant', 'status'] as const);

/**
 * LG-P5: the stored and returned result holds identifiers and quantities only, never secrets or
 * payment data (no card numbers, tokens or credentials ever enter the ledger). Returned as its
 * canonical JSON, the text stored and handed out.
 */
export function resultJsonFor(intent: Intent, effectId: number): string {
  const a = intent.args;
  if (intent.operation === 'charge_account') {
    const result = {
      chargeId: `ch_${effectId}`,
      account: String(a.account),
      cents: Number(a.cents),
      status: 'captured',
    };
    return chargeResultJson((name) => canonicalJson(result[name]));
  }
  const result = {
    reservationId: `res_${effectId}`,
    sku: String(a.sku),
    quantity: Number(a.quantity),
    tenant: String(a.tenant),
    status: 'reserved',
  };
  return reserveResultJson((name) => canonicalJson(result[name]));
}

const SELECT_KEY = 'SELECT operation, fingerprint, result_json FROM ledger.idempotency_keys WHERE key = ?';
/** keyProfile=stripe also reads the key's age: keys expire. */
const SELECT_KEY_WITH_AGE =
  'SELECT operation, fingerprint, result_json, committed_at_ms FROM ledger.idempotency_keys WHERE key = ?';
const DELETE_KEY = 'DELETE FROM ledger.idempotency_keys WHERE key = ?';
export const INSERT_EFFECT =
  'INSERT INTO ledger.effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING effect_id';
export const COUNT_EXECUTION =
  'INSERT INTO ledger.executions (operation, count) VALUES (?, 1) ON CONFLICT(operation) DO UPDATE SET count = count + 1';
const INSERT_KEY =
  'INSERT INTO ledger.idempotency_keys (key, operation, fingerprint, result_json, request_id, connection, committed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)';

function mustSucceed(
  result: StatementResult | undefined,
): Extract<StatementResult, { ok: true }> | Extract<StatementResult, { ok: false }> {
  assert(result !== undefined, 'a statement step is answered with its result');
  return result;
}

function storedOutcome(
  intent: Intent,
  row: Row,
  fp: string,
  compareFingerprint = true,
  profile: KeyProfileName = 'ietf',
): ProgramResult {
  if (row.fingerprint === fp && row.operation === intent.operation)
    return { status: 'replayed', resultJson: String(row.result_json) };
  // a catalogued failure mode: without the comparison one key aliases two intents; the other intent gets the first one's result.
  if (!compareFingerprint) return { status: 'replayed', resultJson: String(row.result_json) };
  return {
    status: 'rejected',
    httpAnalogue: KEY_PROFILES[profile].reusedStatus,
    code: 'IDEMPOTENCY_KEY_REUSED',
    reason: `key "${intent.key ?? ''}" was first used for ${String(row.operation)} with other arguments (fingerprint ${String(row.fingerprint).slice(0, 12)}…, this request ${fp.slice(0, 12)}…); nothing was executed`,
  };
}

/**
 * LG-4 done right: key check, business effect, execution counter and stored result commit in ONE
 * `BEGIN IMMEDIATE` transaction. A request whose key is held by the other connection's open
 * transaction gets SQLITE_BUSY, waits on the virtual clock and retries; once the other commits it
 * finds the stored record and replays it (IETF Idempotency-Key draft: wait for the in-flight
 * request, then return its result). If the wait exceeds its bound it answers 409-like. Without a key
 * (LG-1) the same transaction runs with no check at all: every request executes.
 */
export function* atomicMutation(intent: Intent, limits: ProgramLimits): Program {
  const profile = limits.keyProfile ?? 'ietf';
  const locked = yield* claimWriteLock(intent, limits, profile);
  if (locked !== null) return locked;
  const fp = fingerprint(intent.operation, intent.args);
  if (intent.key !== null) {
    const found = mustSucceed(
      yield {
        sql: KEY_PROFILES[profile].expiresAfterMs === null ? SELECT_KEY : SELECT_KEY_WITH_AGE,
        params: [intent.key],
        purpose: 'is this business intent already recorded?',
      },
    );
    if (!found.ok) return yield* rollback(found);
    const row = found.rows[0];
    const expiresAfterMs = KEY_PROFILES[profile].expiresAfterMs;
    if (
      row !== undefined &&
      expiresAfterMs !== null &&
      limits.nowMs() - Number(row.committed_at_ms) >= expiresAfterMs
    ) {
      // Stripe prunes keys once they are 24 hours old: the old record no longer counts, and the call runs anew.
      const pruned = mustSucceed(
        yield {
          sql: DELETE_KEY,
          params: [intent.key],
          purpose: `the key is ${limits.nowMs() - Number(row.committed_at_ms)} ms old, past the ${expiresAfterMs} ms it is kept: it expired and is pruned`,
        },
      );
      if (!pruned.ok) return yield* rollback(pruned);
    } else if (row !== undefined) {
      mustSucceed(yield { sql: 'ROLLBACK', params: [], purpose: 'nothing to write: the key is recorded' });
      return storedOutcome(intent, row, fp, limits.compareFingerprint, profile);
    }
  }
  const effect = effectRow(intent);
  const inserted = mustSucceed(
    yield {
      sql: INSERT_EFFECT,
      params: [
        intent.operation,
        effect.subject,
        effect.amount,
        effect.tenant,
        intent.requestId,
        intent.connection,
        limits.nowMs(),
      ],
      purpose: 'the business effect',
    },
  );
  if (!inserted.ok) return yield* rollback(inserted);
  const effectId = Number(inserted.rows[0]?.effect_id);
  const counted = mustSucceed(
    yield { sql: COUNT_EXECUTION, params: [intent.operation], purpose: 'count the execution' },
  );
  if (!counted.ok) return yield* rollback(counted);
  const resultJson = resultJsonFor(intent, effectId);
  if (intent.key !== null) {
    const stored = mustSucceed(
      yield {
        sql: INSERT_KEY,
        params: [intent.key, intent.operation, fp, resultJson, intent.requestId, intent.connection, limits.nowMs()],
        purpose: 'store key, fingerprint and result',
      },
    );
    if (!stored.ok) return yield* rollback(stored);
  }
  const commit = mustSucceed(
    yield {
      sql: 'COMMIT',
      params: [],
      purpose:
        intent.key === null
          ? 'the effect and its execution count become durable together; no key records the intent'
          : 'key claim, effect and result become durable together',
    },
  );
  if (!commit.ok) return yield* rollback(commit);
  return { status: 'executed', resultJson };
}

/**
 * `BEGIN IMMEDIATE`, retried on SQLITE_BUSY after a wait on the virtual clock: null once the lock is held,
 * or the request's end when it may not wait (Stripe answers at once; the other profiles give up after
 * `busyAttemptsMax` attempts, the `wait` profile never).
 */
function* claimWriteLock(
  intent: Intent,
  limits: ProgramLimits,
  profile: KeyProfileName,
): Generator<Step, ProgramResult | null, StatementResult | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const begin = mustSucceed(
      yield { sql: 'BEGIN IMMEDIATE', params: [], purpose: `claim the write lock (attempt ${attempt})` },
    );
    if (begin.ok) return null;
    if (begin.code !== 'SQLITE_BUSY')
      return { status: 'failed', executed: false, code: begin.code, reason: begin.message };
    if (profile === 'stripe' && intent.key !== null) {
      return {
        status: 'rejected',
        httpAnalogue: 409,
        code: 'IDEMPOTENCY_KEY_IN_FLIGHT',
        reason:
          'another request with this key is in progress (Stripe: idempotency_key_in_use); retry later with the same key',
      };
    }
    if (profile !== 'wait' && attempt >= limits.busyAttemptsMax) {
      return {
        status: 'rejected',
        httpAnalogue: 409,
        code: 'IDEMPOTENCY_KEY_IN_FLIGHT',
        reason: `the ledger stayed locked by another in-flight request for ${attempt} attempts; retry later with the same key`,
      };
    }
    yield {
      waitMs: limits.busyRetryMs,
      reason: `SQLITE_BUSY: the other connection holds the write transaction; retry in ${limits.busyRetryMs} ms of virtual time`,
    };
  }
}

function* rollback(error: Extract<StatementResult, { ok: false }>): Program {
  yield { sql: 'ROLLBACK', params: [], purpose: 'undo the partial transaction' };
  return { status: 'failed', executed: false, code: error.code, reason: error.message };
}

/**
 * LG-4 done wrong, for the lab to show: check the key, run the mutation, store the result as three
 * separate autocommit steps. Two connections can both see the key missing and both run the effect;
 * the loser's key insert then fails with a constraint error after its effect already committed.
 */
export function* unsafeMutation(intent: Intent, limits: ProgramLimits): Program {
  assert(intent.key !== null, 'the unsafe check-then-act sequence is about keyed requests');
  const fp = fingerprint(intent.operation, intent.args);
  const found = mustSucceed(
    yield { sql: SELECT_KEY, params: [intent.key], purpose: 'check: is the key recorded? (autocommit, holds no lock)' },
  );
  if (!found.ok) return { status: 'failed', executed: false, code: found.code, reason: found.message };
  const row = found.rows[0];
  if (row !== undefined) return storedOutcome(intent, row, fp, limits.compareFingerprint, limits.keyProfile);
  const effect = effectRow(intent);
  const inserted = mustSucceed(
    yield {
      sql: INSERT_EFFECT,
      params: [
        intent.operation,
        effect.subject,
        effect.amount,
        effect.tenant,
        intent.requestId,
        intent.connection,
        limits.nowMs(),
      ],
      purpose: 'act: the business effect (commits on its own)',
    },
  );
  if (!inserted.ok) return { status: 'failed', executed: false, code: inserted.code, reason: inserted.message };
  const effectId = Number(inserted.rows[0]?.effect_id);
  mustSucceed(
    yield { sql: COUNT_EXECUTION, params: [intent.operation], purpose: 'count the execution (commits on its own)' },
  );
  const resultJson = resultJsonFor(intent, effectId);
  const stored = mustSucceed(
    yield {
      sql: INSERT_KEY,
      params: [intent.key, intent.operation, fp, resultJson, intent.requestId, intent.connection, limits.nowMs()],
      purpose: 'store the key and result (too late to prevent a duplicate)',
    },
  );
  if (!stored.ok) {
    return {
      status: 'failed',
      executed: true,
      code: stored.code,
      reason: `the other connection recorded key "${intent.key}" after this one checked it; this request's effect already committed: a duplicate`,
    };
  }
  return { status: 'executed', resultJson };
}
