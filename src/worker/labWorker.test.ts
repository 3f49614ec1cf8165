import { describe, expect, it } from 'vitest';
import { holdWorker, startEarly, type HeldWorker } from './labWorker';

/** A worker stand-in: an event target that records what the page posts and whether it was ended. */
function fakeWorker() {
  const target = new EventTarget();
  const posted: unknown[] = [];
  let terminated = false;
  const worker: HeldWorker = Object.assign(target, {
    postMessage: (message: unknown) => void posted.push(message),
    terminate: () => void (terminated = true),
    onmessage: null,
    onmessageerror: null,
    onerror: null,
  }) as unknown as HeldWorker;
  return { target, worker, posted, terminated: () => terminated };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the engine worker started before its client', () => {
  it('hands what the worker reported before the client listened to the client, in order, and then everything after', async () => {
    const fake = fakeWorker();
    const take = holdWorker(fake.worker);
    // The worker's script failed to load before the page's client existed.
    const early = new Event('error', { cancelable: true });
    fake.target.dispatchEvent(early);
    fake.target.dispatchEvent(new MessageEvent('message', { data: 'first' }));
    expect(early.defaultPrevented).toBe(true);

    const taken = take();
    const heard: string[] = [];
    taken.addEventListener('message', (event) => heard.push(`message ${String(event.data)}`));
    taken.addEventListener('messageerror', () => heard.push('messageerror'));
    taken.addEventListener('error', (event) => heard.push(`error ${String(event.defaultPrevented)}`));
    expect(heard).toEqual([]);
    // One held event a task: a long run's parts heard before the page booted are not all read in one task.
    await settle();
    expect(heard).toEqual(['error true']);
    // What comes while the held ones are handed on waits behind them.
    fake.target.dispatchEvent(new MessageEvent('message', { data: 'meanwhile' }));
    expect(heard).toEqual(['error true']);
    await settle();
    expect(heard).toEqual(['error true', 'message first']);
    await settle();
    await settle();
    expect(heard).toEqual(['error true', 'message first', 'message meanwhile']);

    fake.target.dispatchEvent(new MessageEvent('message', { data: 'later' }));
    expect(heard).toEqual(['error true', 'message first', 'message meanwhile', 'message later']);

    taken.postMessage({ type: 'list', requestId: 1 });
    expect(fake.posted).toEqual([{ type: 'list', requestId: 1 }]);
    taken.terminate();
    expect(fake.terminated()).toBe(true);
  });

  it('replays nothing when the worker said nothing before it was taken', async () => {
    const fake = fakeWorker();
    const taken = holdWorker(fake.worker)();
    const heard: unknown[] = [];
    taken.addEventListener('message', (event) => heard.push(event.data));
    await settle();
    expect(heard).toEqual([]);
    fake.target.dispatchEvent(new MessageEvent('message', { data: 1 }));
    expect(heard).toEqual([1]);
  });

  it("sends the page's link to the worker it starts, and the client that takes it learns which request that was", () => {
    const fake = fakeWorker();
    const taken = startEarly(() => fake.worker, '?scenario=C&progressEveryMs=1')?.();
    expect(fake.posted).toEqual([{ type: 'open', requestId: 0, search: '?scenario=C&progressEveryMs=1' }]);
    expect(taken?.opening).toBe(0);
    // Without a link to send (the tests, a fresh worker), nothing is sent and nothing is to be taken.
    const quiet = fakeWorker();
    expect(startEarly(() => quiet.worker)?.().opening).toBeNull();
    expect(quiet.posted).toEqual([]);
  });

  it('leaves the page to start the worker itself when starting it early throws at once', () => {
    expect(
      startEarly(() => {
        throw new TypeError('module workers are not supported');
      }),
    ).toBeNull();
    const fake = fakeWorker();
    expect(startEarly(() => fake.worker)).toBeTypeOf('function');
  });
});
