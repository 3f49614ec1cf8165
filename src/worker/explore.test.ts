// Proves the worker side of the race explorer: an `explore` request reports progress while it
// computes and answers once with the exploration, checked by the protocol's schema on both sides; a `run`
// with `schedule` and `faults` (parsed values, as the page sends them) replays exactly that ordering with
// those faults; and the client settles both, with the engine's own error code when a schedule does not fit.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { parseFaults } from '../engine/core/faults';
import { parseSchedule } from '../engine/core/schedule';
import { createLabClient, LabClientError } from './client';
import { createLabHost } from './host';
import { createInProcessWorker } from './inProcessWorker';
import { memoryLedgerStorage } from './ledgerStorage';
import { isLabResponse } from './protocol';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

describe('explore in the worker', () => {
  it('reports progress, then answers once with the exploration', async () => {
    let clock = 0;
    const lab = createLabHost({ sql: Promise.resolve(sql), storage: memoryLedgerStorage(), now: () => (clock += 60) });
    const reports: unknown[] = [];
    const answer = await lab.handleMessage(
      {
        type: 'explore',
        requestId: 3,
        scenario: 'A',
        transport: 'stdio',
        seed: 1,
        settings: { latencyJitterMs: 300 },
        bound: 2000,
      },
      (report) => reports.push(report),
    );
    expect(isLabResponse(answer)).toBe(true);
    expect(answer.type).toBe('exploration');
    if (answer.type !== 'exploration') return;
    expect(answer.result.complete).toBe(true);
    expect(new Set(answer.result.endings.map((ending) => ending.distinct.terminalState))).toEqual(
      new Set(['cancelled', 'completed']),
    );
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(isLabResponse(report)).toBe(true);
      expect(report).toMatchObject({ type: 'explore-progress', requestId: 3 });
    }
  });

  it('explores a ledger scenario on sql.js and finds the unsafe race', async () => {
    const client = createLabClient(createInProcessWorker);
    const result = await client.explore({
      scenario: 'ledger-race-unsafe',
      transport: 'http',
      seed: 1,
      settings: {},
      bound: 1000,
    });
    expect(result.violations.map((violation) => violation.invariant)).toContain('one-execution-per-key');
  });

  it('a run replays a schedule, or faults, the same every time; what does not fit answers LAB022 / LAB023', async () => {
    const client = createLabClient(createInProcessWorker);
    const base = {
      scenario: 'A',
      transport: 'stdio' as const,
      seed: 1,
      settings: { latencyJitterMs: 300 },
      ledger: 'fresh' as const,
    };
    for (const [extra, recorded] of [
      [{ schedule: parseSchedule('j0.j10.c0.j80') }, { schedule: 'j0.j10.c0.j80' }],
      [{ faults: parseFaults('delay:7:20') }, { faults: 'delay:7:20' }],
    ] as const) {
      const first = await client.runLab({ ...base, ...extra });
      const again = await client.runLab({ ...base, ...extra });
      // The transcript records them as text, in the grammar they were parsed with.
      expect(first.transcript).toMatchObject(recorded);
      expect(JSON.stringify(again.transcript)).toBe(JSON.stringify(first.transcript));
    }
    await expect(client.runLab({ ...base, schedule: [{ kind: 'c', value: 9 }] })).rejects.toMatchObject({
      code: 'LAB022',
    });
    const misfit = client.runLab({ ...base, faults: [{ kind: 'drop', seq: 999 }] });
    await expect(misfit).rejects.toBeInstanceOf(LabClientError);
    await expect(misfit).rejects.toMatchObject({ code: 'LAB023' });
  });
});
