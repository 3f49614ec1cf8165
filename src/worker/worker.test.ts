import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import type { LedgerScenario, Transcript } from '../engine';
import { scenarios } from '../scenarios/index';
import { createLabClient, LabClientError } from './client';
import { createLabHost, LEDGER_BYTES_MAX, type LabHost } from './host';
import { ledgerTooLarge } from './ledgerLimits';
import { createInProcessWorker } from './inProcessWorker';
import { memoryLedgerStorage, StorageError, type LedgerStorage } from './ledgerStorage';
import { isLabRequest, isLabResponse, type LabResponse, type LedgerOutcome, type LedgerView } from './protocol';

// The worker protocol: guards accept exactly the documented shapes, every message gets one answer,
// the client turns answers and failures into settled promises with LabError codes, ledger scenarios
// run on sql.js in the host, and the stored ledger is kept, imported, exported and reset only as the
// page asks — a foreign or corrupt import changes nothing. Long runs report progress before their
// answer; a shared link's values are judged by the engine's own rules; a request race's answer says
// where its transcript reaches each recorded fact.

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

const SQLITE_HEADER = 'SQLite format 3\0';
const header = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 16));
const ledgerScenarios = scenarios.filter((s): s is LedgerScenario => s.kind === 'ledger');

function host(storage: LedgerStorage = memoryLedgerStorage()): LabHost {
  return createLabHost({ sql: Promise.resolve(sql), storage });
}

function foreignSqlite(): Uint8Array {
  const db = new sql.Database();
  db.exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada')`);
  const bytes = db.export();
  db.close();
  return bytes;
}

function ledgerOutcome(transcript: Transcript): LedgerOutcome {
  expect(transcript.kind).toBe('ledger');
  return transcript.outcome as LedgerOutcome;
}

function answerOf<T extends LabResponse['type']>(response: LabResponse, type: T): Extract<LabResponse, { type: T }> {
  expect(response.type, JSON.stringify(response).slice(0, 300)).toBe(type);
  return response as Extract<LabResponse, { type: T }>;
}

