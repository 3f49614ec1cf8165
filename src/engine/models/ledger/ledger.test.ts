// Proves the sql.js idempotency ledger (docs/requirements.md#idempotency-ledger-lg, LG-1 … LG-8, VF-6 … VF-9) with real SQLite: two independent connections, real BEGIN IMMEDIATE locking, a real file saved and reopened.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadSqlJs } from '../../../cli/sqlite';
import { findScenario, scenarios } from '../../../scenarios/index';
import { runScenario, type LedgerScenario } from '../../scenario';
import { Scheduler, seededChooser } from '../../core/scheduler';
import { SeededRandom } from '../../core/prng';
import { LabError } from '../../core/errors';
import { validateTranscriptMessages } from '../../../testing/mcpSchema';
import type { LabEvent, Transcript } from '../../transcript';
import type { SqlEvent } from './events';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  atomicMutation,
  bindingFields,
  canonicalJson,
  canonicalRecord,
  fingerprint,
  resultJsonFor,
  type Intent,
  type Operation,
  type Program,
  type ProgramResult,
} from './ledger';
import type { JsonObject, JsonValue } from '../../mcp/protocol';
import { LedgerFile, type SqlModule } from '../../core/sqlite';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const ledgerScenarios = scenarios.filter((s): s is LedgerScenario => s.kind === 'ledger');

function run(
  id: string,
  settings: Record<string, unknown> = {},
  extra: { bytes?: Uint8Array | null; save?: (b: Uint8Array) => void } = {},
): Transcript<'ledger'> {
  const scenario = findScenario(id);
  if (scenario.kind !== 'ledger') throw new Error(`${id} is not a ledger scenario`);
  return runScenario(scenario, { settings, ledger: { sql, ...extra } });
}

const sqlEvents = (t: Transcript) => t.events.filter((e): e is SqlEvent => e.kind === 'sql');
const ledgerActions = (t: Transcript) =>
  t.events.filter((e): e is Extract<LabEvent, { kind: 'ledger' }> => e.kind === 'ledger').map((e) => e.action);

describe('every ledger scenario shows its declared outcome, with schema-valid messages', () => {
  for (const scenario of ledgerScenarios) {
    it(scenario.id, () => {
      const t = run(scenario.id);
      expect({ executions: t.outcome.executions, rejected: t.outcome.rejected, replayed: t.outcome.replayed }).toEqual({
        executions: scenario.expected.executions,
        rejected: scenario.expected.rejected,
        replayed: scenario.expected.replayed,
      });
      if (scenario.expected.aliasIntact !== undefined)
        expect(t.outcome.aliasIntact).toBe(scenario.expected.aliasIntact);
      expect(validateTranscriptMessages(t).problems).toEqual([]);
      // executions counts effects that committed: the ledger's own table agrees.
      const committedEffects = sqlEvents(t).filter((e) => e.ok && e.sql.startsWith('INSERT INTO ledger.effects'));
      const rolledBack = t.outcome.responses.filter(
        (r) => r.status === 'failed' && r.body.error !== undefined && !(r.body.error as { executed: boolean }).executed,
      ).length;
      expect(committedEffects.length - rolledBack).toBe(t.outcome.executions);
    });
  }

  it('same seed and settings give a byte-identical transcript', () => {
    for (const scenario of ledgerScenarios)
      expect(JSON.stringify(run(scenario.id))).toBe(JSON.stringify(run(scenario.id)));
  });
});

describe('LG-1 / VF-6 a new JSON-RPC id alone runs the mutation again', () => {
  it('charges twice when the retry carries no key', () => {
    const t = run('ledger-new-id-retry');
    const calls = t.events.filter(
      (e) => e.kind === 'message' && 'method' in e.message && e.message.method === 'tools/call',
    );
    expect(calls.map((c) => (c.kind === 'message' && 'id' in c.message ? c.message.id : null))).toEqual([41, 42]);
    expect(t.events.find((e) => e.kind === 'message' && e.lost === true)).toBeDefined();
    expect(t.outcome.executions).toBe(2);
    expect(t.outcome.responses.map((r) => r.body.chargeId)).toEqual(['ch_1', 'ch_2']);
  });

  it('RT / LG-P6: without a key and without blind retries, the client stops and reconciles instead', () => {
    const t = run('ledger-new-id-retry', { retryWithoutKey: false });
    expect(t.outcome.executions).toBe(1);
    expect(t.outcome.requests).toBe(1);
    expect(ledgerActions(t)).toContain('no-retry');
  });
});

