// Proves the ts-sdk implementation is the real @modelcontextprotocol/sdk on the virtual clock: its wire is what the SDK sent, runs replay byte for byte, the fake clock never leaks, and every run of the expectations table (TS_SDK_1X_EXPECTATIONS) shows what the table says, for the SDK and for the spec model.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { raceInvariants, type MessageEvent, type Transcript } from '../engine';
import { TS_SDK_1X_EXPECTATIONS } from './tsSdkProfile';
import { parseRunSpec } from '../runs/runSpec';
import { runSpecified } from '../runs/runs';
import { race, shown } from './shownOutcome.testkit';
import { runTsSdkScenario } from './tsSdkRace';
import { TS_SDK_PACKAGE, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from './version';

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');

describe('the SDK that runs is the one pinned', () => {
  it('package.json pins @modelcontextprotocol/sdk and @sinonjs/fake-timers exactly, and the installed SDK is that version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies[TS_SDK_PACKAGE]).toBe(TS_SDK_VERSION);
    expect(pkg.dependencies['@sinonjs/fake-timers']).toMatch(/^\d+\.\d+\.\d+$/);
    // Fails when the SDK package is absent, as the run itself would.
    const installed = JSON.parse(readFileSync(`node_modules/${TS_SDK_PACKAGE}/package.json`, 'utf8')) as {
      version: string;
    };
    expect(installed.version).toBe(TS_SDK_VERSION);
    expect(LATEST_PROTOCOL_VERSION).toBe(TS_SDK_PROTOCOL_VERSION);
  });
});

