import { formatFaults, parseFaults, type MessageFault } from '../engine/core/faults';
import { formatSchedule, parseSchedule, type Choice } from '../engine/core/schedule';
import {
  FAULTS_CHARS_MAX,
  FAULTS_MAX,
  RUN_SPEC_CHARS_MAX,
  SCHEDULE_CHARS_MAX,
  SCHEDULE_CHOICES_MAX,
} from '../runs/runSpecLimits';
import type { RunState, RunStore, LinkView, SettingValue } from './runStore';

/**
 * The whole view lives in the URL's query: `?scenario=C&transport=stdio&seed=1&progressEveryMs=5&step=40`
 * (`&impl=ts-sdk` when the real SDK runs it).
 * Settings appear under their own names, and only where they differ from the scenario's default;
 * `step` only when the replay is not at the end. The run's parameters and settings are read as text:
 * the worker judges them (see the store's init), so a tampered link gets the engine's own messages. The
 * ordering (`schedule=`) and the faults (`faults=`) are parsed here, once, with the engine's own
 * grammars (and written back with them): past the link they are values.
 */

/**
 * How the page shows the run, kept in the link too (the worker never sees these): the tab, the
 * instructor mode, Linear time (the run store's time scale) and every panel slider. Defaults are left out of the link.
 */
export const VIEW_PARAMS = [
  'tab',
  'instructor',
  'linear',
  'bufferCapacity',
  'herdBaseMs',
  'herdCapMs',
  'herdClients',
  'herdPolicy',
  'herdCompare',
  'runA',
  'runB',
  'runC',
  'compareMs',
] as const;
export type ViewParam = (typeof VIEW_PARAMS)[number];

/** The query parameters that are not settings; no scenario may name a setting after one of them. */
export const RESERVED_PARAMS = [
  'scenario',
  'transport',
  'seed',
  'impl',
  'step',
  'schedule',
  'faults',
  ...VIEW_PARAMS,
] as const;

/** A limit on what a link may carry (a limit on everything): longer values are not read. */
const PARAM_CHARS_MAX = 200;
const PARAMS_MAX = 64;

/** How much of each of a run's long texts a run takes: characters as written, values once parsed. */
const REPLAY_LIMITS = {
  schedule: { charsMax: SCHEDULE_CHARS_MAX, countMax: SCHEDULE_CHOICES_MAX, unit: 'choices' },
  faults: { charsMax: FAULTS_CHARS_MAX, countMax: FAULTS_MAX, unit: 'faults' },
} as const;

/**
 * A run's long text, read whole up to the length a run reads and parsed with its grammar: one longer,
 * one the grammar refuses, or one of more choices or faults than the worker's run request takes is
 * refused here with a notice (a cut ordering would replay another ordering, and a value the worker
 * refuses would leave the page with no run).
 */
function replayValue<T>(
  name: keyof typeof REPLAY_LIMITS,
  value: string,
  refused: string[],
  parse: (text: string) => T[],
): T[] | null {
  const { charsMax, countMax, unit } = REPLAY_LIMITS[name];
  const count = (n: number) => n.toLocaleString('en');
  if (value.length > charsMax) {
    refused.push(
      `The link's ${name} is ${count(value.length)} characters, more than a run reads (${count(charsMax)}); it was not used.`,
    );
    return null;
  }
  let parsed: T[];
  try {
    parsed = parse(value);
  } catch (error) {
    // The grammar's own message (LAB022, LAB023) says what is wrong.
    refused.push(
      `The link's ${name}=${value} was not used: ${error instanceof Error ? error.message : String(error)}.`,
    );
    return null;
  }
  if (parsed.length <= countMax) return parsed;
  refused.push(
    `The link's ${name} has ${count(parsed.length)} ${unit}, more than a run takes (${count(countMax)}); it was not used.`,
  );
  return null;
}

