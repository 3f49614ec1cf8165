// Proves the checklist's and the evidence export's progress cross the worker boundary: the real tools
// host, served as the tools worker is, sends schema-checked `verify-progress` reports that reach the
// call's hook before its answer, paced but always ending at the total; a malformed report fails the
// call; every artifact file name an export's report carries fits the schema; Stop during an export
// ends its worker, and the next export runs on a fresh one.
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import type { ToolRequest, ToolResponse } from './protocol';
import { serveWorker, type WorkerScope } from './serve';
import { EVIDENCE_ARTIFACT_PATHS, evidenceArtifactRunsPlanned } from '../lesson/evidence';
import { createToolsClient, ToolsClientError, type ToolsWorkerLike } from './toolsClient';
import { check, PROGRESS_STATEMENT_CHARS_MAX, VerifyProgressSchema } from './schemas';
import { createToolsHost } from './toolsHost';
import type { VerifyProgress } from './workerClient';

type Listener = (event: MessageEvent<unknown>) => void;

/** A tools worker in this process: the real host behind structured clones and an asynchronous hop each way. */
function inProcessToolsWorker(
  answer?: (request: ToolRequest, post: (message: unknown) => void) => void,
  onTerminate: () => void = () => {},
): ToolsWorkerLike {
  const toPage: Listener[] = [];
  const toWorker: Listener[] = [];
  const post = (message: unknown) =>
    setTimeout(
      () => toPage.forEach((listener) => listener({ data: structuredClone(message) } as MessageEvent<unknown>)),
      0,
    );
  const scope: WorkerScope<ToolResponse> = {
    postMessage: post,
    addEventListener: (type, listener) => void (type === 'message' && toWorker.push(listener)),
  };
  if (answer === undefined)
    serveWorker(
      scope,
      createToolsHost(() => initSqlJs()),
    );
  return {
    postMessage(request) {
      const data = structuredClone(request);
      setTimeout(
        () =>
          answer === undefined
            ? toWorker.forEach((listener) => listener({ data } as MessageEvent<unknown>))
            : answer(data, post),
        0,
      );
    },
    addEventListener(type: string, listener: Listener) {
      if (type === 'message') toPage.push(listener);
    },
    terminate: onTerminate,
  } as ToolsWorkerLike;
}

describe('the checklist reports its progress through the tools worker', () => {
  it("reports reach the call's hook, never fall, and end at the total", async () => {
    const client = createToolsClient(() => inProcessToolsWorker());
    const reports: VerifyProgress[] = [];
    const answer = await client.call({ type: 'verify' }, { verifyProgress: (progress) => reports.push(progress) });
    expect(answer.results.length).toBe(17);
    expect(reports.length).toBeGreaterThan(1);
    const total = reports[0]!.runsTotal;
    expect(total).toBeGreaterThan(1_000);
    expect(reports[0]).toMatchObject({ runsDone: 0, statement: 'VF-1' });
    for (const [i, report] of reports.entries()) {
      expect(report.runsTotal).toBe(total);
      if (i > 0) expect(report.runsDone).toBeGreaterThanOrEqual(reports[i - 1]!.runsDone);
    }
    expect(reports.at(-1)?.runsDone).toBe(total);
    // Paced: far fewer reports than runs, yet every statement named.
    expect(reports.length).toBeLessThan(total / 2);
    expect(new Set(reports.map((r) => r.statement)).size).toBe(17);
  }, 120_000);

  it('a report the schema refuses fails the call with WORKER_FAILED', async () => {
    const client = createToolsClient(() =>
      inProcessToolsWorker((request, post) =>
        post({ type: 'verify-progress', requestId: request.requestId, runsDone: -1, runsTotal: 10, statement: 'VF-1' }),
      ),
    );
    const failure = await client.call({ type: 'verify' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolsClientError);
    expect((failure as ToolsClientError).code).toBe('WORKER_FAILED');
    expect((failure as Error).message).toMatch(/runsDone/);
  });
});

describe('the evidence export reports its progress through the tools worker, and Stop ends it', () => {
  it("reports reach the call's hook, artifacts first, never fall, and end at the total", async () => {
    const client = createToolsClient(() => inProcessToolsWorker());
    const reports: VerifyProgress[] = [];
    const answer = await client.call({ type: 'evidence' }, { verifyProgress: (progress) => reports.push(progress) });
    expect(answer.files.map((f) => f.path)).toContain('verification.json');
    const total = reports[0]!.runsTotal;
    expect(reports[0]).toMatchObject({ runsDone: 0, statement: 'cancellation-race-stdio.json' });
    expect(total).toBeGreaterThan(1_000 + evidenceArtifactRunsPlanned());
    for (const [i, report] of reports.entries()) {
      expect(report.runsTotal).toBe(total);
      if (i > 0) expect(report.runsDone).toBeGreaterThanOrEqual(reports[i - 1]!.runsDone);
    }
    expect(reports.at(-1)?.runsDone).toBe(total);
    expect(reports.length).toBeLessThan(total / 2);
    expect(reports.some((r) => r.statement === 'VF-12')).toBe(true);
  }, 120_000);

  it('every artifact file name a report can carry fits the schema’s statement', () => {
    expect(EVIDENCE_ARTIFACT_PATHS.length).toBeGreaterThan(0);
    for (const path of EVIDENCE_ARTIFACT_PATHS) {
      expect(path.length, path).toBeLessThanOrEqual(PROGRESS_STATEMENT_CHARS_MAX);
      // The report as the worker sends it, checked by the very schema the page reads it with.
      expect(
        check(VerifyProgressSchema, {
          type: 'verify-progress',
          requestId: 1,
          runsDone: 0,
          runsTotal: 1,
          statement: path,
        }).ok,
        path,
      ).toBe(true);
    }
  });

  it('Stop during an export ends its worker and rejects with STOPPED; the next export starts a new worker', async () => {
    let workers = 0;
    let terminated = 0;
    const client = createToolsClient(() => {
      workers += 1;
      return inProcessToolsWorker(undefined, () => (terminated += 1));
    });
    let reports = 0;
    const stopped = await client
      .call(
        { type: 'evidence' },
        {
          verifyProgress: () => {
            reports += 1;
            client.stop?.();
          },
        },
      )
      .catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ToolsClientError);
    expect((stopped as ToolsClientError).code).toBe('STOPPED');
    expect(reports).toBe(1); // nothing heard after Stop, and no zip
    expect(terminated).toBe(1);
    const again = await client.call({ type: 'evidence' });
    expect(workers).toBe(2);
    expect(again.bytes.length).toBeGreaterThan(0);
  }, 120_000);
});
