import { LabError } from './errors';
import type { SettingValue, Settings, Transport } from './transcript';

/**
 * Declarative settings: ranges, defaults and descriptions in one table, so the command line, the
 * URL and the worker boundary validate the same way and say the same thing when input is bad.
 */
export type SettingSpec = (
  | { kind: 'integer'; min: number; max: number; nullable?: boolean; unit?: string; description: string }
  | { kind: 'boolean'; description: string }
  | { kind: 'enum'; values: readonly string[]; description: string }
) & {
  /**
   * The one transport the setting acts on: a run on the other accepts and keeps it (the transcript and
   * the reproduce line hold every setting) but never reads it, so its timeline header leaves it out.
   */
  transport?: Transport;
};

export type SettingsSpec = Record<string, SettingSpec>;

/** The value type one spec admits: the static type comes from the same table as the runtime check. */
export type SettingValueOf<S extends SettingSpec> = S extends { kind: 'integer' }
  ? S extends { nullable: true }
    ? number | null
    : number
  : S extends { kind: 'boolean' }
    ? boolean
    : S extends { kind: 'enum'; values: readonly (infer V)[] }
      ? V
      : never;

/** A model's settings type, derived from its spec: no interface to keep in step by hand. */
export type SettingsOf<Spec extends SettingsSpec> = { -readonly [K in keyof Spec]: SettingValueOf<Spec[K]> };

/**
 * Settings every simulated transport shares, specified once (they drifted when each model wrote its
 * own). A model spreads the ones it uses into its spec.
 */
export const commonSettingsSpec = {
  latencyMs: {
    kind: 'integer',
    min: 0,
    max: 60_000,
    unit: 'ms',
    description: 'One-way latency of every message on the transport.',
  },
  latencyJitterMs: {
    kind: 'integer',
    min: 0,
    max: 10_000,
    unit: 'ms',
    description: 'Extra latency per message drawn from the seed; a channel keeps its order.',
  },
  eventsMax: {
    kind: 'integer',
    min: 10,
    max: 10_000_000,
    description: 'Bound on events in one run; reaching it is an error (LAB006).',
  },
} as const satisfies SettingsSpec;

function describeRange(spec: SettingSpec): string {
  switch (spec.kind) {
    case 'integer':
      return `an integer from ${spec.min} to ${spec.max}${spec.nullable ? ', or "none"' : ''}`;
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${spec.values.join(', ')}`;
  }
}

/** The refusal of a setting's value (a function, not a closure per check: every run checks every setting). */
function badSetting(key: string, spec: SettingSpec, value: unknown): LabError {
  return new LabError(
    'LAB005',
    `${key}=${JSON.stringify(value)} is not ${describeRange(spec)}; the other settings were kept`,
  );
}

/** Checks one value against its spec; throws LAB005 naming the setting and the allowed range. */
export function checkSetting(key: string, spec: SettingSpec, value: unknown): SettingValue {
  switch (spec.kind) {
    case 'integer':
      if (value === null && spec.nullable) return null;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max)
        throw badSetting(key, spec, value);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw badSetting(key, spec, value);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) throw badSetting(key, spec, value);
      return value;
  }
}

/** Parses a textual value (command line `--set k=v`, URL query) into the spec's type. */
export function parseSetting(key: string, spec: SettingSpec, text: string): SettingValue {
  const trimmed = text.trim();
  switch (spec.kind) {
    case 'integer': {
      if (spec.nullable && (trimmed === 'none' || trimmed === 'null')) return null;
      const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
      return checkSetting(key, spec, Number.isNaN(value) ? text : value);
    }
    case 'boolean':
      if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
      return checkSetting(key, spec, text);
    case 'enum':
      return checkSetting(key, spec, trimmed);
  }
}

/**
 * Resolves overrides over defaults. Unknown keys are refused (LAB004) with the list of known ones;
 * nothing is half-applied: either every override is valid or an error is thrown.
 */
export function resolveSettings(
  spec: SettingsSpec,
  defaults: Settings,
  overrides: Readonly<Record<string, unknown>>,
): Settings {
  const resolved: Settings = {};
  for (const key of Object.keys(spec)) {
    const fallback = defaults[key];
    if (fallback === undefined) throw new LabError('LAB004', `the scenario declares no default for "${key}"`);
    resolved[key] = fallback;
  }
  for (const [key, value] of Object.entries(overrides)) {
    const settingSpec = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (settingSpec === undefined)
      throw new LabError(
        'LAB004',
        `"${key}" is not a setting of this scenario; known settings: ${Object.keys(spec).join(', ')}`,
      );
    resolved[key] = checkSetting(key, settingSpec, value);
  }
  return resolved;
}

/** The settings a run on `transport` reads, in their order: a setting `spec` ties to the other transport is left out. */
export function settingsActingOn(
  settings: Settings,
  spec: SettingsSpec | null,
  transport: Transport,
): Array<[string, SettingValue]> {
  return Object.entries(settings).filter(([key]) => {
    const only = spec?.[key]?.transport;
    return only === undefined || only === transport;
  });
}
