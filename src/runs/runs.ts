import { runScenario, type LedgerHost, type Transcript } from '../engine';
import { resolveRunSpec, type ResolvedRunSpec, type RunSpec } from './runSpec';
import { findScenario } from '../scenarios/index';

export interface SpecifiedRunOptions {
  /** sql.js and the ledger file, for the SQLite scenarios (model runs only). */
  readonly ledger?: LedgerHost;
  /** Called with the virtual time as the run goes; may throw to stop it (a wall-clock budget, Stop). */
  readonly onStep?: (atMs: number) => void;
}

/** The scheduler's trace hook that calls `onStep` with each event's virtual time. */
function stepTrace(onStep: ((atMs: number) => void) | undefined) {
  return onStep === undefined ? undefined : { push() {}, pop: (atMs: number) => onStep(atMs) };
}

/**
 * A resolved run on the lab's model: the one place a `ResolvedRunSpec` meets the engine's run entry,
 * which takes its transport, seed, settings, ordering and faults as they are. Synchronous, so a host
 * that holds a ledger file around the run (the CLI's --ledger, the worker's stored ledger) saves what
 * this very call produced.
 */
export function runModel(run: ResolvedRunSpec, options: SpecifiedRunOptions = {}): Transcript {
  const { scenario, impl, ...judged } = run;
  if (impl !== 'model') throw new Error(`runModel was given a ${impl} run of ${scenario.id}`);
  return runScenario(scenario, { ...judged, ledger: options.ledger, trace: stepTrace(options.onStep) });
}

/**
 * Runs a resolved run spec on the lab's model, a real SDK (1.x or v2) or the tasks extension's package. Each SDK is imported only
 * when a spec asks for it, so a model run never loads either.
 */
export async function runResolved(run: ResolvedRunSpec, options: SpecifiedRunOptions = {}): Promise<Transcript> {
  const { scenario, transport, seed, settings } = run;
  if ((run.impl === 'ts-sdk' || run.impl === 'ts-sdk-v2') && scenario.kind === 'herd') {
    // The herd with every client waiting the SDK's own reconnection delay (the known-bugs gallery's bug-reconnect-without-jitter).
    const { runSdkHerd } = await import('../sdk/sdkBackoff');
    return runSdkHerd(scenario, run.impl, { transport, seed, settings, trace: stepTrace(options.onStep) });
  }
  if (run.impl === 'ts-sdk' || run.impl === 'ts-sdk-v2') {
    // resolveRunSpec let an SDK through for a request race (and the herd, above) only.
    if (scenario.kind !== 'request-race')
      throw new Error(`${run.impl} was resolved for ${scenario.id}, a ${scenario.kind} scenario`);
    const sdkOptions = { transport, seed, settings, onStep: options.onStep };
    if (run.impl === 'ts-sdk-v2') {
      const { runTsSdkV2Scenario } = await import('../sdk/tsSdkV2Race');
      return runTsSdkV2Scenario(scenario, sdkOptions);
    }
    const { runTsSdkScenario } = await import('../sdk/tsSdkRace');
    return runTsSdkScenario(scenario, sdkOptions);
  }
  if (run.impl === 'ext-tasks') {
    // resolveRunSpec let ext-tasks through for a durable-task scenario only.
    if (scenario.kind !== 'task')
      throw new Error(`ext-tasks was resolved for ${scenario.id}, a ${scenario.kind} scenario`);
    const { runExtTasksScenario } = await import('../sdk/extTasksRun');
    return runExtTasksScenario(scenario, { transport, seed, settings, onStep: options.onStep });
  }
  return runModel(run, options);
}

/** Runs what a run spec names (resolved first: a bad value is refused before anything runs). */
export async function runSpecified(spec: RunSpec, options: SpecifiedRunOptions = {}): Promise<Transcript> {
  return runResolved(resolveRunSpec(spec, findScenario), options);
}
