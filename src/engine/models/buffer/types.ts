import type { RequestId } from '../../core/jsonrpc';
import type { ScenarioMeta } from '../../core/model';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { BufferOverloadSettings } from './settings';

/** Transcript vocabulary of this model: its events, outcome and scenario shape (field names are contracts). */
export interface BufferEvent extends EventBase {
  kind: 'buffer';
  /** enqueued / coalesced (BF-1) / dropped (BF-2) / needs-refetch (BF-3). */
  action: 'enqueued' | 'coalesced' | 'dropped' | 'needs-refetch';
  requestId: RequestId;
  what: 'progress' | 'final';
  /** The held message, e.g. `progress 4/20 of #2`. */
  summary: string;
  occupancyEvents: number;
  capacityEvents: number;
  reason: string;
}

export type BufferModelEvent = WireEvent | BufferEvent;

export interface BufferOutcome {
  /** The buffer's capacity, in events. */
  capacity: number;
  maxOccupancy: number;
  dropped: number;
  coalesced: number;
  needsRefetch: boolean;
  /** Every request's final response reached the client. */
  finalDelivered: boolean;
}

export interface BufferScenario extends ScenarioMeta {
  readonly kind: 'buffer';
  readonly settings: BufferOverloadSettings;
  readonly expected: Readonly<Pick<BufferOutcome, 'needsRefetch' | 'finalDelivered'>>;
}

