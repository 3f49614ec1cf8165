// The oracle for the explorer's claim "every ordering": a seeded sampler runs many orderings with
// random integer arrival instants anywhere in each message's window (and random same-instant
// choices), knowing nothing of which instants the explorer offers, and every distinct ending it
// reaches must be one of the explorer's. An ending the sampler reaches and the explorer does not is an
// ordering the explorer skipped.
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { findScenario } from '../../scenarios/index';
import { endingOf, explore, parseSchedule, runScenario, SeededRandom, type SqlModule } from '../index';
import type { ArrivalWindow, ExploringChooser } from '../core/scheduler';

/**
 * A chooser that draws every same-instant order, and every arrival among the window's integer instants:
 * one of its ends half the time (where the base latency lines an arrival up with other events exactly),
 * else uniformly.
 */
function sampler(random: SeededRandom): ExploringChooser {
  const choose = (candidates: readonly unknown[]): number => random.int(0, candidates.length - 1);
  return Object.assign(choose, {
    explorer: {
      arrival: (window: ArrivalWindow) => {
        const draw = random.int(0, 3);
        if (draw === 0) return window.earliestMs;
        if (draw === 1) return window.latestMs;
        return random.int(window.earliestMs, window.latestMs);
      },
      observe: () => {},
      attach: () => {},
    },
  });
}

/** The distinct endings `samples` random orderings of the scenario reach (the explorer's `distinct` key). */
function sampledEndings(
  id: string,
  transport: 'stdio' | 'http',
  settings: Record<string, unknown>,
  samples: number,
  seed: number,
  ledger: { sql: SqlModule } | undefined = undefined,
): Set<string> {
  const random = new SeededRandom(seed);
  const endings = new Set<string>();
  for (let sample = 0; sample < samples; sample += 1) {
    let distinct: Record<string, unknown>;
    try {
      distinct = endingOf(
        runScenario(findScenario(id), { transport, settings, chooser: sampler(random), record: false, ledger }),
      );
    } catch (error) {
      // As the explorer does: an ordering that fails is an ending of its own.
      distinct = { error: error instanceof Error ? error.message : String(error) };
    }
    endings.add(JSON.stringify(distinct));
  }
  return endings;
}

/**
 * Scenario, jitter, samples: B and D at 300 ms are where chains of timers hid endings; A and C beside them.
 * B at 100 ms: progress before the user's cancel, the cancellation before the work's completion.
 */
const CASES: [string, number, number][] = [
  ['B', 100, 300],
  ['A', 150, 1000],
  ['A', 300, 1000],
  ['B', 150, 1000],
  ['B', 300, 1000],
  ['C', 150, 1000],
  ['C', 300, 1000],
  ['D', 150, 1000],
  ['D', 300, 1000],
];

describe('every ending a random ordering reaches, the explorer reaches (arrival instants included)', () => {
  for (const [id, jitter, samples] of CASES)
    for (const transport of ['stdio', 'http'] as const)
      it(`${id} on ${transport} at ${jitter} ms of jitter, ${samples} random orderings`, () => {
        const settings = { latencyJitterMs: jitter };
        const explored = new Set(
          explore(findScenario(id), { transport, settings }).endings.map((ending) => JSON.stringify(ending.distinct)),
        );
        const missed = [...sampledEndings(id, transport, settings, samples, 34)].filter(
          (ending) => !explored.has(ending),
        );
        expect(missed).toEqual([]);
      });
});

/**
 * Orderings a random draw seldom or never meets, each with the settings it runs under and (part of) the
 * ending it reaches, which the explorer must reach too.
 *
 * C at 300 ms: every arrival is pinned. It ends at its maximum deadline with progress 4/13 ignored only
 * when the tools/call arrives at exactly 95 ms (`j90`): progress 1/13 must reach the client by its first
 * idle deadline (t + 400 + 5 ≤ 500) and progress 4/13 must be able to reach it no earlier than the
 * maximum deadline (t + 1600 + 5 + 300 ≥ 2000), and each progress in between lands on the idle deadline
 * the one before it reset. The second also lets the cancellation meet the worker's fifth checkpoint, so
 * progress 5/13 is sent and ignored too. The explorer reaches them from the instant where the work's
 * first progress meets the idle deadline armed at the request's start (f − d − latency).
 *
 * B with a short jitter, a late cancel and three chunks: the tools/call must arrive late enough that
 * progress 1/3 can reach the client after the user's cancel (t ≥ 290 − 165 − 5 − 105 = 15, f − d −
 * latency − jitter) and early enough that progress 2/3 leaves before the cancellation reaches the
 * server (t ≤ 70); found by random arrivals over random settings.
 */
