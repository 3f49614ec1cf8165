// Proves the worker's schemas check what the engine's types declare, now that no cast stands between a
// checked message and those types: each shape the schemas once let through unchecked (a message that is
// no JSON-RPC, an action the engine never writes, a review or panel field the page reads, a recording
// nested past the bound) is refused with the path of the field, and a refused recording opens nothing.
// JSON-RPC's optional `params` is accepted, as the real SDK and real servers omit them.
import { describe, expect, it } from 'vitest';
import { wordEvents, type LabEvent } from '../engine';
import { layoutDiagram } from '../diagram/geometry/layout';
import safeCharge from '../lesson/examples/safe-charge.json';
import { SCHEDULE_CHARS_MAX } from '../runs/runSpecLimits';
import type { Runner } from '../lesson/verification';
import { runScenarioById } from '../scenarios/index';
import { JSON_DEPTH_MAX } from '../engine';
import { reviewLab, runPanel } from './tools';
import { explainBadResponse, explainBadToolRequest, explainBadToolResponse, type LabResponse } from './protocol';
import { readRecording, recordingTranscript, wordRecording } from './recording';

type TranscriptAnswer = Extract<LabResponse, { type: 'transcript' }>;

function transcriptResponse(id = 'A'): TranscriptAnswer {
  const transcript = runScenarioById(id);
  const wording = wordEvents(transcript.events);
  return {
    type: 'transcript',
    requestId: 1,
    transcript,
    facts: null,
    wording,
    layout: layoutDiagram(transcript, wording),
  };
}