/** The link a page was opened with; null when its query holds nothing the lab reads. */
export function readLink(search: string): LinkView | null {
  const query = new URLSearchParams(search);
  // No prototype: `constructor` or `__proto__` in a link are parameters like any other (the worker refuses them).
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const view: Partial<Record<ViewParam, string>> = {};
  let step: string | null = null;
  let schedule: Choice[] | null = null;
  let faults: MessageFault[] | null = null;
  const longSeen = new Set<string>();
  const refused: string[] = [];
  let count = 0;
  for (const [name, value] of query) {
    if (count++ >= PARAMS_MAX) break;
    const text = value.length > PARAM_CHARS_MAX ? `${value.slice(0, PARAM_CHARS_MAX)}…` : value;
    if (name === 'step') step ??= text;
    // An ordering's schedule and the faults may be long: each is read whole or refused, never cut.
    else if (name === 'schedule' || name === 'faults') {
      // The first one counts, as for every parameter.
      if (longSeen.has(name)) continue;
      longSeen.add(name);
      if (name === 'schedule') schedule = replayValue(name, value, refused, parseSchedule);
      else faults = replayValue(name, value, refused, parseFaults);
    }
    // Compare's runs are run specs: read up to the length a run spec may have, so the parser judges them whole.
    else if (name === 'runA' || name === 'runB' || name === 'runC')
      view[name] ??= value.length > RUN_SPEC_CHARS_MAX ? `${value.slice(0, RUN_SPEC_CHARS_MAX)}…` : value;
    else if ((VIEW_PARAMS as readonly string[]).includes(name)) view[name as ViewParam] ??= text;
    else if (!Object.hasOwn(params, name)) params[name] = text;
  }
  if (
    Object.keys(params).length === 0 &&
    step === null &&
    schedule === null &&
    faults === null &&
    refused.length === 0 &&
    Object.keys(view).length === 0
  )
    return null;
  const link: LinkView = {
    params: { ...params },
    step,
    ...(schedule === null ? {} : { schedule }),
    ...(faults === null ? {} : { faults }),
    ...(refused.length === 0 ? {} : { refused }),
  };
  return Object.keys(view).length === 0 ? link : { ...link, view };
}

/** The view as link parameters (only what differs from the page's defaults). */
export type ViewLink = Partial<Record<ViewParam, string>>;

/** The panels' state as the link writes it. */
export interface ViewState {
  tab: string;
  presentation: boolean;
  predict: boolean;
  capacity: number;
  herdInputs: { baseMs: number; capMs: number; clients: number; policy: string; comparePolicy: string | null };
  /** The Compare tab's runs (run specs) and shared virtual time. */
  compareRuns: { a: string; b: string; c?: string };
  /** Compare's runs follow the Scenario menu (the link's scenario says them): off the Compare tab the link leaves them out. */
  compareFollowsMenu?: boolean;
  compareAtMs: number | null;
}

export function viewParams(state: ViewState, defaults: ViewState): ViewLink {
  const view: ViewLink = {};
  if (state.tab !== defaults.tab) view.tab = state.tab;
  const mode = [state.presentation ? 'presentation' : '', state.predict ? 'predict' : ''].filter(Boolean).join(' ');
  if (mode !== '') view.instructor = mode;
  if (state.capacity !== defaults.capacity) view.bufferCapacity = String(state.capacity);
  const herd = state.herdInputs;
  const herdDefaults = defaults.herdInputs;
  if (herd.baseMs !== herdDefaults.baseMs) view.herdBaseMs = String(herd.baseMs);
  if (herd.capMs !== herdDefaults.capMs) view.herdCapMs = String(herd.capMs);
  if (herd.clients !== herdDefaults.clients) view.herdClients = String(herd.clients);
  if (herd.policy !== herdDefaults.policy) view.herdPolicy = herd.policy;
  if (herd.comparePolicy !== herdDefaults.comparePolicy) view.herdCompare = herd.comparePolicy ?? 'off';
  // The Compare tab names both runs in its link, defaults or not: the link says what is compared.
  const comparing = state.tab === 'compare';
  const chosen = state.compareFollowsMenu !== true;
  if (comparing || (chosen && state.compareRuns.a !== defaults.compareRuns.a)) view.runA = state.compareRuns.a;
  if (comparing || (chosen && state.compareRuns.b !== defaults.compareRuns.b)) view.runB = state.compareRuns.b;
  if (state.compareRuns.c !== undefined) view.runC = state.compareRuns.c;
  if (state.compareAtMs !== null) view.compareMs = String(state.compareAtMs);
  return view;
}

function settingText(value: SettingValue): string {
  return value === null ? 'none' : String(value);
}

