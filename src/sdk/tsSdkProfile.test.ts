// Proves clientProfile=ts-sdk-1.x behaves as the official MCP TypeScript SDK 1.32.2 does on a virtual clock (rows of TS_SDK_1X_EXPECTATIONS), and that the spec profile is the safer one.
import { describe, expect, it } from 'vitest';
import { runRaceById } from '../scenarios/index';
import type { LabEvent, MessageEvent, Transcript } from '../engine';
import { TS_SDK_1X_EXPECTATIONS } from './tsSdkProfile';

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const cancels = (t: Transcript) =>
  messages(t).filter(
    (m) => m.from === 'client' && 'method' in m.message && m.message.method === 'notifications/cancelled',
  );
const of = <K extends LabEvent['kind']>(t: Transcript, kind: K) =>
  t.events.filter((e): e is LabEvent & { kind: K } => e.kind === kind);

/** The reference measurement: SDK 1.32.2, timeout 500, resetTimeoutOnProgress true, maxTotalTimeout 2000, progress every 333 ms. */
const issueRun = { latencyMs: 0, idleTimeoutMs: 500, maxTimeoutMs: 2_000, workMs: 5_000, progressEveryMs: 333 };

describe('clientProfile=ts-sdk-1.x (SDK 1.32.2 on a virtual clock)', () => {
  it('the expectations table names a source line for every row', () => {
    expect(TS_SDK_1X_EXPECTATIONS.length).toBe(10);
    for (const row of TS_SDK_1X_EXPECTATIONS) expect(row.source).toMatch(/protocol\.js:\d+/);
  });

  it('gives up at 2331 ms when progress finds maxTotalTimeout exceeded, sends nothing then, and cancels at 2498 ms from the idle timer it never cleared', () => {
    const t = runRaceById('C', { transport: 'stdio', settings: { ...issueRun, clientProfile: 'ts-sdk-1.x' } });
    expect(t.outcome.clientOutcome).toBe('timeout-max');
    expect(t.outcome.clientOutcomeAtMs).toBe(2_331);
    expect(cancels(t).map((c) => c.atMs)).toEqual([2_498]);
    expect(messages(t).filter((m) => m.from === 'client' && m.atMs === 2_331)).toEqual([]);
    expect(t.outcome.cancelDelayMs).toBe(167);
    // No maximum timer fired at 2000 ms: the SDK has none.
    expect(
      of(t, 'deadline')
        .filter((d) => d.action === 'fired')
        .map((d) => [d.deadline, d.atMs]),
    ).toEqual([
      ['max', 2_331],
      ['idle', 2_498],
    ]);
  });

  it('the spec profile: the maximum fires at 2000 ms and the cancellation goes out at once', () => {
    const t = runRaceById('C', { transport: 'stdio', settings: { ...issueRun } });
    expect(t.outcome.clientOutcomeAtMs).toBe(2_000);
    expect(cancels(t).map((c) => c.atMs)).toEqual([2_000]);
    expect(t.outcome.cancelDelayMs).toBe(0);
  });

  it('without progress the SDK never checks maxTotalTimeout: only its `timeout` ends the request', () => {
    const settings = {
      latencyMs: 0,
      idleTimeoutMs: 4_000,
      maxTimeoutMs: 2_000,
      workMs: 10_000,
      serverSendsProgress: false,
    };
    const sdk = runRaceById('C', { settings: { ...settings, clientProfile: 'ts-sdk-1.x' } });
    const spec = runRaceById('C', { settings });
    expect([spec.outcome.clientOutcome, spec.outcome.clientOutcomeAtMs]).toEqual(['timeout-max', 2_000]);
    expect([sdk.outcome.clientOutcome, sdk.outcome.clientOutcomeAtMs]).toEqual(['timeout-idle', 4_000]);
  });

  it('on Streamable HTTP the SDK POSTs notifications/cancelled; the server keeps working and the client ignores the response', () => {
    const t = runRaceById('D', { transport: 'http', settings: { clientProfile: 'ts-sdk-1.x' } });
    expect(t.outcome.cancellationSignal).toBe('notifications/cancelled');
    expect(cancels(t)[0]?.channel).toBe('POST notifications/cancelled');
    expect(of(t, 'stream-closed').filter((e) => e.by === 'client')).toEqual([]);
    expect(t.outcome.terminalState).toBe('completed');
    expect(t.outcome.viewsDiverge).toBe(true);
  });

  it('a user cancel on stdio is the same in both profiles', () => {
    const sdk = runRaceById('A', { settings: { clientProfile: 'ts-sdk-1.x' } });
    const spec = runRaceById('A');
    const wire = (t: Transcript) =>
      messages(t).map((m) => [m.atMs, m.from, 'method' in m.message ? m.message.method : 'response']);
    expect(wire(sdk)).toEqual(wire(spec));
    expect(sdk.outcome.terminalState).toBe('cancelled');
  });
});
