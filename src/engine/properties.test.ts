// Property tests: for random settings, seeds and same-instant orders, the request lifecycle invariants of docs/requirements.md#request-lifecycle-rc hold. fast-check prints the seed and path of any failure; rerun with { seed, path } to reproduce it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenarioA } from '../scenarios/A';
import { SeededRandom } from './core/prng';
import { runScenario } from './scenario';
import { seededChooser } from './core/scheduler';
import type { LabEvent, MessageEvent, Transcript, Transport } from './transcript';
import { checkTranscript } from './explore/invariants';

const NUM_RUNS = 1_000;

const arbitraryRun = fc.record({
  transport: fc.constantFrom<Transport>('stdio', 'http'),
  seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  settings: fc.record({
    latencyMs: fc.integer({ min: 0, max: 30 }),
    latencyJitterMs: fc.integer({ min: 0, max: 30 }),
    idleTimeoutMs: fc.integer({ min: 1, max: 3_000 }),
    maxTimeoutMs: fc.integer({ min: 1, max: 5_000 }),
    workMs: fc.integer({ min: 1, max: 3_000 }),
    progressEveryMs: fc.integer({ min: 0, max: 700 }),
    progressToken: fc.boolean(),
    serverSendsProgress: fc.boolean(),
    cancelAtMs: fc.option(fc.integer({ min: 0, max: 3_000 }), { nil: null }),
    httpCancel: fc.constantFrom('close-stream', 'post-notification'),
    clientProfile: fc.constantFrom('spec', 'ts-sdk-1.x'),
  }),
});

type Run = typeof arbitraryRun extends fc.Arbitrary<infer R> ? R : never;

function execute(run: Run): Transcript<'request-race'> {
  // Same-instant events are ordered by a chooser drawn from the run's seed: random but replayable.
  return runScenario(scenarioA, {
    transport: run.transport,
    seed: run.seed,
    settings: run.settings,
    chooser: seededChooser(new SeededRandom(run.seed)),
  });
}

const isMessage = (e: LabEvent): e is MessageEvent => e.kind === 'message';
const methodOf = (e: MessageEvent) => ('method' in e.message ? e.message.method : 'response');

describe('request lifecycle properties (random schedules and settings)', () => {
  it('causality: the server acts on the request and its cancellation only after it received them', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const t = execute(run);
        expect(checkTranscript(t).filter((breach) => breach.invariant === 'causality')).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('exactly one terminal state per request, and the outcome reports it', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const t = execute(run);
        const terminals = t.events.filter((e) => e.kind === 'terminal');
        expect(terminals).toHaveLength(1);
        expect(terminals[0]).toMatchObject({ state: t.outcome.terminalState, atMs: t.outcome.terminalAtMs });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('RC-8: the client’s own ending is completed exactly when it used the response, and a response it never used is a divergence', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const t = execute(run);
        const settled = t.events.some((e) => e.kind === 'state' && e.side === 'client' && e.to === 'settled');
        expect(t.outcome.clientOutcome === 'completed').toBe(settled);
        const serverCompleted = t.events.some((e) => e.kind === 'state' && e.side === 'server' && e.to === 'completed');
        expect(t.outcome.viewsDiverge).toBe(serverCompleted && !settled);
        expect(t.events.filter((e) => e.kind === 'views-diverge')).toHaveLength(t.outcome.viewsDiverge ? 1 : 0);
        const clientEnd = t.events.find((e) => e.kind === 'state' && e.side === 'client');
        expect(clientEnd?.atMs).toBe(t.outcome.clientOutcomeAtMs);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('nothing goes on the wire from the server for a request after it accepted the cancellation', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const t = execute(run);
        const accepted = t.events.find((e) => e.kind === 'cancel-accepted');
        if (accepted === undefined) return;
        const later = t.events.filter((e) => isMessage(e) && e.from === 'server' && e.seq > accepted.seq);
        expect(later).toEqual([]);
        expect(t.outcome.finalResponse && t.events.some((e) => e.kind === 'suppressed' && e.what === 'response')).toBe(
          false,
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('progress strictly increases, is never sent after the server’s terminal point, never accepted after the client settled or abandoned', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const t = execute(run);
        const sent = t.events.filter(isMessage).filter((m) => methodOf(m) === 'notifications/progress');
        const values = sent.map((m) => ('params' in m.message ? (m.message.params?.progress as number) : NaN));
        for (let i = 1; i < values.length; i += 1) expect(values[i]).toBeGreaterThan(values[i - 1] as number);
        const serverEnd = t.events.find(
          (e) => (e.kind === 'state' && e.side === 'server') || e.kind === 'cancel-accepted',
        );
        if (serverEnd !== undefined) expect(sent.filter((m) => m.seq > serverEnd.seq)).toEqual([]);
        const clientEnd = t.events.find((e) => e.kind === 'state' && e.side === 'client');
        if (clientEnd !== undefined) {
          const deliveredAfter = t.events.filter(
            (e) => e.kind === 'delivered' && e.to === 'client' && e.seq > clientEnd.seq,
          );
          for (const delivery of deliveredAfter) expect(delivery).toHaveProperty('ignoredBy', 'client');
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the maximum deadline fires at start + max unless something ended the request first (the spec profile)', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        // The TypeScript SDK 1.x profile has no maximum timer by design (src/sdk/tsSdkProfile.test.ts).
        if (run.settings.clientProfile !== 'spec') return;
        const t = execute(run);
        const start = t.events.find((e) => e.kind === 'request-started');
        expect(start).toBeDefined();
        const maxDueAtMs = (start?.atMs ?? 0) + run.settings.maxTimeoutMs;
        const fired = t.events.filter((e) => e.kind === 'deadline' && e.action === 'fired');
        const clientEnd = t.events.find((e) => e.kind === 'state' && e.side === 'client');
        expect(clientEnd).toBeDefined();
        for (const f of fired) if (f.kind === 'deadline' && f.deadline === 'max') expect(f.atMs).toBe(maxDueAtMs);
        // The client never waits past its budget: it settles, abandons or times out by start + max.
        expect(clientEnd!.atMs).toBeLessThanOrEqual(maxDueAtMs);
        // A deadline that ends the request at start + max is the maximum one (it is checked first when both are due).
        for (const f of fired) if (f.atMs === maxDueAtMs && f.kind === 'deadline') expect(f.deadline).toBe('max');
        const timedOut = t.outcome.terminalState === 'timeout-max';
        if (timedOut) expect(t.outcome.terminalAtMs).toBe(maxDueAtMs);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('determinism: the same run twice gives a byte-identical transcript', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        expect(JSON.stringify(execute(run))).toBe(JSON.stringify(execute(run)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a run without recording (what an explorer runs)', () => {
  it('keeps no events and reaches exactly the outcome of the recorded run, for random settings, seeds and orders', () => {
    fc.assert(
      fc.property(arbitraryRun, (run) => {
        const recorded = execute(run);
        const fast = runScenario(scenarioA, {
          transport: run.transport,
          seed: run.seed,
          settings: run.settings,
          chooser: seededChooser(new SeededRandom(run.seed)),
          record: false,
        });
        expect(fast.events).toEqual([]);
        expect(fast.outcome).toEqual(recorded.outcome);
      }),
      { numRuns: 300 },
    );
  });
});
