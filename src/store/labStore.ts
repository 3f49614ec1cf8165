import { create, type StateCreator } from 'zustand';
import { createLabClient, LabClientError, type LabClient } from '../worker/client';
import type { LedgerView, ScenarioInfo, Transcript, Transport } from '../worker/protocol';

/**
 * The page's state, in three slices: what the user picked (selection), what the worker answered
 * (run), and the stored ledger (ledger). Every protocol fact on screen comes from a transcript the
 * worker produced, every ledger row from the worker's read of the stored file; the store only asks
 * and keeps the latest answer. Changing the scenario, transport, seed or ledger choice runs again.
 */

export type {
  LabEvent,
  LabEventKind,
  LedgerOutcome,
  LedgerResponseRecord,
  LedgerRow,
  LedgerView,
  RequestOutcome,
  ScenarioInfo,
  Transcript,
  Transport,
} from '../worker/protocol';

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
  /** Ledger scenarios run on the stored ledger and save it back (on), or on a fresh one (off, the default). */
  keepLedger: boolean;
  /** Picks a scenario, switches to its default transport, and runs. */
  selectScenario(id: string): void;
  setTransport(transport: Transport): void;
  setSeed(seed: number): void;
  setKeepLedger(keep: boolean): void;
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

export type LedgerStatus = 'idle' | 'busy';

/** A ledger action that failed: which one (a sentence for the page), and the worker's error. */
export interface LedgerFailure extends LabFailure {
  action: string;
}

export interface LedgerSlice {
  /** The stored ledger as the worker last read it; null until the first read answers. */
  ledger: LedgerView | null;
  ledgerStatus: LedgerStatus;
  /** What went wrong with the last ledger action (an import of a foreign file: LAB010); the ledger above is unchanged. */
  ledgerError: LedgerFailure | null;
  /** Reads the stored ledger again (after a kept run, and when the page starts). */
  refreshLedger(): Promise<void>;
  /** Replaces the stored ledger with a file if it is a lab ledger; otherwise keeps it and sets ledgerError. */
  importLedger(file: Blob): Promise<void>;
  /** The stored ledger as a SQLite file (null, with ledgerError set, if the worker could not produce it). */
  exportLedger(): Promise<Uint8Array | null>;
  resetLedger(): Promise<void>;
}

export type LabState = SelectionSlice & RunSlice & LedgerSlice;

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
  keepLedger: false,
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
  setKeepLedger(keepLedger) {
    set({ keepLedger });
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
        await Promise.all([get().run(), get().refreshLedger()]);
      },
      async run() {
        const runId = ++latestRun;
        const { scenarioId, transport, seed, keepLedger, scenarios } = get();
        const kept = keepLedger && scenarios.find((scenario) => scenario.id === scenarioId)?.kind === 'ledger';
        set({ status: 'running', error: null });
        try {
          const transcript = await getClient().run({ scenario: scenarioId, transport, seed, ledger: kept ? 'kept' : 'fresh' });
          if (runId === latestRun) set({ status: 'done', transcript, error: null });
          // The run saved the stored ledger: show its rows as they are now.
          if (kept) await get().refreshLedger();
        } catch (error) {
          // The transcript on screen would no longer match the inputs above it: clear it.
          if (runId === latestRun) set({ status: 'error', transcript: null, error: toFailure(error) });
        }
      },
    };
  };
}

function createLedgerSlice(getClient: () => LabClient): StateCreator<LabState, [], [], LedgerSlice> {
  return (set) => {
    /** Ledger requests not yet answered: the slice is busy while any is. */
    let pending = 0;
    /** Bumped by every request that answers with the ledger's rows: only the latest answer is shown. */
    let latestView = 0;

    /** Runs one ledger request; a failure sets ledgerError and leaves the rows on screen (the worker changed nothing). */
    async function request<T>(what: string, action: () => Promise<T>, onAnswer: (answer: T) => void): Promise<T | null> {
      pending += 1;
      set({ ledgerStatus: 'busy' });
      try {
        const answer = await action();
        onAnswer(answer);
        set({ ledgerError: null });
        return answer;
      } catch (error) {
        set({ ledgerError: { action: what, ...toFailure(error) } });
        return null;
      } finally {
        pending -= 1;
        if (pending === 0) set({ ledgerStatus: 'idle' });
      }
    }

    async function view(what: string, action: () => Promise<LedgerView>): Promise<void> {
      const viewId = ++latestView;
      await request(what, action, (ledger) => {
        if (viewId === latestView) set({ ledger });
      });
    }

    return {
      ledger: null,
      ledgerStatus: 'idle',
      ledgerError: null,
      refreshLedger: () => view('Could not read the stored ledger.', () => getClient().ledgerSnapshot()),
      importLedger(file) {
        const name = (file as Partial<File>).name;
        const what = name === undefined || name === '' ? 'Could not import the file.' : `Could not import “${name}”.`;
        return view(what, async () => getClient().importLedger(new Uint8Array(await file.arrayBuffer())));
      },
      exportLedger: () => request('Could not export the ledger.', () => getClient().exportLedger(), () => undefined),
      resetLedger: () => view('Could not reset the ledger.', () => getClient().resetLedger()),
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
    ...createLedgerSlice(getClient)(...args),
  }));
}

/** The page's store. */
export const useLabStore = createLabStore();
