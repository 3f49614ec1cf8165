// Proves the retry classification (docs/requirements.md#retry-classification-rt, RT-1) comes from the operation's contract, and that a tool whose idempotentHint says true while its implementation is not idempotent is classified unsafe, with the reason.
import { describe, expect, it } from 'vitest';
import { classify, exposedOperations, retryTable } from './retry';
import { ledgerScopeNotes } from './scope';

const byName = Object.fromEntries(retryTable().map((row) => [row.operation, row]));

describe('retry classes (the RT-1 table of docs/requirements.md)', () => {
  it('safe: a deterministic read retries with a new JSON-RPC id', () => {
    expect(byName.get_account_balance).toMatchObject({
      retryClass: 'safe',
      rule: expect.stringMatching(/new JSON-RPC id/),
      hintWarnings: [],
    });
  });
  it('conditional: a keyed mutation retries with the same key and identical arguments', () => {
    expect(byName.charge_account).toMatchObject({
      retryClass: 'conditional',
      rule: expect.stringMatching(/same idempotency key and identical arguments/),
    });
    expect(byName.reserve_inventory?.retryClass).toBe('conditional');
  });
  it('unsafe: a mutation without business de-duplication is not retried automatically', () => {
    expect(byName.charge_account_legacy).toMatchObject({
      retryClass: 'unsafe',
      rule: expect.stringMatching(/no automatic retry; reconcile first/),
    });
  });
});

describe('RT-1 annotations are hints; the contract decides', () => {
  it('idempotentHint: true on a non-idempotent implementation is still unsafe, and the table says why', () => {
    const row = byName.send_receipt_email;
    expect(exposedOperations.find((o) => o.name === 'send_receipt_email')?.annotations.idempotentHint).toBe(true);
    expect(row?.retryClass).toBe('unsafe');
    expect(row?.hintWarnings).toEqual([expect.stringMatching(/idempotentHint says true.*twice/)]);
  });

  it('flipping a hint never changes the class; changing the contract does', () => {
    const base = exposedOperations.find((o) => o.name === 'charge_account_legacy');
    if (base === undefined) throw new Error('missing operation');
    expect(classify({ ...base, annotations: { idempotentHint: true, readOnlyHint: true } }).retryClass).toBe('unsafe');
    expect(classify({ ...base, contract: { ...base.contract, durableKey: true } }).retryClass).toBe('conditional');
    expect(classify({ ...base, annotations: { readOnlyHint: true } }).hintWarnings).toEqual([
      'readOnlyHint says true, but the operation mutates state',
    ]);
  });
});

describe('LG-8 the lab is honest about the ledger’s scope', () => {
  it('names the outbox, the upstream key, and shared durable storage across replicas', () => {
    const text = ledgerScopeNotes.join(' ');
    expect(text).toMatch(/transactional outbox/);
    expect(text).toMatch(/accept the same idempotency key/);
    expect(text).toMatch(/in-memory or per-replica ledger does not survive a restart/);
  });
});
