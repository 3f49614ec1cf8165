import type { ScenarioMeta } from '../../core/model';
import type { EventBase, WireEvent } from '../../core/transcript';
import type { RecoveryEvent } from '../reconnect/types';
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

export type HerdModelEvent = WireEvent | HerdWindowEvent | RecoveryEvent;

export interface HerdOutcome {
  clients: number;
  totalAttempts: number;
  peakAttemptsPerWindow: number;
  allReconnectedAtMs: number;
  windowMs: number;
  /** Attempts in each admission window from 0 ms, empty windows included: the plot's series. */
  attemptsPerWindow: number[];
}

export interface HerdScenario extends ScenarioMeta {
  readonly kind: 'herd';
  readonly settings: HerdSettings;
}

