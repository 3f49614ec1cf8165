import type { Transcript } from '../../engine';
import type { StateCreator } from 'zustand/vanilla';
import { BACKOFF_POLICIES, bufferOverloadDefaults, herdDefaults, type BackoffPolicy } from '../../engine/settingsSpecs';
import type {
  BufferView,
  ComparedRun,
  FailureModeResult,
  HerdView,
  ManyComparison,
  ProxyView,
  ReconnectView,
  ReviewResult,
  RunComparison,
  TasksView,
  VerificationResult,
} from '../../worker/protocol';
import type { ToolsClient } from '../../worker/toolsClient';
import type { VerifyProgress } from '../../worker/workerClient';
import type { ViewState } from '../url';

/**
 * The panels' state, one slice per concern, each in a file of its own beside this one: which tab
 * and mode the page shows (page.ts), the checklist and the evidence export (verification.ts), the
 * reviewer (reviewer.ts), the panels' slider-driven views (views.ts) and Compare (compare.ts). Each
 * value is a view the tools worker computed (the page computes none).
 */

export const TABS = [
  { id: 'race', label: 'Race' },
  { id: 'ledger', label: 'Ledger' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'buffer', label: 'Buffer' },
  { id: 'backoff', label: 'Backoff' },
  { id: 'proxy', label: 'Proxy & reconnect' },
  { id: 'verification', label: 'Verification' },
  { id: 'reviewer', label: 'Reviewer' },
  { id: 'compare', label: 'Compare' },
  { id: 'exercises', label: 'Exercises' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

/** The backoff policies the Backoff panel offers: the very list the herd's `policy` setting takes its values from. */
export const HERD_POLICIES: readonly BackoffPolicy[] = BACKOFF_POLICIES;
export type HerdPolicy = BackoffPolicy;
export const TASK_SCENARIOS = ['task-cancel-ack', 'task-cancel-too-late', 'task-http-close'] as const;
export type TaskScenario = (typeof TASK_SCENARIOS)[number];

/** Runs side by side, as the tools worker answered. */
export interface CompareView {
  runs: [ComparedRun, ComparedRun] | [ComparedRun, ComparedRun, ComparedRun];
  comparison: RunComparison;
  /** With a third run: every run's facts and where each pair parts. */
  many?: ManyComparison;
}

export type Load<T> =
  | { status: 'idle' }
  | { status: 'loading'; value: T | null }
  | { status: 'done'; value: T }
  | { status: 'error'; message: string; value: T | null };

export interface HerdInputs {
  baseMs: number;
  capMs: number;
  clients: number;
  policy: HerdPolicy;
  /** A second policy overlaid for comparison; null: none. */
  comparePolicy: HerdPolicy | null;
}

/** One probe of an opened recording, standing where a run is written `spec`. */
export interface RecordedRun {
  spec: string;
  probe: string;
  transcript: Transcript;
}

/** Which tab and which modes the page shows. */
export interface PageSlice {
  tab: TabId;
  presentation: boolean;
  predict: boolean;
  /** The scenario's Settings section is open (kept while the run is replaced, e.g. by an error). */
  settingsOpen: boolean;
  setSettingsOpen(open: boolean): void;
  setTab(tab: TabId): void;
  setPresentation(on: boolean): void;
  setPredict(on: boolean): void;
  /** Loads what the tab shows, if it has not been loaded yet. */
  ensureTab(tab: TabId): void;
}

/** The checklist, with the catalogued failure modes that come with it. */
export interface VerificationSlice {
  verification: Load<VerificationResult[]>;
  /** How far the checklist got while it computes (the worker's reports); null when it is not computing. */
  verificationProgress: VerifyProgress | null;
  /** The catalogued failure modes' runs, checked; they come with the verification. */
  failureModes: FailureModeResult[];
  loadVerification(): Promise<void>;
  /** Ends a checklist still computing (its worker is ended); the tab offers to check again. */
  stopVerification(): void;
}

/** The evidence export. */
export interface EvidenceSlice {
  evidence: Load<{ path: string; description: string }[]>;
  /** How far the evidence export got while it computes (the worker's reports, as the checklist's); null when it is not computing. */
  evidenceProgress: VerifyProgress | null;
  /** The export under way, counted: Stop moves on, so an answer that arrives after Stop is never saved. */
  evidenceRequest: number;
  /** Builds the zip in the worker and hands its bytes to `save` (never once stopped); on an error the last finished export's list stays beside it. */
  exportEvidence(save: (bytes: Uint8Array) => void): Promise<void>;
  /** Ends an evidence export still computing (its worker is ended): nothing is saved, the last finished export's list stays; the next export starts afresh. */
  stopEvidence(): void;
}

/** The design reviewer and its skill folder. */
export interface ReviewerSlice {
  reviewText: string;
  review: Load<ReviewResult>;
  /** The reviewer skill folder's files, once downloaded. */
  skill: Load<{ path: string; description: string }[]>;
  setReviewText(text: string): void;
  submitReview(): Promise<void>;
  /** Builds the reviewer skill zip in the worker and hands its bytes to `save`. */
  downloadSkill(save: (bytes: Uint8Array) => void): Promise<void>;
}

/** The Buffer panel: its slider and its view. */
export interface BufferSlice {
  capacity: number;
  buffer: Load<BufferView>;
  setCapacity(capacity: number): void;
}

/** The Backoff panel: its sliders and policies, and its views. */
export interface HerdSlice {
  herdInputs: HerdInputs;
  herd: Load<{ main: HerdView; compare: HerdView | null }>;
  setHerd(inputs: Partial<HerdInputs>): void;
}

/** The Tasks panel: its scenario and its view. */
export interface TasksSlice {
  taskScenario: TaskScenario;
  tasks: Load<TasksView>;
  setTaskScenario(scenario: TaskScenario): void;
}

/** The Proxy & reconnect panel: its switch and its views. */
export interface ProxySlice {
  honourNoBuffering: boolean;
  proxy: Load<{ proxy: ProxyView; reconnect: ReconnectView }>;
  setHonourNoBuffering(on: boolean): void;
}

/** Compare: the runs side by side and the one time both diagrams show. */
export interface CompareSlice {
  /** The runs Compare shows as written (run specs): A and B, and C when three are side by side. */
  compareRuns: { a: string; b: string; c?: string };
  /**
   * Whether Compare's runs follow the Scenario menu (followScenario): true until runs are set by hand,
   * by an example, by a link or by a recording, which then stay whatever the menu picks.
   */
  compareFollowsMenu: boolean;
  /** A run that is not a spec (one probe of an opened recording): it stands where a run is written `spec`. */
  compareRecorded: RecordedRun | null;
  /** A run names a recorded transcript the page does not hold (a link carries only the name): the tab asks for the file. */
  compareRecordingMissing: { run: 'A' | 'B' | 'C'; spec: string; probe: string } | null;
  compare: Load<CompareView>;
  /** Both diagrams show every event at or before this virtual time; null: the end of both runs. */
  compareAtMs: number | null;
  /** Runs the two runs side by side (a malformed spec answers LAB024 and the runs on screen stay). */
  /** `c`: a third run beside A and B; absent or empty: two runs. */
  setCompareRuns(a: string, b: string, c?: string): void;
  /** Compares one probe of an opened recording (Run A) with a run of the lab (Run B, a spec). */
  compareRecording(recorded: RecordedRun, b: string): void;
  /** Puts one probe of an opened recording in the run a link named it for; the other runs (and the time) stay as the link wrote them. */
  compareRecordingIn(run: 'A' | 'B' | 'C', recorded: RecordedRun): void;
  /** An opened recording cannot stand where the link named one: says why; the runs on screen and the offer to open a recording stay. */
  refuseCompareRecording(message: string): void;
  /** Moves both diagrams to one virtual time (null: the end). */
  setCompareAtMs(atMs: number | null): void;
  /** The Scenario menu picked `scenario`: while Compare follows the menu, its runs become that scenario's (compareRunsFor). */
  followScenario(scenario: string): void;
  /** Ends a comparison still computing (its worker is ended); the runs on screen stay. */
  stopCompare(): void;
}

/**
 * What the lab's panels show. Sliders set their value at once and ask the worker for the view
 * debounced and latest-wins: while one run is in flight, further moves only mark it stale and the
 * newest values run next, so a 10,000-client herd never piles up requests.
 */
export type PanelsState = PageSlice &
  VerificationSlice &
  EvidenceSlice &
  ReviewerSlice &
  BufferSlice &
  HerdSlice &
  TasksSlice &
  ProxySlice &
  CompareSlice;

/**
 * What the slices are built over: the tools workers' clients (Compare, the checklist and the evidence
 * export each have one of their own), the reviewer's example, and what opening each tab loads (each
 * view's slice fills in its own tab; ensureTab calls it). None of it is page state.
 */
export interface PanelSliceDeps {
  client: ToolsClient;
  compareClient: ToolsClient;
  verifyClient: ToolsClient;
  evidenceClient: ToolsClient;
  exampleReview: string;
  opens: Partial<Record<TabId, () => void>>;
}

export type PanelSlice<T> = (deps: PanelSliceDeps) => StateCreator<PanelsState, [], [], T>;

/** Slider moves closer together than this are one request. */
export const SLIDER_DEBOUNCE_MS = 60;

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
export const valueOf = <T>(load: Load<T>): T | null => ('value' in load ? load.value : null);

/** Runs `task` debounced and latest-wins; `task` reads the newest inputs when it starts. */
export function coalesce(task: () => Promise<void>, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let again = false;
  const start = () => {
    timer = null;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void task().finally(() => {
      running = false;
      if (again) {
        again = false;
        start();
      }
    });
  };
  return () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(start, delayMs);
  };
}

/**
 * The defaults a link leaves out (the store's initial view): the panels open on their scenarios'
 * default settings. Compare opens on C on the model against C on the real SDK until the Scenario
 * menu's selection is known; from then on it follows the menu (followScenario) until runs are set.
 */
export const VIEW_DEFAULTS = {
  tab: 'race',
  presentation: false,
  predict: false,
  capacity: bufferOverloadDefaults.capacity,
  herdInputs: {
    baseMs: herdDefaults.baseMs,
    capMs: herdDefaults.capMs,
    clients: herdDefaults.clients,
    policy: herdDefaults.policy,
    comparePolicy: 'none',
  },
  compareRuns: { a: 'C', b: 'C:impl=ts-sdk' },
  compareAtMs: null,
} as const satisfies Omit<ViewState, 'compareRuns' | 'herdInputs'> & {
  herdInputs: HerdInputs;
  compareRuns: ViewState['compareRuns'];
};
