import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { RUN_SPEC_CHARS_MAX } from '../runs/runSpecLimits';
import type { ToolsClient } from '../worker/toolsClient';
import type { TimeScale } from '../diagram/geometry/model';
import { createCompareSlice } from './panelSlices/compare';
import { createPageSlice } from './panelSlices/page';
import { createReviewerSlice } from './panelSlices/reviewer';
import {
  HERD_POLICIES,
  TABS,
  type HerdInputs,
  type HerdPolicy,
  type PanelSliceDeps,
  type PanelsState,
  type TabId,
} from './panelSlices/state';
import { createEvidenceSlice, createVerificationSlice } from './panelSlices/verification';
import { createBufferSlice, createHerdSlice, createProxySlice, createTasksSlice } from './panelSlices/views';

/**
 * What the lab's panels show: one zustand store made of slices (src/store/panelSlices/), each owning
 * its state — the tab and modes, the checklist, the evidence export, the reviewer, the panels' views
 * and Compare. Each value is a view the tools worker computed (the page computes none). Sliders set
 * their value at once and ask the worker for the view debounced and latest-wins: while one run is in
 * flight, further moves only mark it stale and the newest values run next, so a 10,000-client herd
 * never piles up requests.
 */

export {
  HERD_POLICIES,
  SLIDER_DEBOUNCE_MS,
  TABS,
  TASK_SCENARIOS,
  VIEW_DEFAULTS,
  type CompareView,
  type HerdInputs,
  type HerdPolicy,
  type Load,
  type PanelsState,
  type TabId,
  type TaskScenario,
} from './panelSlices/state';
export { compareRunsFor, recordedRunOf, recordedRunSpec } from './panelSlices/compare';

/** The panels store's core: zustand's vanilla store (no React), over the tools workers' clients. */
export function createPanelsStoreCore(
  client: ToolsClient,
  exampleReview: string,
  compareClient: ToolsClient = client,
  verifyClient: ToolsClient = client,
  evidenceClient: ToolsClient = client,
): StoreApi<PanelsState> {
  const deps: PanelSliceDeps = { client, compareClient, verifyClient, evidenceClient, exampleReview, opens: {} };
  return createStore<PanelsState>()((...args) => ({
    ...createPageSlice(deps)(...args),
    ...createVerificationSlice(deps)(...args),
    ...createEvidenceSlice(deps)(...args),
    ...createReviewerSlice(deps)(...args),
    ...createBufferSlice(deps)(...args),
    ...createHerdSlice(deps)(...args),
    ...createTasksSlice(deps)(...args),
    ...createProxySlice(deps)(...args),
    ...createCompareSlice(deps)(...args),
  }));
}

/** A React hook over the vanilla store, with the store's own methods (getState, setState, subscribe) on it. */
export type PanelsStore = StoreApi<PanelsState> & (<T>(selector: (state: PanelsState) => T) => T);

/** The store as the page uses it: a hook over the vanilla core. */
export function createPanelsStore(
  client: ToolsClient,
  exampleReview: string,
  compareClient: ToolsClient = client,
  verifyClient: ToolsClient = client,
  evidenceClient: ToolsClient = client,
): PanelsStore {
  const api = createPanelsStoreCore(client, exampleReview, compareClient, verifyClient, evidenceClient);
  const usePanels = <T>(selector: (state: PanelsState) => T): T => useStore(api, selector);
  return Object.assign(usePanels, api);
}

export type {
  BufferPoint,
  BufferRefusal,
  BufferView,
  FailureModeResult,
  HerdView,
  ProxyView,
  ReconnectView,
  ReviewResult,
  TaskRow,
  TasksView,
  VerificationResult,
} from '../worker/protocol';
export type { VerifyProgress } from '../worker/workerClient';

export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

/**
 * The panel sliders' ranges, written once: the panels draw them and the link reader checks them (a
 * link's value outside is not used). Each is a window of its setting's range (a slider over
 * 1–3,600,000 ms moves nowhere useful); panelRanges.test.ts holds every window inside its setting's
 * spec, so the page never offers a value the engine refuses. The specs themselves, with their
 * descriptions, stay out of the page's first load.
 */
export const SLIDER_RANGES = {
  bufferCapacity: { min: 1, max: 64, step: 1 },
  herdBaseMs: { min: 10, max: 2000, step: 10 },
  herdCapMs: { min: 100, max: 30_000, step: 100 },
  herdClients: { min: 100, max: 10_000, step: 100 },
} as const satisfies Record<string, SliderRange>;

