import { describe, expect, it } from 'vitest';
import { scenarioD } from '../scenarios/D';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { createLabStore } from './labStore';

// The store asks the worker and keeps the latest answer: defaults, transport-follows-scenario,
// errors that clear the stale transcript, and late answers to superseded runs dropped.

function storeWithWorker() {
  const worker = createInProcessWorker();
  const store = createLabStore(() => createLabClient(() => worker));
  return { store, worker };
}

async function settled(store: ReturnType<typeof createLabStore>): Promise<void> {
  for (let i = 0; i < 100 && store.getState().status === 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('lab store', () => {
  it('starts idle on A, stdio, seed 1 and runs it on init', async () => {
    const { store } = storeWithWorker();
    expect(store.getState()).toMatchObject({ status: 'idle', scenarioId: 'A', transport: 'stdio', seed: 1, transcript: null, error: null });
    await store.getState().init();
    const state = store.getState();
    expect(state.scenarios.map((s) => s.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(state.status).toBe('done');
    expect([state.transcript?.scenario, state.transcript?.transport, state.transcript?.seed]).toEqual(['A', 'stdio', 1]);
  });

  it('switches to the picked scenario’s default transport and runs it', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().selectScenario('D');
    expect(store.getState()).toMatchObject({ scenarioId: 'D', transport: scenarioD.defaultTransport, status: 'running' });
    await settled(store);
    expect(store.getState().transcript?.outcome.cancellationSignal).toBe('stream-close');
    store.getState().setTransport('stdio');
    await settled(store);
    expect(store.getState().transcript?.outcome.cancellationSignal).toBe('notifications/cancelled');
  });

  it('shows the engine’s error and clears the transcript for a bad seed', async () => {
    const { store } = storeWithWorker();
    await store.getState().init();
    store.getState().setSeed(-3);
    await settled(store);
    expect(store.getState()).toMatchObject({ status: 'error', transcript: null, error: { code: 'LAB003' } });
    store.getState().setSeed(2);
    await settled(store);
    expect(store.getState()).toMatchObject({ status: 'done', error: null, transcript: { seed: 2 } });
  });

  it('keeps only the latest run’s answer', async () => {
    const { store, worker } = storeWithWorker();
    await store.getState().init();
    // B is asked first but answered last: its late transcript must not replace C's.
    worker.delayWith((request) => ((request as { scenario?: string }).scenario === 'B' ? 30 : 0));
    store.getState().selectScenario('B');
    store.getState().selectScenario('C');
    await settled(store);
    expect(store.getState().transcript?.scenario).toBe('C');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.getState()).toMatchObject({ status: 'done', transcript: { scenario: 'C' } });
    expect(worker.posted.filter((m) => (m as { type: string }).type === 'run')).toHaveLength(3);
  });
});
