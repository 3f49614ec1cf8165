// Proves the partial-order reduction sound on a representative part of the lab's matrix (the whole
// matrix is scripts/exploreSoundness.ts): with it on and off, the distinct endings and the broken
// invariants are the same; it runs fewer states where same-instant events are independent; and
// `independent` is as conservative as documented.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario } from '../../scenarios/index';
import {
  countEventOrders,
  explore,
  firstOrderOnly,
  EXPLORE_JITTER_PRESETS_MS,
  REDUCIBLE_MODELS,
  reductionSignature,
  type ExploreResult,
  type SqlModule,
} from '../index';
import { Scheduler } from '../core/scheduler';
import { Driver, independent, Pruned, type Footprint } from './driver';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const footprint = (parties: number, channels: string[], all = false): Footprint => ({
  parties,
  channels: new Set(channels),
  all,
});

describe('independent events (the reduction commutes only these)', () => {
  it('disjoint parties and disjoint channels: independent', () => {
    expect(independent(footprint(1, ['stdio:client']), footprint(2, ['sse:server']))).toBe(true);
  });
  it('one party in common (the server and its worker are one): dependent', () => {
    expect(independent(footprint(2, []), footprint(2, []))).toBe(false);
    expect(independent(footprint(1, []), footprint(3, []))).toBe(false);
  });
  it('one channel in common (a send and a delivery on one channel): dependent', () => {
    expect(independent(footprint(1, ['stdio:server']), footprint(2, ['stdio:server']))).toBe(false);
  });
  it('an event that touches everything (a fault counted over the log): dependent on all', () => {
    expect(independent(footprint(1, [], true), footprint(2, []))).toBe(false);
  });
});

describe('the sleep set: an ordering that only swaps independent events is not run twice', () => {
  /** Two events due at 5 ms, a client one and a server one, each touching the channel given; the run takes the second first. */
  const secondFirst = (channelA: string, channelB: string): { outcome: 'pruned' | 'ran'; driver: Driver } => {
    const a: Footprint = { parties: 1, channels: new Set([channelA]), all: false };
    const driver = new Driver([{ kind: 'c', value: 1 }], true, {}, true, true, null, {
      inherited: [],
      siblings: [{ value: 0, footprint: a }],
    });
    const scheduler = new Scheduler({ eventsMax: 10, chooser: driver.chooser });
    scheduler.at(5, 'client', 'a', () => scheduler.explorer?.touch?.(channelA));
    scheduler.at(5, 'server', 'b', () => scheduler.explorer?.touch?.(channelB));
    try {
      scheduler.runUntilIdle();
    } catch (error) {
      if (error instanceof Pruned) return { outcome: 'pruned', driver };
      throw error;
    }
    return { outcome: 'ran', driver };
  };
  it('b then a, after a then b was explored, with a and b independent: pruned where a would run', () => {
    expect(secondFirst('stdio:client', 'stdio:server').outcome).toBe('pruned');
  });
  it('with a channel in common they are dependent: b then a runs to its end', () => {
    const { outcome, driver } = secondFirst('stdio:server', 'stdio:server');
    expect(outcome).toBe('ran');
    expect(driver.footprints[0]).toEqual({ parties: 2, channels: new Set(['stdio:server']), all: false });
  });
});

describe("an event's footprint", () => {
  it('lists every channel its event touched, each footprint its own (one that touched a second channel changes no other)', () => {
    const driver = new Driver(
      [
        { kind: 'c', value: 0 },
        { kind: 'c', value: 0 },
        { kind: 'c', value: 0 },
      ],
      false,
      {},
      true,
      true,
      null,
      null,
      true,
    );
    const scheduler = new Scheduler({ eventsMax: 20, chooser: driver.chooser });
    const touch = (channel: string) => () => scheduler.explorer?.touch?.(channel);
    scheduler.at(5, 'client', 'a', touch('x:client'));
    scheduler.at(5, 'server', 'b', () => undefined);
    scheduler.at(6, 'client', 'c', () => {
      touch('x:client')();
      touch('y:client')();
      touch('x:client')();
    });
    scheduler.at(6, 'server', 'd', () => undefined);
    scheduler.at(7, 'client', 'e', touch('x:client'));
    scheduler.at(7, 'server', 'f', () => undefined);
    scheduler.runUntilIdle();
    driver.finish();
    expect(driver.footprints.map((done) => [...(done?.channels ?? [])])).toEqual([
      ['x:client'],
      ['x:client', 'y:client'],
      ['x:client'],
    ]);
  });
});

