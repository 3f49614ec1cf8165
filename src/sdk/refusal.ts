import { LabError, type Implementation, type Scenario } from '../engine';
import { IMPLEMENTATION_RUNS, SETTINGS_NOT_APPLIED_BY } from './version';

/**
 * Why the real SDK cannot run this: another kind of scenario, an ordering or faults, or a setting it
 * decides itself. The run spec (src/lab/runSpec.ts) and each SDK lane ask it, so it lives in the SDK
 * folder, which imports nothing of src/lab; apart from version.ts, which the page reads engine-free.
 */
export function sdkRefusal(scenario: Scenario, settings: Readonly<Record<string, unknown>>, replayed: boolean, keepSdkDecidedSettings: boolean, impl: Exclude<Implementation, 'model'> = 'ts-sdk'): LabError | null {
  const runs = IMPLEMENTATION_RUNS[impl];
  if (scenario.kind !== runs) return new LabError('LAB025', `${impl} runs ${runs === 'task' ? 'the durable-task scenarios (task-…)' : 'the request races (A–D)'}; ${scenario.id} is a ${scenario.kind} scenario. Nothing was run`);
  if (replayed) return new LabError('LAB025', `an explored ordering and faults apply to the lab's model; ${impl} orders its own work. Nothing was run`);
  if (keepSdkDecidedSettings) return null;
  const notApplied = SETTINGS_NOT_APPLIED_BY[impl];
  const decided = Object.keys(settings).find((key) => Object.hasOwn(notApplied, key));
  return decided === undefined ? null : new LabError('LAB025', `${decided} cannot be set with ${impl}: ${notApplied[decided]}. Nothing was run`);
}
