// Proves both workers' clients are one stack: the tools client gets what the lab client had (a
// budget that replaces a stuck worker, Stop that starts a fresh one, an error event that fails what
// waits), with the same error class and codes as the lab client.
import { describe, expect, it } from 'vitest';
import { LabClientError } from './client';
import { createToolsClient, ToolsClientError, type ToolsWorkerLike } from './toolsClient';

/** A tools worker that never answers (stuck), counting how many were started and ended. */
function stuckWorkers() {
  const started: Array<{ ended: boolean; fail(message: string): void }> = [];
  const make = (): ToolsWorkerLike => {
    const errorListeners: Array<(event: ErrorEvent) => void> = [];
    const record = {
      ended: false,
      fail: (message: string) =>
        errorListeners.forEach((listener) => listener({ message, preventDefault() {} } as ErrorEvent)),
    };
    started.push(record);
    return {
      postMessage() {},
      addEventListener(type: string, listener: (event: never) => void) {
        if (type === 'error') errorListeners.push(listener as (event: ErrorEvent) => void);
      },
      terminate() {
        record.ended = true;
      },
    } as ToolsWorkerLike;
  };
  return { started, make };
}

describe('one worker client for both workers', () => {
  it('the lab and tools clients share one error class', () => {
    expect(ToolsClientError).toBe(LabClientError);
  });

  it('a tools call past its budget replaces the worker and rejects with RUN_BUDGET', async () => {
    const { started, make } = stuckWorkers();
    const client = createToolsClient(make);
    expect(started).toHaveLength(0);
    const failure = await client
      .call({ type: 'verify' }, { budget: { ms: 30, what: 'verification' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolsClientError);
    expect((failure as ToolsClientError).code).toBe('RUN_BUDGET');
    expect((failure as Error).message).toMatch(/the verification took longer than 30 ms/);
    expect(started[0]?.ended).toBe(true);
  });

  it('Stop ends the worker and what waits for it; the next call starts a fresh one', async () => {
    const { started, make } = stuckWorkers();
    const client = createToolsClient(make);
    const waiting = client.call({ type: 'skill' }).catch((error: unknown) => error);
    client.stop?.();
    expect(((await waiting) as ToolsClientError).code).toBe('STOPPED');
    expect(started.map((worker) => worker.ended)).toEqual([true]);
    void client.call({ type: 'skill' }).catch(() => undefined);
    expect(started).toHaveLength(2);
  });

  it('a worker that fails to load fails what waits for it with WORKER_FAILED', async () => {
    const { started, make } = stuckWorkers();
    const client = createToolsClient(make);
    const waiting = client.call({ type: 'verify' }).catch((error: unknown) => error);
    started[0]?.fail('');
    const failure = (await waiting) as ToolsClientError;
    expect([failure.code, failure.message]).toEqual([
      'WORKER_FAILED',
      'the tools worker failed: it could not be loaded',
    ]);
  });
});
