import { assert } from '../../core/assert';
import type { RequestId } from '../../core/jsonrpc';
import type { FinalEntry, ProgressEntry, PushReport, SseEntry } from './buffer';

/**
 * The two queues the failure modes warn about (docs/requirements.md#failure-modes-each-runnable-next-to-its-fix), for the lab to show next to BoundedSseBuffer (which does it
 * right): `unbounded` holds everything a slow consumer has not read yet, so memory grows with the
 * backlog; `drop-oldest-any` is bounded but evicts the oldest event whatever it is, final responses
 * included, so a client can lose the one message that tells it the outcome.
 */
export type NaivePolicy = 'unbounded' | 'drop-oldest-any';

export type NaiveReport =
  | Extract<PushReport, { action: 'enqueued' | 'dropped-oldest' }>
  /** The failure mode itself: a final response was evicted to make room. */
  | { readonly action: 'dropped-final'; readonly dropped: FinalEntry; readonly occupancyEvents: number };

function requestKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

export class NaiveSseQueue {
  /** null: no bound at all. */
  readonly capacityEvents: number | null;
  private readonly entries: SseEntry[] = [];
  private readonly refetch = new Map<string, RequestId>();
  maxOccupancyEvents = 0;
  droppedEvents = 0;
  readonly coalescedEvents = 0;
  readonly refusedPushes = 0;
  finalsDropped = 0;

  constructor(
    readonly policy: NaivePolicy,
    capacityEvents: number,
  ) {
    assert(
      Number.isInteger(capacityEvents) && capacityEvents >= 1,
      () => `capacityEvents must be a positive integer, got ${capacityEvents}`,
    );
    this.capacityEvents = policy === 'unbounded' ? null : capacityEvents;
  }

  get occupancyEvents(): number {
    return this.entries.length;
  }

  get needsRefetch(): boolean {
    return this.refetch.size > 0;
  }

  needsRefetchFor(requestId: RequestId): boolean {
    return this.refetch.has(requestKey(requestId));
  }

  push(entry: SseEntry): NaiveReport {
    let report: NaiveReport;
    if (this.capacityEvents === null || this.entries.length < this.capacityEvents) {
      this.entries.push(entry);
      report = { action: 'enqueued', occupancyEvents: this.entries.length };
    } else {
      const oldest = this.entries.shift() as SseEntry;
      this.entries.push(entry);
      this.droppedEvents += 1;
      if (oldest.kind === 'final') {
        this.finalsDropped += 1;
        report = { action: 'dropped-final', dropped: oldest, occupancyEvents: this.entries.length };
      } else {
        this.refetch.set(requestKey(oldest.requestId), oldest.requestId);
        report = { action: 'dropped-oldest', dropped: oldest as ProgressEntry, occupancyEvents: this.entries.length };
      }
    }
    this.maxOccupancyEvents = Math.max(this.maxOccupancyEvents, this.entries.length);
    // Paired with the constructor: a bounded naive queue still keeps its bound; the unbounded one has none.
    assert(
      this.capacityEvents === null || this.entries.length <= this.capacityEvents,
      'a bounded queue never exceeds its capacity',
    );
    return report;
  }

  shift(): SseEntry | undefined {
    return this.entries.shift();
  }
}
