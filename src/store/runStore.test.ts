import { describe, expect, it, vi } from 'vitest';
import { scenarioD } from '../scenarios/D';
import { scenarios as allScenarios } from '../scenarios/index';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { memoryLedgerStorage, type LedgerStorage } from '../worker/ledgerStorage';
import { createRunStore } from './runStore';
import { whenSettled } from './driver';
import { bigLedgerBytes, bigLedgerSubject } from '../testing/bigLedger';
import { loadSqlJs } from '../cli/sqlite';
import { LEDGER_BYTES_MAX, ledgerTooLarge } from '../worker/ledgerLimits';

// The store asks the worker and keeps the latest answer: defaults, transport-follows-scenario,
// errors that clear the stale transcript, late answers to superseded runs dropped, and the stored
// ledger read, kept, imported, exported and reset through the worker, a refused import leaving the
// rows as they were.

function storeWithWorker(storage: LedgerStorage = memoryLedgerStorage()) {
  const worker = createInProcessWorker({ storage });
  const store = createRunStore(() => createLabClient(() => worker));
  return { store, worker, storage };
}

/** Resolves when nothing runs (the store says so when it changes; no polling of the wall clock). */
const settled = (store: ReturnType<typeof createRunStore>) => whenSettled(store);

const keyRows = (store: ReturnType<typeof createRunStore>) =>
  store.getState().ledger?.idempotencyKeys.map((row) => row.key);

describe('run store', () => {
  it('starts idle on A, stdio, seed 1 and runs it on init', async () => {
    const { store } = storeWithWorker();
    expect(store.getState()).toMatchObject({
      status: 'idle',
      spec: { scenario: 'A', transport: 'stdio', seed: 1 },
      transcript: null,
      error: null,
    });
    await store.getState().init();
    const state = store.getState();
    expect(state.scenarios.map((s) => s.id)).toEqual(allScenarios.map((s) => s.id));
    expect(state.status).toBe('done');
    expect([state.transcript?.scenario, state.transcript?.transport, state.transcript?.seed]).toEqual([
      'A',
      'stdio',
      1,
    ]);
  });

  it('switches to the picked scenario’s default transport and runs it', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().selectScenario('D');
    expect(store.getState()).toMatchObject({
      spec: { scenario: 'D', transport: scenarioD.defaultTransport },
      status: 'running',
    });
    await settled(store);
    expect(store.getState().transcript?.outcome).toMatchObject({ cancellationSignal: 'stream-close' });
    store.getState().select({ transport: 'stdio' });
    await settled(store);
    expect(store.getState().transcript?.outcome).toMatchObject({ cancellationSignal: 'notifications/cancelled' });
  });

  it('shows the engine’s error and clears the transcript for a bad seed', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().select({ seed: -3 });
    await settled(store);
    expect(store.getState()).toMatchObject({ status: 'error', transcript: null, error: { code: 'LAB003' } });
    store.getState().select({ seed: 2 });
    await settled(store);
    expect(store.getState()).toMatchObject({ status: 'done', error: null, transcript: { seed: 2 } });
  });

  it('asks for the scenarios and a link’s values at once, not one after the other’s answer', async () => {
    const { store, worker } = storeWithWorker();
    // The list's answer is late: the link's values are asked for meanwhile.
    worker.delayWith((request) => ((request as { type: string }).type === 'list' ? 60 : 0));
    const opened = store.getState().init({ params: { scenario: 'B', seed: '3' }, step: null });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.posted.map((request) => (request as { type: string }).type)).toEqual(['list', 'resolve']);
    await opened;
    expect(store.getState()).toMatchObject({ status: 'done', spec: { scenario: 'B', seed: 3 }, error: null });
  });

  it('shows an engine that cannot even be started as an error, with a link too', async () => {
    for (const link of [null, { params: { scenario: 'B' }, step: null }]) {
      const store = createRunStore(() => {
        throw new Error('no worker here');
      });
      await store.getState().init(link);
      expect(store.getState()).toMatchObject({
        status: 'error',
        ready: true,
        error: { message: expect.stringContaining('no worker here') },
      });
    }
  });

  it('keeps only the latest run’s answer', async () => {
    const { store, worker } = storeWithWorker();
    await store.getState().init();
    // B is asked first but answered last: its late transcript must not replace C's.
    worker.delayWith((request) => ((request as { scenario?: string }).scenario === 'B' ? 30 : 0));
    store.getState().selectScenario('B');
    store.getState().selectScenario('C');
    await settled(store);
    expect(store.getState().transcript?.scenario).toBe('C');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.getState()).toMatchObject({ status: 'done', transcript: { scenario: 'C' } });
    expect(worker.posted.filter((m) => (m as { type: string }).type === 'run')).toHaveLength(3);
  });
});

