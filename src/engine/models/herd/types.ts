import type { ScenarioMeta } from '../../core/model';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { RecoveryEvent, StreamDroppedEvent } from '../reconnect/types';
import type { HerdSettings } from './settings';

/** Transcript vocabulary of this model: its events, outcome and scenario shape (field names are contracts). */
/** One admission window of the herd, summarised: the herd never records one event per attempt. */
export interface HerdWindowEvent extends EventBase {
  kind: 'herd-window';
  window: number;
  startMs: number;
  endMs: number;
  attempts: number;
  admitted: number;
  refused: number;
  /** Clients still not reconnected when the window closes. */
  waiting: number;
}

export type HerdModelEvent = WireEvent | HerdWindowEvent | RecoveryEvent | StreamDroppedEvent;

export interface HerdOutcome {
  clients: number;
  totalAttempts: number;
  peakAttemptsPerWindow: number;
  allReconnectedAtMs: number;
  windowMs: number;
  /** Attempts in each admission window from 0 ms, empty windows included: the plot's series. */
  attemptsPerWindow: number[];
  /** RV-5: attempts in the first window (the initial wave: every client's attempt 0 that falls in it). */
  firstWindowAttempts: number;
  /** RV-5: the most retries (attempts 1, 2, …) that fell into one window: the height of the retry waves. */
  peakRetryAttemptsPerWindow: number;
  /**
   * The earliest the last client can be admitted: the start of window ⌈clients / admitPerWindow⌉ − 1. A
   * policy that keeps every window full (no backoff) reaches it, at the cost of many refused attempts.
   */
  admissionFloorMs: number;
  /** Clients connected when the connection dropped again at `dropAtMs` (they reconnect once more); 0 without that drop. */
  droppedAtDrop: number;
}

export interface HerdScenario extends ScenarioMeta {
  readonly kind: 'herd';
  readonly settings: HerdSettings;
}
