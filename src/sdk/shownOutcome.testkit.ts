// What the SDK tables (TS_SDK_1X_EXPECTATIONS, TS_SDK_V2_TABLE) say of a run, read from its transcript,
// shared by the tests that hold each table to the real packages.
import { raceInvariants, type Transcript } from '../engine';
import type { ShownOutcome } from './tsSdkProfile';
import { findScenario } from '../scenarios/index';

/** A request race's outcome as the tables write it: the client's ending, the cancel's time, the broken invariants. */
export function shown(t: Transcript): ShownOutcome {
  if (t.kind !== 'request-race') throw new Error('a request race was expected');
  const o = t.outcome;
  return {
    terminalState: o.terminalState,
    clientOutcome: o.clientOutcome,
    clientOutcomeAtMs: o.clientOutcomeAtMs,
    cancellationSignal: o.cancellationSignal,
    cancelSentAtMs: o.cancelDelayMs === null ? null : o.clientOutcomeAtMs + o.cancelDelayMs,
    finalResponse: o.finalResponse,
    invariantsBroken: raceInvariants(t)
      .filter((c) => !c.holds)
      .map((c) => c.id),
  };
}

/** A request-race scenario by id (a table names only those). */
export function race(id: string) {
  const scenario = findScenario(id);
  if (scenario.kind !== 'request-race') throw new Error(`${id} is not a request race`);
  return scenario;
}
