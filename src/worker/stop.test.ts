// Proves a run can always be ended from the page: stop() and the wall-clock budget terminate the worker,
// start a fresh one, reject the run with a code that says so, and the stored ledger stays as it was; the store
// shows it and runs again on the fresh worker.
import { describe, expect, it } from 'vitest';
import { createRunStore } from '../store/runStore';
import { createLabClient } from './client';
import { createInProcessWorker, type InProcessWorker } from './inProcessWorker';
import { memoryLedgerStorage } from './ledgerStorage';

function workers(storage = memoryLedgerStorage()) {
  const made: InProcessWorker[] = [];
  const make = () => {
    const worker = createInProcessWorker({ storage });
    made.push(worker);
    return worker;
  };
  return { made, make, storage };
}

/** Makes the next runs never answer (a runaway run), keeping every other request working. */
function hang(worker: InProcessWorker) {
  worker.answerWith(() => new Promise(() => undefined));
}

describe('stopping a run', () => {
  it('stop() terminates the worker, starts a fresh one and rejects the run with STOPPED', async () => {
    const { made, make } = workers();
    const client = createLabClient(make);
    hang(made[0] as InProcessWorker);
    const running = client.runLab({ scenario: 'A', transport: 'stdio', seed: 1, settings: {}, ledger: 'fresh' });
    client.stop();
    await expect(running).rejects.toMatchObject({
      code: 'STOPPED',
      message: expect.stringMatching(/stopped.*fresh worker.*stored ledger is as it was/),
    });
    expect(made).toHaveLength(2);
    const transcript = await client.run({ scenario: 'A', transport: 'stdio', seed: 1, settings: {}, ledger: 'fresh' });
    expect(transcript.scenario).toBe('A');
  });

  it('a run over its wall-clock budget is ended the same way (RUN_BUDGET)', async () => {
    const { made, make } = workers();
    const client = createLabClient(make, { runBudgetMs: 50 });
    hang(made[0] as InProcessWorker);
    await expect(
      client.runLab({ scenario: 'A', transport: 'stdio', seed: 1, settings: {}, ledger: 'fresh' }),
    ).rejects.toMatchObject({
      code: 'RUN_BUDGET',
      message: expect.stringMatching(/50 ms.*fresh worker/),
    });
    expect(made).toHaveLength(2);
    expect((await client.list()).length).toBeGreaterThan(0);
  });

  it('the store stops a kept-ledger run; the stored ledger keeps its bytes', async () => {
    const { made, make, storage } = workers();
    const store = createRunStore(() => createLabClient(make));
    await store.getState().init(null);
    store.setState({ keepLedger: true });
    store.getState().selectScenario('ledger-keyed-retry');
    await new Promise((done) => setTimeout(done, 50));
    const before = await storage.load();
    hang(made[0] as InProcessWorker);
    const running = store.getState().run();
    expect(store.getState().status).toBe('running');
    store.getState().stop();
    await running;
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'STOPPED' } });
    expect(await storage.load()).toEqual(before);
    await store.getState().run();
    expect(store.getState().status).toBe('done');
  });
});
