// Proves the worker runs the real SDK when a run asks for it: the answer is the SDK's transcript, checked by the worker protocol's schema, the same as the CLI's; a link's impl is judged like any other value; the page's address keeps it.
import { describe, expect, it } from 'vitest';
import { runTsSdkScenario } from '../sdk/tsSdkRace';
import { findScenario } from '../scenarios/index';
import { linkFor } from '../store/url';
import { createLabHost } from './host';
import { layoutDiagram } from '../diagram/geometry/layout';
import { wordEvents, type Transcript } from '../engine';
import { memoryLedgerStorage } from './ledgerStorage';
import { isLabResponse, type LabResponse } from './protocol';

const host = () =>
  createLabHost({ sql: () => Promise.reject(new Error('A–D never need sql.js')), storage: memoryLedgerStorage() });

describe('the lab worker with impl=ts-sdk', () => {
  it('answers a run of C with the real SDK’s transcript, as the CLI prints it, and without loading sql.js', async () => {
    const answer = (await host().handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'C',
      transport: 'http',
      seed: 3,
      settings: { latencyMs: 0 },
      ledger: 'fresh',
      impl: 'ts-sdk',
    })) as LabResponse;
    expect(isLabResponse(answer)).toBe(true);
    if (answer.type !== 'transcript') throw new Error(`expected a transcript, got ${JSON.stringify(answer)}`);
    expect(answer.transcript.implementation).toBe('ts-sdk');
    expect(answer.transcript.sdk?.negotiatedProtocolVersion).toBe('2025-11-25');
    expect(answer.wording).toHaveLength(answer.transcript.events.length);
    expect(answer.facts).not.toBeNull();
    const scenario = findScenario('C');
    if (scenario.kind !== 'request-race') throw new Error('C is a request race');
    expect(JSON.stringify(answer.transcript)).toBe(
      JSON.stringify(await runTsSdkScenario(scenario, { transport: 'http', seed: 3, settings: { latencyMs: 0 } })),
    );
  });

  it('refuses ts-sdk for a scenario that is not a request race (LAB025), and a link asking for it opens on the model', async () => {
    const refused = (await host().handleMessage({
      type: 'run',
      requestId: 2,
      scenario: 'buffer-overload',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'fresh',
      impl: 'ts-sdk',
    })) as LabResponse;
    expect(refused).toMatchObject({ type: 'error', code: 'LAB025' });
    const resolved = (await host().handleMessage({
      type: 'resolve',
      requestId: 3,
      params: { scenario: 'buffer-overload', impl: 'ts-sdk' },
    })) as LabResponse;
    expect(resolved).toMatchObject({
      type: 'resolved',
      view: { scenario: 'buffer-overload' },
      problems: [{ param: 'impl', code: 'LAB025' }],
    });
    if (resolved.type === 'resolved') expect(resolved.view.impl).toBeUndefined();
    const kept = (await host().handleMessage({
      type: 'resolve',
      requestId: 4,
      params: { scenario: 'D', impl: 'ts-sdk' },
    })) as LabResponse;
    expect(kept).toMatchObject({ type: 'resolved', view: { scenario: 'D', impl: 'ts-sdk' }, problems: [] });
    const typo = (await host().handleMessage({
      type: 'resolve',
      requestId: 5,
      params: { scenario: 'D', impl: 'sdk' },
    })) as LabResponse;
    expect(typo).toMatchObject({ type: 'resolved', problems: [{ param: 'impl', code: 'LAB025' }] });
  });

  it('the address names the SDK and leaves the default model out', () => {
    const state = { scenarios: [], transcript: null, step: 0 };
    const spec = { scenario: 'C', transport: 'stdio' as const, seed: 1, settings: {} };
    expect(linkFor({ ...state, spec: { ...spec, impl: 'ts-sdk' } })).toBe(
      '?scenario=C&transport=stdio&seed=1&impl=ts-sdk',
    );
    expect(linkFor({ ...state, spec: { ...spec, impl: 'model' } })).toBe('?scenario=C&transport=stdio&seed=1');
  });
});

describe('the SDK lane’s handshake on the race view', () => {
  it('labels the initialize request and its response both "initialize #0", notifications/initialized apart, and draws a zero-latency message level', async () => {
    const scenario = findScenario('C');
    if (scenario.kind !== 'request-race') throw new Error('C is a request race');
    const transcript = await runTsSdkScenario(scenario, { transport: 'http', seed: 1, settings: { latencyMs: 0 } });
    const layout = layoutDiagram(transcript as unknown as Transcript, wordEvents(transcript.events));
    const labels = layout.wires.filter((wire) => wire.kind === 'message').map((wire) => wire.label);
    const handshake = labels.filter((label) => label.startsWith('initialize'));
    expect(handshake).toHaveLength(2);
    for (const label of handshake) expect(label).toMatch(/^initialize #0 · protocol /);
    expect(labels.some((label) => label.startsWith('initialized'))).toBe(false);
    expect(labels).toContain('notifications/initialized');
    const instant = layout.wires.filter((wire) => wire.kind === 'message' && wire.arrivesAtMs === wire.sentAtMs);
    expect(instant.length).toBeGreaterThan(0);
    for (const wire of instant) expect(wire.y2, wire.label).toBe(wire.y1);
  });
});
