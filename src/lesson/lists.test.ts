// Proves the lists the lab offers are the engine's: the reviewer's generated validator takes every engine
// backoff policy and transport and answers a value outside the list with the list, the herd setting the
// Backoff panel drives takes the same policies, and the run spec accepts exactly the engine's implementations.
import { describe, expect, it } from 'vitest';
import { BACKOFF_POLICIES, herdSettingsSpec, IMPLEMENTATIONS, TRANSPORTS } from '../engine/settingsSpecs';
import { review } from './reviewer';
import { isImplementation } from '../runs/runSpec';
import safe from './examples/safe-charge.json' with { type: 'json' };

describe('the reviewer schema reads the engine lists', () => {
  it('answers every engine policy with a review, and a value outside the list with the list', () => {
    for (const policy of BACKOFF_POLICIES) {
      const input = { ...structuredClone(safe), retry: { ...safe.retry, backoff: policy } };
      expect(review(input).ok, policy).toBe(true);
    }
    const wrong = review({ ...structuredClone(safe), retry: { ...safe.retry, backoff: 'linear' } });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok)
      expect(wrong.errors).toContainEqual({
        field: '/retry/backoff',
        message: `must be one of ${BACKOFF_POLICIES.map((p) => JSON.stringify(p)).join(', ')}`,
      });
  });

  it('answers every engine transport with a review, and a value outside the list with the list', () => {
    for (const transport of TRANSPORTS)
      expect(review({ ...structuredClone(safe), transport }).ok, transport).toBe(true);
    const wrong = review({ ...structuredClone(safe), transport: 'carrier-pigeon' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok)
      expect(wrong.errors).toContainEqual({
        field: '/transport',
        message: `must be one of ${TRANSPORTS.map((t) => JSON.stringify(t)).join(', ')}`,
      });
  });
});

describe('the other offered lists are the engine lists', () => {
  it('the herd policy setting takes the backoff policies', () => {
    expect([...herdSettingsSpec.policy.values]).toEqual([...BACKOFF_POLICIES]);
  });

  it('the run spec accepts exactly the engine implementations', () => {
    for (const impl of IMPLEMENTATIONS) expect(isImplementation(impl), impl).toBe(true);
    expect(isImplementation('ts-sdk-v3')).toBe(false);
  });
});
