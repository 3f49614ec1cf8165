// Proves the race explorer: correct designs hold in every ordering the network allows,
// each unsafe setting yields a counterexample whose schedule replays to the violating step, the
// latency range yields both endings of the cancel/complete race, and a bound says it cut.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario, scenarios } from '../../scenarios/index';
import type { Settings } from '../core/transcript';
import {
  endingOf,
  explore,
  Exploration,
  LabError,
  parseSchedule,
  runScenario,
  type ExploreResult,
  type SqlModule,
} from '../index';
import { Driver, Stop } from './driver';
import { surveyOf } from '../explorer';
import { INVARIANTS, InvariantChecker, type Seen } from './invariants';
import type { Choice } from '../core/schedule';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

function run(
  id: string,
  options: {
    transport?: 'stdio' | 'http';
    settings?: Record<string, unknown>;
    bound?: number;
    mergeStates?: boolean;
    criticalArrivals?: boolean;
    reduction?: boolean;
  } = {},
): ExploreResult {
  return explore(findScenario(id), { ...options, ledger: { sql } });
}

/** Every violation's schedule replays, byte for byte, to a run that has the violating step. */
function expectReplayable(id: string, result: ExploreResult, settings: Record<string, unknown> = {}): void {
  for (const violation of result.violations) {
    const options = {
      transport: result.transport,
      settings,
      schedule: parseSchedule(violation.schedule),
      ledger: { sql },
    };
    const first = runScenario(findScenario(id), options);
    const again = runScenario(findScenario(id), options);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(first.events.some((event) => event.seq === violation.step)).toBe(true);
  }
}

describe('invariant names', () => {
  it('are the eleven contract names, and causality', () => {
    expect([...INVARIANTS]).toEqual([
      'one-terminal-state',
      'nothing-after-accepted-cancel',
      'progress-increasing',
      'no-progress-after-final',
      'max-deadline-by-start-plus-max',
      'channel-fifo',
      'unique-request-ids',
      'one-execution-per-key',
      'buffer-within-capacity',
      'final-never-dropped',
      'task-terminal-stable',
      'causality',
    ]);
  });
});

