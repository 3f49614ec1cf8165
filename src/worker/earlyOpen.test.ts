// Proves the built page's early start changes nothing the page shows: the worker reads the page's link
// (an `open` request, sent before the page has booted) and starts the run the store asks for first; the
// store's first list, resolve and run take those answers when they ask exactly that, and the page ends
// up in the very state it reaches asking the worker itself, for good links and bad ones alike. A run
// the store does not ask for is abandoned (the worker replaced), and Stop ends the early run like any.
import { describe, expect, it } from 'vitest';
import { createRunStore } from '../store/runStore';
import { whenSettled } from '../store/driver';
import { readLink } from '../store/url';
import { createLabClient } from './client';
import initSqlJs from 'sql.js';
import { createLabHost } from './host';
import { memoryLedgerStorage } from './ledgerStorage';
import { createInProcessWorker, type InProcessWorker } from './inProcessWorker';
import { EARLY_SEARCH_CHARS_MAX, openEarly } from './labWorker';
import { OPEN_SEARCH_CHARS_MAX } from './schemas';
import type { LabResponse } from './protocol';

/** A store over in-process workers; with `early`, the first one was sent the link as the built page sends it. */
function storeOver(search: string, early: boolean, openAnswerDelayMs = 0) {
  const workers: InProcessWorker[] = [];
  const store = createRunStore(() =>
    createLabClient(() => {
      const worker = createInProcessWorker();
      workers.push(worker);
      if (!early || workers.length > 1) return worker;
      // The early run's answer comes late: it still computes when the store asks.
      worker.delayWith((request) => ((request as { type: string }).type === 'open' ? openAnswerDelayMs : 0));
      return Object.assign(worker, { opening: openEarly(worker, search) });
    }),
  );
  return { store, workers };
}

const createHost = () => createLabHost({ sql: initSqlJs(), storage: memoryLedgerStorage() });

const FIRST_VISIT = { params: {}, step: '0' };
const typesPosted = (worker: InProcessWorker | undefined) =>
  (worker?.posted ?? []).map((request) => (request as { type: string }).type);

/** What the page shows once the link is applied: the state less the bookkeeping of ids. */
async function opened(search: string, early: boolean) {
  const { store, workers } = storeOver(search, early);
  const link = readLink(search);
  // The page applies Linear time before it opens the link (main.tsx): its runs are laid out on it.
  if (link?.view?.linear === '1') store.getState().setScale('linear');
  await store.getState().init(link ?? FIRST_VISIT);
  await whenSettled(store);
  const { status, spec, error, transcript, wording, layout, facts, race, step, landing, scenarios, notices, ready } =
    store.getState();
  const shown = { status, spec, error, transcript, wording, layout, facts, race, step, landing, scenarios, ready };
  return { shown, notices: notices.map((notice) => notice.text), workers };
}

