import { settingsSpecFor, type Settings, type SettingsSpec } from '../../engine';
import { findScenario, scenarios } from '../../scenarios/index';
import { UsageError, type Command } from './shared';

/** `settings [scenario]`: the settings --set accepts, with their ranges. */
export const settings: Command = async (args, io) => {
  if (args.length > 1) throw new UsageError('settings takes at most one scenario id');
  io.out(`${settingsHelp(args[0])}\n`);
  return 0;
};

/**
 * `settings <id>` lists that scenario's settings with its own defaults; without an id, each model's
 * settings once, naming the scenarios that share them. Columns are as wide as their widest cell.
 */
export function settingsHelp(id: string | undefined): string {
  if (id !== undefined) {
    const scenario = findScenario(id);
    const defaults: Settings = scenario.settings;
    return `settings of ${scenario.id} (--set key=value; the default is this scenario's):\n${describeSpec(settingsSpecFor(scenario), defaults)}`;
  }
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const scenario of scenarios) {
    if (seen.has(scenario.kind)) continue;
    seen.add(scenario.kind);
    const ids = scenarios
      .filter((s) => s.kind === scenario.kind)
      .map((s) => s.id)
      .join(', ');
    blocks.push(`settings of ${ids} (${scenario.kind}):\n${describeSpec(settingsSpecFor(scenario), null)}`);
  }
  return blocks.join('\n\n');
}

function describeSpec(spec: SettingsSpec, defaults: Record<string, unknown> | null): string {
  const rows = Object.entries(spec).map(([key, spec]) => {
    const range =
      spec.kind === 'integer'
        ? `${spec.min}..${spec.max}${'nullable' in spec && spec.nullable ? ' or none' : ''}`
        : spec.kind === 'boolean'
          ? 'true|false'
          : spec.values.join('|');
    const value = defaults === null ? null : defaults[key] === null ? 'none' : String(defaults[key]);
    return { key, range, value, description: spec.description };
  });
  const keyWidth = Math.max(...rows.map((row) => row.key.length));
  const rangeWidth = Math.max(...rows.map((row) => row.range.length));
  const valueWidth = Math.max(0, ...rows.map((row) => (row.value === null ? 0 : row.value.length)));
  const header =
    defaults === null
      ? []
      : [`  ${'key'.padEnd(keyWidth)}  ${'range'.padEnd(rangeWidth)}  ${'default'.padEnd(valueWidth)}  meaning`];
  return [
    ...header,
    ...rows.map(
      (row) =>
        `  ${row.key.padEnd(keyWidth)}  ${row.range.padEnd(rangeWidth)}  ${row.value === null ? '' : `${row.value.padEnd(valueWidth)}  `}${row.description}`,
    ),
  ].join('\n');
}
