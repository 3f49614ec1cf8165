import FakeTimers from '@sinonjs/fake-timers';
import { LabError, assert } from '../engine';

/**
 * The SDK lanes' clock. An SDK's own timers run on @sinonjs/fake-timers, installed on the global
 * object for one run at a time (`onSharedClock`), and a run moves that clock one virtual step at a
 * time (`clockDriver`), each step once the host has run everything the step before it started.
 */

/** Real macrotask turns between virtual steps: each drains every promise the step started. */
export const FLUSH_TURNS = 3;
/** A bound on the real turns one virtual step may take (docs/architecture.md#a-limit-on-everything). */
const REAL_TURNS_MAX = 100_000;

/** One real macrotask turn, with the host's own scheduling captured before any fake clock exists. */
export const realTurn: () => Promise<void> = (() => {
  const immediate = globalThis.setImmediate;
  if (typeof immediate === 'function') return () => new Promise<void>((resolve) => immediate(() => resolve()));
  return () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
})();

export type InstalledClock = ReturnType<ReturnType<typeof FakeTimers.withGlobal>['install']>;

/** The run in progress, if any: SDK runs share the global clock, so each waits for the one before it. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs `run` once every earlier run on the shared global clock has ended: `prepare` first, on the
 * host's own timers (an SDK's handshake, before the scenario's clock starts), then `run` with the fake
 * clock installed on the global object, always removed after it.
 */
export function onSharedClock<P, T>(
  prepare: () => Promise<P>,
  run: (clock: InstalledClock, prepared: P) => Promise<T>,
): Promise<T> {
  const result = previous.then(async () => {
    const prepared = await prepare();
    const clock = FakeTimers.withGlobal(globalThis).install({
      now: 0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    try {
      return await run(clock, prepared);
    } finally {
      clock.uninstall();
    }
  });
  previous = result.catch(() => undefined);
  return result;
}

/** What a run on the fake clock shows the driver that steps it. */
export interface SteppedRun {
  /** The virtual time since the run started. */
  readonly nowMs: number;
  /**
   * Work in flight on real tasks of the host (a body being read, a stream being piped) that the clock
   * waits for: it does not move while any is. Absent: the run hands the host no such work.
   */
  readonly busy?: number;
  /** What is due at the current instant, run one by one as steps of their own. Absent: nothing ever is. */
  readonly dueNow?: Array<() => void>;
  /** A new virtual step begins. */
  stepStarts(): void;
}

/** The bounds of a stepped run and how its errors name it. */
export interface StepLimits {
  /** The most virtual steps the run may take, over every call of its `drive`. */
  readonly eventsMax: number;
  /** Past this virtual time a timer still set is a run that does not end. */
  readonly horizonMs: number;
  /** Called before each virtual step with the virtual time; may throw to stop the run. */
  readonly onStep?: (atMs: number) => void;
  /** The run, as the errors name it ("the SDK run"). */
  readonly runName: string;
  /** What still had timers past the horizon, as the error names it ("the SDK"). */
  readonly timersOf: string;
  /** Once the host has run what a step started, before the next: what the step's receivers did (or why the run fails). */
  readonly afterTurns: () => void;
}

/**
 * The driver of a run on the fake clock: `drive` runs virtual steps until nothing is due and no timer
 * is left. Before each step the host gets FLUSH_TURNS real turns, and more while the run is busy; then
 * what is due now runs, else the clock moves to its next timer.
 */
export function clockDriver(clock: InstalledClock, run: SteppedRun, limits: StepLimits): () => Promise<void> {
  let steps = 0;
  return async (): Promise<void> => {
    for (;;) {
      let turns = 0;
      while ((run.busy ?? 0) > 0 || turns < FLUSH_TURNS) {
        await realTurn();
        turns += 1;
        if (turns > REAL_TURNS_MAX)
          throw new LabError(
            'LAB026',
            `a message handed to the SDK was still not read after ${REAL_TURNS_MAX} turns of the host at ${run.nowMs} ms; nothing was kept`,
          );
      }
      assert((run.busy ?? 0) === 0, 'every message the lab delivered was read before the clock moves');
      limits.afterTurns();
      const due = run.dueNow?.shift();
      if (due === undefined && clock.countTimers() === 0) return;
      steps += 1;
      if (steps > limits.eventsMax)
        throw new LabError(
          'LAB006',
          `${limits.runName} took more than ${limits.eventsMax} virtual steps (eventsMax) by ${run.nowMs} ms; nothing was kept`,
        );
      limits.onStep?.(run.nowMs);
      run.stepStarts();
      if (due !== undefined) {
        due();
        continue;
      }
      clock.next();
      if (run.nowMs > limits.horizonMs)
        throw new LabError(
          'LAB026',
          `${limits.timersOf} still had timers at ${run.nowMs} ms, past any deadline the settings allow (${limits.horizonMs} ms); nothing was kept`,
        );
    }
  };
}
