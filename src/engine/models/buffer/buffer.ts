import { assert } from '../../core/assert';
import type {
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcResultResponse,
  ProgressToken,
  RequestId,
} from '../../mcp/protocol';

/**
 * BoundedSseBuffer (docs/requirements.md#bounded-progress-buffer-bf, BF-1 … BF-6): the queue between a Server-Sent Events producer and a
 * consumer that reads more slowly (a client, a proxy, a congested network). Progress is replaceable:
 * a later value for the same token supersedes an earlier one, so under pressure progress is
 * coalesced and, if that is not enough, the oldest progress is dropped and its stream is marked as
 * needing an authoritative refetch. A final response is not replaceable: it is never dropped, and a
 * push that could only be kept by dropping another final response is refused (BF-5): the producer
 * holds it until the consumer frees a slot.
 */
export interface ProgressEntry {
  readonly kind: 'progress';
  readonly requestId: RequestId;
  readonly token: ProgressToken;
  readonly progress: number;
  readonly message: JsonRpcNotification;
}

export interface FinalEntry {
  readonly kind: 'final';
  readonly requestId: RequestId;
  readonly message: JsonRpcResultResponse | JsonRpcErrorResponse;
}

export type SseEntry = ProgressEntry | FinalEntry;

/** What a push did; `occupancyEvents` is the buffer's occupancy after it. */
export type PushReport =
  | { readonly action: 'enqueued'; readonly occupancyEvents: number }
  /** BF-1: replaced the tail, which was progress for the same token. */
  | { readonly action: 'coalesced'; readonly replaced: ProgressEntry; readonly occupancyEvents: number }
  /** BF-2: the buffer was full; its oldest progress was dropped and the new entry enqueued. */
  | { readonly action: 'dropped-oldest'; readonly dropped: ProgressEntry; readonly occupancyEvents: number }
  /** BF-2: the buffer was full of final responses; the incoming progress was itself the oldest progress, so it was dropped. */
  | { readonly action: 'dropped-incoming'; readonly dropped: ProgressEntry; readonly occupancyEvents: number }
  /**
   * BF-5: the buffer is full of final responses and the push is another final response: keeping it
   * would drop one of them, so the push is refused and nothing changes. The producer must wait until
   * the consumer frees a slot (back-pressure) and push it again.
   */
  | { readonly action: 'refused'; readonly heldFinals: readonly RequestId[]; readonly occupancyEvents: number };

function requestKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

export class BoundedSseBuffer {
  readonly capacityEvents: number;
  private readonly entries: SseEntry[] = [];
  /** Requests whose final response was pushed: no progress may follow it (RC-3). */
  private readonly finished = new Set<string>();
  /** BF-3: requests that lost progress and must refetch authoritative state. */
  private readonly refetch = new Map<string, RequestId>();
  maxOccupancyEvents = 0;
  droppedEvents = 0;
  coalescedEvents = 0;
  pushedEvents = 0;
  /** BF-5: pushes refused because keeping them would have dropped another final response. */
  refusedPushes = 0;

  constructor(capacityEvents: number) {
    assert(Number.isInteger(capacityEvents), () => `capacityEvents must be an integer, got ${capacityEvents}`);
    assert(capacityEvents >= 1, () => `capacityEvents must be at least 1, got ${capacityEvents}`);
    this.capacityEvents = capacityEvents;
  }

  get occupancyEvents(): number {
    return this.entries.length;
  }

  /** A copy of what is held, oldest first. */
  snapshot(): readonly SseEntry[] {
    return [...this.entries];
  }

  /** BF-3: whether any stream lost progress. */
  get needsRefetch(): boolean {
    return this.refetch.size > 0;
  }

  needsRefetchFor(requestId: RequestId): boolean {
    return this.refetch.has(requestKey(requestId));
  }

  /** The requests marked by BF-3, in the order they were first marked. */
  refetchRequestIds(): RequestId[] {
    return [...this.refetch.values()];
  }