/** The query string (with its `?`) that reopens this exact view: the run, its step, Linear time (the store's time scale) and the view's parameters. */
export function linkFor(
  state: Pick<RunState, 'scenarios' | 'spec' | 'transcript' | 'step'> & Partial<Pick<RunState, 'scale'>>,
  view: ViewLink = {},
): string {
  const { spec } = state;
  const query = new URLSearchParams();
  query.set('scenario', spec.scenario);
  query.set('transport', spec.transport);
  query.set('seed', String(spec.seed));
  // The model is the default and is left out; an SDK is named.
  if (spec.impl !== 'model') query.set('impl', spec.impl);
  const defaults = state.scenarios.find((scenario) => scenario.id === spec.scenario)?.settings ?? {};
  for (const [name, value] of Object.entries(spec.settings)) {
    if (defaults[name] !== value) query.set(name, settingText(value));
  }
  // Written with the grammars the link was read with: the text reads back as the same values.
  if (spec.schedule !== undefined) query.set('schedule', formatSchedule(spec.schedule));
  if (spec.faults !== undefined) query.set('faults', formatFaults(spec.faults));
  const total = state.transcript?.events.length;
  if (total !== undefined && state.step < total) query.set('step', String(state.step));
  const withScale: ViewLink = state.scale === 'linear' ? { ...view, linear: '1' } : view;
  for (const name of VIEW_PARAMS) {
    const value = withScale[name];
    if (value !== undefined) query.set(name, value);
  }
  return `?${query.toString()}`;
}

export interface UrlHost {
  location: { search: string; pathname: string; hash: string };
  history: { replaceState(data: unknown, unused: string, url: string): void };
}

/**
 * Browsers refuse history updates past a rate (WebKit 100 in 10 s, Chromium and Gecko 200): the address
 * bar is written at once while writes are few, and at most every URL_WRITE_EVERY_MS once they are many
 * (a playing replay, a held key, a dragged slider). URL_WRITE_BURST writes may go at once, on top of
 * that steady rate: at most URL_WRITE_BURST + 10 s / URL_WRITE_EVERY_MS (60) writes in any 10 s.
 */
export const URL_WRITE_EVERY_MS = 250;
export const URL_WRITE_BURST = 20;

/** The view's link parameters, and when they change. */
export interface ViewSource {
  /** The view's link parameters now. */
  current(): ViewLink;
  subscribe(listener: () => void): () => void;
}

/** A view in flux is not written: a running one's step is not known yet, nor an idle one's run. */
const settled = (state: RunState) => state.ready && state.status !== 'running' && state.status !== 'idle';

/**
 * Keeps the address bar on the current view, from the moment the store has applied the link it was
 * opened with (`ready`). A step that lands is in the link in the same task (a reload or a copy of the
 * address right after it reopens that step), unless the writes are many (above): then the link follows
 * within URL_WRITE_EVERY_MS. Writes replace the history entry: stepping does not fill the back button.
 * Returns the function that stops it.
 */
export function startUrlSync(store: RunStore, host: UrlHost, viewSource: ViewSource | null = null): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Writes that may go now (a token bucket: one comes back every URL_WRITE_EVERY_MS, up to the burst). */
  let tokens = URL_WRITE_BURST;
  let filledAt = Date.now();
  let lastWriteAt = -Infinity;

  const refill = (now: number) => {
    tokens = Math.min(URL_WRITE_BURST, tokens + (now - filledAt) / URL_WRITE_EVERY_MS);
    filledAt = now;
  };

  const write = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const state = store.getState();
    if (!settled(state)) return;
    const search = linkFor(state, viewSource?.current() ?? {});
    if (search === host.location.search) return;
    const now = Date.now();
    refill(now);
    tokens = Math.max(0, tokens - 1);
    lastWriteAt = now;
    host.history.replaceState(null, '', `${host.location.pathname}${search}${host.location.hash}`);
  };

  const schedule = (state: RunState) => {
    if (!settled(state)) return;
    const now = Date.now();
    refill(now);
    // Playing, the steady rate only: the burst is kept for the steps the user takes.
    const wait = state.playing
      ? Math.max(0, lastWriteAt + URL_WRITE_EVERY_MS - now, (1 - tokens) * URL_WRITE_EVERY_MS)
      : Math.max(0, (1 - tokens) * URL_WRITE_EVERY_MS);
    if (wait === 0) write();
    else timer ??= setTimeout(write, wait);
  };

  const unsubscribe = store.subscribe(schedule);
  const unsubscribeView = viewSource?.subscribe(() => schedule(store.getState())) ?? (() => undefined);
  schedule(store.getState());
  return () => {
    unsubscribe();
    unsubscribeView();
    if (timer !== null) clearTimeout(timer);
  };
}
