// Proves BoundedSseBuffer keeps docs/requirements.md#bounded-progress-buffer-bf (BF-1 … BF-6): it coalesces and drops only replaceable progress, marks what it dropped, never drops or loses a final response, refuses the one state it cannot keep, and never holds more than its capacity — for hand-written streams and for any random stream fast-check draws.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BoundedSseBuffer, type FinalEntry, type ProgressEntry, type SseEntry } from './buffer';
import { callToolResultResponse, progressNotification } from '../../mcp/protocol';

const progress = (requestId: number, value: number): ProgressEntry => ({
  kind: 'progress',
  requestId,
  token: `progress-${requestId}`,
  progress: value,
  message: progressNotification(`progress-${requestId}`, value, null, `step ${value}`),
});
const final = (requestId: number): FinalEntry => ({
  kind: 'final',
  requestId,
  message: callToolResultResponse(requestId, 'done'),
});
const describeEntry = (entry: SseEntry) =>
  entry.kind === 'progress' ? `p${entry.requestId}:${entry.progress}` : `F${entry.requestId}`;
const held = (buffer: BoundedSseBuffer) => buffer.snapshot().map(describeEntry);

describe('BF-1 adjacent progress for the same token coalesces', () => {
  it('a newer value replaces the tail in place; occupancy does not grow', () => {
    const buffer = new BoundedSseBuffer(4);
    buffer.push(progress(1, 1));
    const report = buffer.push(progress(1, 2));
    expect(report.action).toBe('coalesced');
    expect(held(buffer)).toEqual(['p1:2']);
    expect(buffer.coalescedEvents).toBe(1);
    expect(buffer.droppedEvents).toBe(0);
    expect(buffer.needsRefetch).toBe(false);
  });

  it('progress for another token in between is not adjacent: nothing coalesces', () => {
    const buffer = new BoundedSseBuffer(4);
    buffer.push(progress(1, 1));
    buffer.push(progress(2, 1));
    expect(buffer.push(progress(1, 2)).action).toBe('enqueued');
    expect(held(buffer)).toEqual(['p1:1', 'p2:1', 'p1:2']);
  });

  it('a final response at the tail is never coalesced into', () => {
    const buffer = new BoundedSseBuffer(4);
    buffer.push(progress(1, 1));
    buffer.push(final(1));
    buffer.push(progress(2, 1));
    expect(held(buffer)).toEqual(['p1:1', 'F1', 'p2:1']);
  });
});

describe('BF-2 at capacity the oldest progress is dropped', () => {
  it('drops the oldest progress, not the oldest event, and enqueues the new one', () => {
    const buffer = new BoundedSseBuffer(3);
    buffer.push(final(9));
    buffer.push(progress(1, 1));
    buffer.push(progress(2, 1));
    const report = buffer.push(progress(3, 1));
    expect(report.action).toBe('dropped-oldest');
    expect(report.action === 'dropped-oldest' && describeEntry(report.dropped)).toBe('p1:1');
    expect(held(buffer)).toEqual(['F9', 'p2:1', 'p3:1']);
    expect(buffer.droppedEvents).toBe(1);
  });

  it('when every held event is a final response, the incoming progress is the oldest replaceable event and is dropped', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(final(1));
    buffer.push(final(2));
    const report = buffer.push(progress(3, 1));
    expect(report.action).toBe('dropped-incoming');
    expect(held(buffer)).toEqual(['F1', 'F2']);
    expect(buffer.needsRefetchFor(3)).toBe(true);
  });
});

describe('BF-3 a stream that lost progress is marked for an authoritative refetch', () => {
  it('marks exactly the requests whose progress was dropped, in order', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(progress(1, 1));
    buffer.push(progress(2, 1));
    expect(buffer.needsRefetch).toBe(false);
    buffer.push(progress(3, 1)); // drops p1:1
    buffer.push(progress(1, 2)); // drops p2:1
    expect(buffer.needsRefetch).toBe(true);
    expect(buffer.refetchRequestIds()).toEqual([1, 2]);
    expect(buffer.needsRefetchFor(3)).toBe(false);
  });

  it('coalescing alone does not mark anything: the newer value still reaches the client', () => {
    const buffer = new BoundedSseBuffer(1);
    for (let value = 1; value <= 10; value += 1) buffer.push(progress(1, value));
    expect(buffer.needsRefetch).toBe(false);
    expect(held(buffer)).toEqual(['p1:10']);
  });
});