  push(entry: SseEntry): PushReport {
    const key = requestKey(entry.requestId);
    assert(
      !this.finished.has(key),
      () =>
        `request ${JSON.stringify(entry.requestId)} already has its final response in the stream; nothing may follow it`,
    );
    const before = this.entries.length;
    const report = entry.kind === 'progress' ? this.pushProgress(entry) : this.pushFinal(entry);
    if (report.action === 'refused') {
      // BF-5, paired with pushFinal: a refusal changes nothing, and the request is not finished yet.
      assert(this.entries.length === before, 'a refused push leaves the buffer unchanged');
      assert(
        this.entries.every((held) => held.kind === 'final'),
        'only a buffer full of final responses refuses a push',
      );
      this.refusedPushes += 1;
      return report;
    }
    if (entry.kind === 'final') this.finished.add(key);
    this.pushedEvents += 1;
    this.maxOccupancyEvents = Math.max(this.maxOccupancyEvents, this.entries.length);
    // BF-6, split so a failure names which half broke.
    assert(
      this.entries.length <= this.capacityEvents,
      () => `buffer holds ${this.entries.length} events, over its capacity of ${this.capacityEvents}`,
    );
    assert(
      this.maxOccupancyEvents <= this.capacityEvents,
      () => `max occupancy ${this.maxOccupancyEvents} exceeds capacity ${this.capacityEvents}`,
    );
    return report;
  }

  /** The consumer takes the oldest entry; undefined when empty. */
  shift(): SseEntry | undefined {
    return this.entries.shift();
  }

  private pushProgress(entry: ProgressEntry): PushReport {
    const tail = this.entries[this.entries.length - 1];
    // BF-1: adjacent progress for the same token is superseded by the newer value, in place.
    if (tail !== undefined && tail.kind === 'progress' && tail.token === entry.token) {
      assert(
        tail.requestId === entry.requestId,
        () => `progress token ${JSON.stringify(entry.token)} is used by two requests`,
      );
      assert(
        entry.progress > tail.progress,
        () => `progress for ${JSON.stringify(entry.token)} must increase: ${entry.progress} after ${tail.progress}`,
      );
      this.entries[this.entries.length - 1] = entry;
      this.coalescedEvents += 1;
      return { action: 'coalesced', replaced: tail, occupancyEvents: this.entries.length };
    }
    if (this.entries.length < this.capacityEvents) {
      this.entries.push(entry);
      return { action: 'enqueued', occupancyEvents: this.entries.length };
    }
    const oldest = this.oldestProgressIndex();
    if (oldest === -1) {
      // Every held event is a final response: the incoming progress is the oldest replaceable one.
      this.markDropped(entry);
      return { action: 'dropped-incoming', dropped: entry, occupancyEvents: this.entries.length };
    }
    const dropped = this.entries.splice(oldest, 1)[0] as ProgressEntry;
    this.markDropped(dropped);
    this.entries.push(entry);
    return { action: 'dropped-oldest', dropped, occupancyEvents: this.entries.length };
  }

  private pushFinal(entry: FinalEntry): PushReport {
    if (this.entries.length < this.capacityEvents) {
      this.entries.push(entry);
      return { action: 'enqueued', occupancyEvents: this.entries.length };
    }
    const oldest = this.oldestProgressIndex();
    if (oldest === -1) {
      // BF-4 and BF-5: the only way to keep this final would drop another final; refuse the push instead.
      return {
        action: 'refused',
        heldFinals: this.entries.map((held) => held.requestId),
        occupancyEvents: this.entries.length,
      };
    }
    const dropped = this.entries.splice(oldest, 1)[0] as ProgressEntry;
    this.markDropped(dropped);
    this.entries.push(entry);
    return { action: 'dropped-oldest', dropped, occupancyEvents: this.entries.length };
  }

  private oldestProgressIndex(): number {
    return this.entries.findIndex((held) => held.kind === 'progress');
  }

  private markDropped(entry: ProgressEntry): void {
    this.droppedEvents += 1;
    const key = requestKey(entry.requestId);
    if (!this.refetch.has(key)) this.refetch.set(key, entry.requestId);
  }
}
