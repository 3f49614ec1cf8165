// Proves the lists the lab offers are the engine's: the reviewer's JSON Schema takes exactly the engine's
// backoff policies and transports (every value either way), the herd setting the Backoff panel drives takes
// the same policies, and the run spec accepts exactly the engine's implementations.
import { describe, expect, it } from 'vitest';
import { BACKOFF_POLICIES, herdSettingsSpec, IMPLEMENTATIONS, TRANSPORTS } from '../engine/settingsSpecs';
import { review, reviewInputSchema } from './reviewer';
import { isImplementation } from './runSpec';
import safe from './examples/safe-charge.json' with { type: 'json' };

const schemaBackoff: readonly string[] = reviewInputSchema.properties.retry.properties.backoff.enum;
const schemaTransport: readonly string[] = reviewInputSchema.properties.transport.enum;

describe('the reviewer schema reads the engine lists', () => {
  it('takes every backoff policy the engine has, and none it lacks', () => {
    for (const policy of BACKOFF_POLICIES) expect(schemaBackoff, policy).toContain(policy);
    for (const value of schemaBackoff) expect(BACKOFF_POLICIES as readonly string[], value).toContain(value);
    expect(schemaBackoff).toHaveLength(BACKOFF_POLICIES.length);
  });

  it('takes every transport the engine has, and none it lacks', () => {
    for (const transport of TRANSPORTS) expect(schemaTransport, transport).toContain(transport);
    for (const value of schemaTransport) expect(TRANSPORTS as readonly string[], value).toContain(value);
    expect(schemaTransport).toHaveLength(TRANSPORTS.length);
  });

  it('answers every engine policy with a review, and a value outside the list with the list', () => {
    for (const policy of BACKOFF_POLICIES) {
      const input = { ...structuredClone(safe), retry: { ...safe.retry, backoff: policy } };
      expect(review(input).ok, policy).toBe(true);
    }
    const wrong = review({ ...structuredClone(safe), retry: { ...safe.retry, backoff: 'linear' } });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.errors).toContainEqual({ field: '/retry/backoff', message: `must be one of ${BACKOFF_POLICIES.map((p) => JSON.stringify(p)).join(', ')}` });
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
