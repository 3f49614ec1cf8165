// Proves the panels' ranges, lists and limits come from the settings specs and the run spec's one limit:
// every slider's window lies inside its setting's range, the policies offered are the herd setting's
// values, the defaults are the scenarios' defaults, and a link's Compare runs are read up to the
// length the run-spec parser accepts (runC as well as runA and runB).
import { describe, expect, it } from 'vitest';
import {
  BACKOFF_POLICIES,
  bufferOverloadDefaults,
  bufferOverloadSettingsSpec,
  herdDefaults,
  herdSettingsSpec,
} from '../engine/index';
import { parseRunSpec, RUN_SPEC_CHARS_MAX } from '../runs/runSpec';
import { createPanelsStore, HERD_POLICIES, SLIDER_RANGES, VIEW_DEFAULTS, applyViewLink } from './panelsStore';
import { readLink } from './url';

const SETTING_OF = {
  bufferCapacity: bufferOverloadSettingsSpec.capacity,
  herdBaseMs: herdSettingsSpec.baseMs,
  herdCapMs: herdSettingsSpec.capMs,
  herdClients: herdSettingsSpec.clients,
} as const;

describe('panel ranges from the settings specs', () => {
  it('every slider window lies inside its setting range', () => {
    for (const [name, range] of Object.entries(SLIDER_RANGES)) {
      const spec = SETTING_OF[name as keyof typeof SETTING_OF];
      expect(range.min, name).toBeGreaterThanOrEqual(spec.min);
      expect(range.max, name).toBeLessThanOrEqual(spec.max);
    }
  });

  it('offers exactly the herd setting policies, and opens on the scenarios defaults', () => {
    expect([...HERD_POLICIES]).toEqual([...BACKOFF_POLICIES]);
    expect([...HERD_POLICIES]).toEqual([...herdSettingsSpec.policy.values]);
    expect(VIEW_DEFAULTS.capacity).toBe(bufferOverloadDefaults.capacity);
    expect(VIEW_DEFAULTS.herdInputs).toMatchObject({
      baseMs: herdDefaults.baseMs,
      capMs: herdDefaults.capMs,
      clients: herdDefaults.clients,
      policy: herdDefaults.policy,
    });
  });

  it('a link policy outside the setting values is refused with the list', () => {
    const store = createPanelsStore({ call: () => new Promise(() => undefined) }, '{}');
    const problems = applyViewLink(store, { herdPolicy: 'linear-jitter' });
    expect(problems).toEqual([
      `The link's herdPolicy=linear-jitter was not used: the policies are ${BACKOFF_POLICIES.join(', ')}. Showing the default instead.`,
    ]);
  });

  it('reads every Compare run of a link up to the run-spec limit', () => {
    const long = `C:${Array.from({ length: 60 }, (_, i) => `s${i}=${i}`).join(',')}`;
    expect(long.length).toBeGreaterThan(200);
    expect(long.length).toBeLessThanOrEqual(RUN_SPEC_CHARS_MAX);
    expect(() => parseRunSpec(long)).not.toThrow();
    const link = readLink(
      `?runA=${encodeURIComponent(long)}&runB=${encodeURIComponent(long)}&runC=${encodeURIComponent(long)}`,
    );
    expect(link?.view).toEqual({ runA: long, runB: long, runC: long });
  });
});
