// Proves the page's link holds a run's texts to the limits a run takes, and the worker's run request holds
// the parsed values to theirs: a schedule or faults text at its length limit is read whole and parsed,
// one character longer (or one the grammar refuses, or of more faults than a run takes) is refused with a
// notice that names why (never cut short, never sent for the worker to refuse), and the run opens without
// it; whatever the link reads, the run request takes.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { formatFaults, type MessageFault } from '../engine/core/faults';
import {
  FAULTS_CHARS_MAX,
  FAULTS_MAX,
  RUN_SPEC_CHARS_MAX,
  SCHEDULE_CHARS_MAX,
  SCHEDULE_CHOICES_MAX,
} from '../runs/runSpecLimits';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { RunRequestSchema } from '../worker/schemas';
import { idle, manualTicker, whenSettled } from './driver';
import { createRunStore } from './runStore';
import { readLink } from './url';

/** `length` characters of a text of the given shape (the limits count characters, not meaning). */
const textOf = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** An ordering of exactly `length` characters that parses: `c1.` choices, the last one's digits padded. */
function scheduleOf(length: number): string {
  const count = Math.floor((length - 2) / 3);
  return `${'c1.'.repeat(count)}c${'1'.padStart(length - 3 * count - 1, '0')}`;
}

/** Faults of exactly `length` characters that parse: delays on messages 0, 1, 2…, the last ones' ms padded with a 0. */
function faultsOf(length: number): string {
  const parts: string[] = [];
  let used = 0;
  for (let seq = 0; ; seq += 1) {
    const next = `delay:${seq}:86400000`;
    const total = parts.length === 0 ? next.length : used + 1 + next.length;
    if (total > length) break;
    parts.push(next);
    used = total;
  }
  for (let index = parts.length - 1, extra = length - used; extra > 0; index -= 1, extra -= 1)
    parts[index] = `${parts[index]?.replace(':86400000', ':086400000')}`;
  return parts.join(',');
}

/** `count` drops, one per message. */
const drops = (count: number): MessageFault[] => Array.from({ length: count }, (_, seq) => ({ kind: 'drop', seq }));

const runRequest = (extra: { schedule?: unknown; faults?: unknown }) => ({
  type: 'run',
  requestId: 1,
  scenario: 'A',
  transport: 'stdio',
  seed: 1,
  settings: {},
  ledger: 'fresh',
  ...extra,
});
const passes = (extra: { schedule?: unknown; faults?: unknown }) =>
  v.safeParse(RunRequestSchema, runRequest(extra)).success;

describe('the run request takes the ordering and the faults as values, up to a count', () => {
  it('takes SCHEDULE_CHOICES_MAX choices and FAULTS_MAX faults, and refuses one more of either', () => {
    const choices = Array.from({ length: SCHEDULE_CHOICES_MAX + 1 }, () => ({ kind: 'c', value: 1 }));
    expect(passes({ schedule: choices.slice(1) })).toBe(true);
    expect(passes({ schedule: choices })).toBe(false);
    expect(passes({ faults: drops(FAULTS_MAX) })).toBe(true);
    expect(passes({ faults: drops(FAULTS_MAX + 1) })).toBe(false);
  });

  it('refuses faults and choices the grammar could not have written, each naming why', () => {
    const refusal = (extra: { schedule?: unknown; faults?: unknown }) => {
      const result = v.safeParse(RunRequestSchema, runRequest(extra));
      return result.success ? null : result.issues.map((issue) => issue.message).join('; ');
    };
    expect(
      refusal({
        faults: [
          { kind: 'drop', seq: 7 },
          { kind: 'delay', seq: 9, ms: 300 },
        ],
      }),
    ).toBeNull();
    expect(
      refusal({
        faults: [
          { kind: 'drop', seq: 9 },
          { kind: 'drop', seq: 7 },
        ],
      }),
    ).toMatch(/ordered by seq/);
    expect(
      refusal({
        faults: [
          { kind: 'drop', seq: 7 },
          { kind: 'delay', seq: 7, ms: 1 },
        ],
      }),
    ).toMatch(/once/);
    expect(refusal({ faults: [{ kind: 'delay', seq: 7, ms: 86_400_001 }] })).toMatch(/a delay is at most 86400000 ms/);
    expect(refusal({ faults: [{ kind: 'delay', seq: 7 }] })).not.toBeNull();
    expect(refusal({ faults: [{ kind: 'drop', seq: 7, ms: 300 }] })).not.toBeNull();
    expect(refusal({ faults: [{ kind: 'lose', seq: 7 }] })).not.toBeNull();
    expect(refusal({ faults: [{ kind: 'drop', seq: -1 }] })).not.toBeNull();
    expect(refusal({ faults: 'drop:7' })).not.toBeNull();
    expect(refusal({ schedule: [{ kind: 'j', value: 115 }] })).toBeNull();
    expect(refusal({ schedule: [{ kind: 'x', value: 1 }] })).not.toBeNull();
    expect(refusal({ schedule: [{ kind: 'c', value: 1.5 }] })).not.toBeNull();
    expect(refusal({ schedule: 'c1' })).not.toBeNull();
  });
});