/** Where Linear time goes: the run store's one time scale. */
export interface ScaleTarget {
  setScale(scale: TimeScale): void;
}

/**
 * Applies the view part of a link (tab, mode, panel sliders, and Linear time to the run store's time
 * scale) and returns, for each value it could not use, a sentence for the page's notice. Nothing is
 * computed here: a panel asks the tools worker for its view when its tab opens.
 */
export function applyViewLink(
  store: PanelsStore,
  view: Partial<Record<string, string>>,
  scale?: ScaleTarget,
): string[] {
  const problems: string[] = [];
  const refuse = (name: string, value: string, why: string) =>
    problems.push(`The link's ${name}=${value} was not used: ${why}. Showing the default instead.`);
  const patch: Partial<PanelsState> = {};
  const herd: Partial<HerdInputs> = {};
  const compare: Partial<{ a: string; b: string; c: string }> = {};
  const integer = (name: keyof typeof SLIDER_RANGES, value: string): number | null => {
    const { min, max, step } = SLIDER_RANGES[name];
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isSafeInteger(number) && number >= min && number <= max && (number - min) % step === 0) return number;
    refuse(name, value, `it must be a whole number from ${min} to ${max} in steps of ${step}`);
    return null;
  };
  for (const [name, value] of Object.entries(view)) {
    if (value === undefined) continue;
    switch (name) {
      case 'tab':
        if (TABS.some((tab) => tab.id === value)) patch.tab = value as TabId;
        else refuse(name, value, `the tabs are ${TABS.map((tab) => tab.id).join(', ')}`);
        break;
      case 'instructor': {
        const words = value.split(/[\s,+]+/).filter(Boolean);
        if (words.every((word) => word === 'presentation' || word === 'predict')) {
          patch.presentation = words.includes('presentation');
          patch.predict = words.includes('predict');
        } else refuse(name, value, 'the modes are presentation and predict');
        break;
      }
      case 'linear':
        if (value === '1' || value === '0') scale?.setScale(value === '1' ? 'linear' : 'ordinal');
        else refuse(name, value, 'it must be 1 or 0');
        break;
      case 'bufferCapacity': {
        const number = integer(name, value);
        if (number !== null) patch.capacity = number;
        break;
      }
      case 'herdBaseMs':
      case 'herdCapMs':
      case 'herdClients': {
        const number = integer(name, value);
        if (number !== null)
          herd[name === 'herdBaseMs' ? 'baseMs' : name === 'herdCapMs' ? 'capMs' : 'clients'] = number;
        break;
      }
      case 'herdPolicy':
        if ((HERD_POLICIES as readonly string[]).includes(value)) herd.policy = value as HerdPolicy;
        else refuse(name, value, `the policies are ${HERD_POLICIES.join(', ')}`);
        break;
      case 'runA':
      case 'runB':
      case 'runC':
        // Text here; the worker judges it when the Compare tab runs it (LAB024 and friends show there).
        if (value.trim() === '' || value.endsWith('…'))
          refuse(
            name,
            value,
            `a run is <scenario>[:key=value,…] of at most ${RUN_SPEC_CHARS_MAX.toLocaleString('en')} characters`,
          );
        else compare[name === 'runA' ? 'a' : name === 'runB' ? 'b' : 'c'] = value;
        break;
      case 'compareMs': {
        const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
        if (Number.isSafeInteger(number)) patch.compareAtMs = number;
        else refuse(name, value, 'it must be a whole number of milliseconds');
        break;
      }
      case 'herdCompare':
        if (value === 'off') herd.comparePolicy = null;
        else if ((HERD_POLICIES as readonly string[]).includes(value)) herd.comparePolicy = value as HerdPolicy;
        else refuse(name, value, `the policies are ${HERD_POLICIES.join(', ')}, or off`);
        break;
    }
  }
  if (Object.keys(herd).length > 0) patch.herdInputs = { ...store.getState().herdInputs, ...herd };
  // A link that names a run keeps it: Compare no longer follows the Scenario menu.
  if (Object.keys(compare).length > 0) {
    patch.compareRuns = { ...store.getState().compareRuns, ...compare };
    patch.compareFollowsMenu = false;
  }
  store.setState(patch);
  store.getState().ensureTab(store.getState().tab);
  return problems;
}
