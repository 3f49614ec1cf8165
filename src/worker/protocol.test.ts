// Proves the one worker protocol checks what crosses the boundary with the shared schemas, names what
// is wrong by its path, and keeps the engine's error codes end to end, for both workers.
import { describe, expect, it } from 'vitest';
import { wordEvents } from '../engine';
import { runScenarioById } from '../scenarios/index';
import { layoutDiagram } from '../diagram/geometry/layout';
import {
  explainBadRequest,
  explainBadResponse,
  explainBadToolRequest,
  explainBadToolResponse,
  type LabResponse,
} from './protocol';
import { createToolsClient, ToolsClientError, type ToolsWorkerLike } from './toolsClient';

function transcriptResponse(): LabResponse {
  const transcript = runScenarioById('A');
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

describe('the lab worker protocol', () => {
  it('accepts a real run as the worker sends it', () => {
    expect(explainBadResponse(transcriptResponse())).toBeNull();
  });

  it('refuses an unknown event kind and names where it is', () => {
    const response = transcriptResponse() as Extract<LabResponse, { type: 'transcript' }>;
    const events = response.transcript.events.map((event, index) =>
      index === 3 ? { ...event, kind: 'gossip' } : event,
    );
    const problem = explainBadResponse({ ...response, transcript: { ...response.transcript, events } });
    expect(problem).toMatch(/transcript\.events\.3\.kind/);
  });

  it('refuses an outcome that lost a field the page reads', () => {
    const response = transcriptResponse() as Extract<LabResponse, { type: 'transcript' }>;
    const { terminalState: _dropped, ...outcome } = response.transcript.outcome as unknown as Record<string, unknown>;
    expect(explainBadResponse({ ...response, transcript: { ...response.transcript, outcome } })).toMatch(
      /transcript\.outcome\.terminalState/,
    );
  });

  it('refuses a run whose wording is missing', () => {
    const { wording: _wording, ...rest } = transcriptResponse() as Extract<LabResponse, { type: 'transcript' }>;
    expect(explainBadResponse(rest)).toMatch(/wording/);
  });

  it('refuses a layout whose marker lost its text, and names where it is', () => {
    const response = transcriptResponse() as Extract<LabResponse, { type: 'transcript' }>;
    const markers = response.layout.markers.map((marker, index) =>
      index === 2 ? { ...marker, text: undefined } : marker,
    );
    expect(explainBadResponse({ ...response, layout: { ...response.layout, markers } })).toMatch(
      /layout\.markers\.2\.text/,
    );
  });

  it('refuses an error without a catalogued code', () => {
    expect(explainBadResponse({ type: 'error', requestId: 1, code: 'OOPS', message: 'no' })).toMatch(/code/);
    expect(explainBadResponse({ type: 'error', requestId: 1, code: 'LAB005', message: 'bad value' })).toBeNull();
  });

  it('checks requests on the worker side with the same schemas', () => {
    expect(
      explainBadRequest({
        type: 'run',
        requestId: 1,
        scenario: 'A',
        transport: 'stdio',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
    ).toBeNull();
    expect(
      explainBadRequest({
        type: 'run',
        requestId: 1,
        scenario: 'A',
        transport: 'carrier-pigeon',
        seed: 1,
        settings: {},
        ledger: 'fresh',
      }),
    ).toMatch(/transport/);
    expect(explainBadRequest({ type: 'verify', requestId: 1 })).toMatch(/type/);
    expect(explainBadToolRequest({ type: 'verify', requestId: 1 })).toBeNull();
    expect(
      explainBadToolRequest({
        type: 'panel',
        requestId: 1,
        scenario: 'herd',
        transport: 'http',
        seed: 1,
        settings: { clients: {} },
      }),
    ).toMatch(/settings\.clients/);
  });
});

describe('the tools worker protocol', () => {
  /** A worker that answers every request with `answer(request)`. */
  function fakeWorker(answer: (request: { requestId: number }) => unknown): ToolsWorkerLike {
    const listeners: Array<(event: MessageEvent<unknown>) => void> = [];
    return {
      postMessage(message) {
        queueMicrotask(() =>
          listeners.forEach((listener) => listener({ data: answer(message) } as MessageEvent<unknown>)),
        );
      },
      addEventListener(type: string, listener: (event: never) => void) {
        if (type === 'message') listeners.push(listener as (event: MessageEvent<unknown>) => void);
      },
    } as ToolsWorkerLike;
  }

  it('keeps the engine error code of a failed tool request', async () => {
    const client = createToolsClient(() =>
      fakeWorker(({ requestId }) => ({
        type: 'error',
        requestId,
        code: 'LAB005',
        message: 'LAB005 invalid setting value: clients=0',
      })),
    );
    const failure = await client
      .call({ type: 'panel', scenario: 'herd', transport: 'http', seed: 1, settings: { clients: 0 } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolsClientError);
    expect((failure as ToolsClientError).code).toBe('LAB005');
  });

  it('refuses an answer of the wrong shape instead of trusting it', async () => {
    const client = createToolsClient(() =>
      fakeWorker(({ requestId }) => ({ type: 'verification', requestId, results: [{ id: 'VF-1' }] })),
    );
    const failure = await client.call({ type: 'verify' }).catch((error: unknown) => error);
    expect((failure as ToolsClientError).code).toBe('WORKER_FAILED');
    expect(explainBadToolResponse({ type: 'verification', requestId: 1, results: [{ id: 'VF-1' }] })).toMatch(
      /results\.0\.statement/,
    );
  });
});
