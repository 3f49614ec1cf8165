import type { Transcript } from '../engine';
import { BACKOFF_POLICIES, bufferOverloadDefaults, herdDefaults, type BackoffPolicy } from '../engine/settingsSpecs';
import { jsonDepth, REVIEW_DEPTH_MAX, REVIEW_INPUT_CHARS_MAX } from '../lab/reviewBounds';
import { RUN_SPEC_CHARS_MAX } from '../lab/runSpecLimits';
import { create } from 'zustand';
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
} from '../worker/protocol';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import type { VerifyProgress } from '../worker/workerClient';
import type { Settings, Transport } from '../worker/protocol';
import type { TimeScale } from '../diagram/geometry/model';
import type { ViewState } from './url';

/**
 * What the lab's panels show: each value is a view the tools worker computed (the page computes
 * none). Sliders set their value at once and ask the worker for the view debounced and latest-wins:
 * while one run is in flight, further moves only mark it stale and the newest values run next, so a
 * 10,000-client herd never piles up requests.
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

export interface PanelsState {
  tab: TabId;
  presentation: boolean;
  predict: boolean;
  /** The scenario's Settings section is open (kept while the run is replaced, e.g. by an error). */
  settingsOpen: boolean;
  setSettingsOpen(open: boolean): void;
  verification: Load<VerificationResult[]>;
  /** How far the checklist got while it computes (the worker's reports); null when it is not computing. */
  verificationProgress: VerifyProgress | null;
  /** The catalogued failure modes' runs, checked; they come with the verification. */
  failureModes: FailureModeResult[];
  evidence: Load<{ path: string; description: string }[]>;
  /** How far the evidence export got while it computes (the worker's reports, as the checklist's); null when it is not computing. */
  evidenceProgress: VerifyProgress | null;
  reviewText: string;
  review: Load<ReviewResult>;
  /** The reviewer skill folder's files, once downloaded. */
  skill: Load<{ path: string; description: string }[]>;
  capacity: number;
  buffer: Load<BufferView>;
  herdInputs: HerdInputs;
  herd: Load<{ main: HerdView; compare: HerdView | null }>;
  taskScenario: TaskScenario;
  tasks: Load<TasksView>;
  honourNoBuffering: boolean;
  proxy: Load<{ proxy: ProxyView; reconnect: ReconnectView }>;
  /** The runs Compare shows as written (run specs): A and B, and C when three are side by side. */
  compareRuns: { a: string; b: string; c?: string };
  /**
   * Whether Compare's runs follow the Scenario menu (followScenario): true until runs are set by hand,
   * by an example, by a link or by a recording, which then stay whatever the menu picks.
   */
  compareFollowsMenu: boolean;
  /** A run that is not a spec (one probe of an opened recording): it stands where a run is written `spec`. */
  compareRecorded: { spec: string; probe: string; transcript: Transcript } | null;
  /** A run names a recorded transcript the page does not hold (a link carries only the name): the tab asks for the file. */
  compareRecordingMissing: { run: 'A' | 'B' | 'C'; spec: string; probe: string } | null;
  compare: Load<CompareView>;
  /** Both diagrams show every event at or before this virtual time; null: the end of both runs. */
  compareAtMs: number | null;

  setTab(tab: TabId): void;
  setPresentation(on: boolean): void;
  setPredict(on: boolean): void;
  loadVerification(): Promise<void>;
  /** Ends a checklist still computing (its worker is ended); the tab offers to check again. */
  stopVerification(): void;
  /** Builds the zip in the worker and hands its bytes to `save` (never once stopped); on an error the last finished export's list stays beside it. */
  exportEvidence(save: (bytes: Uint8Array) => void): Promise<void>;
  /** Ends an evidence export still computing (its worker is ended): nothing is saved, the last finished export's list stays; the next export starts afresh. */
  stopEvidence(): void;
  setReviewText(text: string): void;
  submitReview(): Promise<void>;
  /** Builds the reviewer skill zip in the worker and hands its bytes to `save`. */
  downloadSkill(save: (bytes: Uint8Array) => void): Promise<void>;
  setCapacity(capacity: number): void;
  setHerd(inputs: Partial<HerdInputs>): void;
  setTaskScenario(scenario: TaskScenario): void;
  setHonourNoBuffering(on: boolean): void;
  /** Runs the two runs side by side (a malformed spec answers LAB024 and the runs on screen stay). */
  /** `c`: a third run beside A and B; absent or empty: two runs. */
  setCompareRuns(a: string, b: string, c?: string): void;
  /** Compares one probe of an opened recording (Run A) with a run of the lab (Run B, a spec). */
  compareRecording(recorded: { spec: string; probe: string; transcript: Transcript }, b: string): void;
  /** Puts one probe of an opened recording in the run a link named it for; the other runs (and the time) stay as the link wrote them. */
  compareRecordingIn(run: 'A' | 'B' | 'C', recorded: { spec: string; probe: string; transcript: Transcript }): void;
  /** An opened recording cannot stand where the link named one: says why; the runs on screen and the offer to open a recording stay. */
  refuseCompareRecording(message: string): void;
  /** Moves both diagrams to one virtual time (null: the end). */
  setCompareAtMs(atMs: number | null): void;
  /** The Scenario menu picked `scenario`: while Compare follows the menu, its runs become that scenario's (compareRunsFor). */
  followScenario(scenario: string): void;
  /** Ends a comparison still computing (its worker is ended); the runs on screen stay. */
  stopCompare(): void;
  /** Loads what the tab shows, if it has not been loaded yet. */
  ensureTab(tab: TabId): void;
}

