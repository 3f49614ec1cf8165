// Proves the run store keeps what it decides with in its state: the ticker follows `playing` and
// `speed` (a new run or a step by hand stops it), the one time scale lays the run on screen out again
// (Linear time is `scale`, no second copy), and the selection is one run description that a change
// replaces whole (an ordering and faults drop with any other change).
import { describe, expect, it } from 'vitest';
import { createLabDriver, whenSettled } from './driver';

describe('a store that owns its state', () => {
  it('the ticker runs exactly while playing, at the speed in the state', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    lab.play();
    expect(lab.ticker.intervalMs).toBe(500);
    lab.state.setSpeed(4);
    expect(lab.ticker.intervalMs).toBe(250);
    lab.step();
    expect([lab.state.playing, lab.ticker.intervalMs]).toEqual([false, null]);
    lab.play();
    lab.state.select({ seed: 2 });
    expect([lab.state.playing, lab.ticker.intervalMs]).toEqual([false, null]);
    await lab.settled();
    expect(lab.state.transcript?.seed).toBe(2);
  });

  it('Linear time is the store scale: the run on screen is laid out again on it, by its run id', async () => {
    const lab = createLabDriver();
    await lab.open('C');
    const runId = lab.state.runId;
    const runs = () => lab.worker.posted.filter((message) => (message as { type: string }).type === 'run').length;
    const runsBefore = runs();
    expect([lab.state.scale, lab.state.layout?.scale]).toEqual(['ordinal', 'ordinal']);
    lab.state.setScale('linear');
    const state = await whenSettled(lab.store, (s) => s.layout?.scale === 'linear');
    expect([state.scale, state.runId]).toEqual(['linear', runId]);
    expect(runs()).toBe(runsBefore);
  });

  it('the selection is one run description; a change drops the ordering and faults it came with', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    lab.state.injectFault('drop', 7);
    await lab.settled();
    expect(lab.state.spec).toMatchObject({
      scenario: 'A',
      transport: 'stdio',
      seed: 1,
      faults: [{ kind: 'drop', seq: 7 }],
    });
    lab.state.select({ transport: 'http', settings: { cancelAtMs: 150 } });
    expect(lab.state.spec).toEqual({
      scenario: 'A',
      impl: 'model',
      transport: 'http',
      seed: 1,
      settings: { cancelAtMs: 150 },
    });
    await lab.settled();
    expect(lab.state.transcript).toMatchObject({ transport: 'http', settings: { cancelAtMs: 150 } });
    expect(lab.state.transcript?.faults).toBeUndefined();
  });
});
