import { describe, expect, it } from 'vitest';
import { scenarios } from '../scenarios/index';
import { createLabClient, LabClientError } from './client';
import { handleMessage } from './host';
import { createInProcessWorker } from './inProcessWorker';
import { isLabRequest, isLabResponse } from './protocol';

// The worker protocol: guards accept exactly the documented shapes, every message gets one answer,
// and the client turns answers and failures into settled promises with LabError codes.

describe('protocol guards', () => {
  it('accepts the two request shapes and refuses near misses', () => {
    expect(isLabRequest({ type: 'list', requestId: 1 })).toBe(true);
    expect(isLabRequest({ type: 'run', requestId: 2, scenario: 'A', transport: 'http', seed: 1, settings: { cancelAtMs: null } })).toBe(true);
    for (const bad of [
      null,
      [],
      'run',
      { type: 'list' },
      { type: 'list', requestId: 1.5 },
      { type: 'walk', requestId: 1 },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'sse', seed: 1, settings: {} },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: '1', settings: {} },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1, settings: { x: [] } },
      { type: 'run', requestId: 1, scenario: 'A', transport: 'stdio', seed: 1 },
    ]) {
      expect(isLabRequest(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('answers every message with one valid response', () => {
    const answers = [
      handleMessage({ type: 'list', requestId: 1 }),
      handleMessage({ type: 'run', requestId: 2, scenario: 'D', transport: 'http', seed: 1, settings: {} }),
      handleMessage({ type: 'run', requestId: 3, scenario: 'Z', transport: 'http', seed: 1, settings: {} }),
      handleMessage({ type: 'nope', requestId: 4 }),
      handleMessage(42),
    ];
    for (const answer of answers) expect(isLabResponse(answer), JSON.stringify(answer).slice(0, 200)).toBe(true);
    expect(answers.map((a) => a.type)).toEqual(['scenarios', 'transcript', 'error', 'error', 'error']);
    expect(answers.map((a) => (a.type === 'error' ? [a.requestId, a.code] : a.requestId))).toEqual([1, 2, [3, 'LAB001'], [4, 'LAB008'], [null, 'LAB008']]);
  });
});

describe('lab client over an in-process worker', () => {
  it('lists the scenarios with their metadata', async () => {
    const client = createLabClient(createInProcessWorker);
    const listed = await client.list();
    expect(listed.map((s) => [s.id, s.title, s.defaultTransport])).toEqual(scenarios.map((s) => [s.id, s.title, s.defaultTransport]));
    expect(listed[0]?.requirements).toEqual([...(scenarios[0]?.requirements ?? [])]);
  });

  it('runs scenarios and correlates concurrent requests', async () => {
    const client = createLabClient(createInProcessWorker);
    const [a, d] = await Promise.all([client.run({ scenario: 'A', transport: 'stdio', seed: 1 }), client.run({ scenario: 'D', transport: 'http', seed: 1 })]);
    expect([a.scenario, a.transport, a.outcome.cancellationSignal]).toEqual(['A', 'stdio', 'notifications/cancelled']);
    expect([d.scenario, d.transport, d.outcome.cancellationSignal]).toEqual(['D', 'http', 'stream-close']);
  });

  it('rejects with the engine error code', async () => {
    const client = createLabClient(createInProcessWorker);
    await expect(client.run({ scenario: 'A', transport: 'stdio', seed: -1 })).rejects.toMatchObject({ code: 'LAB003' });
    await expect(client.run({ scenario: 'Q', transport: 'stdio', seed: 1 })).rejects.toMatchObject({ code: 'LAB001' });
    await expect(client.run({ scenario: 'A', transport: 'stdio', seed: 1, settings: { bogus: 1 } })).rejects.toMatchObject({ code: 'LAB004' });
  });

  it('fails pending requests when the worker answers something unreadable', async () => {
    const worker = createInProcessWorker();
    worker.answerWith(() => ({ type: 'transcript', requestId: 1, transcript: 'not a transcript' }));
    const client = createLabClient(() => worker);
    const failure = await client.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LabClientError);
    expect(failure).toMatchObject({ code: 'WORKER_FAILED' });
  });

  it('fails pending requests when stopped, and every later one', async () => {
    const client = createLabClient(createInProcessWorker);
    const pending = client.list();
    client.terminate();
    await expect(pending).rejects.toMatchObject({ code: 'WORKER_FAILED' });
    await expect(client.list()).rejects.toMatchObject({ code: 'WORKER_FAILED' });
  });
});