/** The ending at the maximum deadline with these notifications ignored. */
function maxWith(ignored: string[]): Record<string, unknown> {
  return { terminalState: 'timeout-max', clientIgnores: ignored };
}

const SHORT_B = { latencyJitterMs: 105, cancelAtMs: 290, workMs: 365, progressEveryMs: 165 };
const WITNESSES: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
  ['C', { latencyJitterMs: 300 }, 'j90.j0.c1.j100.c1.j200.c1.j300', maxWith(['progress 4/13'])],
  ['C', { latencyJitterMs: 300 }, 'j90.j0.c1.j100.c1.j200.c1.j300.c0.j90', maxWith(['progress 4/13', 'progress 5/13'])],
  ['B', SHORT_B, 'j45.j105.j93.j0', { terminalState: 'cancelled', clientIgnores: ['progress 1/3', 'progress 2/3'] }],
  [
    'B',
    SHORT_B,
    'j11.j105.j96.j14.j9',
    { terminalState: 'completed', clientIgnores: ['progress 1/3', 'progress 2/3', 'response #41'] },
  ],
];

/**
 * Orderings random arrivals over random settings found, each on one transport, that need a chain of
 * several chunks of work (docs/orderings-causality.md, "The arrivals a chain of work gives"):
 * - D: the cancellation (sent at 100, by 445) must reach the server after the third checkpoint
 *   (t + 300) and before the work completes (t + 375); the explorer reaches it from the cancellation
 *   landing on the third checkpoint, two chunks past the one queued (q + A).
 * - B: progress 2/3 must reach the client before the user's cancel (t + 300 + 5 ≤ 430: f − S − L, two
 *   chunks) and the work complete after the server sees the disconnect (t + 370 > 435).
 * - C (idle 740, max 2055, progress every 575): the idle deadline progress 2/9 re-arms must fire before
 *   the maximum (p2 < 1315, a tie goes to the maximum) and late enough that the cancellation can reach
 *   the server after checkpoint 4 (p2 + 740 + 335 ≥ t + 2300: now + A − S − L − J).
 * - C (idle 655, max 1520, progress every 390): progress 3/13 must be able to arrive after the maximum
 *   (t + 1170 + 280 ≥ 1520: f − S − L − J, three chunks) and checkpoint 4 run before the cancellation
 *   arrives (t + 1560 ≤ 1800).
 * - C (idle 505, max 1435, progress every 315): progress 1/16 must beat the first idle deadline, the
 *   idle deadline it re-arms fire before progress 2/16 can arrive, and the cancellation that firing sends
 *   be able to arrive after checkpoint 4 (p1 ≥ t + 415: now + A − S − L − J).
 */
