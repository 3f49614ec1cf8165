// Proves the page's link holds a run's texts to the very limits the worker's run request holds them to:
// a schedule or faults text at its limit is read whole, one character longer is refused with a notice that
// names the limit (never cut short, never sent for the worker to refuse), and the run opens without it.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FAULTS_CHARS_MAX, RUN_SPEC_CHARS_MAX, SCHEDULE_CHARS_MAX } from '../lab/runSpecLimits';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { RunRequestSchema } from '../worker/schemas';
import { idle, manualTicker, whenSettled } from './driver';
import { createLabStore } from './labStore';
import { readLink } from './url';

/** `length` characters of a text of the given shape (the limits count characters, not meaning). */
const textOf = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const runRequest = (extra: { schedule?: string; faults?: string }) => ({
  type: 'run',
  requestId: 1,
  scenario: 'A',
  transport: 'stdio',
  seed: 1,
  settings: {},
  ledger: 'fresh',
  ...extra,
});

describe('the worker refuses exactly what the link refuses', () => {
  it.each([
    ['schedule', SCHEDULE_CHARS_MAX, 'c1.'],
    ['faults', FAULTS_CHARS_MAX, 'drop:1,'],
  ] as const)('%s: %i characters pass the run request, one more does not', (param, max, unit) => {
    expect(v.safeParse(RunRequestSchema, runRequest({ [param]: textOf(unit, max) })).success).toBe(true);
    expect(v.safeParse(RunRequestSchema, runRequest({ [param]: textOf(unit, max + 1) })).success).toBe(false);
  });
});

describe('the link reader', () => {
  it.each([
    ['schedule', SCHEDULE_CHARS_MAX, 'c1.'],
    ['faults', FAULTS_CHARS_MAX, 'drop:1,'],
  ] as const)('reads a %s text of %i characters whole and refuses a longer one by name', (param, max, unit) => {
    const whole = textOf(unit, max);
    const atLimit = readLink(`?scenario=A&${param}=${encodeURIComponent(whole)}`);
    expect(atLimit?.[param]).toBe(whole);
    expect(atLimit?.refused ?? []).toEqual([]);

    const over = readLink(`?scenario=A&${param}=${encodeURIComponent(textOf(unit, max + 1))}`);
    expect(over?.[param]).toBeUndefined();
    expect(over?.refused).toEqual([
      `The link's ${param} is ${(max + 1).toLocaleString('en')} characters, more than a run reads (${max.toLocaleString('en')}); it was not used.`,
    ]);
    expect(over?.params).toEqual({ scenario: 'A' });
  });

  it('marks a Compare run spec longer than the parser reads, so it is refused and never read as a shorter one', () => {
    const link = readLink(`?runA=C:${'x'.repeat(RUN_SPEC_CHARS_MAX)}`);
    expect(link?.view?.runA?.endsWith('…')).toBe(true);
  });
});

describe('a link over a limit opens the run without that part', () => {
  it('runs without the faults and says why, instead of failing the run', async () => {
    const worker = createInProcessWorker();
    const store = createLabStore(() => createLabClient(() => worker), manualTicker());
    await store.getState().init(readLink(`?scenario=A&faults=${textOf('drop:1,', FAULTS_CHARS_MAX + 1)}`));
    await whenSettled(store, (state) => idle(state) && state.ready);
    const state = store.getState();
    expect(state).toMatchObject({ status: 'done', error: null, spec: { scenario: 'A' } });
    expect(state.spec.faults).toBeUndefined();
    expect(state.notices.map((notice) => notice.text)).toEqual([
      expect.stringContaining(`more than a run reads (${FAULTS_CHARS_MAX.toLocaleString('en')})`),
    ]);
  });
});
