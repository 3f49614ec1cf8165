// Proves, each keyed to its requirement id (docs/requirements.md): both sides' view of one request (RC-8), the
// refused buffer state as part of the run (BF-5), and wording that is true of the run it describes (LG-1).
import { describe, expect, it } from 'vitest';
import { runRaceById, runScenarioById, scenarios } from '../../scenarios/index';
import { runScenario, usesSqlite } from '../index';
import { describeEvent, markerWording } from '../describe';
import type { LabEvent } from '../transcript';
import { eventLanes } from '../lanes';

const of = <K extends LabEvent['kind']>(events: LabEvent[], kind: K) =>
  events.filter((e): e is LabEvent & { kind: K } => e.kind === kind);

describe('RC-8 one terminal state, and the client’s own ending beside it', () => {
  it('C with work ending just before the maximum: the server completed, the client timed out and never used the result', () => {
    const t = runRaceById('C', { settings: { latencyMs: 10, workMs: 1985 } });
    expect(t.outcome.terminalState).toBe('completed');
    expect(t.outcome.finalResponse).toBe(true);
    expect(t.outcome.clientOutcome).toBe('timeout-max');
    expect(t.outcome.clientOutcomeAtMs).toBe(2000);
    expect(t.outcome.viewsDiverge).toBe(true);
    const diverge = of(t.events, 'views-diverge');
    expect(diverge).toHaveLength(1);
    expect(eventLanes(t.events)[diverge[0]!.seq]).toBe('client');
    expect(diverge[0]).toMatchObject({ atMs: 2000, serverView: 'completed', clientView: 'timeout-max' });
    // The step sentence and the diagram marker say it in words.
    expect(describeEvent(diverge[0]!)).toMatch(
      /server.*completed.*1995 ms.*client gave up on its maximum deadline at 2000 ms/,
    );
    expect(markerWording(diverge[0]!)).toMatchObject({ tone: 'bad', text: expect.stringMatching(/views diverge/) });
  });

  it('B: completion wins on the server while the client cancels; the views diverge where the cancel is sent', () => {
    for (const transport of ['stdio', 'http'] as const) {
      const t = runRaceById('B', { transport });
      expect(t.outcome.terminalState).toBe('completed');
      expect(t.outcome.clientOutcome).toBe('cancelled');
      expect(t.outcome.clientOutcomeAtMs).toBe(207);
      const lanes = eventLanes(t.events);
      expect(of(t.events, 'views-diverge').map((e) => [e.atMs, lanes[e.seq]])).toEqual([[207, 'client']]);
    }
  });

  it('A, C and D: both views agree and nothing marks a divergence', () => {
    const expected = { A: 'cancelled', C: 'timeout-max', D: 'cancelled' } as const;
    for (const [id, clientOutcome] of Object.entries(expected)) {
      for (const transport of ['stdio', 'http'] as const) {
        const t = runRaceById(id, { transport });
        expect(t.outcome.clientOutcome, `${id}/${transport}`).toBe(clientOutcome);
        expect(t.outcome.viewsDiverge).toBe(false);
        expect(of(t.events, 'views-diverge')).toEqual([]);
      }
    }
  });

  it('a request the client completes: the client used the response', () => {
    const t = runRaceById('A', { settings: { cancelAtMs: null } });
    expect(t.outcome).toMatchObject({ terminalState: 'completed', clientOutcome: 'completed', viewsDiverge: false });
  });

  it('the server learns of the cancel only after it completed (the cancel was sent first): the views diverge when the server completes', () => {
    const t = runRaceById('A', { settings: { latencyMs: 100, cancelAtMs: 250, workMs: 200 } });
    expect(t.outcome.terminalState).toBe('completed');
    expect(t.outcome.clientOutcome).toBe('cancelled');
    const diverge = of(t.events, 'views-diverge')[0];
    expect(diverge).toMatchObject({ atMs: 300 });
    expect(eventLanes(t.events)[diverge!.seq]).toBe('server');
  });
});

