import { LabError, settingsSpecFor } from '../../engine';
import { findScenario } from '../../scenarios/index';
import { UsageError } from './shared';

/** The flags that name a run, shared by `run` and `explore` (node:util parseArgs options). */
export const RUN_FLAGS = {
  transport: { type: 'string' },
  seed: { type: 'string' },
  set: { type: 'string', multiple: true },
} as const;

/** `--set key=value` flags as a run's settings, as written (resolveRunParams judges them). */
function assignments(list: readonly string[]): Record<string, string> {
  // No prototype: `--set __proto__=1` names a setting like any other, and is refused as one.
  const settings = Object.create(null) as Record<string, string>;
  for (const assignment of list) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes key=value, got "${assignment}"`);
    settings[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  return settings;
}

/**
 * The run a command line names, as the text parameters every surface of the lab shares: the scenario,
 * `--transport`, `--seed`, `--impl` and each `--set` (a setting named like a run key is still refused
 * as a setting, LAB004, as before).
 */
export function runParams(
  id: string,
  values: { transport?: string; seed?: string; impl?: string; set?: string[]; schedule?: string; fault?: string[] },
): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  params.scenario = id;
  if (values.transport !== undefined) params.transport = values.transport;
  if (values.seed !== undefined) params.seed = values.seed;
  if (values.impl !== undefined) params.impl = values.impl;
  for (const [key, value] of Object.entries(assignments(values.set ?? []))) {
    if (Object.hasOwn(params, key) || key === 'schedule' || key === 'faults')
      throw new LabError(
        'LAB004',
        `"${key}" is not a setting of scenario ${id}; known settings: ${Object.keys(settingsSpecFor(findScenario(id))).join(', ')}`,
      );
    params[key] = value;
  }
  if (values.schedule !== undefined) params.schedule = values.schedule;
  if (values.fault !== undefined) params.faults = values.fault.join(',');
  return params;
}
