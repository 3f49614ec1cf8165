import { describe, expect, it, vi } from 'vitest';
import { settingsSpecFor } from '../engine';
import { scenarios } from '../scenarios/index';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { createRunStore, type RunState } from './runStore';
import { idle, manualTicker, whenSettled } from './driver';
import { linkFor, readLink, RESERVED_PARAMS, startUrlSync, URL_WRITE_BURST, URL_WRITE_EVERY_MS } from './url';

// The replay and the link: stepping is exact and never asks the worker; a link reopens the exact
// view (scenario, transport, seed, settings, step); a tampered link opens with the engine's own
// messages as notices and the defaults in their place, never a blank page; the address bar
// follows the view, throttled.

function storeWithWorker() {
  const worker = createInProcessWorker();
  const ticker = manualTicker();
  const store = createRunStore(() => createLabClient(() => worker), ticker);
  return { store, worker, ticker };
}

/** Resolves when nothing runs and the link is applied (the store says so when it changes; no polling of the wall clock). */
const settled = (store: ReturnType<typeof createRunStore>) => whenSettled(store, (state) => idle(state) && state.ready);

const runs = (worker: ReturnType<typeof createInProcessWorker>) =>
  worker.posted.filter((message) => (message as { type: string }).type === 'run').length;

/** An address bar the sync writes to: every URL it was given, and the search it shows. */
function addressBar(search: string) {
  const writes: string[] = [];
  const host = {
    location: { search, pathname: '/', hash: '' },
    history: {
      replaceState(_data: unknown, _unused: string, url: string) {
        writes.push(url);
        host.location.search = url.slice(1);
      },
    },
  };
  return { writes, host };
}

describe('replay', () => {
  it('opens a run at its end; steps, scrubs, rewinds and plays without asking the worker again', async () => {
    const { store, worker, ticker } = storeWithWorker();
    await store.getState().init();
    const total = store.getState().transcript?.events.length ?? 0;
    expect(total).toBe(20);
    expect(store.getState().step).toBe(total);
    expect(store.getState().facts).toMatchObject({ terminalState: expect.any(Number) });
    const before = runs(worker);

    store.getState().rewind();
    expect(store.getState().step).toBe(0);
    store.getState().stepBack();
    expect(store.getState().step).toBe(0);
    store.getState().stepForward();
    store.getState().stepForward();
    expect(store.getState().step).toBe(2);
    // 120 ms: everything at or before it (A's cancellation is at 120 ms).
    store.getState().seekTime(120);
    const events = store.getState().transcript?.events ?? [];
    expect(store.getState().step).toBe(events.filter((event) => event.atMs <= 120).length);
    expect(store.getState().scrubMs).toBe(120);
    store.getState().stepForward();
    expect(store.getState().scrubMs).toBeNull();
    store.getState().toEnd();
    expect(store.getState().step).toBe(total);
    store.getState().stepForward();
    expect(store.getState().step).toBe(total);

    // Play from the end starts again from the beginning, and stops at the end.
    store.getState().setSpeed(32);
    store.getState().play();
    expect(store.getState()).toMatchObject({ playing: true, step: 0 });
    expect(ticker.intervalMs).toBe(1000 / 32);
    ticker.tick(total + 3);
    expect(store.getState()).toMatchObject({ playing: false, step: total });
    expect(runs(worker)).toBe(before);
  });

  it('a new transport keeps the replay where it stood; a new scenario opens at its end', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().setStep(7);
    store.getState().select({ transport: 'http' });
    await settled(store);
    expect(store.getState()).toMatchObject({ spec: { transport: 'http' }, step: 7 });
    store.getState().selectScenario('C');
    await settled(store);
    expect(store.getState().step).toBe(store.getState().transcript?.events.length);
  });

  it('runs with settings, and shows the engine’s LAB005 for an out-of-range one', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().selectScenario('C');
    await settled(store);
    store.getState().setSetting('progressEveryMs', 100);
    await settled(store);
    expect(store.getState().transcript?.settings.progressEveryMs).toBe(100);
    store.getState().setSetting('workMs', -5);
    await settled(store);
    expect(store.getState()).toMatchObject({
      status: 'error',
      transcript: null,
      error: { code: 'LAB005', message: expect.stringContaining('workMs=-5') },
    });
    store.getState().setSetting('workMs', undefined);
    await settled(store);
    expect(store.getState()).toMatchObject({ status: 'done', spec: { settings: { progressEveryMs: 100 } } });
  });
});

