import { formatFaults } from '../engine/core/faults';
import { formatSchedule } from '../engine/core/schedule';
import { VIEW_PARAMS, type ViewParam } from '../worker/link';
import type { RunState, RunStore, SettingValue } from './runStore';

// The link's reader is shared with the engine worker, which reads the same query to open the page's run early.
export { readLink, RESERVED_PARAMS, VIEW_PARAMS, type ViewParam } from '../worker/link';

/**
 * The whole view lives in the URL's query: `?scenario=C&transport=stdio&seed=1&progressEveryMs=5&step=40`
 * (`&impl=ts-sdk` when the real SDK runs it).
 * Settings appear under their own names, and only where they differ from the scenario's default;
 * `step` only when the replay is not at the end. The run's parameters and settings are read as text:
 * the worker judges them (see the store's init), so a tampered link gets the engine's own messages. The
 * ordering (`schedule=`) and the faults (`faults=`) are parsed once, by the link's reader (worker/link.ts),
 * with the engine's own grammars (and written back here with them): past the link they are values.
 */

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
