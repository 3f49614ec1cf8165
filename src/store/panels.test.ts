// Proves the page's lazily loaded tools client passes Stop on even while the client module still
// loads: the call that was waiting for it is sent and then stopped, so no stopped work runs on; and
// that a load that fails (a chunk that does not arrive) is reported to the call, never as an unhandled
// rejection, and is tried again by the next call.
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import { WorkerClientError } from '../worker/workerClient';
import { toolsClientOnFirstUse } from './panels';

describe('the lazily loaded tools client', () => {
  it('a Stop before the client has loaded ends the call that was waiting for it', async () => {
    const sent: ToolCall[] = [];
    let stops = 0;
    let fail: ((error: Error) => void) | null = null;
    const real = {
      call(call: ToolCall) {
        sent.push(call);
        return new Promise((_resolve, reject) => (fail = reject));
      },
      stop() {
        stops += 1;
        fail?.(new WorkerClientError('STOPPED', 'Stopped'));
      },
    } as unknown as ToolsClient;
    let release: (client: ToolsClient) => void = () => {};
    const lazy = toolsClientOnFirstUse(() => new Promise<ToolsClient>((resolve) => (release = resolve)));
    const answer = lazy.call({ type: 'evidence' }).catch((error: unknown) => error);
    lazy.stop?.();
    release(real);
    const error = await answer;
    expect(sent).toEqual([{ type: 'evidence' }]);
    expect(stops).toBe(1);
    expect((error as WorkerClientError).code).toBe('STOPPED');
  }, 5_000);

  it('a Stop before anything was asked loads nothing and stops nothing', async () => {
    let loads = 0;
    const lazy = toolsClientOnFirstUse(() => {
      loads += 1;
      return Promise.reject(new Error('not loaded'));
    });
    lazy.stop?.();
    await Promise.resolve();
    expect(loads).toBe(0);
  });

  describe('when the client module fails to load', () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    afterEach(() => {
      process.off('unhandledRejection', onUnhandled);
      unhandled.length = 0;
    });
    /** Lets Node report any rejection nobody handled (it does so after the microtasks, before the next macrotask). */
    const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

    it('a Stop while it loads leaves no unhandled rejection; the waiting call reports the failure', async () => {
      process.on('unhandledRejection', onUnhandled);
      let fail: (error: Error) => void = () => {};
      const lazy = toolsClientOnFirstUse(() => new Promise<ToolsClient>((_resolve, reject) => (fail = reject)));
      const answer = lazy.call({ type: 'evidence' }).catch((error: unknown) => error);
      lazy.stop?.();
      fail(new Error('Failed to fetch dynamically imported module'));
      expect(await answer).toEqual(new Error('Failed to fetch dynamically imported module'));
      await nextTurn();
      await nextTurn();
      expect(unhandled).toEqual([]);
    });

    it('the failed load is not kept: the next call loads again and is answered', async () => {
      let loads = 0;
      const real = {
        call: (call: ToolCall) => Promise.resolve({ type: 'evidence-zip', asked: call }),
      } as unknown as ToolsClient;
      const lazy = toolsClientOnFirstUse(() =>
        ++loads === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(real),
      );
      await expect(lazy.call({ type: 'evidence' })).rejects.toThrow('offline');
      await expect(lazy.call({ type: 'evidence' })).resolves.toMatchObject({ asked: { type: 'evidence' } });
      expect(loads).toBe(2);
      // Once loaded, it stays loaded.
      await lazy.call({ type: 'evidence' });
      expect(loads).toBe(2);
    });
  });
});