describe('correct designs hold in every ordering', () => {
  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${id} on ${transport}: complete, no violation`, () => {
        const result = run(id, { transport });
        expect(result.complete).toBe(true);
        expect(result.violations).toEqual([]);
        expect(result.schedules).toBeGreaterThanOrEqual(1);
        expect(result.endings.reduce((sum, ending) => sum + ending.count, 0)).toBe(result.schedules);
      });
      it(`${id} on ${transport} with latency jitter 150 ms: complete, no violation`, () => {
        const result = run(id, { transport, settings: { latencyJitterMs: 150 } });
        expect(result.complete).toBe(true);
        expect(result.violations).toEqual([]);
        expect(result.schedules).toBeGreaterThan(1);
      });
    }
  }
  it('the keyed ledger race: one execution in every ordering', () => {
    const result = run('ledger-race-keyed');
    expect(result.complete).toBe(true);
    expect(result.violations).toEqual([]);
    expect(result.schedules).toBeGreaterThan(1);
    expect(result.endings.every((ending) => ending.distinct.executions === 1)).toBe(true);
  });
  for (const id of ['task-cancel-ack', 'task-cancel-too-late', 'task-http-close']) {
    it(`${id}: no violation`, () => {
      const result = run(id);
      expect(result.complete).toBe(true);
      expect(result.violations).toEqual([]);
    });
  }
  it('the buffer (two requests, three progress each): complete, no violation', () => {
    const result = run('buffer-overload', { settings: { requests: 2, progressPerRequest: 3 } });
    expect(result.complete).toBe(true);
    expect(result.schedules).toBeGreaterThan(1);
    expect(result.violations).toEqual([]);
  });
  it('the buffer at its defaults: complete (orderings that reach one state are merged), no violation; a bound below it is said', () => {
    const result = run('buffer-overload');
    expect(result.complete).toBe(true);
    expect(result.violations).toEqual([]);
    expect(result.schedules).toBeGreaterThan(result.states);
    const cut = run('buffer-overload', { bound: 100 });
    expect(cut.complete).toBe(false);
    expect(cut.states).toBe(100);
  });
  it('reconnect: complete, no violation', () => {
    const result = run('reconnect-listen');
    expect(result.complete).toBe(true);
    expect(result.violations).toEqual([]);
  });
});

describe('the latency range decides the race', () => {
  it('A with latencyJitterMs=300 ends cancelled in some orderings and completed in others', () => {
    const result = run('A', { settings: { latencyJitterMs: 300 } });
    expect(result.complete).toBe(true);
    const terminals = new Set(result.endings.map((ending) => ending.distinct.terminalState));
    expect(terminals).toEqual(new Set(['cancelled', 'completed']));
    expect(result.violations).toEqual([]);
  });
  it("each ending's schedule replays to that ending", () => {
    const settings = { latencyJitterMs: 300 };
    const result = run('A', { settings });
    for (const ending of result.endings) {
      const transcript = runScenario(findScenario('A'), { settings, schedule: parseSchedule(ending.schedule) });
      expect(endingOf(transcript)).toEqual(ending.distinct);
      expect(transcript.schedule).toBe(ending.schedule);
    }
  });
  it('A at its default latency (no jitter) has one ordering', () => {
    expect(run('A').schedules).toBe(1);
  });
});

describe('each unsafe variant yields a counterexample', () => {
  it('ledger-race-unsafe: two executions for one key', () => {
    const result = run('ledger-race-unsafe');
    expect(result.violations.map((v) => v.invariant)).toContain('one-execution-per-key');
    expect(result.endings.every((ending) => ending.distinct.executions === 2)).toBe(true);
    expectReplayable('ledger-race-unsafe', result);
  });
  it('httpCancel=post-notification: the server keeps working and answers a request the client abandoned', () => {
    const settings = { httpCancel: 'post-notification' };
    const result = run('A', { transport: 'http', settings });
    const violation = result.violations.find((v) => v.invariant === 'nothing-after-accepted-cancel');
    expect(violation?.explanation).toMatch(/answered #41 after it received notifications\/cancelled/);
    expectReplayable('A', result, settings);
  });
  it('afterCancel=respond: the server answers after accepting the cancellation', () => {
    const settings = { afterCancel: 'respond' };
    const result = run('A', { settings });
    expect(result.violations.find((v) => v.invariant === 'nothing-after-accepted-cancel')?.explanation).toMatch(
      /answered #41 after it accepted the cancellation/,
    );
    expectReplayable('A', result, settings);
  });
  it('progressResetsMax=true: progress moves the maximum deadline', () => {
    const settings = { progressResetsMax: true };
    const result = run('C', { settings });
    expect(result.violations.map((v) => v.invariant)).toContain('max-deadline-by-start-plus-max');
    expectReplayable('C', result, settings);
  });
  it('queue=drop-oldest-any: the buffer drops a final response', () => {
    const settings = { queue: 'drop-oldest-any', capacity: 4 };
    const result = run('buffer-overload', { settings, bound: 200 });
    expect(result.violations.map((v) => v.invariant)).toContain('final-never-dropped');
    expectReplayable('buffer-overload', result, settings);
  });
});

describe('bounds and schedules', () => {
  it('a bound that cuts says complete: false, never a silent cut', () => {
    const full = run('A', { settings: { latencyJitterMs: 300 } });
    const cut = run('A', { settings: { latencyJitterMs: 300 }, bound: 5 });
    expect(cut.complete).toBe(false);
    expect(cut.states).toBe(5);
    expect(cut.schedules).toBeLessThan(full.schedules);
  });
  it('a schedule replays the same transcript every time', () => {
    const options = { settings: { latencyJitterMs: 300 }, schedule: parseSchedule('j0.j10.c0.j80') };
    expect(JSON.stringify(runScenario(findScenario('A'), options))).toBe(
      JSON.stringify(runScenario(findScenario('A'), options)),
    );
  });
  it('a schedule that does not fit the run is refused (LAB022), naming what the run offers', () => {
    expect(() =>
      runScenario(findScenario('A'), { settings: { latencyJitterMs: 300 }, schedule: parseSchedule('j0.j999') }),
    ).toThrow(/LAB022.*offers j0, j10, j300/);
    expect(() => parseSchedule('x1')).toThrow(LabError);
  });
});

// Merging orderings by the model's description of its state must find exactly what telling
// them apart by history finds: the same endings and the same broken invariants, in fewer states.
describe('merged states find what full histories find', () => {
  const cases: [string, 'stdio' | 'http', Record<string, unknown>][] = [
    ['buffer-overload', 'http', { requests: 2, progressPerRequest: 3 }],
    ['buffer-overload', 'http', { requests: 2, progressPerRequest: 4, capacity: 2 }],
    ['buffer-overload', 'http', { requests: 3, progressPerRequest: 2, capacity: 2, queue: 'drop-oldest-any' }],
    ['buffer-overload', 'stdio', { requests: 2, progressPerRequest: 3, capacity: 1 }],
    [
      'buffer-overload',
      'stdio',
      {
        requests: 2,
        progressPerRequest: 4,
        capacity: 2,
        producerEveryMs: 30,
        consumerEveryMs: 60,
        queue: 'drop-oldest-any',
      },
    ],
  ];
  for (const [id, transport, settings] of cases) {
    it(`${id} on ${transport} ${JSON.stringify(settings)}`, () => {
      const merged = run(id, { transport, settings });
      const histories = run(id, { transport, settings, mergeStates: false });
      expect(merged.complete && histories.complete).toBe(true);
      expect(merged.endings.map((ending) => ending.distinct).sort(byJson)).toEqual(
        histories.endings.map((ending) => ending.distinct).sort(byJson),
      );
      expect(new Set(merged.violations.map((violation) => violation.invariant))).toEqual(
        new Set(histories.violations.map((violation) => violation.invariant)),
      );
      expect(merged.states).toBeLessThanOrEqual(histories.states);
      if (settings.queue === 'drop-oldest-any')
        expect(merged.violations.map((violation) => violation.invariant)).toContain('final-never-dropped');
      expectReplayable(id, merged, settings);
    });
  }
});

const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

// The tasks describe their state too: their fields and the rows of their SQLite task store (which the
// fields' walk cannot see). Merging by it must find what histories find; at 20 ms of jitter orderings
// that reach one state at a same-instant choice do meet, so it runs fewer states.
describe('merged task states find what full histories find', () => {
  const short = { latencyJitterMs: 20, workMs: 300, cancelAtMs: 250, checkpointEveryMs: 200, pollIntervalMs: 200 };
  const cases: [string, 'stdio' | 'http', Record<string, unknown>][] = [
    ['task-http-close', 'stdio', { latencyJitterMs: 20, workMs: 400 }],
    ['task-http-close', 'http', { latencyJitterMs: 20, workMs: 400 }],
    ['task-cancel-too-late', 'stdio', short],
    ['task-cancel-ack', 'stdio', { ...short, ackIsFinal: true }],
  ];
  for (const [id, transport, settings] of cases) {
    it(`${id} on ${transport} ${JSON.stringify(settings)}`, () => {
      const merged = run(id, { transport, settings });
      const histories = run(id, { transport, settings, mergeStates: false });
      expect(merged.complete && histories.complete).toBe(true);
      // Each ending's outcome and ordering are those of the first ordering that reaches it, which merging never skips.
      const endings = (result: ExploreResult) =>
        result.endings
          .map((ending) => ({ distinct: ending.distinct, outcome: ending.outcome, schedule: ending.schedule }))
          .sort(byJson);
      expect(endings(merged)).toEqual(endings(histories));
      expect(merged.violations.map((violation) => violation.invariant).sort()).toEqual(
        histories.violations.map((violation) => violation.invariant).sort(),
      );
      expect(merged.states).toBeLessThan(histories.states);
    });
  }
});

// A run that goes on past each new state it meets (with that state's first option) must be exactly the
// runs that stop at their first new choice, minus the replays: the same states in the same order, so
// the same result, byte for byte (endings, schedules, violations and their steps, a bound's cut).
describe('runs that go on past new states find exactly what runs that stop find', () => {
  const cases: [string, 'stdio' | 'http', Record<string, unknown>, { bound?: number; reduction?: boolean }][] = [
    ['A', 'stdio', { latencyJitterMs: 150 }, {}],
    ['C', 'http', { latencyJitterMs: 150 }, {}],
    ['D', 'http', { latencyJitterMs: 300 }, { reduction: false }],
    ['D', 'stdio', { latencyJitterMs: 300 }, { bound: 700 }],
    ['ledger-race-unsafe', 'http', {}, {}],
    ['buffer-overload', 'http', { requests: 3, progressPerRequest: 2, capacity: 2, queue: 'drop-oldest-any' }, {}],
    ['reconnect-listen', 'http', {}, { bound: 333 }],
    ['task-cancel-ack', 'http', { latencyJitterMs: 20 }, { bound: 300 }],
  ];
  for (const [id, transport, settings, more] of cases) {
    it(`${id} on ${transport} ${JSON.stringify({ ...settings, ...more })}`, () => {
      const explored = (continueRuns: boolean) => {
        const exploration = new Exploration(findScenario(id), {
          transport,
          settings,
          ...more,
          ledger: { sql },
          continueRuns,
        });
        while (!exploration.advance(1_000)) {
          // slices of 1,000 runs, as the page's worker makes them
        }
        return { result: exploration.result(), runs: exploration.runsByChoice() };
      };
      const stopping = explored(false);
      const going = explored(true);
      expect(JSON.stringify(going.result)).toBe(JSON.stringify(stopping.result));
      expect({ ...going.runs, made: 0 }).toEqual({ ...stopping.runs, made: 0 });
      // Stopping, every state is a run of its own; going on, many states cost no run.
      expect(stopping.runs.made).toBe(stopping.result.states);
      expect(going.runs.made).toBeLessThan(stopping.runs.made);
    });
  }
});

/**
 * The one scenario that does not explore to the end at its defaults, and why: the herd's 10,000
 * clients meet 24,494 same-instant choices in one run (up to 65 clients due at one millisecond). Which
 * of them take a window's last free slots is a real difference (an admitted client stops, a refused
 * one draws its own next wait), so the states do not merge and the orderings number far past any
 * bound. Smaller herds explore completely (below); at the defaults the bound says it cut.
 */
const NOT_COMPLETE_AT_DEFAULTS: Readonly<Record<string, string>> = {
  herd: '10,000 clients: 24,494 same-instant choices per run, each choosing who gets the last slots of a window',
};

// For every scenario, the count of orderings and the endings: each one, on both transports, at its defaults.
describe('every scenario explores completely at its defaults, within the default bound', () => {
  for (const scenario of scenarios) {
    if (scenario.id in NOT_COMPLETE_AT_DEFAULTS) continue;
    for (const transport of ['stdio', 'http'] as const) {
      it(`${scenario.id} on ${transport}`, () => {
        const result = run(scenario.id, { transport });
        expect(result.complete).toBe(true);
        expect(result.schedules).toBeGreaterThanOrEqual(1);
        expect(result.endings.length).toBeGreaterThanOrEqual(1);
        expect(result.endings.reduce((sum, ending) => sum + ending.count, 0)).toBe(result.schedules);
        // The unsafe variants are the ones meant to break; every other scenario holds every invariant.
        if (scenario.id !== 'ledger-race-unsafe') expect(result.violations).toEqual([]);
      });
    }
  }
  it('the exceptions are scenarios, and a small herd explores completely', () => {
    for (const id of Object.keys(NOT_COMPLETE_AT_DEFAULTS))
      expect(scenarios.some((scenario) => scenario.id === id)).toBe(true);
    const small = run('herd', { settings: { clients: 100, admitPerWindow: 20 } });
    expect(small.complete).toBe(true);
    expect(small.violations).toEqual([]);
    expect(small.schedules).toBeGreaterThan(1);
    const cut = run('herd', { bound: 2 });
    expect(cut.complete).toBe(false);
  });
});

// The arrival-choice gap: an arrival strictly between two queued instants can re-arm a timer
// that then lands between two other events. The explorer also offers the arrivals where such a timer
// lands exactly on a queued instant (the critical points), so it meets the ending only those reach.
describe('arrivals at the critical points of the timers they re-arm', () => {
  it('D on stdio with latencyJitterMs=300: the client ignores all three progress notifications and the request ends cancelled, an ending only a critical arrival reaches', () => {
    const settings = { latencyJitterMs: 300 };
    const ignoresAll = (ending: { distinct: Record<string, unknown> }) =>
      ending.distinct.terminalState === 'cancelled' &&
      JSON.stringify(ending.distinct.clientIgnores) ===
        JSON.stringify(['progress 1/4', 'progress 2/4', 'progress 3/4']);
    const before = run('D', { transport: 'stdio', settings, criticalArrivals: false });
    const now = run('D', { transport: 'stdio', settings });
    expect(before.complete && now.complete).toBe(true);
    expect(before.endings.some(ignoresAll)).toBe(false);
    const found = now.endings.find(ignoresAll);
    expect(found).toBeDefined();
    // Every ending found before is still found, with more orderings told apart.
    for (const ending of before.endings)
      expect(now.endings.map((e) => JSON.stringify(e.distinct))).toContain(JSON.stringify(ending.distinct));
    expect(now.schedules).toBeGreaterThan(before.schedules);
    // Its schedule replays to it, and that schedule has an arrival the old choices never offered.
    const replayed = runScenario(findScenario('D'), {
      transport: 'stdio',
      settings,
      schedule: parseSchedule(found!.schedule),
    });
    expect(endingOf(replayed)).toEqual(found!.distinct);
    expect(found!.schedule).toBe('j0.j40.c0.j150.j0.c1');
  });
});

// The smallest failing ordering: per broken statement the explorer keeps the ordering that breaks it
// soonest (fewest events before the break, then fewest choices), and `run --schedule` replays it to
// that very breach at that very step.
const UNSAFE: [string, 'stdio' | 'http', Record<string, unknown>][] = [
  ['A', 'stdio', { afterCancel: 'respond', latencyJitterMs: 150 }],
  ['A', 'http', { httpCancel: 'post-notification', latencyJitterMs: 300 }],
  ['ledger-race-unsafe', 'stdio', {}],
  [
    'buffer-overload',
    'stdio',
    {
      requests: 2,
      progressPerRequest: 4,
      capacity: 2,
      producerEveryMs: 30,
      consumerEveryMs: 60,
      queue: 'drop-oldest-any',
    },
  ],
];

/**
 * Brute force, beside the explorer's own bookkeeping: every ordering of the scenario's choice tree,
 * no state merged and no prefix skipped, each run checked by its own invariant checker; per broken
 * statement, the fewest events before any ordering breaks it.
 */
function soonestByBruteForce(
  id: string,
  transport: 'stdio' | 'http',
  settings: Record<string, unknown>,
): Map<string, number> {
  const scenario = findScenario(id);
  const soonest = new Map<string, number>();
  const checked = { ...scenario.settings, ...settings } as Settings;
  // The arrivals the explorer offers: those of the delays its survey run knows too.
  const { knownDelays, fixedTimes } = surveyOf(scenario, { transport, settings, ledger: { sql } }, checked);
  const visit = (choices: Choice[]): void => {
    const driver = new Driver(choices, true, checked, false, true, null, null, false, null, knownDelays, fixedTimes);
    let options: Choice[] = [];
    try {
      const transcript = runScenario(scenario, {
        transport,
        settings,
        chooser: driver.chooser,
        ledger: { sql },
        record: false,
      });
      driver.checker.finish(scenario.kind, transcript.outcome);
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      options = error.options;
    }
    for (const breach of driver.checker.found) {
      const key = `${breach.invariant}|${breach.explanation}`;
      soonest.set(key, Math.min(breach.step, soonest.get(key) ?? Infinity));
    }
    for (const option of options) visit([...choices, option]);
  };
  visit([]);
  return soonest;
}

describe('the smallest failing ordering', () => {
  for (const [id, transport, settings] of UNSAFE) {
    it(`${id} on ${transport} ${JSON.stringify(settings)}: each violation's schedule replays to that breach at that step`, () => {
      const result = run(id, { transport, settings });
      expect(result.violations.length).toBeGreaterThan(0);
      for (const violation of result.violations) {
        // What `lab run --schedule` does: the same transcript every time, with the breaking event in it.
        const options = { transport, settings, schedule: parseSchedule(violation.schedule), ledger: { sql } };
        const transcript = runScenario(findScenario(id), options);
        expect(JSON.stringify(runScenario(findScenario(id), options))).toBe(JSON.stringify(transcript));
        // The invariants over the recorded events break at that step (their wording may differ: see the report).
        const recorded = new InvariantChecker(transcript.settings);
        for (const event of transcript.events) recorded.observe(event as unknown as Seen);
        recorded.finish(findScenario(id).kind, transcript.outcome);
        expect(
          recorded.found.some((found) => found.invariant === violation.invariant && found.step === violation.step),
          `${violation.invariant} via ${violation.schedule}`,
        ).toBe(true);
        // The replay's own chooser (what `run --schedule` follows, checking as the explorer does) meets this very breach first at that step.
        const driver = new Driver(parseSchedule(violation.schedule), false, {
          ...findScenario(id).settings,
          ...settings,
        } as Settings);
        const replayed = runScenario(findScenario(id), {
          transport,
          settings,
          chooser: driver.chooser,
          ledger: { sql },
          record: false,
        });
        driver.checker.finish(findScenario(id).kind, replayed.outcome);
        const breach = driver.checker.found.find(
          (found) => found.invariant === violation.invariant && found.explanation === violation.explanation,
        );
        expect(breach?.step, `${violation.invariant} via ${violation.schedule}`).toBe(violation.step);
        expect(driver.schedule()).toBe(violation.schedule);
      }
    });
    it(`${id} on ${transport} ${JSON.stringify(settings)}: the kept step is the fewest events of any ordering (states told apart by history, no reduction), and merging and the reduction never report a sooner one`, () => {
      const soonest = soonestByBruteForce(id, transport, settings);
      // Every ordering run (no merging, no reduction): the kept step is the true minimum. The reduction runs one
      // ordering of each class of swapped independent events, so its step is a minimum over fewer orderings.
      const histories = run(id, { transport, settings, mergeStates: false, reduction: false });
      const merged = run(id, { transport, settings });
      expect(histories.complete && merged.complete).toBe(true);
      const steps = (result: ExploreResult) =>
        new Map(
          result.violations.map((violation) => [`${violation.invariant}|${violation.explanation}`, violation.step]),
        );
      expect(steps(histories)).toEqual(soonest);
      for (const [key, step] of steps(merged)) expect(step).toBeGreaterThanOrEqual(soonest.get(key) ?? Infinity);
      expect(new Set(steps(merged).keys())).toEqual(new Set(soonest.keys()));
    });
  }
});