/** How Compare names one probe of an opened recording where a run spec would stand (it is shown, and kept in the link). */
export const recordedRunSpec = (probe: string, server: { name: string; version: string }): string =>
  `recorded ${probe} · ${server.name} ${server.version}`;

/** The probe a recorded run's name stands for, or null when the text is not such a name (a run spec). */
export function recordedRunOf(text: string): { probe: string } | null {
  const named = /^recorded (\S+) · \S/.exec(text);
  return named === null ? null : { probe: named[1] as string };
}

/** Slider moves closer together than this are one request. */
export const SLIDER_DEBOUNCE_MS = 60;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const valueOf = <T>(load: Load<T>): T | null => ('value' in load ? load.value : null);
/** After Stop or a failure the last export that finished stays listed (it was downloaded); this says whose list it is. */
const listedAreLastFinished = (article: 'The' | 'the'): string =>
  `${article} files listed are those of the last export that finished.`;

/** Runs `task` debounced and latest-wins; `task` reads the newest inputs when it starts. */
function coalesce(task: () => Promise<void>, delayMs: number): () => void {
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

export function createPanelsStore(
  client: ToolsClient,
  exampleReview: string,
  compareClient: ToolsClient = client,
  verifyClient: ToolsClient = client,
  evidenceClient: ToolsClient = client,
) {
  return create<PanelsState>()((set, get) => {
    /** The export under way; Stop moves on, so an answer that arrives after Stop is never saved. */
    let evidenceExport = 0;
    const panel = (scenario: string, settings: Settings, transport: Transport = 'http') =>
      client.call({ type: 'panel', scenario, transport, seed: 1, settings } satisfies ToolCall);

    const runBuffer = coalesce(async () => {
      set({ buffer: { status: 'loading', value: valueOf(get().buffer) } });
      try {
        const { view } = await panel('buffer-overload', { capacity: get().capacity });
        set({ buffer: { status: 'done', value: view as BufferView } });
      } catch (error) {
        set({ buffer: { status: 'error', message: message(error), value: valueOf(get().buffer) } });
      }
    }, SLIDER_DEBOUNCE_MS);

    const runHerd = coalesce(async () => {
      const { baseMs, capMs, clients, policy, comparePolicy } = get().herdInputs;
      set({ herd: { status: 'loading', value: valueOf(get().herd) } });
      try {
        const settings = { baseMs, capMs: Math.max(capMs, baseMs), clients };
        const [main, compare] = await Promise.all([
          panel('herd', { ...settings, policy }),
          comparePolicy === null ? null : panel('herd', { ...settings, policy: comparePolicy }),
        ]);
        set({
          herd: {
            status: 'done',
            value: { main: main.view as HerdView, compare: compare === null ? null : (compare.view as HerdView) },
          },
        });
      } catch (error) {
        set({ herd: { status: 'error', message: message(error), value: valueOf(get().herd) } });
      }
    }, SLIDER_DEBOUNCE_MS);

    const runTasks = coalesce(async () => {
      set({ tasks: { status: 'loading', value: valueOf(get().tasks) } });
      try {
        const { view } = await panel(get().taskScenario, {});
        set({ tasks: { status: 'done', value: view as TasksView } });
      } catch (error) {
        set({ tasks: { status: 'error', message: message(error), value: valueOf(get().tasks) } });
      }
    }, 0);

    const runProxy = coalesce(async () => {
      set({ proxy: { status: 'loading', value: valueOf(get().proxy) } });
      try {
        const [proxy, reconnect] = await Promise.all([
          panel('proxy-buffering', { honourNoBuffering: get().honourNoBuffering }),
          panel('reconnect-listen', {}),
        ]);
        set({
          proxy: {
            status: 'done',
            value: { proxy: proxy.view as ProxyView, reconnect: reconnect.view as ReconnectView },
          },
        });
      } catch (error) {
        set({ proxy: { status: 'error', message: message(error), value: valueOf(get().proxy) } });
      }
    }, 0);

    const runCompare = coalesce(async () => {
      const { a, b, c } = get().compareRuns;
      const recorded = get().compareRecorded;
      // A recorded run the page does not hold is no spec the worker could run: say what the run is instead of LAB024.
      const missing = (
        [
          ['A', a],
          ['B', b],
          ['C', c],
        ] as const
      ).flatMap(([run, text]) => {
        const named = text === undefined || text === recorded?.spec ? null : recordedRunOf(text);
        return named === null ? [] : [{ run, spec: text as string, probe: named.probe }];
      })[0];
      if (missing !== undefined) {
        const message = `Run ${missing.run} is the recorded transcript “${missing.spec}”, and a link holds only its name, not the recording. Open the recorded transcript (the lab probe --json file) to compare its ${missing.probe} probe beside the model, or write the run as scenario[:key=value,…]`;
        set({ compare: { status: 'error', message, value: valueOf(get().compare) }, compareRecordingMissing: missing });
        return;
      }
      set({ compare: { status: 'loading', value: valueOf(get().compare) }, compareRecordingMissing: null });
      try {
        const uses = recorded !== null && [a, b, c].includes(recorded.spec);
        const answer = await compareClient.call({
          type: 'compare',
          runs: c === undefined ? [a, b] : [a, b, c],
          ...(uses ? { recorded } : {}),
        });
        // The answer is for the runs asked; newer ones may already be on their way (latest wins).
        if (get().compareRuns.a !== a || get().compareRuns.b !== b || get().compareRuns.c !== c) return;
        const view: CompareView = {
          runs: answer.runs,
          comparison: answer.comparison,
          ...(answer.many === undefined ? {} : { many: answer.many }),
        };
        const end = Math.max(...view.runs.map((run) => run.transcript.events.at(-1)?.atMs ?? 0));
        const atMs = get().compareAtMs;
        set({ compare: { status: 'done', value: view }, compareAtMs: atMs === null || atMs > end ? null : atMs });
      } catch (error) {
        set({ compare: { status: 'error', message: message(error), value: valueOf(get().compare) } });
      }
    }, 0);

    return {
      tab: 'race',
      presentation: false,
      predict: false,
      settingsOpen: false,
      setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
      verification: { status: 'idle' },
      verificationProgress: null,
      failureModes: [],
      evidence: { status: 'idle' },
      evidenceProgress: null,
      reviewText: exampleReview,
      review: { status: 'idle' },
      skill: { status: 'idle' },
      capacity: VIEW_DEFAULTS.capacity,
      buffer: { status: 'idle' },
      herdInputs: { ...VIEW_DEFAULTS.herdInputs },
      herd: { status: 'idle' },
      taskScenario: 'task-cancel-ack',
      tasks: { status: 'idle' },
      honourNoBuffering: false,
      proxy: { status: 'idle' },
      compareRuns: { ...VIEW_DEFAULTS.compareRuns },
      compareFollowsMenu: true,
      compareRecorded: null,
      compareRecordingMissing: null,
      compare: { status: 'idle' },
      compareAtMs: null,

      setTab(tab) {
        set({ tab });
        get().ensureTab(tab);
      },
      setPresentation: (presentation) => set({ presentation }),
      setPredict: (predict) => set({ predict }),
      async loadVerification() {
        if (get().verification.status === 'loading') return;
        set({ verification: { status: 'loading', value: valueOf(get().verification) }, verificationProgress: null });
        try {
          const answer = await verifyClient.call(
            { type: 'verify' },
            { verifyProgress: (verificationProgress) => set({ verificationProgress }) },
          );
          set({
            verification: { status: 'done', value: answer.results },
            failureModes: answer.failureModes ?? [],
            verificationProgress: null,
          });
        } catch (error) {
          set({ verification: { status: 'error', message: message(error), value: null }, verificationProgress: null });
        }
      },
      stopVerification() {
        if (get().verification.status !== 'loading') return;
        verifyClient.stop?.();
      },
      async exportEvidence(save) {
        if (get().evidence.status === 'loading') return;
        const current = ++evidenceExport;
        set({ evidence: { status: 'loading', value: valueOf(get().evidence) }, evidenceProgress: null });
        try {
          const answer = await evidenceClient.call(
            { type: 'evidence' },
            { verifyProgress: (evidenceProgress) => current === evidenceExport && set({ evidenceProgress }) },
          );
          if (current !== evidenceExport) return; // stopped: the zip is not saved
          save(answer.bytes);
          set({ evidence: { status: 'done', value: answer.files }, evidenceProgress: null });
        } catch (error) {
          if (current !== evidenceExport) return;
          // As after Stop: the last export that finished was downloaded, so its list stays, and the error says whose list it is.
          const earlier = valueOf(get().evidence);
          const failure =
            earlier === null
              ? message(error)
              : `${message(error).replace(/\.$/, '')}. Nothing was downloaded; ${listedAreLastFinished('the')}`;
          set({ evidence: { status: 'error', message: failure, value: earlier }, evidenceProgress: null });
        }
      },
      stopEvidence() {
        if (get().evidence.status !== 'loading') return;
        evidenceExport += 1;
        // An earlier export that finished was downloaded: its list stays, and the message says whose it is.
        const earlier = valueOf(get().evidence);
        const message = `Stopped: the evidence export was ended before it finished; nothing was downloaded.${earlier === null ? '' : ` ${listedAreLastFinished('The')}`}`;
        set({ evidence: { status: 'error', message, value: earlier }, evidenceProgress: null });
        evidenceClient.stop?.();
      },
      setReviewText: (reviewText) => set({ reviewText }),
      async submitReview() {
        let input: unknown;
        const text = get().reviewText;
        // Size and nesting first: parsing a huge text blocks the page, and cloning one nested
        // 100,000 deep for the worker overflows the stack.
        const tooBig =
          text.length > REVIEW_INPUT_CHARS_MAX
            ? `is ${text.length.toLocaleString('en')} characters, more than the reviewer reads (${REVIEW_INPUT_CHARS_MAX.toLocaleString('en')})`
            : null;
        const tooDeep =
          tooBig === null && jsonDepth(text) > REVIEW_DEPTH_MAX
            ? `nests arrays and objects more than ${REVIEW_DEPTH_MAX} levels deep; a design needs 3`
            : null;
        if (tooBig !== null || tooDeep !== null) {
          set({
            review: {
              status: 'done',
              value: { ok: false, errors: [{ field: '/', message: tooBig ?? tooDeep ?? '' }] },
            },
          });
          return;
        }
        try {
          input = JSON.parse(text);
        } catch (error) {
          set({
            review: {
              status: 'done',
              value: { ok: false, errors: [{ field: '/', message: `is not JSON: ${message(error)}` }] },
            },
          });
          return;
        }
        set({ review: { status: 'loading', value: valueOf(get().review) } });
        try {
          set({ review: { status: 'done', value: (await client.call({ type: 'review', input })).result } });
        } catch (error) {
          set({ review: { status: 'error', message: message(error), value: null } });
        }
      },
      async downloadSkill(save) {
        set({ skill: { status: 'loading', value: valueOf(get().skill) } });
        try {
          const answer = await client.call({ type: 'skill' });
          save(answer.bytes);
          set({ skill: { status: 'done', value: answer.files } });
        } catch (error) {
          set({ skill: { status: 'error', message: message(error), value: null } });
        }
      },
      setCapacity(capacity) {
        set({ capacity });
        runBuffer();
      },
      setHerd(inputs) {
        set({ herdInputs: { ...get().herdInputs, ...inputs } });
        runHerd();
      },
      setTaskScenario(taskScenario) {
        set({ taskScenario });
        runTasks();
      },
      setHonourNoBuffering(honourNoBuffering) {
        set({ honourNoBuffering });
        runProxy();
      },
      setCompareRuns(a, b, c) {
        set({ compareRuns: c === undefined || c === '' ? { a, b } : { a, b, c }, compareFollowsMenu: false });
        runCompare();
      },
      compareRecording(recorded, b) {
        set({
          compareRecorded: recorded,
          compareRuns: { a: recorded.spec, b },
          compareAtMs: null,
          compareFollowsMenu: false,
        });
        runCompare();
      },
      compareRecordingIn(run, recorded) {
        const slot = run === 'A' ? 'a' : run === 'B' ? 'b' : 'c';
        set({
          compareRecorded: recorded,
          compareRuns: { ...get().compareRuns, [slot]: recorded.spec },
          compareFollowsMenu: false,
        });
        runCompare();
      },
      refuseCompareRecording: (message) =>
        set({ compare: { status: 'error', message, value: valueOf(get().compare) } }),
      setCompareAtMs: (compareAtMs) => set({ compareAtMs }),
      followScenario(scenario) {
        const s = get();
        if (!s.compareFollowsMenu) return;
        const runs = compareRunsFor(scenario);
        if (s.compareRuns.a === runs.a && s.compareRuns.b === runs.b && s.compareRuns.c === undefined) return;
        // Compared already: on the tab, compare the menu's scenario now; elsewhere, when the tab opens (ensureTab).
        set({ compareRuns: runs, compareAtMs: null, ...(s.tab === 'compare' ? {} : { compare: { status: 'idle' } }) });
        if (s.tab === 'compare') runCompare();
      },
      stopCompare: () => {
        if (get().compare.status !== 'loading') return;
        compareClient.stop?.();
      },
      ensureTab(tab) {
        const s = get();
        if (tab === 'compare' && s.compare.status === 'idle') runCompare();
        if (tab === 'verification' && s.verification.status === 'idle') void s.loadVerification();
        if (tab === 'buffer' && s.buffer.status === 'idle') runBuffer();
        if (tab === 'backoff' && s.herd.status === 'idle') runHerd();
        if (tab === 'tasks' && s.tasks.status === 'idle') runTasks();
        if (tab === 'proxy' && s.proxy.status === 'idle') runProxy();
      },
    };
  });
}

export type PanelsStore = ReturnType<typeof createPanelsStore>;

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

/** The scenarios the real SDK runs (the request races): Compare puts the model beside it for these. */
const SDK_COMPARED: readonly string[] = ['A', 'B', 'C', 'D'];

/**
 * The runs Compare opens on for the scenario the Scenario menu picked: the model beside the real SDK
 * for a request race A–D, otherwise the scenario on stdio beside it on Streamable HTTP.
 */
export function compareRunsFor(scenario: string): { a: string; b: string } {
  return SDK_COMPARED.includes(scenario)
    ? { a: scenario, b: `${scenario}:impl=ts-sdk` }
    : { a: `${scenario}:transport=stdio`, b: `${scenario}:transport=http` };
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

/** Where Linear time goes: the lab store's one time scale. */
export interface ScaleTarget {
  setScale(scale: TimeScale): void;
}

/**
 * Applies the view part of a link (tab, mode, panel sliders, and Linear time to the lab store's time
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