const CHAIN_WITNESSES: [string, 'stdio' | 'http', Record<string, unknown>, string, Record<string, unknown>][] = [
  [
    'D',
    'stdio',
    { latencyJitterMs: 340, cancelAtMs: 100, workMs: 375, progressEveryMs: 100 },
    'j69.j340.j0.j6.j0',
    { terminalState: 'cancelled', clientIgnores: ['progress 1/4', 'progress 2/4', 'progress 3/4'] },
  ],
  [
    'B',
    'http',
    { latencyJitterMs: 125, cancelAtMs: 430, workMs: 370, progressEveryMs: 150 },
    'j69.j0.j0.j0',
    { terminalState: 'cancelled', finalResponse: false, clientIgnores: [] },
  ],
  [
    'C',
    'http',
    { latencyJitterMs: 330, idleTimeoutMs: 740, maxTimeoutMs: 2055, progressEveryMs: 575 },
    'j39.j0.j96.j316.j315.j0',
    { terminalState: 'timeout-idle', clientIgnores: ['progress 3/9', 'progress 4/9'] },
  ],
  [
    'C',
    'stdio',
    { latencyJitterMs: 275, idleTimeoutMs: 655, maxTimeoutMs: 1520, progressEveryMs: 390 },
    'j87.j8.j0.j275.j150.j0',
    maxWith(['progress 3/13', 'progress 4/13']),
  ],
  [
    'C',
    'http',
    { latencyJitterMs: 335, idleTimeoutMs: 505, maxTimeoutMs: 1435, progressEveryMs: 315 },
    'j0.j136.j335.j335.j335.j335',
    { terminalState: 'timeout-idle', clientIgnores: ['progress 2/16', 'progress 3/16', 'progress 4/16'] },
  ],
];

describe('every ending an ordering with pinned arrivals reaches, the explorer reaches', () => {
  const explored = new Map<string, string[]>();
  const endingsExplored = (id: string, transport: 'stdio' | 'http', settings: Record<string, unknown>): string[] => {
    const key = `${id} ${transport} ${JSON.stringify(settings)}`;
    let endings = explored.get(key);
    if (endings === undefined) {
      endings = explore(findScenario(id), { transport, settings }).endings.map((ending) =>
        JSON.stringify(ending.distinct),
      );
      explored.set(key, endings);
    }
    return endings;
  };
  const witnessed = (
    id: string,
    transport: 'stdio' | 'http',
    settings: Record<string, unknown>,
    schedule: string,
    reached: Record<string, unknown>,
  ): void => {
    const run = runScenario(findScenario(id), {
      transport,
      settings,
      schedule: parseSchedule(schedule),
      record: false,
    });
    const distinct = endingOf(run);
    // The ordering reaches the ending it is kept for.
    expect(distinct).toMatchObject(reached);
    expect(endingsExplored(id, transport, settings)).toContain(JSON.stringify(distinct));
  };
  for (const transport of ['stdio', 'http'] as const)
    for (const [id, settings, schedule, reached] of WITNESSES)
      it(`${id} on ${transport} with ${JSON.stringify(settings)}: ${schedule}`, () => {
        witnessed(id, transport, settings, schedule, reached);
      });
  for (const [id, transport, settings, schedule, reached] of CHAIN_WITNESSES)
    it(`${id} on ${transport} with ${JSON.stringify(settings)}: ${schedule} (a chain of work)`, () => {
      witnessed(id, transport, settings, schedule, reached);
    }, 60_000);
});

/**
 * Beyond A–D, at jitters whose every ordering the explorer still covers in seconds: the malformed and late
 * cancellations, the ledger's two races on real SQLite, and a durable task's cancel.
 */
const MORE: [string, number, number][] = [
  ['cancel-ignored', 40, 400],
  // At 100 ms the request's arrival must leave room both for progress to reach the client before the
  // user cancels and for the cancellation to reach the server before the work completes.
  ['cancel-ignored', 100, 100],
  ['ledger-race-unsafe', 5, 300],
  ['ledger-race-keyed', 5, 300],
  ['task-cancel-ack', 5, 300],
];

describe('every ending a random ordering reaches, the explorer reaches: the other races', () => {
  let ledger: { sql: SqlModule };
  beforeAll(async () => {
    ledger = { sql: await initSqlJs() };
  });
  for (const [id, jitter, samples] of MORE)
    for (const transport of ['stdio', 'http'] as const)
      it(`${id} on ${transport} at ${jitter} ms of jitter, ${samples} random orderings`, () => {
        const settings = { latencyJitterMs: jitter };
        const result = explore(findScenario(id), { transport, settings, ledger });
        expect(result.complete).toBe(true);
        const explored = new Set(result.endings.map((ending) => JSON.stringify(ending.distinct)));
        const missed = [...sampledEndings(id, transport, settings, samples, 34, ledger)].filter(
          (ending) => !explored.has(ending),
        );
        expect(missed).toEqual([]);
      }, 60_000);
});