/** The answer with event `index` replaced (a plain object: the refusals are of data a worker could post). */
function withEvent(
  response: TranscriptAnswer,
  index: number,
  change: (event: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  const events = response.transcript.events.map((event, i) => (i === index ? change({ ...event }) : event));
  return { ...response, transcript: { ...response.transcript, events } };
}

const firstIndex = (events: readonly LabEvent[], kind: LabEvent['kind']): number => {
  const index = events.findIndex((event) => event.kind === kind);
  if (index < 0) throw new Error(`no ${kind} event`);
  return index;
};

const nested = (depth: number): unknown => (depth === 0 ? 'deep' : { inner: nested(depth - 1) });

describe('a transcript and a run part are checked as the engine types them', () => {
  it('refuses a message that is no JSON-RPC request, notification, result or error, naming it', () => {
    const response = transcriptResponse();
    const at = firstIndex(response.transcript.events, 'message');
    expect(explainBadResponse(withEvent(response, at, (event) => ({ ...event, message: { jsonrpc: '2.0' } })))).toMatch(
      new RegExp(`transcript\\.events\\.${at}\\.message: must be a JSON-RPC 2\\.0`),
    );
    expect(
      explainBadResponse(
        withEvent(response, at, (event) => ({ ...event, message: { jsonrpc: '2.0', id: 1, result: 'done' } })),
      ),
    ).toMatch(/message: must be a JSON-RPC/);
  });

  it('refuses a message nested deeper than the bound, and accepts one at it', () => {
    const response = transcriptResponse();
    const at = firstIndex(response.transcript.events, 'message');
    const deep = (depth: number) =>
      withEvent(response, at, (event) => ({
        ...event,
        message: { jsonrpc: '2.0', method: 'notifications/message', params: { data: nested(depth) } },
      }));
    expect(explainBadResponse(deep(JSON_DEPTH_MAX - 2))).toBeNull();
    expect(explainBadResponse(deep(JSON_DEPTH_MAX))).toMatch(/message: must be a JSON-RPC/);
  });

  it('accepts a request and a notification without params, as JSON-RPC allows, and words them', () => {
    const response = transcriptResponse();
    const at = firstIndex(response.transcript.events, 'message');
    const answer = withEvent(response, at, (event) => ({
      ...event,
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
    }));
    expect(explainBadResponse(answer)).toBeNull();
    expect(
      explainBadResponse(
        withEvent(response, at, (event) => ({ ...event, message: { jsonrpc: '2.0', id: 9, method: 'ping' } })),
      ),
    ).toBeNull();
    const events = (answer as TranscriptAnswer).transcript.events;
    expect(() => wordEvents(events)).not.toThrow();
  });

  it('refuses an event action the engine never writes', () => {
    const response = transcriptResponse('buffer-overload');
    const at = firstIndex(response.transcript.events, 'buffer');
    expect(explainBadResponse(withEvent(response, at, (event) => ({ ...event, action: 'teleported' })))).toMatch(
      new RegExp(`transcript\\.events\\.${at}\\.action`),
    );
  });

  it('refuses a run part whose event is not one the engine writes', () => {
    const { transcript } = transcriptResponse();
    const at = firstIndex(transcript.events, 'message');
    const events = transcript.events.map((event, i) =>
      i === at ? { ...event, message: { jsonrpc: '2.0', id: null, result: {} } } : event,
    );
    const part = {
      type: 'run-part',
      requestId: 1,
      from: 0,
      events,
      wording: wordEvents(transcript.events),
      layout: null,
    };
    expect(explainBadResponse({ ...part, events: transcript.events })).toBeNull();
    expect(explainBadResponse(part)).toMatch(new RegExp(`events\\.${at}\\.message`));
  });
});

describe('the layout and an exploration are checked as the page reads them', () => {
  it('refuses a layout without its time column’s edge or a wire’s band', () => {
    const response = transcriptResponse();
    expect(explainBadResponse(response)).toBeNull();
    const { timeRight: _edge, ...noEdge } = response.layout;
    expect(explainBadResponse({ ...response, layout: noEdge })).toMatch(/layout\.timeRight/);
    const wires = response.layout.wires.map((wire, i) => (i === 0 ? { ...wire, bandY: undefined } : wire));
    expect(explainBadResponse({ ...response, layout: { ...response.layout, wires } })).toMatch(
      /layout\.wires\.0\.bandY/,
    );
  });

  it('refuses an exploration naming an invariant the engine does not check, or without its shortest orderings', () => {
    const result = {
      scenario: 'A',
      kind: 'request-race',
      transport: 'stdio',
      settings: {},
      schedules: 1,
      states: 1,
      complete: true,
      endings: [],
      violations: [{ invariant: 'one-terminal-state', schedule: 'j0', step: 3, explanation: 'two' }],
      shortest: [
        { invariant: 'one-terminal-state', schedule: 'j0', step: 3, atMs: 5, explanation: 'two', explored: 'j0' },
      ],
      verdict: 'one violation',
    };
    expect(explainBadResponse({ type: 'exploration', requestId: 1, result })).toBeNull();
    expect(
      explainBadResponse({
        type: 'exploration',
        requestId: 1,
        result: { ...result, violations: [{ ...result.violations[0], invariant: 'good-vibes' }] },
      }),
    ).toMatch(/result\.violations\.0\.invariant/);
    expect(
      explainBadResponse({
        type: 'exploration',
        requestId: 1,
        result: { ...result, shortest: [{ ...result.shortest[0], invariant: 'good-vibes' }] },
      }),
    ).toMatch(/result\.shortest\.0\.invariant/);
    const { shortest: _shortest, ...withoutShortest } = result;
    expect(explainBadResponse({ type: 'exploration', requestId: 1, result: withoutShortest })).toMatch(
      /result\.shortest/,
    );
  });
});

describe('the tools worker’s review and panels are checked field by field', () => {
  const run: Runner = (id, options = {}) => runScenarioById(id, options);

  it('refuses a review whose retry classification lost its class', () => {
    const result = reviewLab(safeCharge);
    if (!result.ok) throw new Error('the safe example reviews clean');
    const answer = { type: 'review-result', requestId: 1, result };
    expect(explainBadToolResponse(answer)).toBeNull();
    const { retryClass: _dropped, ...classification } = result.review.retryClassification;
    expect(
      explainBadToolResponse({
        ...answer,
        result: { ...result, review: { ...result.review, retryClassification: classification } },
      }),
    ).toMatch(/result\.review\.retryClassification\.retryClass/);
  });

  it('refuses a review flag without the rule that raised it', () => {
    const result = reviewLab(safeCharge);
    if (!result.ok) throw new Error('the safe example reviews clean');
    const flags = [{ field: 'retry', severity: 'warning', reason: 'why', card: null, requirements: [] }];
    expect(
      explainBadToolResponse({
        type: 'review-result',
        requestId: 1,
        result: { ...result, review: { ...result.review, flags } },
      }),
    ).toMatch(/flags\.0\.rule/);
  });

  it('refuses a failure mode without its fix run’s detail and problems', () => {
    const mode = {
      id: 'x',
      failure: 'f',
      symptom: 's',
      correctResponse: 'c',
      failureRun: { scenario: 'A' },
      fixRun: { scenario: 'A' },
      failureShown: true,
      fixShown: true,
      failureDetail: 'shown',
      fixDetail: 'shown',
      problems: [],
    };
    expect(
      explainBadToolResponse({ type: 'verification', requestId: 1, results: [], failureModes: [mode] }),
    ).toBeNull();
    const { fixDetail: _detail, ...lost } = mode;
    expect(explainBadToolResponse({ type: 'verification', requestId: 1, results: [], failureModes: [lost] })).toMatch(
      /failureModes\.0\.fixDetail/,
    );
  });

  it('refuses a buffer panel without a capacity and a herd panel that lost a field of its outcome', () => {
    const buffer = runPanel(run, 'buffer-overload', { settings: { capacity: 4 } });
    expect(explainBadToolResponse({ type: 'panel-view', requestId: 1, view: buffer })).toBeNull();
    expect(
      explainBadToolResponse({ type: 'panel-view', requestId: 1, view: { ...buffer, capacityEvents: null } }),
    ).toMatch(/view\.capacityEvents/);
    const herd = runPanel(run, 'herd', { settings: { clients: 50 } });
    expect(explainBadToolResponse({ type: 'panel-view', requestId: 1, view: herd })).toBeNull();
    const { peakAttemptsPerWindow: _dropped, ...lost } = herd as Extract<typeof herd, { kind: 'herd' }>;
    expect(explainBadToolResponse({ type: 'panel-view', requestId: 1, view: lost })).toMatch(
      /view\.peakAttemptsPerWindow/,
    );
  });

  it('takes an exercise replay as the failing run the Check answer gave, and refuses one without its step or past the schedule bound', () => {
    const failing = {
      scenario: 'buffer-overload',
      transport: 'http',
      settings: {},
      schedule: '0.1',
      step: 3,
      atMs: 10,
      events: 5,
    };
    const request = (run: unknown) => ({ type: 'exercise-run', requestId: 1, exercise: 'buffer', code: '', run });
    expect(explainBadToolRequest(request(failing))).toBeNull();
    const { step: _step, ...stepless } = failing;
    expect(explainBadToolRequest(request(stepless))).toMatch(/run\.step/);
    expect(explainBadToolRequest(request({ ...failing, schedule: '0'.repeat(SCHEDULE_CHARS_MAX + 1) }))).toMatch(
      /run\.schedule/,
    );
  });
});

describe('a recording is read as JSON-RPC where it is, and refused whole where it is not JSON', () => {
  const probe = (messages: unknown[]) => ({
    scenario: 'probe',
    implementation: 'probe',
    transport: 'stdio',
    target: 'node server.js',
    startedAt: '2026-12-02T15:45:21.000Z',
    server: { name: 'server', version: '1.0.0' },
    protocolVersion: '2025-11-25',
    negotiatedVia: 'initialize',
    fallbackReason: null,
    capabilities: {},
    tool: null,
    idempotency: null,
    reconnectPlan: null,
    times: { cancelAfterMs: 100, observeMs: 100, idleTimeoutMs: 100, maxTimeoutMs: 100 },
    bounds: { budgetMs: 1, messagesMax: 1, bytesMax: 1, messageBytesMax: 1, answerTimeoutMs: 1, startupTimeoutMs: 1 },
    probes: ['lifecycle'],
    events: messages.map((message, seq) => ({
      seq,
      atMs: seq,
      probe: 'lifecycle',
      kind: 'message',
      from: 'server',
      to: 'client',
      channel: 'stdout',
      message,
      bytes: 10,
    })),
    verdicts: [],
    stderr: '',
    received: { messages: messages.length, bytes: 10 * messages.length },
  });
  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  it('draws a request without params as a message, and a result that is no object as a note', () => {
    const recording = recordingTranscript(
      readRecording(
        bytes(
          probe([
            { jsonrpc: '2.0', id: 1, method: 'ping' },
            { jsonrpc: '2.0', id: 2, result: 'done' },
          ]),
        ),
      ),
    );
    const [ping, odd] = recording.events;
    expect(ping).toMatchObject({ kind: 'message', message: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(ping?.kind === 'message' && 'params' in ping.message).toBe(false);
    expect(odd).toMatchObject({ kind: 'probe-note', text: expect.stringMatching(/its result is not an object/) });
    expect(wordRecording(recording.events)[0]?.text).toMatch(/ping/);
  });

  it('refuses a recording whose message nests past the bound, and opens nothing', () => {
    const deep = probe([
      { jsonrpc: '2.0', method: 'notifications/message', params: { data: nested(JSON_DEPTH_MAX + 1) } },
    ]);
    expect(() => readRecording(bytes(deep))).toThrow(
      new RegExp(
        `events\\.0\\.message: must be a JSON object nested at most ${JSON_DEPTH_MAX} deep.*nothing was opened`,
      ),
    );
  });

  it('fills in what an older probe did not write: no tasks, and each finding from its result', () => {
    const verdict = {
      probe: 'lifecycle',
      check: 'answers ping',
      sentence: {
        revision: '2025-11-25',
        level: 'SHOULD',
        page: 'basic/utilities/ping',
        text: 'The receiver SHOULD respond promptly',
      },
      result: 'broken',
      detail: 'no answer',
    };
    const read = readRecording(bytes({ ...probe([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), verdicts: [verdict] }));
    expect(read.tasksOffered).toBeNull();
    expect(read.tasks).toBeNull();
    expect(read.verdicts[0]?.finding).toBe('not followed');
  });
});
