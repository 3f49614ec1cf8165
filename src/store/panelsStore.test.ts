// Proves the panels store asks the tools worker for slider views debounced and latest-wins: a burst of moves is one run with the newest value, and a move during a run queues exactly one more.
import { REVIEW_INPUT_CHARS_MAX } from '../lesson/reviewLimits';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import type { RequestHooks } from '../worker/workerClient';
import { WorkerClientError } from '../worker/workerClient';
import { createPanelsStore, SLIDER_DEBOUNCE_MS } from './panelsStore';

function fakeClient() {
  const calls: ToolCall[] = [];
  const releases: (() => void)[] = [];
  const client = {
    call(call: ToolCall) {
      calls.push(call);
      return new Promise((resolve) => {
        releases.push(() =>
          resolve({
            type: 'panel-view',
            requestId: calls.length,
            view: {
              kind: 'buffer',
              capacityEvents: (call as unknown as { settings: { capacity: number } }).settings.capacity,
            },
          }),
        );
      });
    },
  } as unknown as ToolsClient;
  return { client, calls, releases };
}

/**
 * A panels store whose evidence calls the test answers (Stop fails the one pending), after one export that
 * finished with a one-file list; `answer` and `fail` end the export asked for next.
 */
async function afterOneExport() {
  let pending: { answer: (value: unknown) => void; fail: (error: unknown) => void } | null = null;
  const evidenceClient = {
    call: () => new Promise((answer, fail) => (pending = { answer, fail })),
    stop: () => pending?.fail(new WorkerClientError('STOPPED', 'Stopped')),
  } as unknown as ToolsClient;
  const store = createPanelsStore(fakeClient().client, '{}', undefined, undefined, evidenceClient);
  const files = [{ path: 'verification.json', description: 'The checklist.' }];
  void store.getState().exportEvidence(() => {});
  pending!.answer({ type: 'evidence-zip', requestId: 1, files, bytes: new Uint8Array([1]) });
  await vi.advanceTimersByTimeAsync(0);
  expect(store.getState().evidence).toEqual({ status: 'done', value: files });
  return {
    store,
    files,
    answer: (value: unknown) => pending!.answer(value),
    fail: (error: unknown) => pending!.fail(error),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('panels store', () => {
  it('runs a burst of slider moves once, with the newest value', async () => {
    const { client, calls, releases } = fakeClient();
    const store = createPanelsStore(client, '{}');
    for (const capacity of [5, 6, 7, 9]) store.getState().setCapacity(capacity);
    await vi.advanceTimersByTimeAsync(SLIDER_DEBOUNCE_MS);
    expect(calls).toEqual([
      expect.objectContaining({ type: 'panel', scenario: 'buffer-overload', settings: { capacity: 9 } }),
    ]);
    releases[0]?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().buffer).toMatchObject({ status: 'done', value: { capacityEvents: 9 } });
  });

  it('queues one more run for moves during a run, and never two at once', async () => {
    const { client, calls, releases } = fakeClient();
    const store = createPanelsStore(client, '{}');
    store.getState().setCapacity(4);
    await vi.advanceTimersByTimeAsync(SLIDER_DEBOUNCE_MS);
    store.getState().setCapacity(10);
    await vi.advanceTimersByTimeAsync(SLIDER_DEBOUNCE_MS);
    store.getState().setCapacity(12);
    await vi.advanceTimersByTimeAsync(SLIDER_DEBOUNCE_MS);
    expect(calls).toHaveLength(1);
    releases[0]?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ settings: { capacity: 12 } });
  });

  it('answers JSON that does not parse without asking the worker', async () => {
    const { client, calls } = fakeClient();
    const store = createPanelsStore(client, '{ not json');
    await store.getState().submitReview();
    expect(calls).toEqual([]);
    expect(store.getState().review).toMatchObject({ status: 'done', value: { ok: false, errors: [{ field: '/' }] } });
  });

  it('refuses input over the size bound, or nested past the depth bound, with a field error and without asking the worker', async () => {
    for (const text of [' '.repeat(REVIEW_INPUT_CHARS_MAX + 1), `${'['.repeat(100_000)}${']'.repeat(100_000)}`]) {
      const { client, calls } = fakeClient();
      const store = createPanelsStore(client, text);
      await store.getState().submitReview();
      expect(calls).toEqual([]);
      expect(store.getState().review).toMatchObject({
        status: 'done',
        value: { ok: false, errors: [{ field: '/', message: expect.stringMatching(/more than/) }] },
      });
    }
  });

  it('Download skill asks the worker for the skill zip and hands its bytes to save', async () => {
    const files = [{ path: 'mcp-reliability-reviewer/SKILL.md', description: 'the skill' }];
    const bytes = new Uint8Array([80, 75, 3, 4]);
    const calls: ToolCall[] = [];
    const client = {
      call: (call: ToolCall) => (calls.push(call), Promise.resolve({ type: 'skill-zip', requestId: 1, files, bytes })),
    } as unknown as ToolsClient;
    const store = createPanelsStore(client, '{}');
    const saved: Uint8Array[] = [];
    await store.getState().downloadSkill((b) => saved.push(b));
    expect(calls).toEqual([{ type: 'skill' }]);
    expect(saved).toEqual([bytes]);
    expect(store.getState().skill).toEqual({ status: 'done', value: files });
  });

  it("keeps the checklist's progress while it computes on its own client, clears it with the answer, and Stop ends that client alone", async () => {
    const shared = fakeClient();
    let hooks: RequestHooks | undefined;
    let answer: ((value: unknown) => void) | null = null;
    let fail: ((error: unknown) => void) | null = null;
    let stopped = 0;
    const verifyClient = {
      call(_call: ToolCall, given?: RequestHooks) {
        hooks = given;
        return new Promise((resolve, reject) => {
          answer = resolve;
          fail = reject;
        });
      },
      stop() {
        stopped += 1;
        fail?.(
          new WorkerClientError('STOPPED', 'Stopped: the worker was ended before it answered; nothing else changed.'),
        );
      },
    } as unknown as ToolsClient;
    const store = createPanelsStore(shared.client, '{}', shared.client, verifyClient);
    store.getState().setTab('verification');
    expect(store.getState().verification.status).toBe('loading');
    expect(store.getState().verificationProgress).toBeNull();
    hooks?.verifyProgress?.({ runsDone: 412, runsTotal: 1160, statement: 'VF-5' });
    expect(store.getState().verificationProgress).toEqual({ runsDone: 412, runsTotal: 1160, statement: 'VF-5' });
    answer!({ type: 'verification', requestId: 1, results: [], failureModes: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().verification.status).toBe('done');
    expect(store.getState().verificationProgress).toBeNull();
    expect(shared.calls).toEqual([]);

    void store.getState().loadVerification();
    hooks?.verifyProgress?.({ runsDone: 3, runsTotal: 1160, statement: 'VF-1' });
    store.getState().stopVerification();
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(1);
    expect(store.getState().verification).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Stopped/),
    });
    expect(store.getState().verificationProgress).toBeNull();
    // Stop when nothing computes ends nothing.
    store.getState().stopVerification();
    expect(stopped).toBe(1);
  });

  it("keeps the evidence export's progress on its own client, saves the zip it answers, and Stop saves nothing and lets the next export start afresh", async () => {
    const shared = fakeClient();
    const asked: {
      hooks: RequestHooks | undefined;
      answer: (value: unknown) => void;
      fail: (error: unknown) => void;
    }[] = [];
    let stopped = 0;
    const evidenceClient = {
      call(_call: ToolCall, hooks?: RequestHooks) {
        return new Promise((answer, fail) => asked.push({ hooks, answer, fail }));
      },
      stop() {
        stopped += 1;
        asked
          .at(-1)
          ?.fail(
            new WorkerClientError('STOPPED', 'Stopped: the worker was ended before it answered; nothing else changed.'),
          );
      },
    } as unknown as ToolsClient;
    const store = createPanelsStore(shared.client, '{}', shared.client, shared.client, evidenceClient);
    const saved: Uint8Array[] = [];
    const save = (bytes: Uint8Array) => void saved.push(bytes);
    const zip = {
      type: 'evidence-zip',
      requestId: 1,
      files: [{ path: 'README.md', description: 'This index.' }],
      bytes: new Uint8Array([1, 2]),
    };

    // Stopped part way: no zip saved, the tab says so, the progress is gone.
    void store.getState().exportEvidence(save);
    expect(store.getState().evidence.status).toBe('loading');
    asked[0]!.hooks?.verifyProgress?.({ runsDone: 5, runsTotal: 1171, statement: 'reopen-check.json' });
    expect(store.getState().evidenceProgress).toEqual({ runsDone: 5, runsTotal: 1171, statement: 'reopen-check.json' });
    store.getState().stopEvidence();
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(1);
    expect(saved).toEqual([]);
    expect(store.getState().evidence).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Stopped.*nothing was downloaded/),
    });
    expect(store.getState().evidenceProgress).toBeNull();
    // An answer or report from the stopped export that arrives after Stop changes nothing.
    asked[0]!.hooks?.verifyProgress?.({ runsDone: 6, runsTotal: 1171, statement: 'alias-check.json' });
    asked[0]!.answer(zip);
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual([]);
    expect(store.getState().evidenceProgress).toBeNull();

    // The next export starts afresh and saves its zip.
    void store.getState().exportEvidence(save);
    expect(asked).toHaveLength(2);
    expect(store.getState().evidenceProgress).toBeNull();
    asked[1]!.hooks?.verifyProgress?.({ runsDone: 1171, runsTotal: 1171, statement: 'VF-12' });
    asked[1]!.answer(zip);
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual([zip.bytes]);
    expect(store.getState().evidence).toEqual({ status: 'done', value: zip.files });
    expect(store.getState().evidenceProgress).toBeNull();
    // A Stop that comes after the worker answered but before the page read the answer still saves nothing.
    void store.getState().exportEvidence(save);
    asked[2]!.answer(zip);
    store.getState().stopEvidence();
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(2);
    expect(saved).toEqual([zip.bytes]);
    expect(store.getState().evidence).toMatchObject({ status: 'error', message: expect.stringMatching(/^Stopped/) });
    expect(shared.calls).toEqual([]);
    // Stop when nothing computes ends nothing.
    store.getState().stopEvidence();
    expect(stopped).toBe(2);
  });

  it("Stop exporting keeps the list of the last export that finished, and says the list is that one's", async () => {
    const { store, files } = await afterOneExport();
    void store.getState().exportEvidence(() => {});
    store.getState().stopEvidence();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().evidence).toEqual({
      status: 'error',
      message:
        'Stopped: the evidence export was ended before it finished; nothing was downloaded. The files listed are those of the last export that finished.',
      value: files,
    });
  });

  it('an evidence export that fails keeps the list of the last export that finished, shows the error and says whose list it is', async () => {
    const { store, files, answer, fail } = await afterOneExport();
    const saved: Uint8Array[] = [];
    void store.getState().exportEvidence((bytes) => void saved.push(bytes));
    fail(new WorkerClientError('WORKER_FAILED', 'the tools worker failed to load'));
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual([]);
    expect(store.getState().evidence).toEqual({
      status: 'error',
      message:
        'the tools worker failed to load. Nothing was downloaded; the files listed are those of the last export that finished.',
      value: files,
    });
    expect(store.getState().evidenceProgress).toBeNull();

    // The next export that finishes replaces the list and clears the error.
    const next = [{ path: 'README.md', description: 'This index.' }];
    void store.getState().exportEvidence(() => {});
    answer({ type: 'evidence-zip', requestId: 3, files: next, bytes: new Uint8Array([2]) });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().evidence).toEqual({ status: 'done', value: next });
  });

  it("shows an evidence export's error instead of swallowing it", async () => {
    const failing = {
      call: () => Promise.reject(new WorkerClientError('WORKER_FAILED', 'the tools worker failed to load')),
    } as unknown as ToolsClient;
    const store = createPanelsStore(fakeClient().client, '{}', undefined, undefined, failing);
    const saved: Uint8Array[] = [];
    await store.getState().exportEvidence((bytes) => void saved.push(bytes));
    expect(saved).toEqual([]);
    expect(store.getState().evidence).toMatchObject({ status: 'error', message: 'the tools worker failed to load' });
  });
});