describe('protocol guards', () => {
  it('accepts the documented request shapes and refuses near misses', () => {
    for (const good of [
      { type: 'list', requestId: 1 },
      {
        type: 'run',
        requestId: 2,
        scenario: 'A',
        transport: 'http',
        seed: 1,
        settings: { cancelAtMs: null },
        ledger: 'fresh',
      },
      {
        type: 'run',
        requestId: 3,
        scenario: 'ledger-keyed-retry',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'kept',
      },
      { type: 'ledger-snapshot', requestId: 4 },
      { type: 'ledger-import', requestId: 5, bytes: new Uint8Array([1, 2]) },
      { type: 'ledger-export', requestId: 6 },
      { type: 'ledger-reset', requestId: 7 },
    ]) {
      expect(isLabRequest(good), JSON.stringify(good)).toBe(true);
    }
    for (const bad of [
      null,
      [],
      'run',
      { type: 'list' },
      { type: 'list', requestId: 1.5 },
      { type: 'walk', requestId: 1 },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'sse', seed: 1, settings: {}, ledger: 'fresh' },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: '1', settings: {}, ledger: 'fresh' },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1, settings: { x: [] }, ledger: 'fresh' },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1, ledger: 'fresh' },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1, settings: {} },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1, settings: {}, ledger: 'stored' },
      { type: 'ledger-import', requestId: 1 },
      { type: 'ledger-import', requestId: 1, bytes: [83, 81] },
      { type: 'ledger-import', requestId: 1, bytes: 'SQLite format 3' },
      { type: 'ledger-import', requestId: 1, bytes: new ArrayBuffer(4) },
      { type: 'ledger-snapshot' },
    ]) {
      expect(isLabRequest(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('checks ledger answers and the outcome fields the page reads', () => {
    const view: LedgerView = {
      stored: false,
      bytes: 0,
      idempotencyKeys: [],
      effects: [{ effect_id: 1, tenant: null, operation: 'x' }],
      executions: [],
      scopeNotes: ['n'],
    };
    expect(isLabResponse({ type: 'ledger', requestId: 1, ledger: view })).toBe(true);
    expect(isLabResponse({ type: 'ledger-file', requestId: 1, bytes: new Uint8Array(16) })).toBe(true);
    for (const bad of [
      { type: 'ledger', requestId: 1, ledger: { ...view, scopeNotes: undefined } },
      { type: 'ledger', requestId: 1, ledger: { ...view, effects: [{ blob: new Uint8Array(1) }] } },
      { type: 'ledger', requestId: 1, ledger: { ...view, stored: 'no' } },
      { type: 'ledger-file', requestId: 1, bytes: 'SQLite' },
      { type: 'ledger-file', requestId: 1 },
    ]) {
      expect(isLabResponse(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('accepts transcripts of every kind, and refuses ones missing the fields their view reads', async () => {
    const lab = host();
    for (const scenario of scenarios) {
      const answer = await lab.handleMessage({
        type: 'run',
        requestId: 1,
        scenario: scenario.id,
        transport: scenario.defaultTransport,
        seed: 1,
        settings: {},
        ledger: 'fresh',
      });
      expect(isLabResponse(answer), scenario.id).toBe(true);
      expect(answer.type, scenario.id).toBe('transcript');
    }
    const a = answerOf(
      await lab.handleMessage({
        type: 'run',
        requestId: 2,
        scenario: 'A',
        transport: 'stdio',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      'transcript',
    );
    const { terminalState: _terminalState, ...withoutState } = a.transcript.outcome as unknown as Record<
      string,
      unknown
    >;
    expect(isLabResponse({ ...a, transcript: { ...a.transcript, outcome: withoutState } })).toBe(false);
    const ledger = answerOf(
      await lab.handleMessage({
        type: 'run',
        requestId: 3,
        scenario: 'ledger-race-keyed',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      'transcript',
    );
    expect(
      isLabResponse({
        ...ledger,
        transcript: { ...ledger.transcript, outcome: { ...ledger.transcript.outcome, executions: '1' } },
      }),
    ).toBe(false);
    expect(
      isLabResponse({
        ...ledger,
        transcript: {
          ...ledger.transcript,
          outcome: { ...ledger.transcript.outcome, responses: [{ status: 'executed' }] },
        },
      }),
    ).toBe(false);
  });

  it('answers every message with one valid response', async () => {
    const lab = host();
    const answers = await Promise.all([
      lab.handleMessage({ type: 'list', requestId: 1 }),
      lab.handleMessage({
        type: 'run',
        requestId: 2,
        scenario: 'D',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      lab.handleMessage({
        type: 'run',
        requestId: 3,
        scenario: 'Z',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      lab.handleMessage({ type: 'nope', requestId: 4 }),
      lab.handleMessage(42),
      lab.handleMessage({ type: 'ledger-snapshot', requestId: 5 }),
      lab.handleMessage({ type: 'ledger-import', requestId: 6, bytes: new TextEncoder().encode('hello') }),
      lab.handleMessage({ type: 'ledger-export', requestId: 7 }),
      lab.handleMessage({ type: 'ledger-reset', requestId: 8 }),
      lab.handleMessage({ type: 'list', requestId: 9, extra: 10n }),
    ]);
    for (const answer of answers)
      expect(
        isLabResponse(answer),
        JSON.stringify(answer, (_k, v: unknown) => (v instanceof Uint8Array ? '[bytes]' : v)).slice(0, 200),
      ).toBe(true);
    expect(answers.map((a) => a.type)).toEqual([
      'scenarios',
      'transcript',
      'error',
      'error',
      'error',
      'ledger',
      'error',
      'ledger-file',
      'ledger',
      'scenarios',
    ]);
    expect(answers.map((a) => (a.type === 'error' ? [a.requestId, a.code] : a.requestId))).toEqual([
      1,
      2,
      [3, 'LAB001'],
      [4, 'LAB008'],
      [null, 'LAB008'],
      5,
      [6, 'LAB010'],
      7,
      8,
      9,
    ]);
  });
});

describe('replay support: facts, links, progress', () => {
  it('says at which event each of the four facts is reached, A to D on both transports', async () => {
    const lab = host();
    for (const id of ['A', 'B', 'C', 'D']) {
      for (const transport of ['stdio', 'http'] as const) {
        const { transcript, facts } = answerOf(
          await lab.handleMessage({
            type: 'run',
            requestId: 1,
            scenario: id,
            transport,
            seed: 1,
            settings: {},
            ledger: 'fresh',
          }),
          'transcript',
        );
        const events = transcript.events;
        if (facts === null) throw new Error(`${id} is a request race`);
        expect(events[facts.terminalState]?.kind, `${id} ${transport}`).toBe('terminal');
        const outcome = transcript.outcome as { finalResponse: boolean; cancellationSignal: string | null };
        const signal = events[facts.cancellationSignal];
        if (outcome.cancellationSignal === 'stream-close')
          expect(signal).toMatchObject({ kind: 'stream-closed', by: 'client' });
        else if (outcome.cancellationSignal === 'notifications/cancelled')
          expect(signal).toMatchObject({
            kind: 'message',
            from: 'client',
            message: { method: 'notifications/cancelled' },
          });
        else expect(facts.cancellationSignal).toBe(events.length - 1);
        if (outcome.finalResponse)
          expect(events[facts.finalResponse]).toMatchObject({
            kind: 'message',
            from: 'server',
            message: { result: expect.anything() },
          });
        else expect(facts.finalResponse).toBe(events.length - 1);
        for (const index of facts.clientIgnores)
          expect(events[index]).toMatchObject({ kind: 'delivered', to: 'client', ignoredBy: 'client' });
      }
    }
    const ledger = answerOf(
      await lab.handleMessage({
        type: 'run',
        requestId: 2,
        scenario: 'ledger-race-keyed',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      'transcript',
    );
    expect(ledger.facts).toBeNull();
  });

  it('lists each scenario’s settings spec, so the page can offer inputs', async () => {
    const { scenarios: listed } = answerOf(await host().handleMessage({ type: 'list', requestId: 1 }), 'scenarios');
    expect(listed.find((s) => s.id === 'C')?.settingsSpec.progressEveryMs).toMatchObject({
      kind: 'integer',
      min: 0,
      unit: 'ms',
    });
    expect(listed.find((s) => s.id === 'D')?.settingsSpec.httpCancel).toMatchObject({
      kind: 'enum',
      values: ['close-stream', 'post-notification'],
    });
  });

  it('resolves a link by the engine’s rules, replacing each refused value by its default', async () => {
    const lab = host();
    const good = answerOf(
      await lab.handleMessage({
        type: 'resolve',
        requestId: 1,
        params: { scenario: 'D', transport: 'stdio', seed: '7', cancelAtMs: 'none', httpCancel: 'post-notification' },
      }),
      'resolved',
    );
    expect(good.view).toEqual({
      scenario: 'D',
      transport: 'stdio',
      seed: 7,
      settings: { cancelAtMs: null, httpCancel: 'post-notification' },
    });
    expect(good.problems).toEqual([]);
    const bad = answerOf(
      await lab.handleMessage({
        type: 'resolve',
        requestId: 2,
        params: {
          scenario: 'nope',
          transport: 'smoke',
          seed: '1e3',
          workMs: '1.5',
          progressToken: 'maybe',
          colour: 'red',
        },
      }),
      'resolved',
    );
    expect(bad.view).toEqual({ scenario: 'A', transport: 'stdio', seed: 1, settings: {} });
    expect(bad.problems.map((p) => [p.param, p.code])).toEqual([
      ['scenario', 'LAB001'],
      ['transport', 'LAB002'],
      ['seed', 'LAB003'],
      ['workMs', 'LAB005'],
      ['progressToken', 'LAB005'],
      ['colour', 'LAB004'],
    ]);
    expect(bad.problems[3]?.message).toMatch(/^LAB005 invalid setting value: workMs=/);
    expect(isLabRequest({ type: 'resolve', requestId: 3, params: { seed: 1 } })).toBe(false);
  });

  it('reports progress while a long run computes, then answers once', async () => {
    let clock = 0;
    const lab = createLabHost({ sql: Promise.resolve(sql), storage: memoryLedgerStorage(), now: () => (clock += 60) });
    const reports: unknown[] = [];
    const answer = await lab.handleMessage(
      { type: 'run', requestId: 9, scenario: 'herd', transport: 'http', seed: 1, settings: {}, ledger: 'fresh' },
      (progress) => reports.push(progress),
    );
    expect(answer.type).toBe('transcript');
    expect(reports.length).toBeGreaterThan(2);
    for (const report of reports) expect(isLabResponse(report)).toBe(true);
    expect(reports[0]).toMatchObject({
      type: 'progress',
      requestId: 9,
      eventsRun: expect.any(Number),
      atMs: expect.any(Number),
    });
    const counts = reports.map((report) => (report as { eventsRun: number }).eventsRun);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
  });

  it('the client hands progress to the caller and settles with the run', async () => {
    const client = createLabClient(createInProcessWorker);
    const heard: number[] = [];
    const run = await client.runLab(
      { scenario: 'herd', transport: 'http', seed: 1, settings: { clients: 20000 }, ledger: 'fresh' },
      (progress) => heard.push(progress.eventsRun),
    );
    expect(run.transcript.scenario).toBe('herd');
    expect(run.facts).toBeNull();
    // Wall-clock paced (every 100 ms at most): a quick machine may finish before the first report.
    expect(heard.every((count) => count > 0)).toBe(true);
  });
});

describe('ledger scenarios in the worker host (sql.js injected)', () => {
  it('every ledger scenario in the picker runs on a fresh ledger with its declared outcome, the same every time', async () => {
    const lab = host();
    for (const scenario of ledgerScenarios) {
      const request = {
        type: 'run',
        requestId: 1,
        scenario: scenario.id,
        transport: scenario.defaultTransport,
        seed: 1,
        settings: {},
        ledger: 'fresh',
      };
      const first = answerOf(await lab.handleMessage(request), 'transcript').transcript;
      const outcome = ledgerOutcome(first);
      expect(
        { executions: outcome.executions, rejected: outcome.rejected, replayed: outcome.replayed },
        scenario.id,
      ).toEqual({
        executions: scenario.expected.executions,
        rejected: scenario.expected.rejected,
        replayed: scenario.expected.replayed,
      });
      expect(JSON.stringify(answerOf(await lab.handleMessage(request), 'transcript').transcript), scenario.id).toBe(
        JSON.stringify(first),
      );
    }
  });

  it('shows SQLITE_BUSY and one execution in the two-connection race', async () => {
    const transcript = answerOf(
      await host().handleMessage({
        type: 'run',
        requestId: 1,
        scenario: 'ledger-race-keyed',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
      'transcript',
    ).transcript;
    expect(ledgerOutcome(transcript).executions).toBe(1);
    expect(transcript.events.some((event) => event.kind === 'sql' && event.error?.code === 'SQLITE_BUSY')).toBe(true);
  });

  it('a fresh run leaves the stored ledger alone', async () => {
    const storage = memoryLedgerStorage();
    const lab = host(storage);
    await lab.handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'fresh',
    });
    expect(await storage.load()).toBeNull();
  });

  it('a kept run opens the stored ledger and saves it back; the next kept run replays from it', async () => {
    const storage = memoryLedgerStorage();
    const lab = host(storage);
    const run = {
      type: 'run',
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    } as const;
    const first = ledgerOutcome(answerOf(await lab.handleMessage({ ...run, requestId: 1 }), 'transcript').transcript);
    expect([first.executions, first.replayed]).toEqual([1, 1]);
    const stored = await storage.load();
    expect(stored).not.toBeNull();
    expect(header(stored ?? new Uint8Array())).toBe(SQLITE_HEADER);

    const view = answerOf(await lab.handleMessage({ type: 'ledger-snapshot', requestId: 2 }), 'ledger').ledger;
    expect(view.stored).toBe(true);
    expect(view.bytes).toBe(stored?.length);
    expect(view.idempotencyKeys.map((row) => [row.key, row.operation])).toEqual([['checkout-7', 'charge_account']]);
    expect(view.effects).toHaveLength(1);
    expect(view.executions).toEqual([{ operation: 'charge_account', count: 1 }]);
    expect(view.scopeNotes).toHaveLength(3);

    // The key is already recorded: both requests of the second run get the stored result.
    const second = answerOf(await lab.handleMessage({ ...run, requestId: 3 }), 'transcript').transcript;
    expect([ledgerOutcome(second).executions, ledgerOutcome(second).replayed]).toEqual([0, 2]);
    expect(second.events[0]).toMatchObject({
      kind: 'ledger',
      action: 'opened',
      detail: expect.stringContaining('saved bytes'),
    });
    const after = answerOf(await lab.handleMessage({ type: 'ledger-snapshot', requestId: 4 }), 'ledger').ledger;
    expect([after.idempotencyKeys.length, after.effects.length]).toEqual([1, 1]);
  });

  it('the stored ledger outlives the worker (a page reload is a new worker on the same storage)', async () => {
    const storage = memoryLedgerStorage();
    await host(storage).handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    const reloaded = answerOf(
      await host(storage).handleMessage({ type: 'ledger-snapshot', requestId: 1 }),
      'ledger',
    ).ledger;
    expect(reloaded.idempotencyKeys.map((row) => row.key)).toEqual(['checkout-7']);
  });

  it('a kept run that fails part-way saves nothing', async () => {
    const storage = memoryLedgerStorage();
    const lab = host(storage);
    await lab.handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    const before = await storage.load();
    const failed = await lab.handleMessage({
      type: 'run',
      requestId: 2,
      scenario: 'ledger-race-keyed',
      transport: 'http',
      seed: 1,
      settings: { eventsMax: 10 },
      ledger: 'kept',
    });
    expect(failed).toMatchObject({ type: 'error', requestId: 2, code: 'LAB006' });
    expect(await storage.load()).toEqual(before);
  });

  it('scenarios of other kinds ignore the choice and never touch the storage (task scenarios get their own empty SQLite file)', async () => {
    const storage = memoryLedgerStorage();
    const lab = host(storage);
    for (const scenario of scenarios.filter((s) => s.kind !== 'ledger')) {
      const run = {
        type: 'run',
        requestId: 1,
        scenario: scenario.id,
        transport: scenario.defaultTransport,
        seed: 1,
        settings: {},
      } as const;
      const kept = answerOf(await lab.handleMessage({ ...run, ledger: 'kept' }), 'transcript');
      const fresh = answerOf(await lab.handleMessage({ ...run, ledger: 'fresh' }), 'transcript');
      expect(kept, scenario.id).toEqual(fresh);
    }
    expect(await storage.load()).toBeNull();
  });

  it('answers LAB011 for ledger requests when sql.js failed to load, and still runs A–D', async () => {
    const lab = createLabHost({
      sql: Promise.reject(new Error('wasm fetch failed: 404')),
      storage: memoryLedgerStorage(),
    });
    expect(
      await lab.handleMessage({
        type: 'run',
        requestId: 1,
        scenario: 'ledger-race-keyed',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
    ).toMatchObject({
      type: 'error',
      code: 'LAB011',
      message: expect.stringContaining('wasm fetch failed: 404'),
    });
    expect(await lab.handleMessage({ type: 'ledger-snapshot', requestId: 2 })).toMatchObject({
      type: 'error',
      code: 'LAB011',
    });
    expect(
      (
        await lab.handleMessage({
          type: 'run',
          requestId: 3,
          scenario: 'A',
          transport: 'stdio',
          seed: 1,
          settings: {},
          ledger: 'fresh',
        })
      ).type,
    ).toBe('transcript');
  });

  it('answers STORAGE when IndexedDB refuses, naming what was kept', async () => {
    const broken: LedgerStorage = {
      load: async () => null,
      save: async () => {
        throw new StorageError(
          "the browser's IndexedDB could not save the ledger; the previously stored ledger is unchanged (QuotaExceededError)",
        );
      },
      clear: async () => undefined,
      exclusive: (body) => body(),
    };
    const answer = await host(broken).handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    expect(answer).toMatchObject({
      type: 'error',
      requestId: 1,
      code: 'STORAGE',
      message: expect.stringContaining('previously stored ledger is unchanged'),
    });
  });

  it('handles messages one at a time, in the order they arrive', async () => {
    const lab = host();
    const [, , snapshot, , afterReset] = await Promise.all([
      lab.handleMessage({
        type: 'run',
        requestId: 1,
        scenario: 'ledger-keyed-retry',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'kept',
      }),
      lab.handleMessage({
        type: 'run',
        requestId: 2,
        scenario: 'ledger-race-keyed',
        transport: 'http',
        seed: 1,
        settings: {},
        ledger: 'kept',
      }),
      lab.handleMessage({ type: 'ledger-snapshot', requestId: 3 }),
      lab.handleMessage({ type: 'ledger-reset', requestId: 4 }),
      lab.handleMessage({ type: 'ledger-snapshot', requestId: 5 }),
    ]);
    // Both runs used key checkout-7 with the same arguments: one effect, one key, before the reset.
    expect(answerOf(snapshot as LabResponse, 'ledger').ledger).toMatchObject({
      stored: true,
      idempotencyKeys: [{ key: 'checkout-7' }],
      effects: [{ effect_id: 1 }],
    });
    expect(answerOf(afterReset as LabResponse, 'ledger').ledger).toMatchObject({
      stored: false,
      bytes: 0,
      idempotencyKeys: [],
      effects: [],
      executions: [],
    });
  });
});

describe('import, export and reset of the stored ledger', () => {
  async function keptLedger(): Promise<{ lab: LabHost; storage: LedgerStorage; stored: Uint8Array }> {
    const storage = memoryLedgerStorage();
    const lab = host(storage);
    await lab.handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    const stored = await storage.load();
    if (stored === null) throw new Error('the kept run stored nothing');
    return { lab, storage, stored };
  }

  it('refuses a text file with LAB010 and keeps the stored ledger', async () => {
    const { lab, storage, stored } = await keptLedger();
    const answer = await lab.handleMessage({
      type: 'ledger-import',
      requestId: 2,
      bytes: new TextEncoder().encode('id,amount\n1,1200\n'),
    });
    expect(answer).toMatchObject({
      type: 'error',
      requestId: 2,
      code: 'LAB010',
      message: expect.stringMatching(/not a SQLite database.*current ledger is unchanged/),
    });
    expect(await storage.load()).toEqual(stored);
  });

  it('refuses a SQLite file that is not a lab ledger with LAB010 and keeps the stored ledger', async () => {
    const { lab, storage, stored } = await keptLedger();
    const answer = await lab.handleMessage({ type: 'ledger-import', requestId: 2, bytes: foreignSqlite() });
    expect(answer).toMatchObject({
      type: 'error',
      code: 'LAB010',
      message: expect.stringMatching(/no lab_meta table.*customers.*current ledger is unchanged/),
    });
    expect(await storage.load()).toEqual(stored);
  });

  it('refuses an empty file and one over the size bound', async () => {
    const { lab, storage, stored } = await keptLedger();
    expect(await lab.handleMessage({ type: 'ledger-import', requestId: 2, bytes: new Uint8Array(0) })).toMatchObject({
      type: 'error',
      code: 'LAB010',
    });
    expect(
      await lab.handleMessage({ type: 'ledger-import', requestId: 3, bytes: new Uint8Array(LEDGER_BYTES_MAX + 1) }),
    ).toMatchObject({
      type: 'error',
      code: 'LAB010',
      message: `LAB010 not a lab ledger file: ${ledgerTooLarge(LEDGER_BYTES_MAX + 1)}`,
    });
    expect(await storage.load()).toEqual(stored);
  });

  it('exports the stored ledger as a SQLite file, and imports it back after a reset', async () => {
    const { lab, storage, stored } = await keptLedger();
    const exported = answerOf(await lab.handleMessage({ type: 'ledger-export', requestId: 2 }), 'ledger-file').bytes;
    expect(header(exported)).toBe(SQLITE_HEADER);
    expect(exported).toEqual(stored);
    // A standard SQLite database: plain sql.js (no lab code) reads the key.
    const db = new sql.Database(exported);
    expect(db.exec('SELECT key FROM idempotency_keys')[0]?.values).toEqual([['checkout-7']]);
    db.close();

    const reset = answerOf(await lab.handleMessage({ type: 'ledger-reset', requestId: 3 }), 'ledger').ledger;
    expect(reset).toMatchObject({ stored: false, bytes: 0, idempotencyKeys: [], effects: [], executions: [] });
    expect(await storage.load()).toBeNull();

    const imported = answerOf(
      await lab.handleMessage({ type: 'ledger-import', requestId: 4, bytes: exported }),
      'ledger',
    ).ledger;
    expect(imported).toMatchObject({ stored: true, bytes: exported.length, idempotencyKeys: [{ key: 'checkout-7' }] });
    expect(await storage.load()).toEqual(exported);
  });

  it('exports a new empty lab ledger when nothing is stored, which imports cleanly', async () => {
    const lab = host();
    const empty = answerOf(await lab.handleMessage({ type: 'ledger-export', requestId: 1 }), 'ledger-file').bytes;
    expect(header(empty)).toBe(SQLITE_HEADER);
    expect(
      answerOf(await lab.handleMessage({ type: 'ledger-import', requestId: 2, bytes: empty }), 'ledger').ledger,
    ).toMatchObject({ stored: true, idempotencyKeys: [] });
  });
});

describe('lab client over an in-process worker', () => {
  it('lists the scenarios with their metadata', async () => {
    const client = createLabClient(createInProcessWorker);
    const listed = await client.list();
    expect(listed.map((s) => [s.id, s.kind, s.title, s.defaultTransport])).toEqual(
      scenarios.map((s) => [s.id, s.kind, s.title, s.defaultTransport]),
    );
    expect(listed[0]?.requirements).toEqual([...(scenarios[0]?.requirements ?? [])]);
  });

  it('runs scenarios and correlates concurrent requests', async () => {
    const client = createLabClient(createInProcessWorker);
    const [a, d] = await Promise.all([
      client.run({ scenario: 'A', transport: 'stdio', seed: 1, settings: {}, ledger: 'fresh' }),
      client.run({ scenario: 'D', transport: 'http', seed: 1, settings: {}, ledger: 'fresh' }),
    ]);
    expect([a.scenario, a.transport, 'cancellationSignal' in a.outcome && a.outcome.cancellationSignal]).toEqual([
      'A',
      'stdio',
      'notifications/cancelled',
    ]);
    expect([d.scenario, d.transport, 'cancellationSignal' in d.outcome && d.outcome.cancellationSignal]).toEqual([
      'D',
      'http',
      'stream-close',
    ]);
  });

  it('keeps, exports, imports and resets the ledger through the boundary', async () => {
    const worker = createInProcessWorker();
    const client = createLabClient(() => worker);
    expect(await client.ledgerSnapshot()).toMatchObject({ stored: false, idempotencyKeys: [] });
    const run = await client.run({
      scenario: 'ledger-keyed-retry',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'kept',
    });
    expect(ledgerOutcome(run).executions).toBe(1);
    expect(worker.posted.at(-1)).toMatchObject({ type: 'run', ledger: 'kept' });
    const bytes = await client.exportLedger();
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(header(bytes)).toBe(SQLITE_HEADER);
    await expect(client.importLedger(new TextEncoder().encode('just text'))).rejects.toMatchObject({ code: 'LAB010' });
    expect((await client.ledgerSnapshot()).idempotencyKeys).toHaveLength(1);
    expect(await client.resetLedger()).toMatchObject({ stored: false, idempotencyKeys: [] });
    expect((await client.importLedger(bytes)).idempotencyKeys).toHaveLength(1);
  });

  it('runs ledger scenarios on a fresh ledger unless asked', async () => {
    const worker = createInProcessWorker();
    const client = createLabClient(() => worker);
    await client.run({ scenario: 'ledger-keyed-retry', transport: 'http', seed: 1, settings: {}, ledger: 'fresh' });
    expect(worker.posted.at(-1)).toMatchObject({ type: 'run', ledger: 'fresh' });
    expect((await client.ledgerSnapshot()).stored).toBe(false);
  });

  it('rejects with the engine error code', async () => {
    const client = createLabClient(createInProcessWorker);
    await expect(
      client.run({ scenario: 'A', transport: 'stdio', seed: -1, settings: {}, ledger: 'fresh' }),
    ).rejects.toMatchObject({ code: 'LAB003' });
    await expect(
      client.run({ scenario: 'Q', transport: 'stdio', seed: 1, settings: {}, ledger: 'fresh' }),
    ).rejects.toMatchObject({ code: 'LAB001' });
    await expect(
      client.run({ scenario: 'A', transport: 'stdio', seed: 1, settings: { bogus: 1 }, ledger: 'fresh' }),
    ).rejects.toMatchObject({ code: 'LAB004' });
  });

  it('fails pending requests when the worker answers something unreadable', async () => {
    const worker = createInProcessWorker();
    worker.answerWith(() => ({ type: 'transcript', requestId: 1, transcript: 'not a transcript' }));
    const client = createLabClient(() => worker);
    const failure = await client.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LabClientError);
    expect(failure).toMatchObject({ code: 'WORKER_FAILED' });
  });

  it('rejects an answer of the wrong type for the request', async () => {
    const worker = createInProcessWorker();
    worker.answerWith((request) => ({
      type: 'ledger-file',
      requestId: (request as { requestId: number }).requestId,
      bytes: new Uint8Array(1),
    }));
    const client = createLabClient(() => worker);
    await expect(client.ledgerSnapshot()).rejects.toMatchObject({
      code: 'WORKER_FAILED',
      message: expect.stringContaining('asked for ledger'),
    });
  });

  it('fails pending requests when stopped, and every later one', async () => {
    const client = createLabClient(createInProcessWorker);
    const pending = client.list();
    client.terminate();
    await expect(pending).rejects.toMatchObject({ code: 'WORKER_FAILED' });
    await expect(client.list()).rejects.toMatchObject({ code: 'WORKER_FAILED' });
  });
});
