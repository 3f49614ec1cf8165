// Proves the reliability reviewer flags each unsafe choice with its reason and failure card (docs/requirements.md#failure-modes-each-runnable-next-to-its-fix), passes a safe design without flags, and answers invalid input field by field.
import { describe, expect, it } from 'vitest';
import unsafe from './examples/unsafe-charge.json' with { type: 'json' };
import safe from './examples/safe-charge.json' with { type: 'json' };
import { review, type Review, type ReviewInput } from './reviewer';

function reviewed(input: unknown): Review {
  const result = review(input);
  if (!result.ok) throw new Error(`unexpectedly invalid: ${JSON.stringify(result.errors)}`);
  return result.review;
}
const withChange = (change: (i: ReviewInput) => void): ReviewInput => {
  const copy = structuredClone(safe) as ReviewInput;
  change(copy);
  return copy;
};
const flaggedFields = (r: Review) => r.flags.filter((f) => f.severity === 'unsafe').map((f) => f.field);

describe('a safe design', () => {
  it('has no unsafe flags, a conditional retry class and all flow-control checks passing', () => {
    const r = reviewed(safe);
    expect(flaggedFields(r)).toEqual([]);
    expect(r.retryClassification.retryClass).toBe('conditional');
    expect(r.flowControl.every((c) => c.ok)).toBe(true);
    expect(r.failureCards).toEqual([]);
    expect(r.raceTable.map((row) => row.ordering)).toEqual([
      'cancellation wins',
      'completion wins',
      'maximum deadline at 2000 ms',
    ]);
    expect(r.raceTable[0]?.wire).toMatch(/closing the request’s SSE response stream/);
  });
});

describe('each unsafe choice is flagged with its reason and card', () => {
  const cases: Array<[string, (i: ReviewInput) => void, string, string]> = [
    [
      'an unsafe mutation retried without a key',
      (i) => ((i.operation.idempotencyKey = false), (i.retry.automatic = true)),
      '/retry/automatic',
      'new-id-as-dedupe',
    ],
    [
      'an HTTP client that POSTs notifications/cancelled',
      (i) => (i.cancellation = 'post-notification'),
      '/cancellation',
      'http-posts-cancel',
    ],
    ['no maximum timeout', (i) => (i.timeouts.maxMs = null), '/timeouts/maxMs', 'progress-resets-every-deadline'],
    [
      'progress resetting the maximum',
      (i) => (i.timeouts.progressResetsMax = true),
      '/timeouts/progressResetsMax',
      'progress-resets-every-deadline',
    ],
    ['an in-memory ledger', (i) => (i.ledger = 'in-memory'), '/ledger', 'in-memory-ledger'],
    [
      'a separate key check',
      (i) => (i.operation.atomicKeyCheck = false),
      '/operation/atomicKeyCheck',
      'separate-key-check',
    ],
    ['no fingerprint', (i) => (i.operation.fingerprint = false), '/operation/fingerprint', 'key-reused-changed-args'],
    [
      'shared result objects',
      (i) => (i.operation.defensiveCopies = false),
      '/operation/defensiveCopies',
      'shared-mutable-result',
    ],
    ['an unbounded queue', (i) => (i.queue.policy = 'unbounded'), '/queue/policy', 'unbounded-queue'],
    [
      'no room kept for the final response',
      (i) => (i.queue.reserveForFinal = false),
      '/queue/reserveForFinal',
      'final-dropped',
    ],
    ['a buffering proxy', (i) => (i.proxy = { bufferingDisabled: false }), '/proxy/bufferingDisabled', 'proxy-buffers'],
    [
      'Last-Event-ID resumption',
      (i) => (i.recovery.lastEventId = true),
      '/recovery/lastEventId',
      'last-event-id-assumed',
    ],
    ['no refetch after a drop', (i) => (i.recovery.refetch = []), '/recovery/refetch', 'last-event-id-assumed'],
    ['retries without backoff', (i) => (i.retry.backoff = 'none'), '/retry/backoff', 'reconnect-herd'],
    [
      'treating a task ack as final',
      (i) => (i.recovery.pollTasksUntilTerminal = false),
      '/recovery/pollTasksUntilTerminal',
      'task-ack-final',
    ],
  ];
  for (const [name, change, field, card] of cases) {
    it(name, () => {
      const r = reviewed(withChange(change));
      const flag = r.flags.find((f) => f.field === field);
      expect(flag?.severity).toBe('unsafe');
      expect(flag?.reason.length).toBeGreaterThan(20);
      expect(flag?.card).toBe(card);
      expect(r.failureCards.map((c) => c.id)).toContain(card);
    });
  }

  it('the all-wrong example collects every card it earns, and the lying idempotentHint is called out', () => {
    const r = reviewed(unsafe);
    expect(r.retryClassification.retryClass).toBe('unsafe');
    expect(r.flags.some((f) => f.field === '/operation/annotations' && /idempotentHint says true/.test(f.reason))).toBe(
      true,
    );
    expect(r.failureCards.length).toBeGreaterThanOrEqual(9);
  });

  it('a remote effect is named as outside the ledger’s boundary', () => {
    const r = reviewed(withChange((i) => (i.operation.remoteEffect = true)));
    expect(r.idempotencyBoundary.join(' ')).toMatch(/transactional outbox/);
  });
});

describe('invalid input is answered field by field', () => {
  it('names every wrong field and what it must be', () => {
    const result = review({
      operation: { name: '', mutates: 'yes' },
      transport: 'tcp',
      timeouts: { idleMs: 0, maxMs: 10 },
      extra: 1,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { field: '/operation/mutates', message: 'must be boolean' },
        { field: '/operation/idempotencyKey', message: 'is required' },
        { field: '/operation/name', message: 'must NOT have fewer than 1 characters' },
        { field: '/transport', message: 'must be one of "stdio", "http"' },
        { field: '/timeouts/idleMs', message: 'must be >= 1' },
        { field: '/extra', message: 'is not a field the reviewer knows' },
        { field: '/recovery', message: 'is required' },
      ]),
    );
  });
  it('refuses a non-object', () => {
    expect(review('charge it twice')).toMatchObject({ ok: false, errors: [{ field: '/', message: 'must be object' }] });
  });
});
