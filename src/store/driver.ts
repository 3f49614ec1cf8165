import { createLabClient } from '../worker/client';
import { createInProcessWorker, type InProcessWorker } from '../worker/inProcessWorker';
import { memoryLedgerStorage, type LedgerStorage } from '../worker/ledgerStorage';
import { createRunStoreCore, eventCount, type RunState, type RunStore, type Ticker } from './runStore';
import { pressPlaybackKey } from './keys';
import type { Transport } from '../worker/protocol';

/**
 * A ticker a test turns by hand: playback advances only when the test says `tick`, never on the
 * wall clock (tldraw's TestEditor habit: fake timers, no sleeping).
 */
export interface ManualTicker extends Ticker {
  /** Fires the running interval `count` times (none if playback is paused). */
  tick(count?: number): void;
  /** The interval playback asked for, in ms; null when nothing is ticking. */
  readonly intervalMs: number | null;
}

export function manualTicker(): ManualTicker {
  let running: { ms: number; tick: () => void } | null = null;
  return {
    every(ms, tick) {
      const mine = { ms, tick };
      running = mine;
      return () => {
        if (running === mine) running = null;
      };
    },
    tick(count = 1) {
      for (let i = 0; i < count && running !== null; i += 1) running.tick();
    },
    get intervalMs() {
      return running?.ms ?? null;
    },
  };
}

/** Nothing is running: no run in flight and the ledger not being read or written. */
export const idle = (state: RunState): boolean => state.status !== 'running' && state.ledgerStatus !== 'busy';

/**
 * Resolves once `settledWhen` holds (by default: nothing runs), checked when the store changes,
 * never by polling the wall clock.
 */
export function whenSettled(store: RunStore, settledWhen: (state: RunState) => boolean = idle): Promise<RunState> {
  return new Promise((resolve) => {
    if (settledWhen(store.getState())) {
      resolve(store.getState());
      return;
    }
    const unsubscribe = store.subscribe((state) => {
      if (!settledWhen(state)) return;
      unsubscribe();
      resolve(state);
    });
  });
}

/**
 * The run store driven headless, over the real worker host in-process (the same protocol checks):
 * open a scenario, step, play and tick, press the presenter's keys, and read the state — what store
 * tests use instead of rendering React or polling the wall clock.
 */
export interface LabDriver {
  readonly store: RunStore;
  readonly worker: InProcessWorker;
  readonly ticker: ManualTicker;
  readonly state: RunState;
  /** Lists the scenarios, opens `scenario` (default A) and resolves when its run has answered. */
  open(scenario?: string, transport?: Transport): Promise<RunState>;
  /** Resolves once nothing is running (the store says so; no polling). */
  settled(): Promise<RunState>;
  step(count?: number): LabDriver;
  back(count?: number): LabDriver;
  play(): LabDriver;
  tick(count?: number): LabDriver;
  pressKey(key: string): LabDriver;
  /** How many events the current run has. */
  readonly total: number;
}

export function createLabDriver(options: { storage?: LedgerStorage } = {}): LabDriver {
  const worker = createInProcessWorker({ storage: options.storage ?? memoryLedgerStorage() });
  const ticker = manualTicker();
  const store = createRunStoreCore(() => createLabClient(() => worker), ticker);

  const driver: LabDriver = {
    store,
    worker,
    ticker,
    get state() {
      return store.getState();
    },
    get total() {
      return eventCount(store.getState());
    },
    settled() {
      return whenSettled(store);
    },
    async open(scenario = 'A', transport) {
      await store.getState().init();
      if (store.getState().spec.scenario !== scenario) store.getState().selectScenario(scenario);
      await driver.settled();
      if (transport !== undefined && store.getState().spec.transport !== transport) {
        store.getState().select({ transport });
        await driver.settled();
      }
      return store.getState();
    },
    step(count = 1) {
      for (let i = 0; i < count; i += 1) store.getState().stepForward();
      return driver;
    },
    back(count = 1) {
      for (let i = 0; i < count; i += 1) store.getState().stepBack();
      return driver;
    },
    play() {
      store.getState().play();
      return driver;
    },
    tick(count = 1) {
      ticker.tick(count);
      return driver;
    },
    pressKey(key) {
      if (!pressPlaybackKey(store.getState(), key)) throw new Error(`"${key}" is not a playback key`);
      return driver;
    },
  };
  return driver;
}
