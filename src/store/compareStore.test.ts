// Proves the Compare tab's store against the real tools host in-process: it opens on C against C on the real SDK, or on the scenario the Scenario menu shows (and follows the menu until runs are chosen), answers with both transcripts and their comparison (checked by the worker protocol's schema), keeps the last runs when a spec is malformed, reads and writes both runs and the time in the link, says plainly that a link naming a recorded transcript does not hold it, and puts the recording, once opened, in the run the link named (or says why it cannot).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { readRecording, recordingTranscript } from '../worker/recording';
import { answerToolRequest } from '../worker/toolsHost';
import { explainBadToolResponse, type ToolResponse } from '../worker/protocol';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import { startCompareFollow } from './compareFollow';
import { createLabDriver } from './driver';
import { applyViewLink, createPanelsStore, VIEW_DEFAULTS } from './panelsStore';
import { placeRecordingInCompare } from './recording';
import { viewParams } from './url';

function toolsClient(): ToolsClient {
  let requestId = 1;
  return {
    async call(call: ToolCall) {
      const answer: ToolResponse = await answerToolRequest(
        { ...call, requestId: requestId++ } as Parameters<typeof answerToolRequest>[0],
        loadSqlJs,
      );
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
/** Resolves once the store shows a finished comparison of the runs `runs` (waits on the store, never a timer). */
const comparedRuns = (store: ReturnType<typeof createPanelsStore>, runs: string[]) =>
  new Promise<void>((resolve) => {
    const check = () => {
      const compare = store.getState().compare;
      if (compare.status !== 'done' || compare.value.runs.map((run) => run.spec).join(' ') !== runs.join(' ')) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = store.subscribe(check);
    check();
  });

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

  it('opens on the scenario the Scenario menu shows, follows the menu on the tab, and stops following once runs are chosen', async () => {
    const lab = createLabDriver();
    const store = createPanelsStore(toolsClient(), '{}');
    startCompareFollow(lab.store, store);
    await lab.open('A');
    store.getState().setTab('compare');
    await settled(store);
    const shown = store.getState().compare;
    expect(shown.status).toBe('done');
    if (shown.status !== 'done') return;
    expect(
      shown.value.runs.map((run) => [run.spec, run.transcript.scenario, run.transcript.implementation ?? 'model']),
    ).toEqual([
      ['A', 'A', 'model'],
      ['A:impl=ts-sdk', 'A', 'ts-sdk'],
    ]);
    // Off the Compare tab, the link leaves the runs the menu chose out: the link's scenario says them.
    expect(viewParams({ ...store.getState(), tab: 'race' }, VIEW_DEFAULTS)).toEqual({});

    // The menu picks another scenario while the tab is open: Compare compares it (no SDK for a ledger race: stdio beside HTTP).
    lab.store.getState().selectScenario('ledger-race-unsafe');
    await lab.settled();
    expect(store.getState().compareRuns).toEqual({
      a: 'ledger-race-unsafe:transport=stdio',
      b: 'ledger-race-unsafe:transport=http',
    });
    await comparedRuns(store, ['ledger-race-unsafe:transport=stdio', 'ledger-race-unsafe:transport=http']);
    const ledger = store.getState().compare;
    expect(ledger.status === 'done' ? ledger.value.runs.map((run) => run.transcript.scenario) : ledger).toEqual([
      'ledger-race-unsafe',
      'ledger-race-unsafe',
    ]);

    // Runs chosen by hand stay, whatever the menu picks next.
    store.getState().setCompareRuns('D:transport=stdio', 'D:transport=http');
    await comparedRuns(store, ['D:transport=stdio', 'D:transport=http']);
    lab.store.getState().selectScenario('B');
    await lab.settled();
    expect(store.getState().compareRuns).toEqual({ a: 'D:transport=stdio', b: 'D:transport=http' });
  }, 60_000);

  it('a link that names the runs keeps them, whatever the menu shows', async () => {
    const lab = createLabDriver();
    const store = createPanelsStore(toolsClient(), '{}');
    expect(applyViewLink(store, { runA: 'D:transport=stdio', runB: 'D' })).toEqual([]);
    startCompareFollow(lab.store, store);
    await lab.open('A');
    expect(store.getState().compareRuns).toEqual({ a: 'D:transport=stdio', b: 'D' });
  });

  it('reads both runs and the time from a link, and writes them back', () => {
    const store = createPanelsStore(toolsClient(), '{}');
    const problems = applyViewLink(store, { runA: 'D:transport=stdio', runB: 'D', compareMs: '150' });
    expect(problems).toEqual([]);
    expect(store.getState()).toMatchObject({ compareRuns: { a: 'D:transport=stdio', b: 'D' }, compareAtMs: 150 });
    expect(viewParams({ ...store.getState(), tab: 'compare' }, VIEW_DEFAULTS)).toMatchObject({
      tab: 'compare',
      runA: 'D:transport=stdio',
      runB: 'D',
      compareMs: '150',
    });
    // On the default runs and another tab, the link says nothing of them.
    expect(
      viewParams(
        { ...store.getState(), compareRuns: { ...VIEW_DEFAULTS.compareRuns }, compareAtMs: null },
        VIEW_DEFAULTS,
      ),
    ).toEqual({});
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

  describe('a recording opened for a link that named one', () => {
    const recording = recordingTranscript(
      readRecording(
        new Uint8Array(
          readFileSync(fileURLToPath(new URL('../../e2e/fixtures/probe-everything-stdio.json', import.meta.url))),
        ),
      ),
    );
    const spec = 'recorded cancel-during-work · mcp-servers/everything 2.0.0';
    /** A store opened from a link whose Run B names the recording, beside a Run A that is not the default and a Run C. */
    async function linked() {
      const store = createPanelsStore(toolsClient(), '{}');
      expect(
        applyViewLink(store, { tab: 'compare', runA: 'D:transport=stdio', runB: spec, runC: 'A:transport=stdio' }),
      ).toEqual([]);
      await settled(store);
      expect(store.getState().compareRecordingMissing).toEqual({ run: 'B', spec, probe: 'cancel-during-work' });
      return store;
    }

    it('goes in the run the link named; the other runs stay as the link wrote them', async () => {
      const store = await linked();
      placeRecordingInCompare(store, recording, { run: 'B', spec, probe: 'cancel-during-work' }, '“probe.json”');
      expect(store.getState().compareRuns).toEqual({ a: 'D:transport=stdio', b: spec, c: 'A:transport=stdio' });
      await reaches(store, ['loading']);
      await settled(store);
      const shown = store.getState().compare;
      expect(shown.status).toBe('done');
      if (shown.status !== 'done') return;
      expect(shown.value.runs.map((run) => [run.spec, run.transcript.kind])).toEqual([
        ['D:transport=stdio', 'request-race'],
        [spec, 'recording'],
        ['A:transport=stdio', 'request-race'],
      ]);
      expect(store.getState().compareRecordingMissing).toBeNull();
    }, 30_000);

    it('a file without the probe the link named changes no run and says what the file holds', async () => {
      const store = await linked();
      const without = {
        ...recording,
        outcome: {
          ...recording.outcome,
          probes: recording.outcome.probes.filter((entry) => entry.probe !== 'cancel-during-work'),
        },
      };
      placeRecordingInCompare(store, without, { run: 'B', spec, probe: 'cancel-during-work' }, '“other.json”');
      expect(store.getState().compareRuns).toEqual({ a: 'D:transport=stdio', b: spec, c: 'A:transport=stdio' });
      const shown = store.getState().compare;
      const text = shown.status === 'error' ? shown.message : '';
      expect(text).toContain('“other.json” opened, but it has no cancel-during-work probe, the one Run B names');
      expect(text).toContain(
        'its probes Compare can put beside the model are complete-then-cancel, progress-and-deadlines',
      );
      // The offer to open a recording stays.
      expect(store.getState().compareRecordingMissing).toEqual({ run: 'B', spec, probe: 'cancel-during-work' });
    });

    it('a file with nothing Compare can put beside the model says so', async () => {
      const store = await linked();
      const nothing = {
        ...recording,
        outcome: {
          ...recording.outcome,
          probes: recording.outcome.probes.filter((entry) => entry.probe === 'tasks' || entry.probe === 'negotiate'),
        },
      };
      placeRecordingInCompare(store, nothing, { run: 'B', spec, probe: 'cancel-during-work' }, 'the file');
      const shown = store.getState().compare;
      expect(shown.status === 'error' ? shown.message : '').toMatch(
        /^The file opened, but it has no cancel-during-work probe, the one Run B names; it has none Compare can put beside the model \(cancel-during-work, complete-then-cancel, progress-and-deadlines\)\./,
      );
      expect(store.getState().compareRuns.b).toBe(spec);
    });
  });
});