/** Scenario, transport, settings: the A–D races at the page's preset and wider, ones that break invariants, and the buffer. */
const MATRIX: [string, 'stdio' | 'http', Record<string, unknown>][] = [
  ...(['A', 'B', 'C', 'D'] as const).flatMap((id) =>
    EXPLORE_JITTER_PRESETS_MS.flatMap((jitter) =>
      (['stdio', 'http'] as const).map((transport): [string, 'stdio' | 'http', Record<string, unknown>] => [
        id,
        transport,
        { latencyJitterMs: jitter },
      ]),
    ),
  ),
  ['D', 'stdio', { latencyJitterMs: 300 }],
  ['cancel-ignored', 'http', { latencyJitterMs: 20 }],
  ['A', 'stdio', { afterCancel: 'respond', latencyJitterMs: 150 }],
  ['A', 'http', { httpCancel: 'post-notification', latencyJitterMs: 300 }],
  ['ledger-race-unsafe', 'stdio', {}],
  ['buffer-overload', 'stdio', {}],
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

describe('the reduction leaves the endings and the broken invariants as they are', () => {
  const run = (
    id: string,
    transport: 'stdio' | 'http',
    settings: Record<string, unknown>,
    reduction: boolean,
  ): ExploreResult => explore(findScenario(id), { transport, settings, ledger: { sql }, reduction });
  for (const [id, transport, settings] of MATRIX) {
    it(`${id} on ${transport} ${JSON.stringify(settings)}`, () => {
      const on = run(id, transport, settings, true);
      const off = run(id, transport, settings, false);
      expect(on.complete && off.complete).toBe(true);
      expect(reductionSignature(on)).toBe(reductionSignature(off));
      // A state's key names the events asleep in it, so one state met with two sleep sets is two: with
      // nothing pruned the reduction can count a few more (D on stdio at 300 ms counts 25,278 against
      // 25,234 since its cancellation lands on each of the work's checkpoints; 13,172 against 13,164 before).
      expect(on.states).toBeLessThanOrEqual(off.states + Math.ceil(off.states / 500));
    });
  }

  it('the buffer is reducible: its producer and consumer both touch the buffer, so no ordering of the two is pruned and no ending is lost', () => {
    // The counterexample of footprints read from actors alone: the consumer is a client event that takes
    // from the server's buffer. Without the touch the reduction commuted it with the producer and lost endings.
    const settings = {
      requests: 2,
      progressPerRequest: 4,
      capacity: 2,
      producerEveryMs: 30,
      consumerEveryMs: 60,
      queue: 'drop-oldest-any',
    };
    const on = run('buffer-overload', 'stdio', settings, true);
    const off = run('buffer-overload', 'stdio', settings, false);
    expect(REDUCIBLE_MODELS.has('buffer')).toBe(true);
    expect(on.endings.length).toBe(off.endings.length);
    expect(reductionSignature(on)).toBe(reductionSignature(off));
  });

  it("the request race is reducible: a client deadline and the worker's completion due at one instant both touch the coordinator, so neither order is pruned", () => {
    // A without its cancellation, its maximum deadline at the worker's completion (5 ms of latency and
    // 200 ms of work): the terminal state goes to whichever of the two runs first. With footprints read
    // from actors alone (the coordinator unnamed) the two were commuted and the ending where the
    // completion won was lost.
    const settings = { cancelAtMs: null, workMs: 200, maxTimeoutMs: 205 };
    expect(REDUCIBLE_MODELS.has('request-race')).toBe(true);
    for (const transport of ['stdio', 'http'] as const) {
      const on = run('A', transport, settings, true);
      const off = run('A', transport, settings, false);
      const terminals = (result: ExploreResult) =>
        result.endings.map((ending) => (ending.distinct as { terminalState?: string }).terminalState).sort();
      expect(terminals(off)).toEqual(['completed', 'timeout-max']);
      expect(terminals(on)).toEqual(terminals(off));
      expect(reductionSignature(on)).toBe(reductionSignature(off));
    }
  });

  it('the listen is reducible: at 20 ms of jitter it runs fewer states, with the same endings and broken invariants', () => {
    // Its tool call's deliveries and the listen's (other channels, other parties) commute; both sides'
    // uses of the coordinator are never commuted.
    expect(REDUCIBLE_MODELS.has('listen')).toBe(true);
    const on = run('listen-server-cancel', 'http', { latencyJitterMs: 20 }, true);
    const off = run('listen-server-cancel', 'http', { latencyJitterMs: 20 }, false);
    expect(on.complete && off.complete).toBe(true);
    expect(on.states).toBeLessThan(off.states);
    expect(reductionSignature(on)).toBe(reductionSignature(off));
  });

  it('the same exploration gives the same report, byte for byte', () => {
    const first = run('buffer-overload', 'http', {}, true);
    expect(JSON.stringify(run('buffer-overload', 'http', {}, true))).toBe(JSON.stringify(first));
  });
});

describe('the floor of a reduction over arrival instants (scripts/arrivalBound.ts)', () => {
  it('counts the distinct orders of events among the complete orderings: at least one per ending, at most one per ordering, and stops watching after', () => {
    const step = (Driver.prototype as unknown as { step: unknown }).step;
    const { result, orders } = countEventOrders(() =>
      explore(findScenario('A'), { settings: { latencyJitterMs: 300 }, reduction: false }),
    );
    expect(orders).toBeGreaterThanOrEqual(result.endings.length);
    expect(orders).toBeLessThan(result.schedules);
    expect((Driver.prototype as unknown as { step: unknown }).step).toBe(step);
    // Outside `countEventOrders` nothing is counted: an exploration with no complete ordering counts none.
    expect(countEventOrders(() => 0).orders).toBe(0);
  });

  it('the floor of a reduction of same-instant orders: every same-instant choice runs its first event only, fewer states, and drivers are restored after', () => {
    const choose = (Driver.prototype as unknown as { choose: unknown }).choose;
    const settings = { latencyJitterMs: 300 };
    const all = explore(findScenario('D'), { settings, reduction: false });
    const first = firstOrderOnly(() => explore(findScenario('D'), { settings, reduction: false }));
    expect(first.complete && all.complete).toBe(true);
    expect(first.states).toBeLessThan(all.states);
    // No ordering it ran took another same-instant order than the first.
    for (const ending of first.endings) expect(ending.schedule).not.toMatch(/(^|\.)c[1-9]/);
    expect(all.endings.some((ending) => /(^|\.)c[1-9]/.test(ending.schedule))).toBe(true);
    expect((Driver.prototype as unknown as { choose: unknown }).choose).toBe(choose);
    expect(explore(findScenario('D'), { settings, reduction: false }).states).toBe(all.states);
  });
});
