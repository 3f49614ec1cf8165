// Proves the flow-control and recovery scenarios (buffer-overload, proxy-buffering, reconnect-listen, herd) show on the wire and in their outcomes what docs/requirements.md#bounded-progress-buffer-bf and #proxies-and-recovery-rv require (BF-1 … BF-6, RV-1 … RV-5, VF-10, VF-11), that every message they put on the wire is valid MCP 2026-07-28, and that one seed replays each byte for byte.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { main } from '../cli/main';
import { runScenarioById, scenarios } from '../scenarios/index';
import { bufferOverload } from '../scenarios/buffer-overload';
import { herd } from '../scenarios/herd';
import { proxyBuffering } from '../scenarios/proxy-buffering';
import { reconnectListen } from '../scenarios/reconnect-listen';
import { validateTranscriptMessages } from '../testing/mcpSchema';
import { backoffCeilingMs, backoffDelayMs } from './models/herd/backoff';
import type { LabEvent as FlowEvent } from './transcript';
import { SSE_HEADERS, type JsonRpcMessage } from './mcp/protocol';
import { runScenario } from './scenario';
import type { LabEvent, MessageEvent, Transcript } from './transcript';

const FLOW_IDS = ['buffer-overload', 'proxy-buffering', 'reconnect-listen', 'herd'] as const;
const TRANSPORTS = ['http', 'stdio'] as const;

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const of = <K extends LabEvent['kind']>(t: Transcript, kind: K) =>
  t.events.filter((e): e is Extract<LabEvent, { kind: K }> => e.kind === kind);
const methodOf = (message: JsonRpcMessage): string =>
  'method' in message ? message.method : 'result' in message ? 'response' : 'error';
const subscriptionIdOf = (message: JsonRpcMessage): unknown => {
  if (!('params' in message)) return undefined;
  const meta = message.params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? meta['io.modelcontextprotocol/subscriptionId']
    : undefined;
};

describe('the flow scenarios are registered and print on the command line', () => {
  it('each is in the scenario list after A–D', () => {
    const ids = scenarios.map((s) => s.id);
    for (const id of FLOW_IDS) expect(ids.indexOf(id)).toBeGreaterThan(ids.indexOf('D'));
  });

  for (const id of FLOW_IDS) {
    it(`npm run lab -- run ${id} prints the outcome fields`, async () => {
      let out = '';
      const code = await main(['run', id], { out: (text) => void (out += text), err: () => undefined });
      expect(code).toBe(0);
      const fields = Object.keys(runScenarioById(id).outcome);
      for (const field of fields) expect(out).toMatch(new RegExp(`^ +${field}\\b`, 'm'));
      expect(out).toMatch(new RegExp(`reproduce: npm run lab -- run ${id} `));
    });
  }
});

// ── bounded buffer ─────────────────────────────────────────────────────────────────────────────

describe('VF-10 the bounded buffer stays within capacity and keeps the final response', () => {
  for (const transport of TRANSPORTS) {
    it(`buffer-overload over ${transport}`, () => {
      const t = runScenario(bufferOverload, { transport });
      expect(Object.keys(t.outcome).sort()).toEqual([
        'capacity',
        'coalesced',
        'dropped',
        'finalDelivered',
        'maxOccupancy',
        'needsRefetch',
        'producerHeldMs',
        'refusedPushes',
      ]);
      expect(t.outcome).toMatchObject(bufferOverload.expected);
      expect(t.outcome.capacity).toBe(8);
      expect(t.outcome.maxOccupancy).toBe(8);
      expect(t.outcome.dropped).toBeGreaterThan(0);
      expect(t.outcome.coalesced).toBeGreaterThan(0);
      // Every request's final response went on the wire, once.
      const responses = messages(t).filter((m) => m.from === 'server' && methodOf(m.message) === 'response');
      expect(responses.map((m) => 'id' in m.message && m.message.id).sort()).toEqual([1, 2, 3]);
      for (const event of of(t, 'buffer'))
        expect(event.occupancyEvents).toBeLessThanOrEqual(event.capacityEvents ?? Infinity);
    });
  }
});

