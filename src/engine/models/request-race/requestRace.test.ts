// Proves scenarios A–D on both transports put the right signals on the wire (RC-5 … RC-8, VF-1 … VF-5) and that the outcome is what each scenario file declares.
import { describe, expect, it } from 'vitest';
import { scenarios as allScenarios, runRaceById } from '../../../scenarios/index';
import type { RequestRaceScenario } from '../../scenario';
import { runScenario } from '../../scenario';
import { LabError } from '../../core/errors';
import type { LabEvent, MessageEvent, Transcript } from '../../transcript';

const scenarios = allScenarios.filter((s): s is RequestRaceScenario => s.kind === 'request-race');

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (e: MessageEvent): string =>
  'method' in e.message ? e.message.method : 'result' in e.message ? 'response' : 'error';
const of = <K extends LabEvent['kind']>(t: Transcript, kind: K) =>
  t.events.filter((e): e is LabEvent & { kind: K } => e.kind === kind);

describe('each scenario on each transport matches its declared outcome', () => {
  for (const scenario of scenarios) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${scenario.id} over ${transport}`, () => {
        const { outcome } = runScenario(scenario, { transport });
        const expected = scenario.expected[transport];
        expect(outcome.terminalState).toBe(expected.terminalState);
        expect(outcome.finalResponse).toBe(expected.finalResponse);
        expect(outcome.cancellationSignal).toBe(expected.cancellationSignal);
        expect(outcome.clientIgnores.map((i) => i.summary)).toEqual(expected.clientIgnores);
        expect(outcome.clientOutcome).toBe(expected.clientOutcome);
      });
    }
  }
});

describe('VF-1 stdio cancellation sends notifications/cancelled and receives no response', () => {
  it('A over stdio', () => {
    const t = runRaceById('A', { transport: 'stdio' });
    const cancels = messages(t).filter((m) => method(m) === 'notifications/cancelled');
    expect(cancels).toHaveLength(1);
    expect(cancels[0]?.from).toBe('client');
    expect(cancels[0]?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 41, reason: 'User closed the operation' },
    });
    // Fire-and-forget: nothing on the wire after it, from either side.
    const after = messages(t).filter((m) => m.seq > (cancels[0]?.seq ?? Infinity));
    expect(after).toEqual([]);
    expect(messages(t).some((m) => method(m) === 'response')).toBe(false);
    expect(of(t, 'stream-closed')).toEqual([]);
  });
});

describe('VF-2 Streamable HTTP cancellation closes the stream and POSTs no cancellation', () => {
  for (const id of ['A', 'D']) {
    it(`${id} over http`, () => {
      const t = runRaceById(id, { transport: 'http' });
      expect(messages(t).some((m) => method(m) === 'notifications/cancelled')).toBe(false);
      const closes = of(t, 'stream-closed');
      expect(closes.map((c) => c.by)).toEqual(['client']);
      expect(of(t, 'disconnect-observed')).toHaveLength(1);
      expect(of(t, 'cancel-accepted')).toHaveLength(1);
      expect(of(t, 'stream-opened')[0]?.headers).toEqual({
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
      });
    });
  }

  it('an HTTP client that POSTs notifications/cancelled instead (a failure mode of docs/requirements.md) is ignored and the request runs on', () => {
    const t = runRaceById('D', { transport: 'http', settings: { httpCancel: 'post-notification' } });
    const cancel = messages(t).find((m) => method(m) === 'notifications/cancelled');
    expect(cancel?.channel).toBe('POST notifications/cancelled');
    expect(cancel?.ignoredBy).toBe('server');
    expect(t.outcome.terminalState).toBe('completed');
    expect(t.outcome.clientIgnores.map((i) => i.summary)).toContain('response #41');
  });
});

describe('D: flipping the transport changes the signal and nothing else', () => {
  it('same terminal state, final response and ignores; different signal', () => {
    const http = runRaceById('D', { transport: 'http' }).outcome;
    const stdio = runRaceById('D', { transport: 'stdio' }).outcome;
    expect({ ...stdio, cancellationSignal: null }).toEqual({ ...http, cancellationSignal: null });
    expect(http.cancellationSignal).toBe('stream-close');
    expect(stdio.cancellationSignal).toBe('notifications/cancelled');
  });
});

describe('VF-3 cancel before complete suppresses the final response', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(transport, () => {
      const t = runRaceById('A', { transport });
      const suppressed = of(t, 'suppressed');
      expect(suppressed.map((s) => s.what)).toEqual(['response']);
      const accepted = of(t, 'cancel-accepted')[0];
      const finished = of(t, 'worker').find((w) => w.step === 'finished');
      expect(accepted && finished && accepted.atMs < finished.atMs).toBe(true);
      expect(messages(t).filter((m) => m.from === 'server' && m.seq > (accepted?.seq ?? 0))).toEqual([]);
    });
  }
});

describe('VF-4 complete before cancel keeps the response and ignores the late cancellation', () => {
  it('stdio: the server ignores the cancel, the client ignores the crossing response', () => {
    const t = runRaceById('B', { transport: 'stdio' });
    const response = messages(t).find((m) => method(m) === 'response');
    const cancel = messages(t).find((m) => method(m) === 'notifications/cancelled');
    expect(response && cancel).toBeTruthy();
    // They cross in flight: the cancel leaves before the response arrives.
    expect(cancel!.atMs).toBeLessThan(response!.arrivesAtMs);
    expect(cancel!.ignoredBy).toBe('server');
    expect(response!.ignoredBy).toBe('client');
    expect(of(t, 'terminal').map((e) => e.state)).toEqual(['completed']);
  });

  it('http: the disconnect after completion is ignored', () => {
    const t = runRaceById('B', { transport: 'http' });
    expect(of(t, 'cancel-ignored').map((e) => e.by)).toEqual(['server']);
    expect(t.outcome.finalResponse).toBe(true);
  });
});

describe('VF-5 progress may reset the idle timeout but never the maximum timeout', () => {
  it('C: idle resets on every progress; max fires at start + max', () => {
    const t = runRaceById('C');
    const resets = of(t, 'deadline').filter((d) => d.deadline === 'idle' && d.action === 'reset');
    expect(resets.length).toBeGreaterThanOrEqual(4);
    expect(of(t, 'deadline').filter((d) => d.deadline === 'max' && d.action === 'reset')).toEqual([]);
    const fired = of(t, 'deadline').filter((d) => d.action === 'fired');
    expect(fired.map((d) => [d.deadline, d.atMs])).toEqual([['max', 2000]]);
    expect(t.outcome.terminalState).toBe('timeout-max');
  });

  it('C with progress slower than the idle timeout ends by the idle deadline', () => {
    const t = runRaceById('C', { settings: { progressEveryMs: 600 } });
    expect(t.outcome.terminalState).toBe('timeout-idle');
    expect(t.outcome.terminalAtMs).toBe(500);
  });

  it('RC-4: a server that honours no token still times out (the token never makes the timeout infinite)', () => {
    const t = runRaceById('C', { settings: { serverSendsProgress: false, idleTimeoutMs: 100_000 } });
    expect(messages(t).some((m) => method(m) === 'notifications/progress')).toBe(false);
    expect(t.outcome.terminalState).toBe('timeout-max');
  });

  it('RC-6: after the timeout cancel is accepted the worker stops at its next checkpoint and sends nothing more', () => {
    const t = runRaceById('C');
    const accepted = of(t, 'cancel-accepted')[0]!;
    expect(of(t, 'worker').at(-1)?.step).toBe('stopped');
    expect(messages(t).filter((m) => m.from === 'server' && m.seq > accepted.seq)).toEqual([]);
  });
});

describe('determinism and bounds', () => {
  it('same scenario, transport, seed and settings give a byte-identical transcript', () => {
    for (const scenario of scenarios) {
      const settings = { latencyJitterMs: 7 };
      const a = JSON.stringify(runScenario(scenario, { seed: 99, settings }));
      const b = JSON.stringify(runScenario(scenario, { seed: 99, settings }));
      expect(a).toBe(b);
    }
  });

  it('the seed matters when jitter is on', () => {
    const one = JSON.stringify(runRaceById('C', { seed: 1, settings: { latencyJitterMs: 50 } }).events);
    const two = JSON.stringify(runRaceById('C', { seed: 2, settings: { latencyJitterMs: 50 } }).events);
    expect(one).not.toBe(two);
  });

  it('a run over its event bound fails with LAB006 instead of hanging', () => {
    const endless = {
      eventsMax: 500,
      maxTimeoutMs: 86_400_000,
      idleTimeoutMs: 3_600_000,
      workMs: 86_400_000,
      progressEveryMs: 1,
    };
    expect(() => runRaceById('C', { settings: endless })).toThrow(LabError);
    expect(() => runRaceById('C', { settings: endless })).toThrow(/LAB006.*eventsMax=500/);
    // The same run with room enough ends normally: the bound, not the scenario, stopped it.
    expect(runRaceById('C', { settings: { ...endless, workMs: 100 } }).outcome.terminalState).toBe('completed');
  });

  it('bad settings are refused by name, with the range', () => {
    expect(() => runRaceById('A', { settings: { latencyMs: -1 } })).toThrow(/LAB005.*latencyMs.*0 to 60000/);
    expect(() => runRaceById('A', { settings: { nope: 1 } })).toThrow(/LAB004.*nope/);
    expect(() => runRaceById('Q')).toThrow(/LAB001/);
  });
});
