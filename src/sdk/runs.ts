import { LabError, parseSetting, runScenario, settingsSpecFor, type LedgerHost, type RunSpec, type Transcript } from '../engine';
import { findScenario } from '../scenarios/index';

export interface SpecifiedRunOptions {
  /** sql.js for the SQLite scenarios (model runs only). */
  readonly ledger?: LedgerHost;
  /** Called with the virtual time as the run goes; may throw to stop it (a wall-clock budget, Stop). */
  readonly onStep?: (atMs: number) => void;
}

/** A run spec's settings, parsed by its scenario's settings spec (LAB004 for an unknown key). */
export function specSettings(spec: RunSpec): Record<string, unknown> {
  const scenario = findScenario(spec.scenario);
  const known = settingsSpecFor(scenario);
  const settings: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(spec.settings)) {
    const setting = Object.hasOwn(known, key) ? known[key] : undefined;
    if (setting === undefined) throw new LabError('LAB004', `"${key}" is not a setting of scenario ${scenario.id}; known settings: impl, transport, seed, ${Object.keys(known).join(', ')}`);
    settings[key] = parseSetting(key, setting, text);
  }
  return settings;
}

/**
 * Runs what a run spec names, on the lab's model or a real SDK (1.x or v2). Each SDK is imported
 * only when a spec asks for it, so a model run never loads either.
 */
export async function runSpecified(spec: RunSpec, options: SpecifiedRunOptions = {}): Promise<Transcript> {
  const scenario = findScenario(spec.scenario);
  const settings = specSettings(spec);
  if (spec.impl === 'ts-sdk' || spec.impl === 'ts-sdk-v2') {
    if (scenario.kind !== 'request-race') throw new LabError('LAB025', `impl=${spec.impl} applies to the request races (A–D); ${scenario.id} is a ${scenario.kind} scenario. Nothing was run`);
    const sdkOptions = { transport: spec.transport, seed: spec.seed, settings, onStep: options.onStep };
    if (spec.impl === 'ts-sdk-v2') {
      const { runTsSdkV2Scenario } = await import('./tsSdkV2Race');
      return runTsSdkV2Scenario(scenario, sdkOptions);
    }
    const { runTsSdkScenario } = await import('./tsSdkRace');
    return runTsSdkScenario(scenario, sdkOptions);
  }
  const onStep = options.onStep;
  const trace = onStep === undefined ? undefined : { push() {}, pop: (atMs: number) => onStep(atMs) };
  return runScenario(scenario, { transport: spec.transport, seed: spec.seed, settings, ledger: options.ledger, trace });
}
