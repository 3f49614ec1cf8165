import type { BufferEvent, HerdOutcome, ProxyOutcome, ReconnectOutcome, TaskEvent, TaskOutcome } from '../engine';

/**
 * What the tools worker answers the page with, apart from the tools that compute it (tools.ts):
 * the compact panel views (buffer, herd, tasks, proxy, reconnect), the zips, and the lab's results.
 * The message schemas (schemas.ts) and the protocol's types (protocol.ts) read these, so they live
 * in a module of types that imports no tool: tools.ts imports the protocol, never the other way.
 */

export type { VerificationResult } from '../lesson/verification';
export type { FailureModeResult } from '../lesson/failureModes';
export type { ReviewResult } from '../lesson/reviewer';

export interface EvidenceBundle {
  /** The files in the zip, in order (contents left out: they are in `bytes`). */
  files: { path: string; description: string }[];
  /** The zip (stored deterministically: fixed mtimes, fixed order, fixed compression level). */
  bytes: Uint8Array;
}

/** One point of the buffer's occupancy, at a buffer event. */
export interface BufferPoint {
  seq: number;
  atMs: number;
  occupancyEvents: number;
  action: BufferEvent['action'];
  what: BufferEvent['what'];
  summary: string;
}

export interface BufferView {
  kind: 'buffer';
  capacityEvents: number;
  maxOccupancy: number;
  dropped: number;
  coalesced: number;
  needsRefetch: boolean;
  finalDelivered: boolean;
  points: BufferPoint[];
  /** The final responses as the buffer handled them: never dropped (BF-2). */
  finals: BufferPoint[];
  /** Where the needs-refetch mark was raised, if it was (BF-3). */
  refetchMark: BufferPoint | null;
  /** BF-5: pushes refused because keeping them would drop another final, and the producer's wait. */
  refusedPushes: number;
  producerHeldMs: number;
  /** BF-5: each refusal with the release that ended the producer's wait. */
  refusals: BufferRefusal[];
}

/** BF-5: one refused push of a final response and the back-pressure wait it caused. */
export interface BufferRefusal {
  summary: string;
  refusedAtMs: number;
  releasedAtMs: number;
  heldMs: number;
  /** seq of the refusal event (to link into the diagram). */
  seq: number;
}

export interface HerdView extends HerdOutcome {
  kind: 'herd';
  policy: string;
  baseMs: number;
  capMs: number;
}

export interface TaskRow {
  seq: number;
  atMs: number;
  action: TaskEvent['action'];
  status: TaskEvent['status'];
  detail: string;
}

export interface TasksView {
  kind: 'task';
  scenario: string;
  outcome: TaskOutcome;
  rows: TaskRow[];
}

export interface ProxyView {
  kind: 'proxy';
  honourNoBuffering: boolean;
  keepAliveEveryMs: number | null;
  idleTimeoutMs: number | null;
  outcome: ProxyOutcome;
}

export interface ReconnectView {
  kind: 'reconnect';
  outcome: ReconnectOutcome;
}

export type PanelView = BufferView | HerdView | TasksView | ProxyView | ReconnectView;
export type PanelKind = PanelView['kind'];
