// Proves a long answer survives being sent in parts: every part passes the page's check on its own,
// the page's client puts back exactly what the worker computed (transcript, wording, layout), and a
// part out of place or missing fails the request instead of showing a run with holes.
import { describe, expect, it } from 'vitest';
import { runScenario, wordEvents } from '../engine';
import { findScenario } from '../scenarios/index';
import { createLabClient, LabClientError } from './client';
import { layoutDiagram } from '../diagram/geometry/layout';
import { createInProcessWorker } from './inProcessWorker';
import { explainBadResponse, type LabResponse } from './protocol';
import { inParts, PART_EVENTS, PartsAssembly } from './runParts';

const settings = { progressEveryMs: 2 };
const transcript = runScenario(findScenario('C'), { transport: 'stdio', seed: 1, settings });
const wording = wordEvents(transcript.events);
const answer: Extract<LabResponse, { type: 'transcript' }> = {
  type: 'transcript',
  requestId: 7,
  transcript,
  facts: null,
  wording,
  layout: layoutDiagram(transcript, wording),
};

describe('a long answer in parts', () => {
  it('splits a run of more than PART_EVENTS events into parts the page checks one by one, and puts it back whole', () => {
    expect(transcript.events.length).toBeGreaterThan(2 * PART_EVENTS);
    const messages = inParts(answer);
    // 125, 250, then PART_EVENTS at a time.
    expect(messages).toHaveLength(2 + Math.ceil((transcript.events.length - 375) / PART_EVENTS) + 1);
    const assembly = new PartsAssembly();
    for (const message of messages.slice(0, -1)) {
      expect(explainBadResponse(message)).toBeNull();
      if (message.type !== 'run-part') throw new Error(`expected a part, got ${message.type}`);
      expect(message.events.length).toBeLessThanOrEqual(PART_EVENTS);
      expect(assembly.add(structuredClone(message))).toBeNull();
    }
    const last = messages.at(-1) as Extract<LabResponse, { type: 'transcript' }>;
    expect(explainBadResponse(last)).toBeNull();
    expect(last.transcript.events).toHaveLength(0);
    const whole = assembly.finish(last);
    expect(whole.ok && whole.answer).toEqual({ ...answer, parts: undefined });
  });

  it('sends a short answer as it is', () => {
    const short = runScenario(findScenario('A'), { transport: 'stdio', seed: 1 });
    const shortWording = wordEvents(short.events);
    const response: LabResponse = {
      type: 'transcript',
      requestId: 1,
      transcript: short,
      facts: null,
      wording: shortWording,
      layout: layoutDiagram(short, shortWording),
    };
    expect(inParts(response)).toEqual([response]);
  });

  it('refuses a part out of place, and an answer whose parts did not all arrive', () => {
    const messages = inParts(answer);
    const skipping = new PartsAssembly();
    expect(skipping.add(messages[1] as never)).toMatch(/starts at event 125, not at 0/);
    const short = new PartsAssembly();
    expect(short.add(messages[0] as never)).toBeNull();
    const result = short.finish(messages.at(-1) as never);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/parts; 1 arrived/);
  });
});

describe('the client over the worker', () => {
  it('gets the long run, its wording and its layout exactly as the engine computes them, and the layout again on Linear time', async () => {
    const client = createLabClient(() => createInProcessWorker());
    const run = await client.runLab({ scenario: 'C', transport: 'stdio', seed: 1, settings });
    expect(run.transcript).toEqual(transcript);
    expect(run.wording).toEqual(wording);
    expect(run.layout).toEqual(answer.layout);
    expect(await client.layout(run.runId, 'linear')).toEqual(layoutDiagram(transcript, wording, 'linear'));
    client.terminate();
  });

  it('says so when asked to lay out a run the worker no longer holds', async () => {
    const client = createLabClient(() => createInProcessWorker());
    const failure = await client.layout(99, 'linear').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LabClientError);
    expect((failure as LabClientError).message).toMatch(/no longer holds run #99/);
    client.terminate();
  });
});