describe("the page's link opened early", () => {
  it.each([
    ['a long run', '?scenario=C&progressEveryMs=2'],
    ['a first visit', ''],
    ['only the view', '?tab=compare'],
    ['Linear time', '?scenario=B&seed=3&linear=1&step=4'],
    ['an ordering and faults that fit', '?scenario=A&latencyJitterMs=300&schedule=j0.j10.c0.j80'],
    ['refused values', '?scenario=Z&transport=smoke&seed=1e3'],
    ['texts that do not parse', '?scenario=A&latencyJitterMs=300&schedule=x9&faults=drop'],
    ['an ordering and faults that do not fit', '?scenario=A&latencyJitterMs=300&schedule=c9&faults=drop:999'],
    ['settings that cannot run together', '?scenario=herd&clients=10&tracedClient=50'],
    ['a step past the end', '?scenario=B&step=9999'],
  ])('shows %s exactly as the page asking for it itself', async (_name, search) => {
    const asked = await opened(search, false);
    const early = await opened(search, true);
    expect(early.shown).toEqual(asked.shown);
    expect(early.notices).toEqual(asked.notices);
    // The early answers were taken: one worker, asked neither the list nor the link's values, one run fewer.
    const runs = (worker: InProcessWorker | undefined) => typesPosted(worker).filter((type) => type === 'run').length;
    expect(early.workers).toHaveLength(1);
    expect(typesPosted(early.workers[0])).not.toContain('list');
    expect(typesPosted(early.workers[0])).not.toContain('resolve');
    expect(runs(early.workers[0])).toBe(runs(asked.workers[0]) - 1);
  });

  it("takes the worker's answers instead of asking again, the run's included", async () => {
    const { workers } = await opened('?scenario=C&progressEveryMs=2', true);
    // Nothing but the early `open`: the list, the link's values and the run were all its answers.
    expect(workers).toHaveLength(1);
    expect(typesPosted(workers[0])).toEqual(['open']);
    const { workers: asked } = await opened('?scenario=C&progressEveryMs=2', false);
    expect(typesPosted(asked[0])).toEqual(['list', 'resolve', 'run']);
  });

  it('asks for a run the link did not name, abandoning the early one', async () => {
    const search = '?scenario=C&progressEveryMs=2';
    // The early run is still computing when the store asks for another: the worker is replaced.
    const { store, workers } = storeOver(search, true, 10_000);
    await store.getState().init({ params: { scenario: 'B', seed: '3' }, step: null });
    await whenSettled(store);
    expect(store.getState()).toMatchObject({ status: 'done', spec: { scenario: 'B', seed: 3 }, error: null });
    expect(workers).toHaveLength(2);
    expect(typesPosted(workers[0])).toEqual(['open', 'resolve']);
    expect(typesPosted(workers[1])).toEqual(['run']);
    const { shown } = await opened('?scenario=B&seed=3', false);
    expect(store.getState().transcript).toEqual(shown.transcript);
  });

  it('ends the early run on Stop as it ends any run', async () => {
    const search = '?scenario=C&progressEveryMs=2';
    const { store } = storeOver(search, true, 10_000);
    const init = store.getState().init(readLink(search));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().status).toBe('running');
    store.getState().stop();
    await init;
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'STOPPED' }, transcript: null });
  });

  it('ends the early run past its budget as it ends any run', async () => {
    const search = '?scenario=C&progressEveryMs=2';
    const workers: InProcessWorker[] = [];
    // The budget counts from the open, before the worker has read the link; on a loaded machine that
    // reading took up to 1.9 s in process, so the budget is well past it and the answer later still.
    const client = createLabClient(
      () => {
        const worker = createInProcessWorker();
        workers.push(worker);
        if (workers.length > 1) return worker;
        worker.delayWith((request) => ((request as { type: string }).type === 'open' ? 30_000 : 0));
        return Object.assign(worker, { opening: openEarly(worker, search) });
      },
      { runBudgetMs: 5_000 },
    );
    const link = readLink(search);
    const { view } = await client.resolve(link?.params ?? {});
    const failure = await client
      .runLab({ ...view, ledger: 'fresh', scale: 'ordinal' })
      .catch((error: unknown) => error as { code?: string });
    expect(failure).toMatchObject({ code: 'RUN_BUDGET' });
    // It was the early run that outlived its budget: the run was never asked for again.
    expect(workers.flatMap((worker) => typesPosted(worker))).toEqual(['open']);
    client.terminate();
  });

  it('hears the run an `open` names after what the worker read of the link, and the same run as a run request gets', async () => {
    const host = createHost();
    const heard: LabResponse[] = [];
    const answer = await host.handleMessage(
      { type: 'open', requestId: 0, search: '?scenario=C&progressEveryMs=2' },
      (m) => heard.push(m as LabResponse),
    );
    const report = heard[0];
    expect(report).toMatchObject({
      type: 'opened',
      requestId: 0,
      link: {
        params: { scenario: 'C', progressEveryMs: '2' },
        view: { scenario: 'C', transport: 'stdio' },
        problems: [],
      },
      run: {
        scenario: 'C',
        transport: 'stdio',
        seed: 1,
        settings: { progressEveryMs: 2 },
        ledger: 'fresh',
        scale: 'ordinal',
      },
    });
    expect(answer.type).toBe('transcript');
    const asked = await createHost().handleMessage(
      { type: 'run', requestId: 0, ...(report as { run: object }).run },
      () => undefined,
    );
    expect(answer).toEqual(asked);
  });

  it("leaves an SDK's run to the page, and answers with what it read alone", async () => {
    const heard: unknown[] = [];
    const answer = await createHost().handleMessage(
      { type: 'open', requestId: 0, search: '?scenario=D&impl=ts-sdk' },
      (message) => heard.push(message),
    );
    expect(heard).toEqual([]);
    expect(answer).toMatchObject({ type: 'opened', link: { view: { scenario: 'D', impl: 'ts-sdk' } }, run: null });
  });

  it('sends no link longer than the worker reads', () => {
    expect(EARLY_SEARCH_CHARS_MAX).toBe(OPEN_SEARCH_CHARS_MAX);
    const posted: unknown[] = [];
    const worker = { postMessage: (message: unknown) => void posted.push(message) };
    expect(openEarly(worker, `?scenario=A&x=${'y'.repeat(EARLY_SEARCH_CHARS_MAX)}`)).toBeNull();
    expect(openEarly(worker, '?scenario=A')).toBe(0);
    expect(posted).toEqual([{ type: 'open', requestId: 0, search: '?scenario=A' }]);
  });
});