describe('the view in the link', () => {
  it('reads the query, and writes one that reopens the same view', () => {
    expect(readLink('')).toBeNull();
    expect(readLink('?utm=x')).toEqual({ params: { utm: 'x' }, step: null });
    expect(readLink('?scenario=C&seed=3&progressEveryMs=5&step=40')).toEqual({
      params: { scenario: 'C', seed: '3', progressEveryMs: '5' },
      step: '40',
    });
    const c = scenarios.find((scenario) => scenario.id === 'C');
    const state = {
      scenarios: [{ id: 'C', settings: { ...c?.settings } }],
      spec: {
        scenario: 'C',
        impl: 'model',
        transport: 'stdio',
        seed: 3,
        settings: { progressEveryMs: 5, idleTimeoutMs: 500, cancelAtMs: null },
      },
      transcript: { events: new Array(60) },
      step: 40,
    } as unknown as RunState;
    // Overrides equal to the default are left out; null is written as the CLI writes it.
    expect(linkFor(state)).toBe('?scenario=C&transport=stdio&seed=3&progressEveryMs=5&step=40');
    expect(linkFor({ ...state, step: 60, spec: { ...state.spec, settings: { cancelAtMs: 900 } } })).toBe(
      '?scenario=C&transport=stdio&seed=3&cancelAtMs=900',
    );
  });

  it('no scenario names a setting after a view parameter', () => {
    for (const scenario of scenarios) {
      expect(
        Object.keys(settingsSpecFor(scenario)).filter((name) => (RESERVED_PARAMS as readonly string[]).includes(name)),
        scenario.id,
      ).toEqual([]);
    }
  });

  it('a shared link reopens the exact view', async () => {
    const { store } = storeWithWorker();
    await store.getState().init(readLink('?scenario=C&transport=http&seed=3&progressEveryMs=100&step=10'));
    await settled(store);
    expect(store.getState()).toMatchObject({
      spec: { scenario: 'C', transport: 'http', seed: 3, settings: { progressEveryMs: 100 } },
      step: 10,
      notices: [],
      status: 'done',
    });
    expect(store.getState().transcript?.settings.progressEveryMs).toBe(100);
    expect(linkFor(store.getState())).toBe('?scenario=C&transport=http&seed=3&progressEveryMs=100&step=10');
  });

  it('a tampered link opens the defaults, with the engine’s message for each value it refused', async () => {
    const { store } = storeWithWorker();
    await store.getState().init(readLink('?scenario=C&transport=carrier-pigeon&seed=abc&workMs=-5&bogus=1&step=9999'));
    await settled(store);
    const state = store.getState();
    expect(state).toMatchObject({ status: 'done', spec: { scenario: 'C', transport: 'stdio', seed: 1, settings: {} } });
    expect(state.step).toBe(state.transcript?.events.length);
    const notices = state.notices.map((notice) => notice.text);
    expect(notices).toEqual([
      expect.stringContaining('transport=carrier-pigeon was not used: LAB002'),
      expect.stringContaining('seed=abc was not used: LAB003'),
      expect.stringContaining('workMs=-5 was not used: LAB005'),
      expect.stringContaining('bogus=1 was not used: LAB004'),
      expect.stringContaining('step=9999 is not a step of this run'),
    ]);
    store.getState().dismissNotices();
    expect(store.getState().notices).toEqual([]);
  });

  it('an unknown scenario opens A; settings that cannot run together open the defaults', async () => {
    const first = storeWithWorker().store;
    await first.getState().init(readLink('?scenario=Z'));
    await settled(first);
    expect(first.getState()).toMatchObject({
      spec: { scenario: 'A' },
      status: 'done',
      notices: [{ text: expect.stringContaining('LAB001') }],
    });

    const second = storeWithWorker().store;
    await second.getState().init(readLink('?scenario=herd&clients=10&tracedClient=50'));
    await settled(second);
    expect(second.getState()).toMatchObject({ spec: { scenario: 'herd', settings: {} }, status: 'done', error: null });
    expect(second.getState().notices.map((notice) => notice.text)).toEqual([expect.stringContaining('LAB007')]);
  });

  it('the address bar names a step in the same task the step lands in, once the link is applied', async () => {
    const { store } = storeWithWorker();
    const { writes, host } = addressBar('?scenario=B');
    const stop = startUrlSync(store, host);
    await store.getState().init(readLink(host.location.search));
    await settled(store);
    expect(writes).toEqual(['/?scenario=B&transport=stdio&seed=1']);
    const total = store.getState().transcript?.events.length ?? 0;
    // No timer runs between a step and the read: a reload or a copy right after it gets that step.
    for (let i = 1; i <= 5; i++) {
      store.getState().stepBack();
      expect(host.location.search).toBe(`?scenario=B&transport=stdio&seed=1&step=${total - i}`);
    }
    store.getState().toEnd();
    expect(host.location.search).toBe('?scenario=B&transport=stdio&seed=1');
    stop();
  });

  it('many steps in a row write at most URL_WRITE_BURST at once, then every URL_WRITE_EVERY_MS, and the last step always lands', async () => {
    const { store } = storeWithWorker();
    const { writes, host } = addressBar('?scenario=B');
    const stop = startUrlSync(store, host);
    await store.getState().init(readLink(host.location.search));
    await settled(store);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const first = writes.length;
      // A held key: 1,000 steps 10 ms apart (10 s), back and forth, each a link of its own.
      for (let i = 0; i < 1000; i++) {
        if (i % 2 === 0) store.getState().stepBack();
        else store.getState().stepForward();
        vi.advanceTimersByTime(10);
      }
      const made = writes.length - first;
      // Browsers refuse more than 100 in 10 s (WebKit): the burst and one a URL_WRITE_EVERY_MS stay under it.
      expect(made).toBeGreaterThanOrEqual(URL_WRITE_BURST);
      expect(made).toBeLessThanOrEqual(URL_WRITE_BURST + 10_000 / URL_WRITE_EVERY_MS + 1);
      expect(made).toBeLessThan(100);
      // The last step (back from the end) is in the link within URL_WRITE_EVERY_MS.
      store.getState().stepBack();
      vi.advanceTimersByTime(URL_WRITE_EVERY_MS);
      expect(host.location.search).toBe(`?scenario=B&transport=stdio&seed=1&step=${store.getState().step}`);
      // Quiet for a while, the burst is back: a step is in the link at once again.
      vi.advanceTimersByTime(URL_WRITE_EVERY_MS * URL_WRITE_BURST);
      store.getState().stepBack();
      expect(host.location.search).toBe(`?scenario=B&transport=stdio&seed=1&step=${store.getState().step}`);
    } finally {
      vi.useRealTimers();
      stop();
    }
  });
});

