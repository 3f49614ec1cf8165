// Proves the ts-sdk-v2 implementation is the real v2 packages on the virtual clock: it negotiates 2026-07-28 (a server/discover probe, no initialize), every message it puts on the wire validates against the official 2026-07-28 schema (a message that failed would have to be listed in V2_SCHEMA_FINDINGS), the request-lifecycle invariants (docs/requirements.md#request-lifecycle-rc) are checked on its transcripts, runs replay byte for byte, and the fake clock never leaks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { raceInvariants, type MessageEvent, type Transcript } from '../engine';
import { findScenario } from '../scenarios/index';
import { validateTranscriptMessages } from '../testing/mcpSchema';
import { runTsSdkV2Scenario } from './tsSdkV2Race';
import { TS_SDK_V2_PACKAGES, TS_SDK_V2_PROTOCOL_VERSION, TS_SDK_V2_VERSION, V2_SCHEMA_FINDINGS } from './version';

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (m: MessageEvent): string => ('method' in m.message ? m.message.method : 'response');

const race = (id: string) => {
  const scenario = findScenario(id);
  if (scenario.kind !== 'request-race') throw new Error(`${id} is not a request race`);
  return scenario;
};

describe('the v2 SDK that runs is the one pinned', () => {
  it('package.json pins client, server and core exactly at one version, and those are installed', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    for (const name of TS_SDK_V2_PACKAGES) {
      expect(pkg.dependencies[name]).toBe(TS_SDK_V2_VERSION);
      const installed = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')) as { version: string };
      expect(installed.version).toBe(TS_SDK_V2_VERSION);
    }
  });
});

describe('a ts-sdk-v2 run (A–D on both transports)', () => {
  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${id} over ${transport}: negotiates 2026-07-28, every message validates against its schema, the invariants are listed`, async () => {
        const t = await runTsSdkV2Scenario(race(id), { transport });
        expect(t.implementation).toBe('ts-sdk-v2');
        expect(t.protocolVersion).toBe(TS_SDK_V2_PROTOCOL_VERSION);
        expect(t.sdk).toMatchObject({
          version: TS_SDK_V2_VERSION,
          negotiatedProtocolVersion: TS_SDK_V2_PROTOCOL_VERSION,
        });
        const wire = messages(t);
        // The 2026-07-28 era has no initialize: the client probes with server/discover and then calls the tool, id 0.
        expect(wire.slice(0, 2).map(method)).toEqual(['server/discover', 'response']);
        expect(wire.some((m) => method(m) === 'initialize' || method(m) === 'notifications/initialized')).toBe(false);
        const call = wire.find((m) => method(m) === 'tools/call');
        expect(call?.message).toMatchObject({
          id: 0,
          params: {
            name: 'generate_report',
            _meta: { progressToken: 0, 'io.modelcontextprotocol/protocolVersion': TS_SDK_V2_PROTOCOL_VERSION },
          },
        });
        // Every message v2 put on the wire, against JSONRPCMessage and its own definition in the official schema.
        const { checked, problems } = validateTranscriptMessages(t);
        expect(checked).toBe(wire.length);
        const findings = problems.map((p) => `${method(t.events[p.seq] as MessageEvent)} ${p.definition}: ${p.errors}`);
        const listed = new Set(V2_SCHEMA_FINDINGS.map((f) => f.finding));
        expect(findings.filter((f) => !listed.has(f))).toEqual([]);
        if (transport === 'http') {
          expect(call?.channel).toBe('POST #0');
          expect(
            wire
              .filter((m) => m.from === 'server' && m.atMs > 0)
              .every((m) => m.channel === 'SSE #0' || m.channel === 'JSON #0'),
          ).toBe(true);
        } else {
          expect(wire.every((m) => m.channel === 'stdio')).toBe(true);
        }
        expect(t.sdk?.invariants).toEqual(raceInvariants(t));
        expect(t.sdk?.invariants.length).toBeGreaterThanOrEqual(8);
      });
    }
  }

  it('on Streamable HTTP a user cancel closes the request’s stream and POSTs nothing; the server sees the disconnect one latency later and stops', async () => {
    const t = await runTsSdkV2Scenario(race('D'), { transport: 'http' });
    expect(messages(t).filter((m) => method(m) === 'notifications/cancelled')).toEqual([]);
    const closed = t.events.find((e) => e.kind === 'stream-closed' && e.by === 'client');
    const observed = t.events.find((e) => e.kind === 'disconnect-observed');
    expect(closed?.atMs).toBe(150);
    expect(observed?.atMs).toBe(155);
    expect(t.outcome).toMatchObject({
      cancellationSignal: 'stream-close',
      terminalState: 'cancelled',
      terminalAtMs: 155,
      finalResponse: false,
    });
    expect(t.sdk?.invariants.find((c) => c.id === 'RC-5 HTTP signal')?.holds).toBe(true);
  });

  it('same seed and settings give a byte-identical transcript; another seed with jitter gives another', async () => {
    for (const transport of ['stdio', 'http'] as const) {
      const settings = { latencyJitterMs: 9 };
      const first = JSON.stringify(await runTsSdkV2Scenario(race('C'), { transport, seed: 7, settings }));
      const again = JSON.stringify(await runTsSdkV2Scenario(race('C'), { transport, seed: 7, settings }));
      const other = JSON.stringify(await runTsSdkV2Scenario(race('C'), { transport, seed: 8, settings }));
      expect(again).toBe(first);
      expect(other).not.toBe(first);
    }
  });

  it('installs the fake clock for the run only, also when the run is stopped part-way', async () => {
    const realSetTimeout = globalThis.setTimeout;
    const RealDate = globalThis.Date;
    const stop = (atMs: number): void => {
      if (atMs >= 1_000) throw new Error('stopped at 1000 ms');
    };
    await expect(runTsSdkV2Scenario(race('C'), { transport: 'http', onStep: stop })).rejects.toThrow(
      'stopped at 1000 ms',
    );
    expect(globalThis.setTimeout).toBe(realSetTimeout);
    expect(globalThis.Date).toBe(RealDate);
  });

  it('refuses what the SDK decides itself before running anything (LAB025)', async () => {
    await expect(runTsSdkV2Scenario(race('D'), { settings: { httpCancel: 'post-notification' } })).rejects.toThrow(
      /LAB025.*httpCancel/,
    );
  });
});