describe('BF-5 the refused state is part of the run: every capacity from 1 runs', () => {
  it('capacities 1 … 6 on seeds 1 … 50, both transports: every final delivered, refusals and waits counted', () => {
    let refusedRuns = 0;
    for (const transport of ['stdio', 'http'] as const) {
      for (let capacity = 1; capacity <= 6; capacity += 1) {
        for (let seed = 1; seed <= 50; seed += 1) {
          const t = runScenarioById('buffer-overload', { transport, seed, settings: { capacity } });
          if (t.kind !== 'buffer') throw new Error('not a buffer run');
          expect(t.outcome.finalDelivered).toBe(true);
          expect(t.outcome.maxOccupancy).toBeLessThanOrEqual(capacity);
          if (t.outcome.refusedPushes > 0) refusedRuns += 1;
          if (capacity >= 3) expect(t.outcome.refusedPushes).toBe(0);
        }
      }
    }
    expect(refusedRuns).toBeGreaterThan(50);
  });

  it('the refusal and the wait are worded as what happened', () => {
    const t = runScenarioById('buffer-overload', { settings: { capacity: 1 } });
    const refused = t.events.find((e) => e.kind === 'buffer' && e.action === 'refused');
    const released = t.events.find((e) => e.kind === 'buffer' && e.action === 'released');
    expect(refused && describeEvent(refused)).toMatch(/refused .*response #\d.*producer is held back/);
    expect(released && describeEvent(released)).toMatch(/released .*held \d+ ms/);
    expect(refused && markerWording(refused)).toMatchObject({ text: expect.stringMatching(/^refused/), tone: 'bad' });
  });
});

describe('LG-1 every sentence about the idempotency key is true of the run’s sendKey', () => {
  const KEYED_ONLY =
    /key claim|same key|key found|stored result|the key is recorded|store key|by its key|committed once/i;
  const KEYLESS_ONLY = /without a key|no idempotency key|no key/i;
  it('each ledger scenario, and each flipped to the other sendKey where that runs', async () => {
    const { loadSqlJs } = await import('../../cli/sqlite');
    const { scenarios } = await import('../../scenarios/index');
    const { runScenario, ledgerScopeNotesFor } = await import('../index');
    const sql = await loadSqlJs();
    let checked = 0;
    for (const scenario of scenarios) {
      if (scenario.kind !== 'ledger') continue;
      for (const sendKey of [true, false]) {
        if (!sendKey && scenario.settings.mode === 'unsafe') continue; // the unsafe sequence is about keyed requests
        const t = runScenario(scenario, { settings: { sendKey }, ledger: { sql } });
        const sentences = [...t.events.map((e) => describeEvent(e)), ...ledgerScopeNotesFor(sendKey)];
        const wrong = sentences.filter((line) => (sendKey ? KEYLESS_ONLY : KEYED_ONLY).test(line));
        expect(wrong, `${scenario.id} with sendKey=${String(sendKey)}`).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

it('no scenario POSTs notifications/cancelled on Streamable HTTP unless it shows that failure mode (httpCancel=post-notification)', () => {
  for (const scenario of scenarios) {
    if (usesSqlite(scenario)) continue;
    const t = runScenario(scenario, { transport: 'http', seed: 1 });
    const posted = t.events.filter(
      (e) =>
        e.kind === 'message' &&
        e.from === 'client' &&
        'method' in e.message &&
        e.message.method === 'notifications/cancelled',
    );
    const failureMode = (scenario.settings as { httpCancel?: string }).httpCancel === 'post-notification';
    if (!failureMode) expect(posted, scenario.id).toEqual([]);
  }
});

describe('RC-7 cancel-ignored: malformed, unknown and finished cancellations are ignored without error or reply', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}`, async () => {
      const { validateTranscriptMessages } = await import('../../testing/mcpSchema');
      const t = runRaceById('cancel-ignored', { transport });
      const cancels = t.events.filter(
        (e): e is LabEvent & { kind: 'message' } =>
          e.kind === 'message' &&
          e.from === 'client' &&
          'method' in e.message &&
          e.message.method === 'notifications/cancelled',
      );
      const ignored = of(t.events, 'cancel-ignored').filter((e) => e.by === 'server');
      const reasons = ignored.map((e) => e.reason);
      if (transport === 'stdio') {
        expect(reasons[0]).toMatch(/malformed cancellation: requestId is missing/);
        expect(reasons[1]).toMatch(/no request 99 is known/);
        expect(cancels.map((c) => c.ignoredBy)).toEqual(['server', 'server', 'server']);
        expect(reasons[2]).toMatch(/already completed/);
        // The malformed one is marked as deliberately invalid, and it really is.
        expect(cancels[0]?.malformed).toMatch(/requestId/);
        expect(validateTranscriptMessages(t).problems).toEqual([]);
      } else {
        // 2026-07-28 uses notifications/cancelled only on stdio: on Streamable HTTP the malformed and
        // unknown rows do not exist, the client POSTs no cancellation and says so; only the close of
        // the finished request's own stream is left, and the server ignores it.
        expect(cancels).toEqual([]);
        const notSent = of(t.events, 'cancel-ignored').filter((e) => e.by === 'client');
        expect(notSent.map((e) => e.requestId)).toEqual([null, 99]);
        for (const e of notSent) expect(e.reason).toMatch(/stdio-only/);
        expect(of(t.events, 'disconnect-observed')).toHaveLength(1);
        expect(reasons).toHaveLength(1);
        expect(reasons[0]).toMatch(/already completed/);
        expect(validateTranscriptMessages(t).problems).toEqual([]);
      }
      // Without error and without reply: the worker ran on, and nothing from the server answers a cancellation.
      expect(of(t.events, 'worker').map((w) => w.step)).toEqual(['started', 'checkpoint', 'finished']);
      const serverMessages = t.events.filter((e) => e.kind === 'message' && e.from === 'server');
      expect(
        serverMessages.map((m) => (m.kind === 'message' && 'method' in m.message ? m.message.method : 'response')),
      ).toEqual(['notifications/progress', 'response']);
      expect(t.outcome).toMatchObject({ terminalState: 'completed', finalResponse: true });
    });
  }
});

describe('RC-9 listen-server-cancel: the server cancels only a subscriptions/listen, apart from the client’s cancellations', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}`, async () => {
      const { runScenarioById: run } = await import('../../scenarios/index');
      const t = run('listen-server-cancel', { transport });
      if (t.kind !== 'listen') throw new Error('not a listen run');
      expect(t.outcome).toMatchObject({
        serverCancelled: [1],
        clientCancelled: [2],
        toolCallTerminal: 'cancelled',
        serverEndSignal: 'notifications/cancelled',
      });
      const cancels = t.events.filter(
        (e): e is LabEvent & { kind: 'message' } =>
          e.kind === 'message' && 'method' in e.message && e.message.method === 'notifications/cancelled',
      );
      const fromServer = cancels.filter((c) => c.from === 'server');
      const fromClient = cancels.filter((c) => c.from === 'client');
      // 2026-07-28 cancellation page: a server MUST send notifications/cancelled naming the listen when it
      // tears the subscription down (on both transports); subscriptions page: it SHOULD then send a
      // successful subscriptions/listen response (the graceful end) and close the stream.
      expect(fromServer.map((c) => ('params' in c.message ? c.message.params?.requestId : null))).toEqual([1]);
      const graceful = t.events.filter(
        (e): e is LabEvent & { kind: 'message' } =>
          e.kind === 'message' && e.from === 'server' && 'result' in e.message && e.message.id === 1,
      );
      expect(graceful).toHaveLength(1);
      expect(graceful[0]!.message).toMatchObject({
        result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
      });
      expect(graceful[0]!.seq).toBeGreaterThan(fromServer[0]!.seq);
      if (transport === 'stdio') {
        expect(fromClient.map((c) => ('params' in c.message ? c.message.params?.requestId : null))).toEqual([2]);
      } else {
        // The client cancels its own tool call by closing its stream; the server closes the listen stream after the response.
        expect(fromClient).toEqual([]);
        const closed = of(t.events, 'stream-closed');
        expect(closed.map((e) => [e.by, e.requestId])).toEqual([
          ['client', 2],
          ['server', 1],
        ]);
        expect(closed[1]!.seq).toBeGreaterThan(graceful[0]!.seq);
      }
      const ended = of(t.events, 'state').filter((e) => e.side === 'client' && e.requestId === 1);
      expect(ended.map((e) => e.to)).toEqual(['ended by server']);
      expect(ended[0]!.reason).toMatch(/notifications\/cancelled/);
      expect(ended[0]!.reason).not.toMatch(/stream closed/);
    });
  }
});

describe('RV-4 / RV-5 backoff as the lesson writes it: attempt 0 waits too, first window and retry waves apart', () => {
  it('the herd’s default spreads attempt 0 over [0, 250] ms; initialJitter=false still shows the stampede', () => {
    const spread = runScenarioById('herd');
    const stampede = runScenarioById('herd', { settings: { initialJitter: false } });
    if (spread.kind !== 'herd' || stampede.kind !== 'herd') throw new Error('not a herd run');
    expect(spread.settings.initialJitter).toBe(true);
    expect(spread.outcome.firstWindowAttempts).toBeLessThan(5_000);
    expect(stampede.outcome.firstWindowAttempts).toBe(10_000);
    expect(stampede.outcome.peakAttemptsPerWindow).toBe(10_000);
    // With attempt 0 spread, the peak says something: each jitter policy has its own, below the herd;
    // without jitter (none, exponential) the clients stay in lockstep and one window still holds them all.
    const peakOf = (policy: string) => {
      const t = runScenarioById('herd', { settings: { policy } });
      return t.kind === 'herd' ? t.outcome.peakAttemptsPerWindow : -1;
    };
    const jittered = ['full-jitter', 'equal-jitter', 'decorrelated-jitter'].map(peakOf);
    for (const peak of jittered) expect(peak).toBeLessThan(10_000);
    expect(new Set(jittered).size).toBe(3);
    expect(['none', 'exponential'].map(peakOf)).toEqual([10_000, 10_000]);
  });

  it('the retry waves are reported apart from the first window', () => {
    const t = runScenarioById('herd', { settings: { policy: 'none' } });
    if (t.kind !== 'herd') throw new Error('not a herd run');
    expect(t.outcome.firstWindowAttempts).toBe(10_000);
    expect(t.outcome.peakRetryAttemptsPerWindow).toBe(9_500);
  });

  it('why no backoff finishes sooner: it keeps every window full and reaches the admission floor, with the most attempts', () => {
    const none = runScenarioById('herd', { settings: { policy: 'none' } });
    const full = runScenarioById('herd');
    if (none.kind !== 'herd' || full.kind !== 'herd') throw new Error('not a herd run');
    expect(none.outcome.admissionFloorMs).toBe(1_900);
    expect(none.outcome.allReconnectedAtMs).toBe(none.outcome.admissionFloorMs);
    expect(full.outcome.allReconnectedAtMs).toBeGreaterThan(none.outcome.allReconnectedAtMs);
    expect(full.outcome.totalAttempts).toBeLessThan(none.outcome.totalAttempts / 3);
  });
});

describe('LG-3 / LG-5 idempotency the way real APIs answer: keyProfile ietf, stripe, wait', () => {
  const ledgerRun = async (id: string, settings: Record<string, unknown>) => {
    const { loadSqlJs } = await import('../../cli/sqlite');
    const t = runScenarioById(id, { settings, ledger: { sql: await loadSqlJs() } });
    if (t.kind !== 'ledger') throw new Error('not a ledger run');
    return t;
  };
  const statusOf = (t: Awaited<ReturnType<typeof ledgerRun>>) =>
    t.outcome.responses.map((r) =>
      r.status === 'rejected' ? (r.body.error as { httpAnalogue: number }).httpAnalogue : r.status,
    );

  it('a reused key with other arguments: 422 (ietf, wait) and 400 (stripe)', async () => {
    expect(statusOf(await ledgerRun('ledger-key-mismatch', { keyProfile: 'ietf' }))).toEqual(['executed', 422]);
    expect(statusOf(await ledgerRun('ledger-key-mismatch', { keyProfile: 'wait' }))).toEqual(['executed', 422]);
    expect(statusOf(await ledgerRun('ledger-key-mismatch', { keyProfile: 'stripe' }))).toEqual(['executed', 400]);
  });

  it('the same key still in flight: ietf waits a bounded while then 409; stripe 409 at once; wait blocks and replays', async () => {
    const short = { busyAttemptsMax: 1 };
    expect(statusOf(await ledgerRun('ledger-race-keyed', { ...short, keyProfile: 'ietf' }))).toContain(409);
    const stripe = await ledgerRun('ledger-race-keyed', { keyProfile: 'stripe' });
    expect(statusOf(stripe)).toContain(409);
    expect(stripe.outcome.busyRetries).toBe(0);
    const wait = await ledgerRun('ledger-race-keyed', { ...short, keyProfile: 'wait' });
    expect(statusOf(wait).sort()).toEqual(['executed', 'replayed']);
    expect(wait.outcome.executions).toBe(1);
  });

  it('stripe keys expire after 24 h of virtual time: a retry after 25 h runs again', async () => {
    const day = { keyProfile: 'stripe', retryAfterMs: 25 * 3_600_000 };
    expect((await ledgerRun('ledger-keyed-retry', day)).outcome.executions).toBe(2);
    expect((await ledgerRun('ledger-keyed-retry', { ...day, keyProfile: 'ietf' })).outcome.executions).toBe(1);
    expect((await ledgerRun('ledger-keyed-retry', { keyProfile: 'stripe' })).outcome.executions).toBe(1);
  });

  it('the outcome names the profile, what it answers and its source', async () => {
    const t = await ledgerRun('ledger-key-mismatch', { keyProfile: 'stripe' });
    expect(t.outcome.keyProfile).toMatchObject({
      name: 'stripe',
      inFlightStatus: 409,
      reusedStatus: 400,
      expiresAfterMs: 86_400_000,
    });
    expect(t.outcome.keyProfile.source).toMatch(/stripe\.com/);
  });
});