/** A ts-sdk run of `id` over `transport`: the SDK's wire, labelled, in the lab's format. */
async function expectTheSdkWire(id: string, transport: 'stdio' | 'http'): Promise<void> {
  const t = await runTsSdkScenario(race(id), { transport });
  expect(t.implementation).toBe('ts-sdk');
  expect(t.sdk).toMatchObject({
    package: TS_SDK_PACKAGE,
    version: TS_SDK_VERSION,
    negotiatedProtocolVersion: LATEST_PROTOCOL_VERSION,
  });
  expect(t.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  const wire = messages(t);
  // The SDK's own handshake, on its own revision, with the SDK's own numbering (the model's call is #41).
  expect(wire.slice(0, 3).map((m) => ('method' in m.message ? m.message.method : 'response'))).toEqual([
    'initialize',
    'response',
    'notifications/initialized',
  ]);
  expect(wire[0]?.message).toMatchObject({ id: 0, params: { protocolVersion: LATEST_PROTOCOL_VERSION } });
  const call = wire.find((m) => 'method' in m.message && m.message.method === 'tools/call');
  expect(call?.message).toMatchObject({
    id: 1,
    params: { name: 'generate_report', _meta: { progressToken: 1 } },
  });
  // Every recorded message is one the SDK's own schema accepts (not the lab's 2026-07-28 one: an older revision).
  for (const m of wire) expect(JSONRPCMessageSchema.safeParse(m.message).success).toBe(true);
  // On HTTP each message travels on its POST or its SSE stream, as the SDK's transports carry it.
  if (transport === 'http') {
    expect(call?.channel).toBe('POST #1');
    expect(wire.filter((m) => m.from === 'server' && m.atMs > 0).every((m) => m.channel === 'SSE #1')).toBe(true);
    expect(
      t.events.some(
        (e) => e.kind === 'stream-opened' && e.requestId === 1 && e.headers['content-type'] === 'text/event-stream',
      ),
    ).toBe(true);
  } else {
    expect(wire.every((m) => m.channel === 'stdio')).toBe(true);
  }
  // The invariants are listed with the run: each with whether it holds.
  expect(t.sdk?.invariants.map((c) => c.id)).toEqual(raceInvariants(t).map((c) => c.id));
  expect(t.sdk?.invariants.length).toBeGreaterThanOrEqual(8);
}

describe('a ts-sdk run (A–D on both transports)', () => {
  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${id} over ${transport}: the transcript is the SDK's wire, labelled, in the lab's format`, () =>
        expectTheSdkWire(id, transport));
    }
  }

  it('names causes as the model does where the lab sees them: a delivery its message, a checkpoint the worker’s step before', async () => {
    for (const transport of ['stdio', 'http'] as const) {
      const t = await runTsSdkScenario(race('C'), { transport });
      for (const event of t.events) {
        if (event.kind === 'delivered') expect(event.causeSeq).toBe(event.messageSeq);
        if (event.kind === 'worker' && event.step !== 'started')
          expect(t.events[event.causeSeq ?? -1]?.kind).toBe('worker');
        if (event.causeSeq !== null) expect(event.causeSeq).toBeLessThan(event.seq);
      }
    }
  });

  it('same seed and settings give a byte-identical transcript; another seed with jitter gives another', async () => {
    const settings = { latencyJitterMs: 9 };
    const first = JSON.stringify(await runTsSdkScenario(race('C'), { transport: 'http', seed: 7, settings }));
    const again = JSON.stringify(await runTsSdkScenario(race('C'), { transport: 'http', seed: 7, settings }));
    const other = JSON.stringify(await runTsSdkScenario(race('C'), { transport: 'http', seed: 8, settings }));
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('on Streamable HTTP a message sent while an earlier one is on its way is not held behind it (progress every 1 ms, latency 5 ms)', async () => {
    // Found by bench/sdk.bench.ts: the client's end of the SSE stream once waited for each arrival before reading the next, and the run stalled.
    const t = await runTsSdkScenario(race('C'), {
      transport: 'http',
      settings: { workMs: 60, progressEveryMs: 1, idleTimeoutMs: 3_600_000, maxTimeoutMs: 86_400_000 },
    });
    const progress = messages(t).filter(
      (m) => m.from === 'server' && 'method' in m.message && m.message.method === 'notifications/progress',
    );
    expect(progress).toHaveLength(59);
    // Each arrives 5 ms after it was sent, in order, and the client takes each.
    expect(progress.every((m) => m.arrivesAtMs === m.atMs + 5 && m.ignoredBy === undefined)).toBe(true);
    const delivered = t.events.filter(
      (e) => e.kind === 'delivered' && e.to === 'client' && e.summary.startsWith('progress'),
    );
    expect(delivered.map((e) => e.atMs)).toEqual(progress.map((m) => m.arrivesAtMs));
    expect(t.outcome).toMatchObject({ terminalState: 'completed', clientOutcome: 'completed', clientOutcomeAtMs: 70 });
  });

  it('installs the fake clock for the run only: the process gets its own timers and Date back, also when the run fails', async () => {
    const realSetTimeout = globalThis.setTimeout;
    const RealDate = globalThis.Date;
    await runTsSdkScenario(race('A'));
    expect(globalThis.setTimeout).toBe(realSetTimeout);
    expect(globalThis.Date).toBe(RealDate);
    // Stopped part-way (as the page's Stop and the CLI's wall-clock budget stop it), with SDK timers still pending.
    const stop = (atMs: number): void => {
      if (atMs >= 1_000) throw new Error('stopped at 1000 ms');
    };
    await expect(runTsSdkScenario(race('C'), { onStep: stop })).rejects.toThrow('stopped at 1000 ms');
    expect(globalThis.setTimeout).toBe(realSetTimeout);
    expect(globalThis.Date).toBe(RealDate);
    // A real timer still fires after the runs.
    await new Promise((resolve) => setTimeout(resolve, 1));
  });

  it('refuses what the SDK decides itself, and the scenarios it cannot run, before running anything (LAB025)', async () => {
    await expect(runTsSdkScenario(race('D'), { settings: { httpCancel: 'close-stream' } })).rejects.toThrow(
      /LAB025.*httpCancel/,
    );
    await expect(runSpecified(parseRunSpec('cancel-ignored:impl=ts-sdk'))).rejects.toThrow(/LAB025/);
    await expect(runSpecified(parseRunSpec('ledger-race-unsafe:impl=ts-sdk'))).rejects.toThrow(/LAB025/);
  });
});

describe('the expectations table, checked against the real SDK and the spec model', () => {
  const rows = TS_SDK_1X_EXPECTATIONS.flatMap((row) => row.runs.map((run) => ({ behaviour: row.behaviour, ...run })));

  it('covers A–D on both transports', () => {
    const covered = new Set(
      rows.map((r) => {
        const spec = parseRunSpec(r.run);
        return `${spec.scenario}.${spec.transport ?? race(spec.scenario).defaultTransport}`;
      }),
    );
    for (const id of ['A', 'B', 'C', 'D'])
      for (const transport of ['stdio', 'http']) expect(covered).toContain(`${id}.${transport}`);
  });

  for (const row of rows) {
    it(`${row.run}: ${row.behaviour}`, async () => {
      const spec = parseRunSpec(row.run);
      const sdk = await runSpecified({ ...spec, impl: 'ts-sdk' });
      const model = await runSpecified({ ...spec, impl: 'model' });
      expect(shown(sdk)).toEqual(row.sdk);
      expect(shown(model)).toEqual(row.model);
      // Where the profile model of the SDK agrees with the real one, and where it does not.
      const profile = await runSpecified({
        ...spec,
        impl: 'model',
        settings: { ...spec.settings, clientProfile: 'ts-sdk-1.x' },
      });
      const { invariantsBroken: _p, ...profileOutcome } = shown(profile);
      const { invariantsBroken: _s, ...sdkOutcome } = row.sdk;
      if (row.profileAgrees) expect(profileOutcome).toEqual(sdkOutcome);
      else expect(profileOutcome).not.toEqual(sdkOutcome);
    });
  }

  it('the reference measurement: the SDK gives up after 2,000 ms (at 2331 ms) and cancels after it gave up (at 2498 ms); the model at 2000 ms, at once', async () => {
    for (const transport of ['stdio', 'http'] as const) {
      const sdk = await runTsSdkScenario(race('C'), { transport, settings: { latencyMs: 0, progressEveryMs: 333 } });
      const cancels = messages(sdk).filter(
        (m) => m.from === 'client' && 'method' in m.message && m.message.method === 'notifications/cancelled',
      );
      expect(sdk.outcome.clientOutcomeAtMs).toBe(2_331);
      expect(cancels.map((m) => m.atMs)).toEqual([2_498]);
      // Nothing went on the wire from the client when it gave up.
      expect(messages(sdk).filter((m) => m.from === 'client' && m.atMs === 2_331)).toEqual([]);
    }
  });
});