describe('BF-1 … BF-6 as the buffer-overload transcript shows them', () => {
  const t = runScenario(bufferOverload);
  const bufferEvents = of(t, 'buffer');

  it('BF-1 coalescing events replace the tail with a newer value of the same token', () => {
    const coalesced = bufferEvents.filter((e) => e.action === 'coalesced');
    expect(coalesced.length).toBe(t.outcome.coalesced);
    for (const event of coalesced)
      expect(event.reason).toMatch(new RegExp(`replaces progress \\d+/20 of #${String(event.requestId)} at the tail`));
  });

  it('BF-2 only progress is dropped, and only when the buffer is full', () => {
    const dropped = bufferEvents.filter((e) => e.action === 'dropped');
    expect(dropped.length).toBe(t.outcome.dropped);
    for (const event of dropped) {
      expect(event.what).toBe('progress');
      expect(event.occupancyEvents).toBe(event.capacityEvents);
    }
  });

  it('BF-3 each stream that lost progress is marked once, right after its first drop', () => {
    const marks = bufferEvents.filter((e) => e.action === 'needs-refetch');
    const droppedRequests = [...new Set(bufferEvents.filter((e) => e.action === 'dropped').map((e) => e.requestId))];
    expect(marks.map((e) => e.requestId)).toEqual(droppedRequests);
    expect(t.outcome.needsRefetch).toBe(true);
  });

  it('BF-4 a final response is never dropped; progress of a request never follows its final on the wire', () => {
    expect(bufferEvents.filter((e) => e.what === 'final' && e.action === 'dropped')).toEqual([]);
    const wire = messages(t).filter((m) => m.from === 'server');
    for (const response of wire.filter((m) => methodOf(m.message) === 'response')) {
      const id = 'id' in response.message ? response.message.id : null;
      const later = wire.filter(
        (m) =>
          m.seq > response.seq && 'params' in m.message && m.message.params?.progressToken === `progress-${String(id)}`,
      );
      expect(later, `progress after response #${String(id)}`).toEqual([]);
    }
  });

  it('BF-5 a push that would drop another final response is refused, and the producer waits for a free slot', () => {
    const small = runScenario(bufferOverload, { settings: { capacity: 2 } });
    const refused = of(small, 'buffer').filter((e) => e.action === 'refused');
    const released = of(small, 'buffer').filter((e) => e.action === 'released');
    expect(refused.length).toBeGreaterThan(0);
    expect(small.outcome.refusedPushes).toBe(refused.length);
    expect(released).toHaveLength(refused.length);
    for (const [index, event] of refused.entries()) {
      expect(event.what).toBe('final');
      expect(event.occupancyEvents).toBe(event.capacityEvents);
      expect(event.reason).toMatch(/would drop another final response/);
      // The wait ends when the consumer frees a slot: the release follows a delivery at the same instant.
      const release = released[index]!;
      expect(release.requestId).toBe(event.requestId);
      expect(release.heldMs).toBe(release.atMs - event.atMs);
    }
    expect(small.outcome.producerHeldMs).toBe(released.reduce((sum, e) => sum + (e.heldMs ?? 0), 0));
    expect(small.outcome.producerHeldMs).toBeGreaterThan(0);
    expect(small.outcome.finalDelivered).toBe(true);
    // One slot per request is enough: finals never have to wait for each other.
    expect(runScenario(bufferOverload, { settings: { capacity: 3 } }).outcome).toMatchObject({
      finalDelivered: true,
      refusedPushes: 0,
      producerHeldMs: 0,
    });
  });

  it('BF-6 occupancy never exceeds capacity, for any capacity', () => {
    for (const capacity of [3, 4, 8, 16, 64]) {
      const outcome = runScenario(bufferOverload, { settings: { capacity } }).outcome;
      expect(outcome.maxOccupancy).toBeLessThanOrEqual(capacity);
    }
    expect(runScenario(bufferOverload, { settings: { capacity: 64 } }).outcome).toMatchObject({
      dropped: 0,
      needsRefetch: false,
      finalDelivered: true,
    });
  });

  it('property: random rates, capacities and seeds keep the bound, deliver every final (a refused one after the producer waited) and mark every drop', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.record({
          capacity: fc.integer({ min: 1, max: 20 }),
          requests: fc.integer({ min: 1, max: 6 }),
          progressPerRequest: fc.integer({ min: 0, max: 30 }),
          producerEveryMs: fc.integer({ min: 1, max: 50 }),
          consumerEveryMs: fc.integer({ min: 1, max: 100 }),
        }),
        fc.constantFrom(...TRANSPORTS),
        (seed, settings, transport) => {
          const t: Transcript<'buffer'> = runScenario(bufferOverload, { seed, settings, transport });
          if (settings.capacity >= settings.requests) expect(t.outcome.refusedPushes).toBe(0);
          expect(t.outcome.producerHeldMs > 0 || t.outcome.refusedPushes === 0).toBe(true);
          expect(t.outcome.maxOccupancy).toBeLessThanOrEqual(settings.capacity);
          expect(t.outcome.finalDelivered).toBe(true);
          expect(t.outcome.needsRefetch).toBe(t.outcome.dropped > 0);
          expect(validateTranscriptMessages(t).problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ── proxies ────────────────────────────────────────────────────────────────────────────────────

describe('RV-1 every HTTP response stream carries the SSE headers', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['buffer-overload', {}],
    ['proxy-buffering', {}],
    ['proxy-buffering', { honourNoBuffering: true }],
    ['reconnect-listen', {}],
    ['herd', { clients: 2_000 }],
  ];
  for (const [id, settings] of cases) {
    it(`${id} ${JSON.stringify(settings)}`, () => {
      const t = runScenarioById(id, { transport: 'http', settings });
      const opened = new Map(of(t, 'stream-opened').map((e) => [String(e.requestId), e]));
      expect(opened.size).toBeGreaterThan(0);
      for (const event of opened.values())
        expect(event.headers).toEqual({
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-cache',
          'X-Accel-Buffering': 'no',
        });
      for (const message of messages(t).filter((m) => m.channel.startsWith('SSE #'))) {
        const stream = opened.get(message.channel.slice('SSE #'.length));
        expect(stream, `stream of ${message.channel}`).toBeDefined();
        expect(stream!.seq).toBeLessThan(message.seq);
      }
    });
  }

  it('the proxy-buffering outcome reports the headers; stdio has none', () => {
    expect(runScenario(proxyBuffering).outcome.sseHeaders).toEqual({ ...SSE_HEADERS });
    expect(runScenario(proxyBuffering, { transport: 'stdio' }).outcome.sseHeaders).toBeNull();
  });
});

describe('proxy-buffering: a buffering proxy trips the idle timeout; honouring X-Accel-Buffering: no does not', () => {
  it('buffering (the default): the client sees no progress and times out although the server sent it', () => {
    const t = runScenario(proxyBuffering);
    expect(t.outcome).toMatchObject(proxyBuffering.expected.buffering);
    expect(t.outcome.progressSent).toBeGreaterThan(0);
    expect(t.outcome.progressDelivered).toBe(0);
    expect(of(t, 'proxy').filter((e) => e.action === 'held').length).toBeGreaterThanOrEqual(4);
    const lost = messages(t).filter((m) => m.lost === true);
    expect(lost.length).toBeGreaterThan(0);
    expect(of(t, 'message-lost').map((e) => e.messageSeq)).toEqual(lost.map((m) => m.seq));
    expect(of(t, 'terminal')[0]).toMatchObject({ state: 'timeout-idle', atMs: 5_000 });
  });

  it('honoured: every progress arrives one at a time and the call completes', () => {
    const t = runScenario(proxyBuffering, { settings: { honourNoBuffering: true } });
    expect(t.outcome).toMatchObject(proxyBuffering.expected.honoured);
    expect(t.outcome.progressDelivered).toBe(t.outcome.progressSent);
    expect(t.outcome.bursts).toBe(0);
    expect(t.outcome.longestSilenceMs).toBeLessThan(t.settings.idleTimeoutMs as number);
  });

  it('with a longer idle timeout the same proxy turns steady progress into bursts', () => {
    const t = runScenario(proxyBuffering, { settings: { idleTimeoutMs: 30_000 } });
    expect(t.outcome.requestEndedAs).toBe('completed');
    expect(t.outcome.bursts).toBe(2);
    expect(t.outcome.largestBurstEvents).toBe(8);
    expect(t.outcome.longestSilenceMs).toBeGreaterThan(8_000);
    expect(
      of(t, 'proxy')
        .filter((e) => e.action === 'flushed')
        .map((e) => e.events),
    ).toEqual([8, 4]);
  });

  it('a flush interval bounds the silence', () => {
    const t = runScenario(proxyBuffering, { settings: { flushIntervalMs: 2_000, idleTimeoutMs: 30_000 } });
    expect(t.outcome.longestSilenceMs).toBeLessThanOrEqual(3_010);
    expect(t.outcome.bursts).toBeGreaterThan(0);
  });
});

describe('RV-2 keep-alive comments on a quiet stream never reset the semantic idle timer', () => {
  const quiet = { progressEveryMs: 0, honourNoBuffering: true };

  it('comments arrive before the idle deadline, and the deadline fires exactly when it would without them', () => {
    const withComments = runScenario(proxyBuffering, { settings: quiet });
    const without = runScenario(proxyBuffering, { settings: { ...quiet, keepAliveEveryMs: 0 } });
    const received = of(withComments, 'sse-comment').filter((e) => e.action === 'received');
    expect(received.map((e) => e.atMs)).toEqual([2_010, 4_010]);
    for (const event of of(withComments, 'sse-comment')) expect(event.line.startsWith(':')).toBe(true);
    expect(withComments.outcome.keepAlivesDelivered).toBe(2);
    expect(of(withComments, 'deadline').filter((e) => e.action === 'reset')).toEqual([]);
    const fired = (t: Transcript) => of(t, 'deadline').find((e) => e.action === 'fired');
    expect(fired(withComments)).toMatchObject({ deadline: 'idle', atMs: 5_000 });
    expect(fired(without)).toMatchObject({ deadline: 'idle', atMs: 5_000 });
    expect(withComments.outcome.requestEndedAs).toBe('timeout-idle');
    expect(without.outcome.keepAlivesSent).toBe(0);
  });

  it('comments are not JSON-RPC messages and are written only when the stream was quiet', () => {
    const busy = runScenario(proxyBuffering, { settings: { honourNoBuffering: true } });
    expect(busy.outcome.keepAlivesSent).toBe(0);
    const sparse = runScenario(proxyBuffering, {
      settings: { honourNoBuffering: true, progressEveryMs: 4_500, idleTimeoutMs: 6_000 },
    });
    expect(sparse.outcome.keepAlivesSent).toBeGreaterThan(0);
    expect(sparse.outcome.requestEndedAs).toBe('completed');
    expect(messages(sparse).every((m) => typeof m.message === 'object' && m.message.jsonrpc === '2.0')).toBe(true);
  });
});

// ── reconnect ─────────────────────────────────────────────────────────────────────────────────

describe('VF-11 / RV-3 reconnect uses a new request, sends no Last-Event-ID, and refetches affected state', () => {
  for (const transport of TRANSPORTS) {
    describe(`over ${transport}`, () => {
      const t = runScenario(reconnectListen, { transport });
      const plan = t.outcome.reconnectPlan;
      const listens = messages(t).filter((m) => methodOf(m.message) === 'subscriptions/listen');
      const dropAtMs = t.settings.dropAtMs as number;

      it('the plan is data: new id, restored filter, authoritative refetch, de-duplication, no replay, no Last-Event-ID', () => {
        expect(plan).toMatchObject(reconnectListen.expected);
        expect(plan.previousRequestId).toBe(1);
        expect(plan.newRequestId).not.toBe(plan.previousRequestId);
        expect(plan.dedupeBy).toEqual({ tools: 'name', resources: 'uri', prompts: 'name', charges: 'chargeId' });
        expect(plan.reconcileInsteadOfReplay).toEqual([2]);
        expect(t.outcome.listenRequestIds).toEqual([1, plan.newRequestId]);
      });

      it('a request lost with its stream is re-issued only as a new request with a new id, never by Last-Event-ID, and the wording says so (2026-07-28 changelog)', () => {
        // No client request of the run reuses the id of one whose response was lost.
        const lostIds = new Set(
          messages(t)
            .filter((m) => m.lost === true && m.from === 'server' && 'id' in m.message)
            .map((m) => ('id' in m.message ? m.message.id : null)),
        );
        const sentAfter = messages(t).filter((m) => m.from === 'client' && m.atMs >= dropAtMs && 'id' in m.message);
        expect(sentAfter.length).toBeGreaterThan(0);
        for (const m of sentAfter)
          expect(lostIds.has('id' in m.message ? m.message.id : null), `${methodOf(m.message)} reuses a lost id`).toBe(
            false,
          );
        for (const m of messages(t))
          expect(Object.keys(m.headers ?? {}).map((h) => h.toLowerCase())).not.toContain('last-event-id');
        // The plan, each lost message over HTTP and the unkeyed charge name the rule: a new request with a new id, never Last-Event-ID.
        const rule = /re-issues? .*new request with a new (?:request )?id/;
        const planEvent = t.events.find((e) => e.kind === 'reconnect-plan');
        expect(planEvent?.kind === 'reconnect-plan' && planEvent.reason).toMatch(rule);
        expect(planEvent?.kind === 'reconnect-plan' && planEvent.reason).toMatch(/never with Last-Event-ID/);
        const notReplayed = t.events.find((e) => e.kind === 'recovery' && e.step === 'not-replayed');
        expect(notReplayed?.kind === 'recovery' && notReplayed.reason).toMatch(/new request with a new id/);
        if (transport === 'http')
          for (const m of messages(t).filter((e) => e.lost === true)) expect(m.reason).toMatch(rule);
        expect(reconnectListen.summary).toMatch(/re-issues what it still needs as new requests with new ids/);
      });

      it('the new listen request has a new JSON-RPC id and the same filter', () => {
        expect(listens).toHaveLength(2);
        const [first, second] = listens as [MessageEvent, MessageEvent];
        expect('id' in second.message && second.message.id).toBe(plan.newRequestId);
        expect('id' in first.message && first.message.id).not.toBe(plan.newRequestId);
        expect('params' in second.message && second.message.params?.notifications).toEqual(
          'params' in first.message && first.message.params?.notifications,
        );
        expect(plan.restoredFilter).toEqual('params' in first.message && first.message.params?.notifications);
        expect(second.atMs).toBeGreaterThan(dropAtMs);
      });

      it('every message of a listen stream carries its subscriptionId, and the acknowledgement comes first', () => {
        const listenIds = t.outcome.listenRequestIds;
        const subscriptionMessages = messages(t).filter(
          (m) => m.from === 'server' && methodOf(m.message).startsWith('notifications/'),
        );
        expect(subscriptionMessages.length).toBeGreaterThanOrEqual(4);
        for (const id of listenIds) {
          const onStream = subscriptionMessages.filter((m) => subscriptionIdOf(m.message) === id);
          expect(onStream.length).toBeGreaterThan(0);
          expect(methodOf(onStream[0]!.message)).toBe('notifications/subscriptions/acknowledged');
          if (transport === 'http') for (const m of onStream) expect(m.channel).toBe(`SSE #${String(id)}`);
        }
        for (const m of subscriptionMessages) expect(listenIds).toContain(subscriptionIdOf(m.message));
      });

      it('refetches are real MCP requests, sent only after the new stream is acknowledged', () => {
        const ack = messages(t).find(
          (m) =>
            methodOf(m.message) === 'notifications/subscriptions/acknowledged' &&
            subscriptionIdOf(m.message) === plan.newRequestId,
        )!;
        const ackDelivered = of(t, 'delivered').find((e) => e.messageSeq === ack.seq)!;
        const requests = messages(t).filter(
          (m) => m.from === 'client' && m.seq > ack.seq && 'id' in m.message && 'method' in m.message,
        );
        expect(requests.map((m) => methodOf(m.message))).toEqual(plan.refetch);
        for (const request of requests) expect(request.atMs).toBeGreaterThanOrEqual(ackDelivered.atMs);
        expect(t.outcome.refetchedMethods).toEqual(plan.refetch);
        expect(t.outcome.reconnectedAtMs).toBe(ackDelivered.atMs);
        const answered = messages(t).filter(
          (m) => m.from === 'server' && methodOf(m.message) === 'response' && m.seq > ack.seq,
        );
        expect(answered).toHaveLength(plan.refetch.length);
      });

      it('de-duplicates by stable ids and reconciles the lost charge instead of replaying it', () => {
        const recovery = of(t, 'recovery');
        expect(recovery.filter((e) => e.step === 'deduplicated').map((e) => e.reason)).toEqual([
          expect.stringMatching(/^tools: 3 received, 2 already cached .* 1 new; the cache holds 3$/),
          expect.stringMatching(/^resources: 1 received, 1 already cached .* 0 new/),
          expect.stringMatching(/^prompts: 1 received, 1 already cached .* 0 new/),
          expect.stringMatching(/^charges: 1 received, 0 already cached .* 1 new/),
        ]);
        expect(recovery.find((e) => e.step === 'not-replayed')?.requestId).toBe(2);
        expect(recovery.find((e) => e.step === 'reconciled')?.reason).toMatch(
          /the charge committed, its response was lost; it is not sent again/,
        );
        const calls = messages(t).filter((m) => methodOf(m.message) === 'tools/call');
        expect(calls).toHaveLength(1);
        expect(calls[0]!.atMs).toBeLessThan(dropAtMs);
        expect(t.outcome.mutationsReplayed).toBe(0);
      });

      it('what was in flight at the drop is lost, not resumed', () => {
        const lost = messages(t).filter((m) => m.lost === true);
        expect(lost.map((m) => methodOf(m.message))).toEqual([
          'response',
          'notifications/resources/updated',
          'notifications/tools/list_changed',
        ]);
        expect(t.outcome.messagesLost).toBe(3);
        expect(of(t, 'delivered').filter((e) => lost.some((m) => m.seq === e.messageSeq))).toEqual([]);
      });

      it('no message and no header anywhere carries Last-Event-ID', () => {
        for (const m of messages(t)) expect(JSON.stringify(m.message)).not.toMatch(/last-event-id/i);
        for (const e of [...of(t, 'http-request'), ...of(t, 'stream-opened')])
          expect(Object.keys(e.headers).map((k) => k.toLowerCase())).not.toContain('last-event-id');
        expect(plan.sendLastEventId).toBe(false);
        if (transport === 'http')
          expect(of(t, 'http-request').map((e) => e.requestId)).toEqual(
            messages(t)
              .filter((m) => m.from === 'client')
              .map((m) => ('id' in m.message ? m.message.id : null)),
          );
      });
    });
  }

  it('RV-4 the reconnect waits its full-jitter backoff, drawn from (seed, client, attempt 0)', () => {
    for (const seed of [1, 2, 3, 99]) {
      const t = runScenario(reconnectListen, { seed });
      const backoff = t.outcome.reconnectPlan.backoff;
      expect(backoff.ceilingMs).toBe(250);
      expect(backoff.delayMs).toBe(backoffDelayMs({ policy: 'full-jitter', baseMs: 250, capMs: 8_000, seed }, 0, 0));
      expect(backoff.delayMs).toBeLessThanOrEqual(250);
      const second = messages(t).filter((m) => methodOf(m.message) === 'subscriptions/listen')[1]!;
      expect(second.atMs).toBe((t.settings.dropAtMs as number) + backoff.delayMs);
    }
  });

  it('without a mutation in flight there is nothing to reconcile', () => {
    const t = runScenario(reconnectListen, { settings: { chargeInFlight: false } });
    expect(t.outcome.reconnectPlan.reconcileInsteadOfReplay).toEqual([]);
    expect(t.outcome.messagesLost).toBe(0);
    expect(of(t, 'recovery').filter((e) => e.step === 'reconciled')).toEqual([]);
  });
});

// ── herd ───────────────────────────────────────────────────────────────────────────────────────

// The stampede: every attempt 0 at 0 ms (initialJitter=false; the default spreads attempt 0 too).
const reference = { baseMs: 100, capMs: 30_000, admitPerWindow: 500, windowMs: 100, initialJitter: false };
const herdRun = (settings: Record<string, unknown> = {}, seed?: number) => runScenario(herd, { settings, seed });

function checkConservation(t: Transcript<'herd'>): void {
  const windows = of(t, 'herd-window');
  const s = t.settings as { clients: number; admitPerWindow: number };
  // A client dropped again at dropAtMs is admitted twice.
  expect(windows.reduce((sum, w) => sum + w.admitted, 0)).toBe(s.clients + t.outcome.droppedAtDrop);
  expect(windows.reduce((sum, w) => sum + w.attempts, 0)).toBe(t.outcome.totalAttempts);
  expect(t.outcome.attemptsPerWindow.reduce((sum, n) => sum + n, 0)).toBe(t.outcome.totalAttempts);
  for (const w of windows) {
    expect(w.admitted).toBeLessThanOrEqual(s.admitPerWindow);
    expect(w.admitted + w.refused).toBe(w.attempts);
    expect(t.outcome.attemptsPerWindow[w.window]).toBe(w.attempts);
  }
  expect(windows.at(-1)?.waiting).toBe(0);
  expect(t.outcome.totalAttempts).toBeGreaterThanOrEqual(s.clients);
  expect(t.outcome.peakAttemptsPerWindow).toBe(t.outcome.attemptsPerWindow.reduce((peak, n) => Math.max(peak, n), 0));
}

describe('RV-5 thundering herd: 10,000 clients reconnecting at once', () => {
  it('the outcome has the stated fields and a per-window series', () => {
    const t = herdRun();
    expect(Object.keys(t.outcome).sort()).toEqual([
      'admissionFloorMs',
      'allReconnectedAtMs',
      'attemptsPerWindow',
      'clients',
      'droppedAtDrop',
      'firstWindowAttempts',
      'peakAttemptsPerWindow',
      'peakRetryAttemptsPerWindow',
      'totalAttempts',
      'windowMs',
    ]);
    expect(t.outcome.clients).toBe(10_000);
    expect(t.outcome.windowMs).toBe(100);
    checkConservation(t);
  });

  it('the reference settings: lockstep without jitter, spread out with it', () => {
    const none = herdRun({ ...reference, policy: 'none' }).outcome;
    const exponential = herdRun({ ...reference, policy: 'exponential' }).outcome;
    const full = herdRun({ ...reference, policy: 'full-jitter' }).outcome;
    const decorrelated = herdRun({ ...reference, policy: 'decorrelated-jitter' }).outcome;
    // Without jitter every wave is the whole remaining herd: 10,000 + 9,500 + … + 500 = 105,000 attempts.
    expect(none.totalAttempts).toBe(105_000);
    expect(exponential.totalAttempts).toBe(105_000);
    expect(none.attemptsPerWindow.filter((n) => n > 0)).toEqual(
      Array.from({ length: 20 }, (_, wave) => 10_000 - 500 * wave),
    );
    // 19 refusals of 100 ms plus waits 200, 400, … 25,600, then 30,000 ten times.
    expect(exponential.allReconnectedAtMs).toBe(382_900);
    expect(full.totalAttempts).toBeLessThan(none.totalAttempts / 2);
    expect(decorrelated.totalAttempts).toBeLessThan(none.totalAttempts / 2);
    expect(full.allReconnectedAtMs).toBeLessThan(exponential.allReconnectedAtMs / 10);
    expect(decorrelated.allReconnectedAtMs).toBeLessThan(exponential.allReconnectedAtMs / 10);
  });

  it('pinned seed 1: the reference herd with full jitter (regression)', () => {
    const outcome = herdRun({ ...reference, policy: 'full-jitter' }, 1).outcome;
    expect([outcome.totalAttempts, outcome.allReconnectedAtMs]).toEqual([37_506, 7_526]);
  });

  it('RV-4 initial jitter spreads even the first attempts over [0, baseMs]', () => {
    const t = herdRun({ initialJitter: true });
    expect(t.outcome.attemptsPerWindow[0]).toBeLessThan(5_000);
    expect(t.outcome.peakAttemptsPerWindow).toBeLessThan(10_000);
    checkConservation(t);
  });

  it('summarises: one event per window that saw attempts plus one traced client, not one per attempt', () => {
    const t = herdRun({ ...reference, policy: 'exponential' });
    const windows = of(t, 'herd-window');
    expect(windows.length).toBe(t.outcome.attemptsPerWindow.filter((n) => n > 0).length);
    expect(t.events.length).toBeLessThan(200);
    expect(t.outcome.totalAttempts).toBe(105_000);
    // The traced client (the last) sends a new subscriptions/listen, with a new id, on every attempt.
    const listens = messages(t).filter((m) => methodOf(m.message) === 'subscriptions/listen');
    const ids = listens.map((m) => ('id' in m.message ? m.message.id : null));
    expect(new Set(ids).size).toBe(ids.length);
    expect(methodOf(messages(t).at(-1)!.message)).toBe('notifications/subscriptions/acknowledged');
    // Events are in time order.
    for (let index = 1; index < t.events.length; index += 1)
      expect(t.events[index]!.atMs).toBeGreaterThanOrEqual(t.events[index - 1]!.atMs);
  });

  it('Drop connection here (dropAtMs): every client connected by then reconnects again with its backoff; the rest keep their schedules', () => {
    const settings = { clients: 2_000, tracedClient: 0 };
    const plain = herdRun(settings);
    const dropAtMs = 1_000;
    const t = herdRun({ ...settings, dropAtMs });
    checkConservation(t);
    // Who was connected at 1,000 ms: the run is the same as without the drop until then.
    const connected = of(plain, 'herd-window')
      .filter((w) => w.endMs <= dropAtMs)
      .reduce((sum, w) => sum + w.admitted, 0);
    const windowAtDrop = of(plain, 'herd-window').find((w) => w.startMs <= dropAtMs && w.endMs > dropAtMs);
    expect(t.outcome.droppedAtDrop).toBeGreaterThanOrEqual(connected);
    expect(t.outcome.droppedAtDrop).toBeLessThanOrEqual(connected + (windowAtDrop?.admitted ?? 0));
    expect(t.outcome.droppedAtDrop).toBeGreaterThan(0);
    expect(plain.outcome.droppedAtDrop).toBe(0);
    expect(t.outcome.attemptsPerWindow.slice(0, dropAtMs / 100)).toEqual(
      plain.outcome.attemptsPerWindow.slice(0, dropAtMs / 100),
    );
    // A second wave after the drop: the dropped clients try again, spread by full jitter over [0, 250] ms.
    const after = t.outcome.attemptsPerWindow.slice(dropAtMs / 100, dropAtMs / 100 + 3).reduce((sum, n) => sum + n, 0);
    expect(after).toBeGreaterThanOrEqual(t.outcome.droppedAtDrop);
    expect(t.outcome.totalAttempts).toBeGreaterThan(plain.outcome.totalAttempts + t.outcome.droppedAtDrop - 1);
    expect(t.outcome.allReconnectedAtMs).toBeGreaterThan(dropAtMs);
    // The run says so: the drop, the traced client's stream dropping, its wait and its new listen request with a new id.
    const drop = of(t, 'recovery').find((event) =>
      event.reason.startsWith(`the connection drops at ${dropAtMs} ms: ${t.outcome.droppedAtDrop} of 2000 clients`),
    );
    expect(drop?.atMs).toBe(dropAtMs);
    const dropped = of(t, 'stream-dropped');
    expect(dropped).toHaveLength(1);
    const listens = messages(t).filter((m) => methodOf(m.message) === 'subscriptions/listen');
    const ids = listens.map((m) => ('id' in m.message ? m.message.id : null));
    expect(new Set(ids).size).toBe(ids.length);
    expect(listens.at(-1)!.atMs).toBeGreaterThanOrEqual(dropAtMs);
    expect(ids).toContain(dropped[0]!.requestId);
    expect(methodOf(messages(t).at(-1)!.message)).toBe('notifications/subscriptions/acknowledged');
    for (let index = 1; index < t.events.length; index += 1)
      expect(t.events[index]!.atMs).toBeGreaterThanOrEqual(t.events[index - 1]!.atMs);
    // A drop after everyone reconnected is a second herd of all of them.
    const late = herdRun({ ...settings, dropAtMs: plain.outcome.allReconnectedAtMs + 5_000 });
    checkConservation(late);
    expect(late.outcome.droppedAtDrop).toBe(2_000);
  });

  it('bounds: a herd that cannot finish fails with a clear error instead of running on', () => {
    expect(() => herdRun({ clients: 1_000, admitPerWindow: 1, attemptsMax: 5 })).toThrow(/LAB102 .*attemptsMax=5 /);
    expect(() => herdRun({ clients: 1_000, admitPerWindow: 1, policy: 'none', eventsMax: 10_000 })).toThrow(/LAB006/);
    expect(() => herdRun({ baseMs: 9_000 })).toThrow(/LAB007 .*baseMs=9000 is above capMs=8000/);
    expect(() => herdRun({ policy: 'none', rejectRttMs: 0 })).toThrow(/LAB007 .*same instant forever/);
    expect(() => herdRun({ clients: 10, tracedClient: 10 })).toThrow(/LAB007/);
  });

  it('property: every client reconnects exactly once (twice if dropped again at dropAtMs), whatever the policy, rates, drop and seed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.record({
          clients: fc.integer({ min: 1, max: 200 }),
          policy: fc.constantFrom('full-jitter', 'none', 'exponential', 'equal-jitter', 'decorrelated-jitter'),
          baseMs: fc.integer({ min: 1, max: 500 }),
          capMs: fc.integer({ min: 500, max: 20_000 }),
          admitPerWindow: fc.integer({ min: 1, max: 100 }),
          windowMs: fc.integer({ min: 10, max: 500 }),
          rejectRttMs: fc.integer({ min: 1, max: 300 }),
          initialJitter: fc.boolean(),
          dropAtMs: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
        }),
        (seed, drawn) => {
          // Without backoff a refused client retries after one round trip; keep that at least a window so runs stay short.
          const settings =
            drawn.policy === 'none' ? { ...drawn, rejectRttMs: Math.max(drawn.rejectRttMs, drawn.windowMs) } : drawn;
          const t = herdRun(settings, seed);
          checkConservation(t);
          expect(validateTranscriptMessages(t).problems).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});

// ── every flow scenario ──────────────────────────────────────────────────────────────────────────

describe('every message of the flow scenarios is valid MCP 2026-07-28', () => {
  for (const id of FLOW_IDS) {
    for (const transport of TRANSPORTS) {
      it(`${id} over ${transport}`, () => {
        const { checked, problems } = validateTranscriptMessages(runScenarioById(id, { transport }));
        expect(problems).toEqual([]);
        expect(checked).toBeGreaterThan(1);
      });
    }
  }

  it('reconnect-listen under random drops, latencies, policies and seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.constantFrom(...TRANSPORTS),
        fc.record({
          latencyMs: fc.integer({ min: 10, max: 100 }),
          dropAtMs: fc.integer({ min: 500, max: 5_000 }),
          chargeInFlight: fc.boolean(),
          policy: fc.constantFrom('full-jitter', 'none', 'exponential', 'equal-jitter', 'decorrelated-jitter'),
        }),
        (seed, transport, settings) => {
          const t = runScenario(reconnectListen, { seed, transport, settings });
          expect(validateTranscriptMessages(t).problems).toEqual([]);
          expect(t.outcome.mutationsReplayed).toBe(0);
          expect(t.outcome.reconnectPlan.backoff.delayMs).toBeLessThanOrEqual(backoffCeilingMs(0, 250, 8_000) * 3);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('determinism: one seed and one set of settings replay byte for byte', () => {
  for (const id of FLOW_IDS) {
    for (const transport of TRANSPORTS) {
      it(`${id} over ${transport}`, () => {
        const settings = id === 'herd' ? { clients: 3_000 } : {};
        const one = JSON.stringify(runScenarioById(id, { transport, seed: 7, settings }));
        const two = JSON.stringify(runScenarioById(id, { transport, seed: 7, settings }));
        expect(two).toBe(one);
      });
    }
  }

  it('the seed matters where the model draws from it', () => {
    for (const id of ['buffer-overload', 'herd']) {
      const one = JSON.stringify(runScenarioById(id, { seed: 1 }).outcome);
      const two = JSON.stringify(runScenarioById(id, { seed: 2 }).outcome);
      expect(two, id).not.toBe(one);
    }
  });

  it('flow events are described for the timeline', () => {
    const kinds = new Set<FlowEvent['kind']>();
    for (const id of FLOW_IDS)
      for (const event of runScenarioById(id, { settings: id === 'herd' ? { clients: 1_000 } : {} }).events)
        kinds.add(event.kind as FlowEvent['kind']);
    for (const kind of [
      'buffer',
      'proxy',
      'http-request',
      'stream-dropped',
      'message-lost',
      'reconnect-plan',
      'recovery',
      'herd-window',
    ] as const)
      expect(kinds).toContain(kind);
  });
});