describe('LG-2 the key, a fingerprint of the arguments, and the committed result are stored', () => {
  it('fingerprint is SHA-256 of canonical JSON of operation and arguments, key excluded, order-independent', () => {
    const a = fingerprint('charge_account', { account: 'acct-7', cents: 1200 });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint('charge_account', { cents: 1200, account: 'acct-7' })).toBe(a);
    expect(fingerprint('charge_account', { account: 'acct-7', cents: 1500 })).not.toBe(a);
    expect(fingerprint('reserve_inventory', { sku: 'acct-7', quantity: 1200, tenant: 't' })).not.toBe(a);
    expect(() => fingerprint('reserve_inventory', { account: 'acct-7', cents: 1200 })).toThrow(/needs sku/);
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 0 }] })).toBe('{"a":[2,{"c":0,"d":1}],"b":1}');
  });

  it('property: a fixed-shape record writes the same text as canonicalize of the whole object', () => {
    const json = fc.jsonValue({ stringUnit: 'grapheme' }) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme' }), json, { noNullPrototype: true }), (object) => {
        const names = Object.keys(object);
        expect(canonicalRecord(names)((name) => canonicalJson(object[name] as JsonValue))).toBe(canonicalJson(object));
      }),
    );
  });

  it('property: the fingerprint is SHA-256 (another implementation) of canonicalize({ operation, arguments })', () => {
    const value = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.jsonValue({ stringUnit: 'grapheme' }) as fc.Arbitrary<JsonValue>,
    );
    const args = fc.record({
      account: value,
      cents: value,
      sku: value,
      quantity: value,
      tenant: value,
      paymentToken: value,
    });
    fc.assert(
      fc.property(fc.constantFrom<Operation>('charge_account', 'reserve_inventory'), args, (operation, all) => {
        const bound = Object.fromEntries(
          bindingFields[operation].map((field) => [field, all[field as keyof typeof all]]),
        ) as JsonObject;
        expect(fingerprint(operation, all)).toBe(
          bytesToHex(sha256(utf8ToBytes(canonicalJson({ operation, arguments: bound })))),
        );
      }),
    );
  });

  it('the stored result is the canonical JSON of its identifiers and quantities', () => {
    const intent = (operation: Operation, args: JsonObject): Intent => ({
      operation,
      args,
      key: 'k',
      requestId: '41',
      connection: 'conn-1',
    });
    expect(resultJsonFor(intent('charge_account', { account: 'acct-7', cents: 1200, paymentToken: 'tok_x' }), 3)).toBe(
      canonicalJson({ chargeId: 'ch_3', account: 'acct-7', cents: 1200, status: 'captured' }),
    );
    expect(
      resultJsonFor(
        intent('reserve_inventory', { sku: 'sku-42', quantity: 2, tenant: 'tenant-a', paymentToken: 'tok_x' }),
        9,
      ),
    ).toBe(
      canonicalJson({ reservationId: 'res_9', sku: 'sku-42', quantity: 2, tenant: 'tenant-a', status: 'reserved' }),
    );
  });

  it('stores one row per key with that fingerprint and the result', () => {
    let saved: Uint8Array | null = null;
    run('ledger-keyed-retry', {}, { save: (b) => (saved = b) });
    expect(saved).not.toBeNull();
    const file = LedgerFile.open(sql, saved);
    const rows = file.query('SELECT key, operation, fingerprint, result_json FROM idempotency_keys');
    file.close();
    expect(rows).toEqual([
      {
        key: 'checkout-7',
        operation: 'charge_account',
        fingerprint: fingerprint('charge_account', { account: 'acct-7', cents: 1200 }),
        result_json: '{"account":"acct-7","cents":1200,"chargeId":"ch_1","status":"captured"}',
      },
    ]);
  });
});

describe('LG-3 same key: same arguments replay, other arguments are refused', () => {
  it('replays the stored result and executes nothing', () => {
    const t = run('ledger-keyed-retry');
    expect(t.outcome.responses.map((r) => r.status)).toEqual(['executed', 'replayed']);
    expect(t.outcome.responses[1]?.body).toEqual(t.outcome.responses[0]?.body);
  });

  it('refuses other arguments with a 422-like tool error and no second effect', () => {
    const t = run('ledger-key-mismatch');
    const refusal = t.events.find(
      (e) => e.kind === 'message' && 'result' in e.message && e.message.result.isError === true,
    );
    expect(
      refusal?.kind === 'message' && 'result' in refusal.message ? refusal.message.result.structuredContent : null,
    ).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED', httpAnalogue: 422, executed: false } });
    expect(sqlEvents(t).filter((e) => e.connection === 'conn-2' && e.sql.startsWith('INSERT'))).toEqual([]);
    expect(t.outcome.storedResult).toMatchObject({ cents: 1200 });
  });
});

