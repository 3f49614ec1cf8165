import { LabError, settingsSpecFor } from '../../engine';
import { findScenario } from '../../scenarios/index';
import { UsageError } from './shared';

/** The flags that name a run, shared by `run` and `explore` (node:util parseArgs options). */
export const RUN_FLAGS = {
  transport: { type: 'string' },
  seed: { type: 'string' },
  set: { type: 'string', multiple: true },
} as const;

/** Faults on given messages (`--fault drop:7`), which `run` and `explore` both take. */
export const FAULT_FLAG = { fault: { type: 'string', multiple: true } } as const;

/** The flags only `run` takes: the implementation and an explored ordering to replay. */
export const REPLAY_FLAGS = { impl: { type: 'string' }, schedule: { type: 'string' } } as const;

/** What parseArgs gives for a table of flags: each absent or as written (a list for a repeatable one). */
type FlagValues<Flags> = { readonly [K in keyof Flags]?: Flags[K] extends { multiple: true } ? string[] : string };

/** Every flag that names a run: a new one is added to a table above and read in `runParams`, nowhere else. */
type RunFlagValues = FlagValues<typeof RUN_FLAGS & typeof FAULT_FLAG & typeof REPLAY_FLAGS>;

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
export function runParams(id: string, values: RunFlagValues): Record<string, string> {
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
