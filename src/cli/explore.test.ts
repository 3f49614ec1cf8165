// Proves `lab explore` prints its JSON shape with its field names, says when a bound cut it,
// and that `lab run --schedule` replays the ordering a violation names, byte for byte.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { endingOf, explore, Exploration } from '../engine';
import { findScenario } from '../scenarios/index';
import { durationNote } from './main';
import { estimateAhead, exploreReporting } from './commands/explore';
import { formatDuration } from './commands/shared';

describe('npm run lab -- explore', () => {
  it('--json prints scenario, transport, settings, schedules, states, complete, endings and violations', async () => {
    const { code, out } = await lab('explore', 'A', '--set', 'latencyJitterMs=300', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual([
      'scenario',
      'kind',
      'transport',
      'settings',
      'schedules',
      'states',
      'complete',
      'endings',
      'violations',
      'shortest',
      'verdict',
    ]);
    expect(result.kind).toBe('request-race');
    expect(result.verdict).toBe('none: every invariant holds in every ordering');
    expect(result.scenario).toBe('A');
    expect(result.transport).toBe('stdio');
    expect((result.settings as Record<string, unknown>).latencyJitterMs).toBe(300);
    expect(result.complete).toBe(true);
    const endings = result.endings as { outcome: Record<string, unknown>; count: number; schedule: string }[];
    expect(Object.keys(endings[0] ?? {})).toEqual(['outcome', 'distinct', 'count', 'schedule']);
    expect(endings.reduce((sum, ending) => sum + ending.count, 0)).toBe(result.schedules);
  });

  // One outcome type: an ending's outcome is, field for field, what `run --schedule … --json` prints as
  // the outcome of the ordering the ending names (clientIgnores as objects in both, not summaries in one).
  for (const [id, transport, set] of [
    ['A', 'stdio', 'latencyJitterMs=300'],
    ['C', 'http', 'latencyJitterMs=50'],
    ['ledger-race-keyed', 'stdio', 'latencyJitterMs=5'],
    ['task-cancel-ack', 'stdio', 'latencyJitterMs=5'],
  ] as const) {
    it(`an ending's outcome is the run's outcome for the same ordering: ${id} on ${transport}`, async () => {
      const explored = JSON.parse(
        (await lab('explore', id, '--transport', transport, '--set', set, '--bound', '400', '--json')).out,
      ) as { kind: string; endings: { outcome: Record<string, unknown> | null; schedule: string }[] };
      expect(explored.endings.length).toBeGreaterThan(0);
      for (const ending of explored.endings.slice(0, 4)) {
        const ran = await lab(
          'run',
          id,
          '--transport',
          transport,
          '--set',
          set,
          '--schedule',
          ending.schedule,
          '--json',
        );
        expect(ran.code).toBe(0);
        const transcript = JSON.parse(ran.out) as { kind: string; outcome: Record<string, unknown> };
        expect(transcript.kind).toBe(explored.kind);
        expect(ending.outcome).toEqual(transcript.outcome);
        if (transcript.kind === 'request-race')
          expect((ending.outcome?.clientIgnores as unknown[]).every((ignore) => typeof ignore === 'object')).toBe(true);
      }
    });
  }

  it('the printed replay line keeps the --set the exploration ran with, and runs', async () => {
    const { out } = await lab('explore', 'A', '--transport', 'http', '--set', 'httpCancel=post-notification');
    const line = /replay: npm run lab -- (run .*)/.exec(out)?.[1];
    expect(line).toBeDefined();
    expect(line).toContain('--set httpCancel=post-notification');
    const replayed = await lab(...(line as string).split(' '));
    expect(replayed.code).toBe(0);
  });

  // Every ending's `e.g.` line is a whole command: pasted as it is, it runs that ordering of that very
  // exploration (its transport, seed and settings) and ends as the ending says.
  for (const [id, args] of [
    ['A', ['--set', 'latencyJitterMs=150']],
    ['C', ['--transport', 'http', '--seed', '7', '--set', 'latencyJitterMs=40']],
  ] as const) {
    it(`each ending's printed replay line runs as printed and ends as that ending: explore ${id} ${args.join(' ')}`, async () => {
      const { code, out } = await lab('explore', id, ...args);
      expect(code).toBe(0);
      const endings = [...out.matchAll(/^ +\d+ {2}(\{.*\})\n +e\.g\. npm run lab -- (run .*)$/gm)];
      expect(endings.length).toBe(Number(/endings \((\d+)\):/.exec(out)?.[1]));
      for (const [, distinct, line] of endings) {
        for (const arg of args) expect(line).toContain(arg);
        const replayed = await lab(...(line as string).split(' '), '--json');
        expect(replayed.code, line).toBe(0);
        expect(endingOf(JSON.parse(replayed.out) as Parameters<typeof endingOf>[0]), line).toEqual(
          JSON.parse(distinct as string),
        );
      }
    });
  }

  it('a bound that cut the exploration says "none found in N states, not complete", in the text and the JSON', async () => {
    const text = await lab('explore', 'A', '--set', 'latencyJitterMs=300', '--bound', '3');
    expect(text.out).toContain('violations: none found in 3 states, not complete');
    const json = JSON.parse(
      (await lab('explore', 'A', '--set', 'latencyJitterMs=300', '--bound', '3', '--json')).out,
    ) as { verdict: string; complete: boolean };
    expect(json.complete).toBe(false);
    expect(json.verdict).toBe('none found in 3 states, not complete');
  });

  it('a violation names its invariant, schedule, step and explanation, and run --schedule replays it', async () => {
    const { out } = await lab('explore', 'A', '--transport', 'http', '--set', 'httpCancel=post-notification', '--json');
    const violations = (
      JSON.parse(out) as { violations: { invariant: string; schedule: string; step: number; explanation: string }[] }
    ).violations;
    expect(violations.length).toBeGreaterThan(0);
    const violation = violations[0] as (typeof violations)[number];
    expect(Object.keys(violation)).toEqual(['invariant', 'schedule', 'step', 'explanation']);
    expect(violation.invariant).toBe('nothing-after-accepted-cancel');
    const replay = [
      'run',
      'A',
      '--transport',
      'http',
      '--set',
      'httpCancel=post-notification',
      '--schedule',
      violation.schedule,
      '--json',
    ];
    const first = await lab(...replay);
    const again = await lab(...replay);
    expect(first.code).toBe(0);
    expect(again.out).toBe(first.out);
    const transcript = JSON.parse(first.out) as {
      schedule: string;
      events: { seq: number; kind: string; from?: string }[];
    };
    expect(transcript.schedule).toBe(violation.schedule);
    expect(transcript.events[violation.step]).toMatchObject({ kind: 'message', from: 'server' });
  });

  it('--bound cuts the exploration and says so', async () => {
    const { code, out } = await lab('explore', 'A', '--set', 'latencyJitterMs=300', '--bound', '3');
    expect(code).toBe(0);
    expect(out).toMatch(/NOT complete: the bound cut the exploration/);
    const json = await lab('explore', 'A', '--set', 'latencyJitterMs=300', '--bound', '3', '--json');
    expect((JSON.parse(json.out) as { complete: boolean }).complete).toBe(false);
  });

  it('refuses a bad bound and a schedule that does not fit', async () => {
    const bad = await lab('explore', 'A', '--bound', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--bound takes a whole number/);
    const misfit = await lab('run', 'A', '--schedule', 'c3');
    expect(misfit.code).toBe(1);
    expect(misfit.err).toMatch(/LAB022/);
  });
});

describe('a long exploration on a terminal says how far it got', () => {
  it("every 2 s of wall time a line of states, orderings and violations so far; the result is the exploration's", () => {
    const scenario = findScenario('buffer-overload');
    const lines: string[] = [];
    let clockMs = 0;
    // A clock that moves 500 ms each time it is read: a report falls due every few slices.
    const result = exploreReporting(
      new Exploration(scenario),
      'buffer-overload',
      (line) => lines.push(line),
      () => (clockMs += 500),
    );
    expect(result).toEqual(explore(scenario));
    expect(lines.length).toBeGreaterThan(1);
    const reports = lines.slice(0, -1);
    // Each report rewrites the line and clears what a longer one left (ESC [K).
    expect(
      reports.every(
        (line) =>
          line.endsWith('\u001b[K') &&
          /^\rexploring buffer-overload: [\d,]+ states, [\d,]+ orderings, 0 violations so far in [\d.]+ s; .* \(Ctrl-C stops\)$/.test(
            line.slice(0, -3),
          ),
      ),
    ).toBe(true);
    // This one is over before anything can be guessed.
    expect(reports[0]).toContain('too early to estimate what is left');
    expect(lines.at(-1)).toBe('\n');
    // Not on a terminal: nothing but the result.
    expect(exploreReporting(new Exploration(scenario), 'buffer-overload', null, () => (clockMs += 500))).toEqual(
      result,
    );
  });
});

describe('how long a command ran, and what an exploration has left', () => {
  it('a longer exploration estimates, in its reports, the states and the time ahead', () => {
    const lines: string[] = [];
    let clockMs = 0;
    const scenario = findScenario('D');
    const result = exploreReporting(
      new Exploration(scenario, { settings: { latencyJitterMs: 300 } }),
      'D',
      (line) => lines.push(line),
      () => (clockMs += 1_500),
    );
    expect(result).toEqual(explore(scenario, { settings: { latencyJitterMs: 300 } }));
    const estimates = lines.filter((line) =>
      /; about \d+% explored, roughly [\d,]+ states \(\d[\w .]*\) ahead \(Ctrl-C stops\)/.test(line),
    );
    expect(estimates.length).toBeGreaterThan(3);
  });

  it('formatDuration reads as a person says it', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(298_000)).toBe('4 min 58 s');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
  });

  it('a command that ran 2 s or longer says so when it ends; a quick one says nothing', () => {
    expect(durationNote('verify', 1_999)).toBeNull();
    expect(durationNote('explore', 298_000)).toBe('lab explore: ran 4 min 58 s\n');
    expect(durationNote('\u001b[2Jx', 5_000)).not.toContain('\u001b');
  });

  it('estimateAhead extrapolates the explored share, capped by the bound, and declines when it cannot', () => {
    const progress = { states: 1_000, schedules: 800, violations: 0, fraction: 0.25 };
    expect(estimateAhead(progress, 10_000, 200_000)).toBe('; about 25% explored, roughly 3,000 states (30.0 s) ahead');
    expect(estimateAhead(progress, 10_000, 2_000)).toBe(
      '; about 25% explored, roughly 1,000 states (10.0 s) ahead, where the bound stops it',
    );
    expect(estimateAhead({ ...progress, fraction: 0.001 }, 10_000, 200_000)).toBe(
      '; too early to estimate what is left',
    );
    expect(estimateAhead(progress, 1_000, 200_000)).toBe('; too early to estimate what is left');
  });
});