describe('BF-4 a final response is never dropped', () => {
  it('a final pushed into a full buffer evicts progress and every final comes out', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(progress(1, 1));
    buffer.push(progress(2, 1));
    expect(buffer.push(final(1)).action).toBe('dropped-oldest');
    expect(buffer.push(final(2)).action).toBe('dropped-oldest');
    expect(held(buffer)).toEqual(['F1', 'F2']);
    const out: string[] = [];
    for (let entry = buffer.shift(); entry !== undefined; entry = buffer.shift()) out.push(describeEntry(entry));
    expect(out).toEqual(['F1', 'F2']);
  });

  it('refuses progress after the final response of the same request (RC-3: nothing follows completion)', () => {
    const buffer = new BoundedSseBuffer(4);
    buffer.push(final(1));
    expect(() => buffer.push(progress(1, 2))).toThrow(/already has its final response/);
  });
});

describe('BF-5 keeping a final that would require dropping another final is refused', () => {
  it('refuses the push, names the held finals, and leaves the buffer unchanged', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(final(1));
    buffer.push(final(2));
    const before = held(buffer);
    const report = buffer.push(final(3));
    expect(report.action).toBe('refused');
    expect(report.action === 'refused' && report.heldFinals).toEqual([1, 2]);
    expect(held(buffer)).toEqual(before);
    expect(buffer.refusedPushes).toBe(1);
    // The refused request was not recorded as finished: once the client reads, it can be pushed.
    buffer.shift();
    expect(buffer.push(final(3)).action).toBe('enqueued');
    expect(held(buffer)).toEqual(['F2', 'F3']);
  });
});

describe('BF-6 the buffer never holds more than its capacity', () => {
  it('capacity 1 under a long mixed stream', () => {
    const buffer = new BoundedSseBuffer(1);
    for (let value = 1; value <= 5; value += 1) {
      buffer.push(progress(1, value));
      buffer.push(progress(2, value));
    }
    expect(buffer.maxOccupancyEvents).toBe(1);
    expect(buffer.occupancyEvents).toBe(1);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedSseBuffer(0)).toThrow(/at least 1/);
    expect(() => new BoundedSseBuffer(2.5)).toThrow(/integer/);
  });
});

// ── properties ─────────────────────────────────────────────────────────────────────────────────

type Op = { op: 'progress'; request: number } | { op: 'final'; request: number } | { op: 'shift' };

const arbitraryOps = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ op: fc.constant('progress' as const), request: fc.integer({ min: 1, max: 5 }) }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('final' as const), request: fc.integer({ min: 1, max: 5 }) }) },
    { weight: 3, arbitrary: fc.constant({ op: 'shift' as const }) },
  ),
  { maxLength: 300 },
);

describe('properties: any random stream, any capacity', () => {
  it('never exceeds capacity, never drops a final, refuses only when every held event is final, and delivers progress in increasing order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), arbitraryOps, (capacity, ops: Op[]) => {
        const buffer = new BoundedSseBuffer(capacity);
        const nextProgress = new Map<number, number>();
        const finished = new Set<number>();
        const finalsAccepted: number[] = [];
        const finalsDelivered: number[] = [];
        const lastDelivered = new Map<number, number>();
        const deliver = (entry: SseEntry) => {
          if (entry.kind === 'final') finalsDelivered.push(entry.requestId as number);
          else {
            const last = lastDelivered.get(entry.requestId as number) ?? 0;
            expect(entry.progress).toBeGreaterThan(last);
            lastDelivered.set(entry.requestId as number, entry.progress);
          }
        };
        for (const op of ops) {
          if (op.op === 'shift') {
            const entry = buffer.shift();
            if (entry !== undefined) deliver(entry);
            continue;
          }
          if (finished.has(op.request)) continue; // a finished request sends nothing more
          const allFinalAndFull =
            buffer.occupancyEvents === capacity && buffer.snapshot().every((entry) => entry.kind === 'final');
          if (op.op === 'progress') {
            const value = (nextProgress.get(op.request) ?? 0) + 1;
            nextProgress.set(op.request, value);
            buffer.push(progress(op.request, value));
          } else if (allFinalAndFull) {
            const before = held(buffer);
            expect(buffer.push(final(op.request)).action).toBe('refused');
            expect(held(buffer)).toEqual(before);
          } else {
            buffer.push(final(op.request));
            finished.add(op.request);
            finalsAccepted.push(op.request);
          }
          expect(buffer.occupancyEvents).toBeLessThanOrEqual(capacity);
          expect(buffer.maxOccupancyEvents).toBeLessThanOrEqual(capacity);
        }
        for (let entry = buffer.shift(); entry !== undefined; entry = buffer.shift()) deliver(entry);
        // Every accepted final comes out exactly once, in the order it went in.
        expect(finalsDelivered).toEqual(finalsAccepted);
        // Drops and refetch marks go together (BF-3).
        expect(buffer.needsRefetch).toBe(buffer.droppedEvents > 0);
      }),
      { numRuns: 500 },
    );
  });
});
