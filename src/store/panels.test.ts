// Proves the page's lazily loaded tools client passes Stop on even while the client module still
// loads: the call that was waiting for it is sent and then stopped, so no stopped work runs on.
import { describe, expect, it } from 'vitest';
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
});
