import type { Transcript } from '../../engine';
import { formatFaults } from '../../engine/core/faults';
import { formatSchedule } from '../../engine/core/schedule';
import { LabClientError, type LabClient, type LabRun } from '../../worker/client';
import { SETTINGS_NOT_APPLIED } from '../../sdk/version';
import type { ScenarioInfo, Settings } from '../../worker/protocol';
import {
  DEFAULT_SPEC,
  seededSpec,
  type LabFailure,
  type RunState,
  type Landing,
  type LinkView,
  type RunSlice,
  type Slice,
  type SliceDeps,
} from './state';

export function toFailure(error: unknown): LabFailure {
  if (error instanceof LabClientError) return { code: error.code, message: error.message };
  return { code: 'WORKER_FAILED', message: error instanceof Error ? error.message : String(error) };
}

/** `requestId=0` on ts-sdk over HTTP is the one SDK-decided value a run may ask (a resumed session; sdk/refusal.ts resumesSession). */
function withoutSdkDecided(settings: Readonly<Settings>, resumes: boolean): Settings {
  return Object.fromEntries(
    Object.entries(settings).filter(
      ([name]) =>
        !Object.hasOwn(SETTINGS_NOT_APPLIED, name) || (resumes && name === 'requestId' && settings.requestId === 0),
    ),
  );
}

/** The step a new transcript opens at: the link's, the end, or where the previous run's replay stood; and the notice when a link's step does not fit. */
function landingStep(
  landing: Landing,
  events: Transcript['events'],
  previous: { step: number; total: number } | null,
): { step: number; notice: string | null } {
  const total = events.length;
  if (landing.kind === 'time')
    return {
      step: Math.max(0, Math.min(total, events.filter((event) => event.atMs <= landing.atMs).length)),
      notice: null,
    };
  if (landing.kind === 'link') {
    const text = landing.text.trim();
    const step = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(step) && step <= total) return { step, notice: null };
    return {
      step: total,
      notice: `The link's step=${landing.text} is not a step of this run (0 to ${total}). Showing the end of the run instead.`,
    };
  }
  if (landing.kind === 'end' || previous === null || previous.step >= previous.total)
    return { step: total, notice: null };
  return { step: Math.min(previous.step, total), notice: null };
}

/** What the page shows of a worker's answer: the run (or recording) on screen, replayed at `step`. */
function onScreen(answer: LabRun, step: number) {
  const { runId, transcript, facts, race, wording, layout } = answer;
  return {
    status: 'done' as const,
    runId,
    landing: { kind: 'keep' as const },
    transcript,
    facts,
    race,
    wording,
    layout,
    error: null,
    progress: null,
    step,
    scrubMs: null,
    selectedSeq: null,
  };
}

const isLedger = (state: Pick<RunState, 'scenarios' | 'spec'>) =>
  state.scenarios.find((scenario) => scenario.id === state.spec.scenario)?.kind === 'ledger';

/** What the slice's steps reach: the worker, and the store's own get and set. */
interface Store {
  readonly deps: SliceDeps;
  readonly set: (partial: Partial<RunState>) => void;
  readonly get: () => RunState;
}

type Resolved = Awaited<ReturnType<LabClient['resolve']>>;

/** The worker's judgement of a link's params, asked at once (beside the list of scenarios); null: the link names none. */
function resolveLink({ deps }: Store, link: LinkView | null): Promise<Resolved> | null {
  if (link === null || Object.keys(link.params).length === 0) return null;
  const resolving = deps.client().resolve(link.params);
  // Read after the list has come (selectFromLink); a failed list leaves it unread.
  resolving.catch(() => undefined);
  return resolving;
}

/** The selection a link names (its params judged by the worker: `resolving`), or the first listed scenario's default. */
async function selectFromLink(
  { set, get }: Store,
  scenarios: ScenarioInfo[],
  link: LinkView | null,
  resolving: Promise<Resolved> | null,
) {
  for (const text of link?.refused ?? []) get().notify(`${text} Showing the run without it instead.`);
  if (resolving === null) {
    const selected = scenarios.find((scenario) => scenario.id === get().spec.scenario) ?? scenarios[0];
    set(
      selected === undefined
        ? { scenarios }
        : { scenarios, spec: { ...get().spec, scenario: selected.id, transport: selected.defaultTransport } },
    );
    return;
  }
  try {
    const { view, problems } = await resolving;
    set({ scenarios, spec: { ...view, impl: view.impl ?? 'model' } });
    for (const problem of problems)
      get().notify(
        `The link's ${problem.param}=${problem.value} was not used: ${problem.message}. Showing the default instead.`,
      );
  } catch (error) {
    const failure = toFailure(error);
    set({ scenarios, spec: DEFAULT_SPEC });
    get().notify(`The link could not be read (${failure.code}: ${failure.message}). Showing the default view instead.`);
  }
}

/**
 * A link's run that did not run: its faults name no message of its run (LAB023), or its ordering does
 * not fit it (LAB022): run without them, say why (either may show first, so both are looked at after
 * each run). Each value was valid alone, yet together they may not run (LAB007): open the defaults,
 * say why. The link's reader already refused an ordering or faults it could not parse, so what is
 * left here is only known by running: a run per part that does not fit.
 */
