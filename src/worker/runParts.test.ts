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
import { inParts, layoutAhead, PART_EVENTS, PartsAssembly, transcriptAhead, transferOf } from './runParts';

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
    // The layout's lists by event went in the parts too: the answer itself is small.
    for (const list of ['rowY', 'wires', 'markers', 'wireMarks', 'messageIndexes', 'resolvedSorted'] as const)
      expect(last.layout[list]).toHaveLength(0);
    expect(answer.layout.wireMarks.length).toBeGreaterThan(2 * PART_EVENTS);
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

describe("a long run's events ahead of its layout", () => {
  // The worker sends a long run's events and wording before it lays the run out (the page reads them meanwhile), then the layout's parts and the answer.
  const fresh = () => ({ ...answer, transcript: { ...transcript } });

  it("sends the events and wording first with no layout, then only the layout in the answer's parts, and puts the run back whole", () => {
    const run = fresh();
    const ahead = transcriptAhead(run.requestId, run.transcript, run.wording) ?? [];
    expect(ahead.length).toBeGreaterThan(1);
    for (const part of ahead) expect(part.layout).toBeNull();
    const after = inParts(run);
    const layoutParts = after.slice(0, -1);
    expect(layoutParts.length).toBeGreaterThan(1);
    for (const part of layoutParts) {
      if (part.type !== 'run-part') throw new Error(`expected a part, got ${part.type}`);
      expect(part.events).toHaveLength(0);
      expect(part.wording).toHaveLength(0);
      expect(part.layout).not.toBeNull();
    }
    const last = after.at(-1) as Extract<LabResponse, { type: 'transcript' }>;
    expect(last.parts).toBe(ahead.length + layoutParts.length);
    const assembly = new PartsAssembly();
    for (const message of [...ahead, ...layoutParts]) {
      expect(explainBadResponse(message)).toBeNull();
      expect(assembly.add(structuredClone(message) as never)).toBeNull();
    }
    const whole = assembly.finish(structuredClone(last));
    expect(whole.ok && whole.answer).toEqual({ ...answer, parts: undefined });
  });

  it('sends the layout ahead too once the run is laid out, then the answer alone, and puts the run back whole', () => {
    const run = fresh();
    const ahead = transcriptAhead(run.requestId, run.transcript, run.wording) ?? [];
    const layoutParts = [...layoutAhead(run.requestId, run.transcript, run.layout)];
    expect(layoutParts.length).toBeGreaterThan(1);
    for (const part of layoutParts) {
      expect(part.events).toHaveLength(0);
      expect(part.layout).not.toBeNull();
    }
    const after = inParts(run);
    expect(after).toHaveLength(1);
    const last = after[0] as Extract<LabResponse, { type: 'transcript' }>;
    expect(last.parts).toBe(ahead.length + layoutParts.length);
    const assembly = new PartsAssembly();
    for (const message of [...ahead, ...layoutParts]) {
      expect(explainBadResponse(message)).toBeNull();
      expect(assembly.add(structuredClone(message, { transfer: transferOf(message) }))).toBeNull();
    }
    expect(explainBadResponse(last)).toBeNull();
    const whole = assembly.finish(structuredClone(last));
    expect(whole.ok && whole.answer).toStrictEqual({ ...answer, parts: undefined });
  });

  it('sends no layout ahead of a run whose events did not go ahead', () => {
    const run = fresh();
    expect([...layoutAhead(run.requestId, run.transcript, run.layout)]).toEqual([]);
    expect(inParts(run).length).toBeGreaterThan(1);
  });

  it('sends a short run whole, with nothing ahead', () => {
    const short = runScenario(findScenario('A'), { transport: 'stdio', seed: 1 });
    expect(transcriptAhead(1, short, wordEvents(short.events))).toBeNull();
  });

  it('refuses the layout before the events end, an events part out of place, an answer missing the parts ahead, and a layout answer after events', () => {
    const run = fresh();
    const ahead = transcriptAhead(run.requestId, run.transcript, run.wording) ?? [];
    const after = inParts(run);
    const layoutParts = after.slice(0, -1);
    const early = new PartsAssembly();
    expect(early.add(ahead[0] as never)).toBeNull();
    expect(early.add(layoutParts[0] as never)).toBeNull();
    // The second layout part goes on at row 125, but the events stand at 125 too: only the events part skipping is refused.
    expect(early.add(ahead[2] as never)).toMatch(/starts at event 375, not at 125/);
    const skipping = new PartsAssembly();
    expect(skipping.add(layoutParts[1] as never)).toMatch(/starts at row 125, not at 0/);
    const missing = new PartsAssembly();
    for (const part of layoutParts) expect(missing.add(part as never)).toBeNull();
    const result = missing.finish(after.at(-1) as never);
    expect(!result.ok && result.problem).toMatch(/parts; \d+ arrived/);
    const layoutAfterEvents = new PartsAssembly();
    expect(layoutAfterEvents.add(ahead[0] as never)).toBeNull();
    const layoutAnswer = { type: 'layout', requestId: 7, layout: answer.layout, parts: 1 } as const;
    const refused = layoutAfterEvents.finish(layoutAnswer as never);
    expect(!refused.ok && refused.problem).toMatch(/layout answer came after parts holding 125 events/);
  });
});

describe('the client over the worker', () => {
  it('gets the long run, its wording and its layout exactly as the engine computes them, and the layout again on Linear time', async () => {
    const received: Array<{ type: string; events?: unknown[]; layout?: unknown }> = [];
    const client = createLabClient(() => {
      const worker = createInProcessWorker();
      worker.addEventListener('message', (event) => received.push(event.data as (typeof received)[number]));
      return worker;
    });
    const run = await client.runLab({ scenario: 'C', transport: 'stdio', seed: 1, settings, ledger: 'fresh' });
    // The events came ahead of the layout, each part carrying one or the other.
    const parts = received.filter((message) => message.type === 'run-part');
    const firstLayout = parts.findIndex((part) => part.layout !== null);
    expect(firstLayout).toBeGreaterThan(0);
    expect(parts.slice(0, firstLayout).every((part) => part.layout === null)).toBe(true);
    expect(parts.slice(firstLayout).every((part) => part.events?.length === 0)).toBe(true);
    expect(run.transcript).toEqual(transcript);
    expect(run.wording).toEqual(wording);
    expect(run.layout).toEqual(answer.layout);
    expect(await client.layout(run.runId, 'linear')).toEqual(layoutDiagram(transcript, wording, 'linear'));
    client.terminate();
  });

  it("passes on the engine's own error when it comes after a long run's parts went out", async () => {
    // The worker's run may fail after its events and layout went ahead (finding its race facts, say):
    // the page must show the engine's error, not a complaint about the parts before it.
    const worker = createInProcessWorker();
    worker.answerWith((request) => {
      const { requestId } = request as { requestId: number };
      const ahead = transcriptAhead(requestId, { ...transcript }, wording) ?? [];
      return [
        ...ahead,
        { type: 'error', requestId, code: 'INTERNAL', message: 'the lab worker failed: Error: no facts' },
      ];
    });
    const client = createLabClient(() => worker);
    const failure = await client
      .run({ scenario: 'C', transport: 'stdio', seed: 1, settings, ledger: 'fresh' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LabClientError);
    expect(failure).toMatchObject({ code: 'INTERNAL', message: 'the lab worker failed: Error: no facts' });
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