describe('the view part of the link', () => {
  it('keeps the tab, the mode, Linear time and the sliders, and reads them back; bad values are refused', async () => {
    // Linear time is the run store's one time scale: the link writes it from there and gives it back there.
    const { createPanelsStore, applyViewLink, VIEW_DEFAULTS } = await import('./panelsStore');
    const { viewParams } = await import('./url');
    const never = { call: () => new Promise<never>(() => undefined) } as never;
    const panels = createPanelsStore(never, '{}');
    panels.setState({
      tab: 'backoff',
      presentation: true,
      predict: true,
      capacity: 12,
      herdInputs: { baseMs: 500, capMs: 9000, clients: 2000, policy: 'exponential', comparePolicy: null },
    });
    const view = viewParams(panels.getState(), VIEW_DEFAULTS);
    expect(view).toEqual({
      tab: 'backoff',
      instructor: 'presentation predict',
      bufferCapacity: '12',
      herdBaseMs: '500',
      herdCapMs: '9000',
      herdClients: '2000',
      herdPolicy: 'exponential',
      herdCompare: 'off',
    });
    const lab: Parameters<typeof linkFor>[0] = {
      scenarios: [],
      spec: { scenario: 'B', impl: 'model', transport: 'stdio', seed: 1, settings: {} },
      transcript: null,
      step: 0,
      scale: 'linear',
    };
    const search = linkFor(lab, view);
    expect(search).toContain('&instructor=presentation+predict&linear=1&bufferCapacity=12');
    const link = readLink(search);
    expect(link?.params).toEqual({ scenario: 'B', transport: 'stdio', seed: '1' });
    const reopened = createPanelsStore(never, '{}');
    const scales: string[] = [];
    expect(applyViewLink(reopened, link?.view ?? {}, { setScale: (scale) => scales.push(scale) })).toEqual([]);
    expect(scales).toEqual(['linear']);
    expect(viewParams(reopened.getState(), VIEW_DEFAULTS)).toEqual(view);
    expect(linkFor({ ...lab, scale: 'ordinal' }, view)).not.toContain('linear');
    expect(viewParams(createPanelsStore(never, '{}').getState(), VIEW_DEFAULTS)).toEqual({});

    const tampered = createPanelsStore(never, '{}');
    const untouched: string[] = [];
    const problems = applyViewLink(
      tampered,
      { tab: 'nope', bufferCapacity: '999', herdPolicy: 'random', linear: 'yes' },
      { setScale: (scale) => untouched.push(scale) },
    );
    expect(problems).toHaveLength(4);
    expect(untouched).toEqual([]);
    expect(problems.join(' ')).toContain('bufferCapacity=999');
    expect(viewParams(tampered.getState(), VIEW_DEFAULTS)).toEqual({});
  });
});
