import type { CompareSlice, CompareView, PanelSlice, PanelSliceDeps, PanelsState, RecordedRun } from './state';
import { coalesce, message, valueOf, VIEW_DEFAULTS } from './state';

/** How Compare names one probe of an opened recording where a run spec would stand (it is shown, and kept in the link). */
export const recordedRunSpec = (probe: string, server: { name: string; version: string }): string =>
  `recorded ${probe} · ${server.name} ${server.version}`;

/** The probe a recorded run's name stands for, or null when the text is not such a name (a run spec). */
export function recordedRunOf(text: string): { probe: string } | null {
  const named = /^recorded (\S+) · \S/.exec(text);
  return named === null ? null : { probe: named[1] as string };
}

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

/** The first run that names a recorded transcript the page does not hold, if any. */
function missingRecording(
  { a, b, c }: CompareSlice['compareRuns'],
  recorded: RecordedRun | null,
): NonNullable<CompareSlice['compareRecordingMissing']> | undefined {
  return (
    [
      ['A', a],
      ['B', b],
      ['C', c],
    ] as const
  ).flatMap(([run, text]) => {
    const named = text === undefined || text === recorded?.spec ? null : recordedRunOf(text);
    return named === null ? [] : [{ run, spec: text as string, probe: named.probe }];
  })[0];
}

/** Asks Compare's worker for the runs on screen and shows the answer, if they are still the runs asked. */
async function runComparison(deps: PanelSliceDeps, set: (patch: Partial<PanelsState>) => void, get: () => PanelsState) {
  const { a, b, c } = get().compareRuns;
  const recorded = get().compareRecorded;
  // A recorded run the page does not hold is no spec the worker could run: say what the run is instead of LAB024.
  const missing = missingRecording({ a, b, c }, recorded);
  if (missing !== undefined) {
    const message = `Run ${missing.run} is the recorded transcript “${missing.spec}”, and a link holds only its name, not the recording. Open the recorded transcript (the lab probe --json file) to compare its ${missing.probe} probe beside the model, or write the run as scenario[:key=value,…]`;
    set({ compare: { status: 'error', message, value: valueOf(get().compare) }, compareRecordingMissing: missing });
    return;
  }
  set({ compare: { status: 'loading', value: valueOf(get().compare) }, compareRecordingMissing: null });
  try {
    const uses = recorded !== null && [a, b, c].includes(recorded.spec);
    const answer = await deps.compareClient.call({
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
}

/**
 * Compare, on a tools worker of its own (a long comparison never keeps the Reviewer or a panel
 * waiting): its runs, the recording that stands for one, and the one time both diagrams show.
 */
export const createCompareSlice: PanelSlice<CompareSlice> = (deps) => (set, get) => {
  const run = coalesce(() => runComparison(deps, set, get), 0);
  deps.opens.compare = () => {
    if (get().compare.status === 'idle') run();
  };
  return {
    compareRuns: { ...VIEW_DEFAULTS.compareRuns },
    compareFollowsMenu: true,
    compareRecorded: null,
    compareRecordingMissing: null,
    compare: { status: 'idle' },
    compareAtMs: null,
    setCompareRuns(a, b, c) {
      set({ compareRuns: c === undefined || c === '' ? { a, b } : { a, b, c }, compareFollowsMenu: false });
      run();
    },
    compareRecording(recorded, b) {
      set({
        compareRecorded: recorded,
        compareRuns: { a: recorded.spec, b },
        compareAtMs: null,
        compareFollowsMenu: false,
      });
      run();
    },
    compareRecordingIn(which, recorded) {
      const slot = which === 'A' ? 'a' : which === 'B' ? 'b' : 'c';
      set({
        compareRecorded: recorded,
        compareRuns: { ...get().compareRuns, [slot]: recorded.spec },
        compareFollowsMenu: false,
      });
      run();
    },
    refuseCompareRecording: (message) => set({ compare: { status: 'error', message, value: valueOf(get().compare) } }),
    setCompareAtMs: (compareAtMs) => set({ compareAtMs }),
    followScenario(scenario) {
      const s = get();
      if (!s.compareFollowsMenu) return;
      const runs = compareRunsFor(scenario);
      if (s.compareRuns.a === runs.a && s.compareRuns.b === runs.b && s.compareRuns.c === undefined) return;
      // Compared already: on the tab, compare the menu's scenario now; elsewhere, when the tab opens (ensureTab).
      set({ compareRuns: runs, compareAtMs: null, ...(s.tab === 'compare' ? {} : { compare: { status: 'idle' } }) });
      if (s.tab === 'compare') run();
    },
    stopCompare: () => {
      if (get().compare.status !== 'loading') return;
      deps.compareClient.stop?.();
    },
  };
};