async function fallBackFromLink({ set, get }: Store, hasParams: boolean) {
  for (;;) {
    const { error: failed, spec } = get();
    if (failed?.code === 'LAB023' && spec.faults !== undefined) {
      const { faults, ...withoutFaults } = spec;
      get().notify(
        `The link's faults=${formatFaults(faults)} do not fit this run: ${failed.message}. Showing the run without faults instead.`,
      );
      set({ spec: withoutFaults, landing: { kind: 'end' } });
    } else if (failed?.code === 'LAB022' && spec.schedule !== undefined) {
      const { schedule, ...withoutSchedule } = spec;
      get().notify(
        `The link's schedule=${formatSchedule(schedule)} is not an ordering of this run: ${failed.message}. Showing the seeded run instead.`,
      );
      set({ spec: withoutSchedule, landing: { kind: 'end' } });
    } else break;
    await get().run();
  }
  const { error, spec } = get();
  // A run the user stopped (or that outlived its budget) says nothing about the link's settings.
  const ended = error !== null && (error.code === 'STOPPED' || error.code === 'RUN_BUDGET');
  if (hasParams && error !== null && !ended && Object.keys(spec.settings).length > 0) {
    get().notify(
      `The link's settings do not run together: ${error.message}. Showing this scenario's default settings instead.`,
    );
    set({ spec: { ...spec, settings: {} }, landing: { kind: 'end' } });
    await get().run();
  }
}

async function init(store: Store, link: LinkView | null) {
  const { deps, set, get } = store;
  set({ status: 'running', error: null });
  let scenarios: ScenarioInfo[];
  let resolving: Promise<Resolved> | null;
  try {
    // Both questions go to the worker at once: it answers them in order, without a round trip between.
    // Asked inside the try: a worker that cannot even be made (deps.client() throwing) is an error shown.
    const listing = deps.client().list();
    resolving = resolveLink(store, link);
    scenarios = await listing;
  } catch (error) {
    set({ status: 'error', error: toFailure(error), ready: true });
    return;
  }
  await selectFromLink(store, scenarios, link, resolving);
  const { schedule, faults } = link ?? {};
  set({
    landing: link === null || link.step === null ? { kind: 'end' } : { kind: 'link', text: link.step },
    spec: {
      ...get().spec,
      ...(schedule === undefined ? {} : { schedule }),
      ...(faults === undefined ? {} : { faults }),
    },
  });
  // The run reads the stored ledger too when it is a ledger scenario: nothing else needs sql.js.
  await get().run();
  await fallBackFromLink(store, link !== null && Object.keys(link.params).length > 0);
  set({ ready: true });
}

/** What the page shows after a run failed: the transcript on screen would no longer match the inputs above it. */
function failedRun(error: unknown): Partial<RunState> {
  return {
    status: 'error',
    runId: null,
    transcript: null,
    facts: null,
    race: null,
    wording: [],
    layout: null,
    error: toFailure(error),
    progress: null,
    step: 0,
    selectedSeq: null,
  };
}

async function run({ deps, set, get }: Store) {
  const runRequest = get().runRequest + 1;
  const { spec, keepLedger, scale } = get();
  const kept = keepLedger && isLedger(get());
  set({ runRequest, status: 'running', error: null, progress: null, playing: false });
  const latest = () => get().runRequest === runRequest;
  try {
    // The real SDK decides some settings itself: the user's values stay for the model and are not sent with it.
    // An explored ordering and faults are the model's (a change of implementation drops them).
    const sent =
      spec.impl === 'model'
        ? spec
        : {
            ...seededSpec(spec),
            settings: withoutSdkDecided(spec.settings, spec.impl === 'ts-sdk' && spec.transport === 'http'),
          };
    const answer = await deps.client().runLab({ ...sent, ledger: kept ? 'kept' : 'fresh', scale }, (progress) => {
      if (latest()) set({ progress });
    });
    // The run saved the stored ledger: show its rows as they are now. A ledger scenario shown for the
    // first time reads the stored ledger once; other scenarios never touch it (sql.js stays unloaded).
    const readLedger = kept || (isLedger(get()) && latest() && get().ledger === null && get().ledgerStatus === 'idle');
    if (latest()) {
      const { transcript: previous, step, landing } = get();
      const landed = landingStep(
        landing,
        answer.transcript.events,
        previous === null ? null : { step, total: previous.events.length },
      );
      if (landed.notice !== null) get().notify(landed.notice);
      // When the ledger is read next, its rows read as busy from the same moment the run ends (never a finished run beside stale rows).
      set({ ...onScreen(answer, landed.step), ...(readLedger ? { ledgerStatus: 'busy' as const } : {}) });
      // The scale changed while the run computed: lay it out again on the one asked for now.
      if (answer.layout.scale !== get().scale) get().relayout();
    }
    if (readLedger) await get().refreshLedger();
  } catch (error) {
    if (latest()) set(failedRun(error));
  }
}

/**
 * What the worker answered for the selection. Every protocol fact on screen comes from a transcript
 * the worker produced; the slice only asks and keeps the latest answer (`runRequest`).
 */
export const createRunSlice: Slice<RunSlice> = (deps) => (set, get) => {
  const store: Store = { deps, set, get };
  return {
    status: 'idle',
    transcript: null,
    facts: null,
    race: null,
    wording: [],
    error: null,
    progress: null,
    ready: false,
    runRequest: 0,
    runId: null,
    landing: { kind: 'end' },
    init: (link = null) => init(store, link),
    run: () => run(store),
    stop() {
      if (get().status !== 'running') return;
      deps.client().stop();
    },
    async show(open) {
      const answer = await open(deps.client(), get().scale);
      // A run still in flight would replace it when it answers: a new request count drops its answer.
      set({ runRequest: get().runRequest + 1, playing: false, ...onScreen(answer, answer.transcript.events.length) });
      // The scale changed while the worker read the file: lay it out again on the one asked for now.
      if (answer.layout.scale !== get().scale) get().relayout();
    },
  };
};
