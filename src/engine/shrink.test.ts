// Proves the smallest failing ordering: per broken invariant the explorer reports an ordering that
// breaks it with the fewest events (then the earliest break), shrunk from the one it kept, and that
// ordering replays (`run --schedule`) to that break at that step.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { findScenario } from '../scenarios/index';
import { explore, parseSchedule, runScenario, type ExploreResult, type SqlModule } from './index';
import { InvariantChecker, type Seen } from './explore/invariants';
import { shorter, shrinkBreak } from './shrink';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const BUFFER = {
  requests: 2,
  progressPerRequest: 4,
  capacity: 2,
  producerEveryMs: 30,
  consumerEveryMs: 60,
  queue: 'drop-oldest-any',
};

function run(id: string, transport: 'stdio' | 'http', settings: Record<string, unknown>): ExploreResult {
  return explore(findScenario(id), { transport, settings, ledger: { sql } });
}

/** The invariants over the events `run --schedule` records break at `step`. */
function replaysTo(
  id: string,
  transport: 'stdio' | 'http',
  settings: Record<string, unknown>,
  shortest: ExploreResult['shortest'][number],
): void {
  const transcript = runScenario(findScenario(id), {
    transport,
    settings,
    schedule: parseSchedule(shortest.schedule),
    ledger: { sql },
  });
  const checker = new InvariantChecker(transcript.settings);
  for (const event of transcript.events) checker.observe(event as unknown as Seen);
  checker.finish(findScenario(id).kind, transcript.outcome);
  expect(
    checker.found.some((found) => found.invariant === shortest.invariant && found.step === shortest.step),
    `${shortest.invariant} via ${shortest.schedule}`,
  ).toBe(true);
  expect(transcript.events.find((event) => event.seq === shortest.step)?.atMs).toBe(shortest.atMs);
}

describe('the shortest ordering per broken invariant', () => {
  for (const [id, transport, settings] of [
    ['A', 'stdio', { afterCancel: 'respond', latencyJitterMs: 150 }],
    ['A', 'http', { httpCancel: 'post-notification', latencyJitterMs: 150 }],
    ['ledger-race-unsafe', 'http', {}],
    ['buffer-overload', 'stdio', BUFFER],
  ] as const) {
    it(`${id} on ${transport} ${JSON.stringify(settings)}: one per broken invariant, no later than any violation kept, and it replays to its break`, () => {
      const result = run(id, transport, settings);
      const broken = [...new Set(result.violations.map((violation) => violation.invariant))];
      expect(result.shortest.map((shortest) => shortest.invariant)).toEqual(broken);
      for (const shortest of result.shortest) {
        const steps = result.violations.filter((v) => v.invariant === shortest.invariant).map((v) => v.step);
        expect(shortest.step).toBeLessThanOrEqual(Math.min(...steps));
        replaysTo(id, transport, settings, shortest);
      }
    });
  }

  it('the buffer: the merged exploration keeps c0.c0.c0.c1 for final-never-dropped; the report is strictly shorter (three choices, as every ordering run one by one finds)', () => {
    const result = run('buffer-overload', 'stdio', BUFFER);
    const kept = result.violations.find((violation) => violation.invariant === 'final-never-dropped');
    const shortest = result.shortest.find((entry) => entry.invariant === 'final-never-dropped');
    expect(kept?.schedule).toBe('c0.c0.c0.c1');
    expect(shortest?.explored).toBe('c0.c0.c0.c1');
    expect(shortest?.step).toBe(kept?.step);
    expect(shortest?.schedule.split('.').length).toBeLessThanOrEqual(3);
    const measured = { id: 'final-never-dropped', explanation: '', atMs: shortest?.atMs ?? 0 };
    expect(
      shorter(
        { ...measured, schedule: shortest?.schedule ?? '', step: shortest?.step ?? 0 },
        { ...measured, schedule: kept?.schedule ?? '', step: kept?.step ?? 0 },
      ),
    ).toBe(true);
  });

  it('shrinking a long ordering of A over HTTP (the break at event 19) finds one that breaks at event 14', () => {
    const settings = { httpCancel: 'post-notification', latencyJitterMs: 150 };
    const best = shrinkBreak(
      findScenario('A'),
      { transport: 'http', settings },
      {
        id: 'nothing-after-accepted-cancel',
        schedule: 'j0.j150.j80.c1',
        step: 19,
        atMs: Number.MAX_SAFE_INTEGER,
        explanation: '',
      },
    );
    expect(best.step).toBe(14);
    expect(best.schedule).toBe('j150');
  });

  it('the same exploration reports the same shortest orderings, byte for byte', () => {
    const settings = { httpCancel: 'post-notification', latencyJitterMs: 150 };
    expect(JSON.stringify(run('A', 'http', settings).shortest)).toBe(
      JSON.stringify(run('A', 'http', settings).shortest),
    );
  });
});
