import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { BufferOverloadSettings } from './settings';

/** Transcript vocabulary of this model: its events, outcome and scenario shape (field names are contracts). */
export interface BufferEvent extends EventBase {
  kind: 'buffer';
  /**
   * enqueued / coalesced (BF-1) / dropped (BF-2) / needs-refetch (BF-3) / refused: a final response
   * that would drop another final, the producer is held back (BF-5) / released: the consumer freed a
   * slot and the held producer pushes it again (BF-5).
   */
  action: 'enqueued' | 'coalesced' | 'dropped' | 'needs-refetch' | 'refused' | 'released';
  requestId: RequestId;
  what: 'progress' | 'final';
  /** The held message, e.g. `progress 4/20 of #2`. */
  summary: string;
  occupancyEvents: number;
  /** null: the queue has no bound (queue=unbounded, a catalogued failure mode). */
  capacityEvents: number | null;
  reason: string;
  /** `released` only: how long the producer was held back since the refusal. */
  heldMs?: number;
}

export type BufferModelEvent = WireEvent | BufferEvent;

export interface BufferOutcome {
  /** The buffer's capacity, in events; null when the queue has no bound (queue=unbounded, docs/requirements.md#failure-modes-each-runnable-next-to-its-fix). */
  capacity: number | null;
  maxOccupancy: number;
  dropped: number;
  coalesced: number;
  needsRefetch: boolean;
  /** Every request's final response reached the client. */
  finalDelivered: boolean;
  /** BF-5: pushes refused because keeping them would have dropped another final response. */
  refusedPushes: number;
  /** BF-5: how long the producer was held back (back-pressure) in all, until the consumer freed a slot. */
  producerHeldMs: number;
}

export interface BufferScenario extends ScenarioMeta {
  readonly kind: 'buffer';
  readonly settings: BufferOverloadSettings;
  readonly expected: Readonly<Pick<BufferOutcome, 'needsRefetch' | 'finalDelivered'>>;
}