describe('run store: the stored ledger', () => {
  it('reads the stored ledger when a ledger scenario is first shown, with its scope notes, and never for A', async () => {
    const { store, worker } = storeWithWorker();
    expect(store.getState()).toMatchObject({
      keepLedger: false,
      ledger: null,
      ledgerStatus: 'idle',
      ledgerError: null,
    });
    await store.getState().init();
    await settled(store);
    // Scenario A needs no SQLite: the worker is never asked about the ledger, so it never loads sql.js.
    expect(worker.posted.map((m) => (m as { type: string }).type)).not.toContain('ledger-snapshot');
    expect(store.getState().ledger).toBeNull();
    store.getState().selectScenario('ledger-keyed-retry');
    await settled(store);
    expect(store.getState().ledger).toMatchObject({
      stored: false,
      bytes: 0,
      idempotencyKeys: [],
      effects: [],
      executions: [],
    });
    expect(store.getState().ledger?.scopeNotes.length).toBeGreaterThan(0);
  });

  it('keeps the ledger only when asked, and shows the rows a kept run saved', async () => {
    const { store, worker } = storeWithWorker();
    await store.getState().init();
    store.getState().selectScenario('ledger-keyed-retry');
    await settled(store);
    expect(worker.posted.filter((m) => (m as { type: string }).type === 'run').at(-1)).toMatchObject({
      type: 'run',
      scenario: 'ledger-keyed-retry',
      ledger: 'fresh',
    });
    expect(store.getState().ledger?.stored).toBe(false);

    store.getState().select({ keepLedger: true });
    await settled(store);
    expect(worker.posted.filter((m) => (m as { type: string }).type === 'run').at(-1)).toMatchObject({
      ledger: 'kept',
    });
    expect(keyRows(store)).toEqual(['checkout-7']);
    expect(store.getState().transcript?.outcome).toMatchObject({ executions: 1 });

    // The key is stored now: the same run replays it and executes nothing.
    await store.getState().run();
    await settled(store);
    expect(store.getState().transcript?.outcome).toMatchObject({ executions: 0, replayed: 2 });
    expect(store.getState().ledger?.effects).toHaveLength(1);
  });

  it('asks for a fresh ledger for scenarios of other kinds even when keeping', async () => {
    const { store, worker } = storeWithWorker();
    await store.getState().init();
    store.getState().select({ keepLedger: true });
    await settled(store);
    expect(worker.posted.filter((m) => (m as { type: string }).type === 'run').at(-1)).toMatchObject({
      scenario: 'A',
      ledger: 'fresh',
    });
  });

  it('survives a reload: a new store and worker over the same storage show the kept rows', async () => {
    const storage = memoryLedgerStorage();
    const first = storeWithWorker(storage).store;
    await first.getState().init();
    first.getState().select({ keepLedger: true });
    first.getState().selectScenario('ledger-keyed-retry');
    await settled(first);
    const reloaded = storeWithWorker(storage).store;
    await reloaded.getState().init();
    reloaded.getState().selectScenario('ledger-keyed-retry');
    await settled(reloaded);
    expect(reloaded.getState().keepLedger).toBe(false);
    expect(keyRows(reloaded)).toEqual(['checkout-7']);
  });

  it('a refused import shows LAB010 and leaves the rows; export gives the SQLite file; reset empties it', async () => {
    const { store, storage } = storeWithWorker();
    await store.getState().init();
    store.getState().select({ keepLedger: true });
    store.getState().selectScenario('ledger-keyed-retry');
    await settled(store);
    const before = store.getState().ledger;

    await store
      .getState()
      .importLedger(new File(['this is a text file, not SQLite'], 'notes.txt', { type: 'text/plain' }));
    expect(store.getState()).toMatchObject({
      ledgerStatus: 'idle',
      ledgerError: { code: 'LAB010', action: 'Could not import “notes.txt”.' },
    });
    expect(store.getState().ledger).toBe(before);

    const bytes = await store.getState().exportLedger();
    expect(new TextDecoder().decode(bytes?.slice(0, 16))).toBe('SQLite format 3\0');
    expect(store.getState().ledgerError).toBeNull();

    await store.getState().resetLedger();
    expect(store.getState().ledger).toMatchObject({ stored: false, idempotencyKeys: [] });
    expect(await storage.load()).toBeNull();

    await store.getState().importLedger(new Blob([new Uint8Array(bytes ?? [])]));
    expect(store.getState()).toMatchObject({ ledgerError: null, ledger: { stored: true } });
    expect(keyRows(store)).toEqual(['checkout-7']);
  });

  it('refuses a file over the ledger bound by its size, before reading it, and changes nothing else', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().select({ keepLedger: true });
    store.getState().selectScenario('ledger-keyed-retry');
    await settled(store);
    const before = store.getState();
    const statuses: string[] = [];
    const unsubscribe = store.subscribe((state) => statuses.push(state.ledgerStatus));

    // What a user picking a 2 GB file hands the page: reading it whole is what freezes the tab.
    const huge = new File([], 'huge.sqlite', { type: 'application/vnd.sqlite3' });
    const gigabytes2 = 2 * 1024 ** 3;
    Object.defineProperty(huge, 'size', { value: gigabytes2 });
    const read = vi.fn(() => Promise.reject(new Error('the page read the file')));
    Object.defineProperty(huge, 'arrayBuffer', { value: read });
    await store.getState().importLedger(huge);
    expect(read).not.toHaveBeenCalled();
    expect(store.getState().ledgerError).toEqual({
      action: 'Could not import “huge.sqlite”.',
      code: 'LAB010',
      message: ledgerTooLarge(gigabytes2),
    });
    expect(store.getState().ledgerError?.message).toContain('2,147,483,648 bytes');
    expect(store.getState().ledgerError?.message).toContain(LEDGER_BYTES_MAX.toLocaleString('en'));

    // One byte over the bound is refused the same way; at the bound the worker decides (here: not SQLite).
    const over = new File([new Uint8Array(LEDGER_BYTES_MAX + 1)], 'over.sqlite');
    const overRead = vi.spyOn(over, 'arrayBuffer');
    await store.getState().importLedger(over);
    expect(overRead).not.toHaveBeenCalled();
    expect(store.getState().ledgerError).toMatchObject({
      action: 'Could not import “over.sqlite”.',
      code: 'LAB010',
      message: ledgerTooLarge(LEDGER_BYTES_MAX + 1),
    });
    unsubscribe();
    expect(statuses).not.toContain('busy');
    const { ledgerError: _after, ...after } = store.getState();
    const { ledgerError: _before, ...unchanged } = before;
    expect(after).toEqual(unchanged);

    const atBound = new File([new Uint8Array(LEDGER_BYTES_MAX)], 'at-bound.sqlite');
    await store.getState().importLedger(atBound);
    expect(store.getState().ledgerError).toMatchObject({
      action: 'Could not import “at-bound.sqlite”.',
      code: 'LAB010',
      message: expect.stringContaining('not a SQLite database'),
    });
    expect(store.getState().ledger).toBe(before.ledger);
  });

  it('reads any page of a ledger table from the worker; a page it cannot read sets ledgerError and changes nothing else', async () => {
    const bytes = bigLedgerBytes(await loadSqlJs(), { keys: 2, effects: 250 });
    const { store } = storeWithWorker();
    await store.getState().importLedger(new Blob([new Uint8Array(bytes)]));
    expect(store.getState().ledger?.totals).toMatchObject({ effects: 250 });
    const rows = await store.getState().readLedgerRows('effects', 200, 50);
    expect(rows?.rows.map((row) => row.subject)).toEqual(
      Array.from({ length: 50 }, (_, i) => bigLedgerSubject(201 + i)),
    );

    // A worker holding nothing open, over a stored file that is not a lab ledger (a fresh worker after Stop).
    const broken = storeWithWorker(memoryLedgerStorage(new TextEncoder().encode('not a ledger'))).store;
    expect(await broken.getState().readLedgerRows('effects', 100, 50)).toBeNull();
    expect(broken.getState()).toMatchObject({
      ledgerStatus: 'idle',
      ledger: null,
      ledgerError: { code: 'LAB010', action: 'Could not read rows 101–150 of Effects.' },
    });
  });
});