describe('LG-4 key check, effect, counter and result commit in one BEGIN IMMEDIATE transaction', () => {
  it('the keyed request runs BEGIN IMMEDIATE … COMMIT with everything in between', () => {
    const t = run('ledger-keyed-retry');
    const first = sqlEvents(t)
      .filter((e) => e.requestId === 41)
      .map((e) => e.sql.split(' ').slice(0, 3).join(' '));
    expect(first).toEqual([
      'BEGIN IMMEDIATE',
      'SELECT operation, fingerprint,',
      'INSERT INTO ledger.effects',
      'INSERT INTO ledger.executions',
      'INSERT INTO ledger.idempotency_keys',
      'COMMIT',
    ]);
  });

  it('the unsafe check-then-act sequence executes twice under the same interleaving', () => {
    const t = run('ledger-race-unsafe');
    expect(t.outcome.executions).toBe(2);
    const selects = sqlEvents(t).filter((e) => e.sql.startsWith('SELECT'));
    // Both checks ran before either key was stored: both saw nothing.
    expect(selects.map((e) => e.rows?.length)).toEqual([0, 0]);
    const constraint = sqlEvents(t).find((e) => !e.ok);
    expect(constraint?.error?.code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(sqlEvents(t).some((e) => e.sql === 'BEGIN IMMEDIATE')).toBe(false);
  });
});

describe('LG-5 / VF-7 two independent connections at a barrier: one execution', () => {
  it('the second connection gets SQLITE_BUSY from SQLite itself, waits, then replays', () => {
    const t = run('ledger-race-keyed');
    expect(ledgerActions(t)).toContain('barrier');
    const busy = sqlEvents(t).filter((e) => e.error?.code === 'SQLITE_BUSY');
    expect(busy.length).toBeGreaterThan(0);
    expect(new Set(busy.map((e) => e.connection)).size).toBe(1);
    expect(t.outcome.executions).toBe(1);
    expect(t.outcome.responses[0]?.body).toEqual(t.outcome.responses[1]?.body);
  });

  it('whichever connection wins the lock, exactly one executes (every seeded same-instant order)', () => {
    const winners = new Set<string>();
    for (let seed = 0; seed < 30; seed += 1) {
      const scenario = findScenario('ledger-race-keyed') as LedgerScenario;
      const t = runScenario(scenario, { seed, chooser: seededChooser(new SeededRandom(seed)), ledger: { sql } });
      expect(t.outcome.executions).toBe(1);
      winners.add(t.outcome.responses.find((r) => r.status === 'executed')?.connection ?? '');
    }
    expect([...winners].sort()).toEqual(['conn-1', 'conn-2']);
  });

  it('a lock held past busyAttemptsMax is answered 409-like, with nothing executed by the loser', () => {
    const t = run('ledger-race-keyed', { busyAttemptsMax: 1 });
    expect(t.outcome.executions).toBe(1);
    expect(t.outcome.rejected).toBe(1);
    expect(t.outcome.responses.find((r) => r.status === 'rejected')?.body).toMatchObject({
      error: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT', httpAnalogue: 409 },
    });
  });
});

describe('LG-6 / VF-9 every returned value is rebuilt from stored JSON', () => {
  it('mutating the first returned result changes neither the stored result nor the replay', () => {
    const t = run('ledger-alias');
    expect(ledgerActions(t)).toContain('caller-mutated');
    expect(t.outcome.aliasIntact).toBe(true);
    expect(t.outcome.responses[1]?.body).toMatchObject({ cents: 1200, status: 'captured' });
  });

  it('the failure mode: a shared cached object is corrupted for every later replay', () => {
    const t = run('ledger-alias', { resultCopies: 'shared' });
    expect(t.outcome.aliasIntact).toBe(false);
    expect(t.outcome.responses[1]?.body).toMatchObject({ cents: 0, status: 'redacted-for-log' });
    // The database itself still holds the committed result: the corruption was in memory.
    expect(t.outcome.storedResult).toMatchObject({ cents: 1200, status: 'captured' });
  });
});

describe('LG-7 / VF-8 a committed record survives close and reopen', () => {
  it('the retry after a reopen replays the committed result', () => {
    const t = run('ledger-reopen');
    expect(ledgerActions(t)).toEqual(expect.arrayContaining(['saved', 'closed', 'reopened', 'replayed']));
    expect(t.outcome.responses.map((r) => r.status)).toEqual(['executed', 'replayed']);
  });

  it('a saved file is a standard SQLite database that reopens with its records, across runs', () => {
    let bytes: Uint8Array | null = null;
    run('ledger-keyed-retry', { loseFirstResponse: false }, { save: (b) => (bytes = b) });
    expect(new TextDecoder().decode(bytes!.slice(0, 15))).toBe('SQLite format 3');
    // A second run over the same file: the key is already there, so even request 41 replays.
    const again = run('ledger-keyed-retry', { loseFirstResponse: false }, { bytes });
    expect(again.outcome.executions).toBe(0);
    expect(again.outcome.responses[0]?.status).toBe('replayed');
  });
});

describe('import: a corrupt or foreign file is refused and nothing changes', () => {
  it('garbage bytes', () => {
    expect(() => LedgerFile.open(sql, new TextEncoder().encode('not a database at all, just text'))).toThrow(LabError);
    expect(() => LedgerFile.open(sql, new TextEncoder().encode('not a database at all, just text'))).toThrow(/LAB010/);
  });
  it('a SQLite database that is not a lab ledger', () => {
    const foreign = new sql.Database();
    foreign.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    const bytes = foreign.export();
    foreign.close();
    expect(() => LedgerFile.open(sql, bytes)).toThrow(/LAB010.*not a .*ledger.*customers/);
  });
  it('a failed run does not save', () => {
    let saved = false;
    expect(() => run('ledger-race-keyed', { eventsMax: 10 }, { save: () => (saved = true) })).toThrow(/LAB006/);
    expect(saved).toBe(false);
  });
});

/**
 * The property test drives the ledger's programs directly: N connections × M retries of one intent,
 * interleaved statement by statement by a chooser drawn from the seed.
 */
function race(seed: number, connections: number, retries: number, differentArgs: boolean): ProgramResult[] {
  const file = LedgerFile.open(sql, null);
  const scheduler = new Scheduler({ eventsMax: 200_000, chooser: seededChooser(new SeededRandom(seed)) });
  const results: ProgramResult[] = [];
  const start = (intent: Intent): void => {
    const connection = file.connect(`${intent.connection}/${intent.requestId}`);
    const program: Program = atomicMutation(intent, {
      busyRetryMs: 1,
      busyAttemptsMax: 10_000,
      nowMs: () => scheduler.nowMs,
    });
    const advance = (input: Parameters<Program['next']>[0]): void => {
      const next = program.next(input);
      if (next.done === true) {
        results.push(next.value);
        return;
      }
      const step = next.value;
      if ('waitMs' in step) scheduler.after(step.waitMs, 'server', 'wait', () => advance(undefined));
      else scheduler.after(1, 'server', 'sql', () => advance(connection.run(step.sql, step.params)));
    };
    advance(undefined);
  };
  let n = 0;
  for (let c = 0; c < connections; c += 1) {
    for (let r = 0; r < retries; r += 1) {
      const cents = differentArgs ? 1000 + n : 1200;
      const requestId = String(100 + n);
      n += 1;
      scheduler.at(r, 'client', 'call', () =>
        start({
          operation: 'charge_account',
          args: { account: 'acct-7', cents },
          key: 'same-key',
          requestId,
          connection: `conn-${c}`,
        }),
      );
    }
  }
  scheduler.runUntilIdle();
  const executions = Number(file.query('SELECT COALESCE(SUM(count), 0) AS n FROM executions')[0]?.n);
  file.close();
  expect(results).toHaveLength(connections * retries);
  expect(executions).toBe(results.filter((r) => r.status === 'executed').length);
  return results;
}

describe('property: one key, many connections and retries', () => {
  it('identical arguments → exactly one execution and identical results', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (seed, connections, retries) => {
          const results = race(seed, connections, retries, false);
          expect(results.filter((r) => r.status === 'executed')).toHaveLength(1);
          const bodies = new Set(results.map((r) => ('resultJson' in r ? r.resultJson : r.status)));
          expect(bodies.size).toBe(1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('differing arguments → every request but the first is rejected', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (seed, connections, retries) => {
          const results = race(seed, connections, retries, true);
          expect(results.filter((r) => r.status === 'executed')).toHaveLength(1);
          expect(results.filter((r) => r.status === 'rejected' && r.httpAnalogue === 422)).toHaveLength(
            connections * retries - 1,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('overlapping requests on one server connection', () => {
  // ledger-alias on stdio at latencyJitterMs=50, seed 4: the timer's retry and the replay after the first
  // response reach the server together; one SQLite connection cannot hold two transactions, so the second
  // takes a free connection instead of failing with "cannot start a transaction within a transaction".
  it('the retry and the replay both succeed, each on its own connection, and the stored result stays intact', () => {
    const scenario = findScenario('ledger-alias');
    if (scenario.kind !== 'ledger') throw new Error('ledger-alias is not a ledger scenario');
    const t = runScenario(scenario, {
      transport: 'stdio',
      seed: 4,
      settings: { latencyJitterMs: 50 },
      ledger: { sql },
    });
    expect(
      sqlEvents(t).filter((e) => e.error !== undefined && /within a transaction/.test(e.error.message ?? '')),
    ).toEqual([]);
    expect(t.outcome.failed).toBe(0);
    expect(t.outcome.aliasIntact).toBe(true);
    expect(new Set(t.outcome.responses.map((r) => r.connection)).size).toBeGreaterThan(1);
  });
});