describe('the link reader', () => {
  it.each([
    ['schedule', SCHEDULE_CHARS_MAX, scheduleOf],
    ['faults', FAULTS_CHARS_MAX, faultsOf],
  ] as const)('reads a %s text of %i characters whole and refuses a longer one by name', (param, max, textAt) => {
    const whole = textAt(max);
    expect(whole).toHaveLength(max);
    const atLimit = readLink(`?scenario=A&${param}=${encodeURIComponent(whole)}`);
    expect(atLimit?.refused ?? []).toEqual([]);
    const read = atLimit?.[param];
    // Parsed once, and what the link reads the run request takes.
    expect(read?.length).toBeGreaterThan(0);
    expect(passes({ [param]: read })).toBe(true);

    const over = readLink(`?scenario=A&${param}=${encodeURIComponent(textAt(max + 1))}`);
    expect(over?.[param]).toBeUndefined();
    expect(over?.refused).toEqual([
      `The link's ${param} is ${(max + 1).toLocaleString('en')} characters, more than a run reads (${max.toLocaleString('en')}); it was not used.`,
    ]);
    expect(over?.params).toEqual({ scenario: 'A' });
  });

  it('refuses faults a run does not take: more than FAULTS_MAX, or what the grammar refuses, with its message', () => {
    const many = formatFaults(drops(FAULTS_MAX + 1));
    expect(many.length).toBeLessThanOrEqual(FAULTS_CHARS_MAX);
    const over = readLink(`?scenario=A&faults=${many}`);
    expect(over?.faults).toBeUndefined();
    expect(over?.refused).toEqual([
      `The link's faults has ${(FAULTS_MAX + 1).toLocaleString('en')} faults, more than a run takes (${FAULTS_MAX.toLocaleString('en')}); it was not used.`,
    ]);
    expect(readLink('?scenario=A&faults=drop:7,drop:7')?.refused).toEqual([
      "The link's faults=drop:7,drop:7 was not used: LAB023 fault does not fit this run: two faults name message 7; one fault per message.",
    ]);
    expect(readLink('?scenario=A&schedule=x9')?.refused).toEqual([
      expect.stringMatching(/^The link's schedule=x9 was not used: LAB022 .*"x9" \(choice 1\) is not a choice/),
    ]);
  });

  it('marks a Compare run spec longer than the parser reads, so it is refused and never read as a shorter one', () => {
    const link = readLink(`?runA=C:${'x'.repeat(RUN_SPEC_CHARS_MAX)}`);
    expect(link?.view?.runA?.endsWith('…')).toBe(true);
  });
});

describe('a link over a limit opens the run without that part', () => {
  it('runs without the faults and says why, instead of failing the run', async () => {
    const worker = createInProcessWorker();
    const store = createRunStore(() => createLabClient(() => worker), manualTicker());
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

describe('opening a link takes one run where its ordering and faults can be judged before running', () => {
  const open = async (search: string) => {
    const worker = createInProcessWorker();
    const store = createRunStore(() => createLabClient(() => worker), manualTicker());
    await store.getState().init(readLink(search));
    const state = await whenSettled(store, (settled) => idle(settled) && settled.ready);
    const runs = worker.posted.filter((request) => (request as { type: string }).type === 'run').length;
    return { state, runs, notices: state.notices.map((notice) => notice.text) };
  };

  it('one run for a link whose ordering and faults fit, and one for one whose texts do not parse', async () => {
    const fits = await open('?scenario=A&latencyJitterMs=300&schedule=j0.j10.c0.j80');
    expect([fits.runs, fits.state.status, fits.notices]).toEqual([1, 'done', []]);
    expect(fits.state.transcript?.schedule).toBe('j0.j10.c0.j80');
    // Refused as the link is read, with the grammar's messages: no run is spent finding out.
    const unread = await open('?scenario=A&latencyJitterMs=300&schedule=x9&faults=drop');
    expect([unread.runs, unread.state.status]).toEqual([1, 'done']);
    expect(unread.notices).toEqual([
      expect.stringMatching(/^The link's schedule=x9 was not used: LAB022 .* Showing the run without it instead\.$/),
      expect.stringMatching(/^The link's faults=drop was not used: LAB023 .* Showing the run without it instead\.$/),
    ]);
    expect(unread.state.spec).toMatchObject({ settings: { latencyJitterMs: 300 } });
  });

  it('an ordering and faults that both do not fit the run open it without both, its settings kept', async () => {
    // Only running tells: the ordering misfits first (LAB022), then the faults (LAB023): a run for each.
    const misfit = await open('?scenario=A&latencyJitterMs=300&schedule=c9&faults=drop:999');
    expect([misfit.runs, misfit.state.status]).toEqual([3, 'done']);
    expect(misfit.state.spec).toEqual({
      scenario: 'A',
      impl: 'model',
      transport: 'stdio',
      seed: 1,
      settings: { latencyJitterMs: 300 },
    });
    expect(misfit.notices).toEqual([
      expect.stringMatching(/^The link's schedule=c9 is not an ordering of this run: LAB022 /),
      expect.stringMatching(/^The link's faults=drop:999 do not fit this run: LAB023 /),
    ]);
  });
});
