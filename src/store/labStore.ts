import { create, type StateCreator } from 'zustand';
import { createLabClient, LabClientError, type LabClient } from '../worker/client';
import type { ScenarioInfo, Transcript, Transport } from '../worker/protocol';

/**
 * The page's state, in two slices: what the user picked (selection) and what the worker answered
 * (run). Every protocol fact on screen comes from a transcript the worker produced; the store only
 * asks and keeps the latest answer. Changing the scenario, transport or seed runs again.
 */

export type { LabEvent, LabEventKind, ScenarioInfo, Transcript, Transport } from '../worker/protocol';

export type RunStatus = 'idle' | 'running' | 'done' | 'error';

export interface LabFailure {
  code: string;
  message: string;
}

export interface SelectionSlice {
  /** Scenario metadata as the worker listed it; empty until the first `list` answer. */
  scenarios: ScenarioInfo[];
  scenarioId: string;
  transport: Transport;
  seed: number;
  /** Picks a scenario, switches to its default transport, and runs. */
  selectScenario(id: string): void;
  setTransport(transport: Transport): void;
  setSeed(seed: number): void;
}

export interface RunSlice {
  status: RunStatus;
  transcript: Transcript | null;
  error: LabFailure | null;
  /** Lists the scenarios, then runs the selected one. Call once when the page starts. */
  init(): Promise<void>;
  /** Runs the current selection in the worker; only the latest run's answer is kept. */
  run(): Promise<void>;
}

export type LabState = SelectionSlice & RunSlice;

export const DEFAULT_SCENARIO_ID = 'A';
export const DEFAULT_SEED = 1;

function toFailure(error: unknown): LabFailure {
  if (error instanceof LabClientError) return { code: error.code, message: error.message };
  return { code: 'WORKER_FAILED', message: error instanceof Error ? error.message : String(error) };
}

const createSelectionSlice: StateCreator<LabState, [], [], SelectionSlice> = (set, get) => ({
  scenarios: [],
  scenarioId: DEFAULT_SCENARIO_ID,
  transport: 'stdio',
  seed: DEFAULT_SEED,
  selectScenario(id) {
    const info = get().scenarios.find((scenario) => scenario.id === id);
    set(info === undefined ? { scenarioId: id } : { scenarioId: id, transport: info.defaultTransport });
    void get().run();
  },
  setTransport(transport) {
    set({ transport });
    void get().run();
  },
  setSeed(seed) {
    set({ seed });
    void get().run();
  },
});

function createRunSlice(getClient: () => LabClient): StateCreator<LabState, [], [], RunSlice> {
  return (set, get) => {
    /** Bumped by every run: an answer to an older run arrives late and is dropped. */
    let latestRun = 0;
    return {
      status: 'idle',
      transcript: null,
      error: null,
      async init() {
        set({ status: 'running', error: null });
        let scenarios: ScenarioInfo[];
        try {
          scenarios = await getClient().list();
        } catch (error) {
          set({ status: 'error', error: toFailure(error) });
          return;
        }
        const selected = scenarios.find((scenario) => scenario.id === get().scenarioId) ?? scenarios[0];
        set(selected === undefined ? { scenarios } : { scenarios, scenarioId: selected.id, transport: selected.defaultTransport });
        await get().run();
      },
      async run() {
        const runId = ++latestRun;
        const { scenarioId, transport, seed } = get();
        set({ status: 'running', error: null });
        try {
          const transcript = await getClient().run({ scenario: scenarioId, transport, seed });
          if (runId === latestRun) set({ status: 'done', transcript, error: null });
        } catch (error) {
          // The transcript on screen would no longer match the inputs above it: clear it.
          if (runId === latestRun) set({ status: 'error', transcript: null, error: toFailure(error) });
        }
      },
    };
  };
}

/** A store around a lab client; the client (and so the worker) is created on first use. */
export function createLabStore(makeClient: () => LabClient = createLabClient) {
  let client: LabClient | null = null;
  const getClient = () => (client ??= makeClient());
  return create<LabState>()((...args) => ({
    ...createSelectionSlice(...args),
    ...createRunSlice(getClient)(...args),
  }));
}

/** The page's store. */
export const useLabStore = createLabStore();
