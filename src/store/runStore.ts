import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createLabClient, type LabClient } from '../worker/client';
import { createExploreSlice } from './run/explore';
import { createLayoutSlice } from './run/layout';
import { createLedgerSlice } from './run/ledger';
import { createInspectorSlice, createNoticeSlice } from './run/page';
import { createPlaybackSlice, followPlayback } from './run/playback';
import { createRunSlice } from './run/run';
import { createSelectionSlice } from './run/selection';
import type { RunState, SliceDeps, Ticker } from './run/state';
import { createFaultSlice, createWhatIfSlice } from './run/whatIf';

/**
 * The page's run store: one zustand store made of feature slices (src/store/run/), each owning its
 * state — the selection (one run description), the run, the layout and its time scale, playback,
 * the inspector and notices, the stored ledger, the explorer, what-ifs and faults. Every protocol
 * fact on screen comes from a transcript the worker produced, every ledger row from the worker's read
 * of the stored file; the store only asks and keeps the latest answer.
 */

export type {
  EventWording,
  Implementation,
  InvariantCheck,
  SdkRunInfo,
  LabEvent,
  LabEventKind,
  LedgerOutcome,
  LedgerResponseRecord,
  LedgerRow,
  LedgerRows,
  LedgerTable,
  LedgerView,
  MarkerTone,
  MarkerWording,
  RaceFactSteps,
  RaceView,
  RequestOutcome,
  RunSelection,
  ScenarioInfo,
  SettingSpec,
  SettingsSpec,
  SettingValue,
  Settings,
  Transport,
} from '../worker/protocol';
export type { RunProgress, ExploreProgress } from '../worker/client';
// The selection's ordering and faults are values; the page writes them with their grammars (pure files).
export { formatFault } from '../engine/core/faults';
export { formatSchedule } from '../engine/core/schedule';
// The lists the run controls offer, the engine's own (a new transport or implementation reaches the page by itself).
export { IMPLEMENTATIONS, TRANSPORTS } from '../engine/settingsSpecs';
export type { ExploreResult, Ending, Violation } from '../worker/protocol';
export {
  SETTINGS_NOT_APPLIED,
  SETTINGS_NOT_APPLIED_V2,
  TS_SDK_PACKAGE,
  TS_SDK_PROTOCOL_VERSION,
  TS_SDK_VERSION,
  TS_SDK_V2_VERSION,
  TS_SDK_V2_PROTOCOL_VERSION,
  V2_SCHEMA_FINDINGS,
} from '../sdk/version';
export type {
  ExploreSlice,
  ExploreStatus,
  FaultKind,
  FaultSlice,
  InspectorSlice,
  LabFailure,
  RunState,
  Landing,
  LayoutSlice,
  LedgerFailure,
  LedgerSlice,
  LedgerStatus,
  LinkView,
  Notice,
  NoticeSlice,
  PlaybackSlice,
  RunSlice,
  RunStatus,
  SelectionChange,
  SelectionSlice,
  StepGate,
  Ticker,
  WhatIf,
  WhatIfSlice,
} from './run/state';
export {
  currentTimeMs,
  DEFAULT_SCENARIO_ID,
  DEFAULT_SEED,
  DEFAULT_SPEC,
  DEFAULT_SPEED,
  eventCount,
  FAULT_DELAY_MS,
  PAGE_EXPLORE_BOUND,
  selectedInfo,
  SPEEDS,
} from './run/state';

export type RunStore = StoreApi<RunState>;

/** The page's ticker: setInterval. */
export const intervalTicker: Ticker = {
  every(ms, tick) {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/**
 * The store's core: zustand's vanilla store (no React), around a lab client created on first use,
 * with playback driven by `ticker`. The page wraps it in a hook; tests drive it headless (driver.ts).
 */
export function createRunStoreCore(
  makeClient: () => LabClient = createLabClient,
  ticker: Ticker = intervalTicker,
): RunStore {
  let client: LabClient | null = null;
  const deps: SliceDeps = { client: () => (client ??= makeClient()), ticker };
  const store = createStore<RunState>()((...args) => ({
    ...createSelectionSlice(deps)(...args),
    ...createRunSlice(deps)(...args),
    ...createLayoutSlice(deps)(...args),
    ...createPlaybackSlice(deps)(...args),
    ...createInspectorSlice(deps)(...args),
    ...createNoticeSlice(deps)(...args),
    ...createLedgerSlice(deps)(...args),
    ...createExploreSlice(deps)(...args),
    ...createWhatIfSlice(deps)(...args),
    ...createFaultSlice(deps)(...args),
  }));
  followPlayback(store, ticker);
  return store;
}

/** A React hook over a vanilla store, with the store's own methods (getState, setState, subscribe) on it. */
export type BoundRunStore = RunStore & (<T>(selector: (state: RunState) => T) => T);

/** The store as the page uses it: a hook over the vanilla core, playback on the wall clock. */
export function createRunStore(
  makeClient: () => LabClient = createLabClient,
  ticker: Ticker = intervalTicker,
): BoundRunStore {
  const api = createRunStoreCore(makeClient, ticker);
  const useBoundStore = <T>(selector: (state: RunState) => T): T => useStore(api, selector);
  return Object.assign(useBoundStore, api);
}

/** The page's store. */
export const useRunStore = createRunStore();
