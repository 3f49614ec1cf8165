// Proves the Compare tab's store against the real tools host in-process: it opens on C against C on the real SDK, answers with both transcripts and their comparison (checked by the worker protocol's schema), keeps the last runs when a spec is malformed, reads and writes both runs and the time in the link, and says plainly that a link naming a recorded transcript does not hold it.
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { answerToolRequest } from '../worker/toolsHost';
import { explainBadToolResponse, type ToolResponse } from '../worker/protocol';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import { applyViewLink, createPanelsStore, VIEW_DEFAULTS } from './panelsStore';
import { viewParams } from './url';

function toolsClient(): ToolsClient {
  let requestId = 1;
  return {
    async call(call: ToolCall) {
      const answer: ToolResponse = await answerToolRequest({ ...call, requestId: requestId++ } as Parameters<typeof answerToolRequest>[0], loadSqlJs);
      // What the page would accept from the worker.
      expect(explainBadToolResponse(answer)).toBeNull();
      if (answer.type === 'error') throw new Error(`${answer.code} ${answer.message}`);
      return answer;
    },
  } as ToolsClient;
}

/** Resolves once the store's compare view is in one of `statuses` (waits on the store, never a timer: an SDK run fakes the process's timers while it runs). */
const reaches = (store: ReturnType<typeof createPanelsStore>, statuses: string[]) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (!statuses.includes(store.getState().compare.status)) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = store.subscribe(check);
    check();
  });
const settled = (store: ReturnType<typeof createPanelsStore>) => reaches(store, ['done', 'error']);

describe('the Compare tab’s store', () => {
  it('opens on the model against the real SDK, and keeps the last runs when a spec is malformed', async () => {
    const store = createPanelsStore(toolsClient(), '{}');
    store.getState().setTab('compare');
    await settled(store);
    const first = store.getState().compare;
    expect(first.status).toBe('done');
    if (first.status !== 'done') return;
    expect(first.value.runs.map((run) => [run.spec, run.transcript.implementation ?? 'model'])).toEqual([
      ['C', 'model'],
      ['C:impl=ts-sdk', 'ts-sdk'],
    ]);
    expect(first.value.comparison.divergence?.atMs).toBe(2_000);
    expect(first.value.runs.every((run) => run.wording.length === run.transcript.events.length)).toBe(true);

    store.getState().setCompareRuns('C:impl=nope', 'C');
    await reaches(store, ['loading']);
    await settled(store);
    const refused = store.getState().compare;
    expect(refused).toMatchObject({ status: 'error', message: expect.stringMatching(/LAB024/) });
    expect('value' in refused ? refused.value : null).toBe(first.value);
  });

  it('reads both runs and the time from a link, and writes them back', () => {
    const store = createPanelsStore(toolsClient(), '{}');
    const problems = applyViewLink(store, { runA: 'D:transport=stdio', runB: 'D', compareMs: '150' });
    expect(problems).toEqual([]);
    expect(store.getState()).toMatchObject({ compareRuns: { a: 'D:transport=stdio', b: 'D' }, compareAtMs: 150 });
    expect(viewParams({ ...store.getState(), tab: 'compare' }, VIEW_DEFAULTS)).toMatchObject({ tab: 'compare', runA: 'D:transport=stdio', runB: 'D', compareMs: '150' });
    // On the default runs and another tab, the link says nothing of them.
    expect(viewParams({ ...store.getState(), compareRuns: { ...VIEW_DEFAULTS.compareRuns }, compareAtMs: null }, VIEW_DEFAULTS)).toEqual({});
    expect(applyViewLink(store, { compareMs: 'soon' })).toEqual([expect.stringContaining('compareMs=soon')]);
  });

  it('a link whose run names a recorded transcript says the link holds only its name and asks for the recording, not LAB024', async () => {
    let asked = 0;
    const client = toolsClient();
    const counting = { call: (call: ToolCall) => ((asked += 1), client.call(call as never)) } as unknown as ToolsClient;
    const store = createPanelsStore(counting, '{}');
    const spec = 'recorded cancel-during-work · everything 2.0.0';
    expect(applyViewLink(store, { runA: spec, runB: 'A:transport=http' })).toEqual([]);
    store.getState().setTab('compare');
    await settled(store);
    const shown = store.getState().compare;
    expect(shown).toMatchObject({ status: 'error' });
    const text = shown.status === 'error' ? shown.message : '';
    expect(text).not.toMatch(/LAB024|malformed/);
    expect(text).toContain(`Run A is the recorded transcript “${spec}”`);
    expect(text).toMatch(/holds only its name/);
    expect(text).toMatch(/Open the recorded transcript/);
    expect(store.getState().compareRecordingMissing).toEqual({ run: 'A', spec, probe: 'cancel-during-work' });
    // Nothing was asked of the worker: there is nothing it could run.
    expect(asked).toBe(0);

    // A run written as a spec again clears it.
    store.getState().setCompareRuns('D:transport=stdio', 'D');
    await reaches(store, ['loading']);
    await settled(store);
    expect(store.getState().compare.status).toBe('done');
    expect(store.getState().compareRecordingMissing).toBeNull();
  });
});
