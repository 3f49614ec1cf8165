import {
  checkSeed,
  checkTransport,
  DEFAULT_SEED,
  IMPLEMENTATIONS,
  LabError,
  parseFaults,
  parseSchedule,
  checkSetting,
  parseSetting,
  settingsSpecFor,
  type Choice,
  type Implementation,
  type MessageFault,
  type Scenario,
  type SettingSpec,
  type SettingValue,
  type Settings,
  type Transport,
} from '../engine';
import { sdkRefusal } from '../sdk/refusal';
import { RUN_SPEC_CHARS_MAX } from './runSpecLimits';

export { IMPLEMENTATIONS, RUN_SPEC_CHARS_MAX };

/**
 * Which run: the one description the command line's flags, the page's link, Compare's run specs and the
 * worker's run request are all read into. Settings are kept as written (`none` for null);
 * `resolveRunParams` is the one place that judges a run against its scenario, so a new run dimension is
 * added here and nowhere else. Written (the edges: a flag, a link, a run spec) its settings, ordering
 * and faults are text; the page's selection holds the same fields typed and parsed.
 */
export interface RunSpec<Value = string, Schedule = string, Faults = string> {
  readonly scenario: string;
  readonly impl: Implementation;
  readonly transport?: Transport;
  readonly seed?: number;
  /** Settings as written (`none` for null), in the order given; typed (`RunSelection`) once the worker judged them. */
  readonly settings: Readonly<Record<string, Value>>;
  /** An explored ordering to replay (`c1.j10`; parsed: `parseSchedule`); absent: the seeded run. */
  readonly schedule?: Schedule;
  /** Faults on given messages (`drop:7,delay:9:300`; parsed: `parseFaults`, one per message, ordered by seq); absent: none. */
  readonly faults?: Faults;
}

/**
 * The run spec the page selects and sends: settings typed, transport and seed filled in (the worker
 * judged them when it resolved the link, and judges them again when it runs), the ordering and the
 * faults parsed (the link's text is read once, src/store/url.ts). The page's store holds one of these
 * as its selection, and the engine worker's run and explore requests carry its fields.
 */
export type RunSelection = RunSpec<SettingValue, readonly Choice[], readonly MessageFault[]> & {
  readonly transport: Transport;
  readonly seed: number;
};

/**
 * A run judged against its scenario: every value checked and typed, transport and seed filled in, the
 * ordering and the faults parsed. Past the edges a run is this value; `runResolved` (runs.ts) hands it
 * to the engine, whose run options take its fields as they are.
 */
export interface ResolvedRunSpec {
  readonly scenario: Scenario;
  readonly impl: Implementation;
  readonly transport: Transport;
  readonly seed: number;
  /** The settings given, typed (the scenario's defaults are not copied in). */
  readonly settings: Settings;
  /** The explored ordering it replays, parsed (`parseSchedule`); absent: the seeded run. */
  readonly schedule?: readonly Choice[];
  /** The faults it injects, parsed (`parseFaults`, ordered by seq); absent: none. */
  readonly faults?: readonly MessageFault[];
}

/** One refused value of a lenient resolve: the parameter, what it said, and the engine's error. */
export interface RunSpecProblem {
  param: string;
  value: string;
  code: string;
  message: string;
}

/** The run-spec keys that are not settings (a scenario names no setting after one of them). */
export const RUN_SPEC_KEYS = ['impl', 'transport', 'seed', 'schedule', 'faults'] as const;

const isRunSpecKey = (name: string): boolean =>
  name === 'scenario' || (RUN_SPEC_KEYS as readonly string[]).includes(name);

export const isImplementation = (value: string): value is Implementation =>
  (IMPLEMENTATIONS as readonly string[]).includes(value);

/** `model, ts-sdk or ts-sdk-v2`: the implementations as an error message offers them, from the one list. */
export const IMPLEMENTATION_CHOICES = `${IMPLEMENTATIONS.slice(0, -1).join(', ')} or ${IMPLEMENTATIONS.at(-1)}`;

/** A seed as written: plain decimal digits are a number; anything else ("1e3", "0x10", "") is refused as written. */
function seedOf(text: string): number {
  const trimmed = text.trim();
  return checkSeed(/^-?\d+$/.test(trimmed) ? Number(trimmed) : text);
}

function judgeImpl(text: string): Implementation {
  if (!isImplementation(text))
    throw new LabError('LAB025', `"${text}" is not an implementation; use ${IMPLEMENTATION_CHOICES}`);
  return text;
}

/** A record without a prototype: `__proto__` or `constructor` in a link or a flag is a key like any other (and refused as a setting). */
function bare<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export interface ResolveOptions {
  /**
   * Lenient (the page's link): each refused value is pushed here and its default kept, so a tampered
   * link still opens. Absent (the command line, Compare, the worker's request): the first refusal is thrown.
   */
  readonly problems?: RunSpecProblem[];
  /** The scenario a lenient resolve falls back to when the spec names none that exists. */
  readonly fallback?: Scenario;
  /**
   * The page's selection keeps the settings the SDK decides for itself (they stay the user's for the
   * model and are not sent with ts-sdk): there they do not refuse the implementation.
   */
  readonly keepSdkDecidedSettings?: boolean;
  /**
   * A surface's own checks that read the judged run and come before its ordering and faults are
   * judged (the command line's flag combinations: `--ledger` on a scenario without one, `--schedule`
   * with an SDK). Given, the implementation is first judged against the run without its replay, so
   * what refuses the run itself is told before them. Strict resolves only.
   */
  readonly beforeReplay?: (run: ResolvedRunSpec) => void;
  /**
   * The ordering and the faults already parsed (the worker's run request carries them as values, not
   * text): judged in their place in the order, in the stead of the params' `schedule` and `faults`.
   */
  readonly replay?: Pick<ResolvedRunSpec, 'schedule' | 'faults'>;
  /**
   * The settings already typed (the worker's run request carries them as values, not text): judged by
   * the same checks in their place in the order, in the stead of the params' settings. Strict only.
   */
  readonly settings?: Readonly<Settings>;
}

/**
 * Judges a run written as text parameters (`scenario`, `transport`, `seed`, `impl`, `schedule`,
 * `faults`, every other name a setting), in this order: the scenario exists (LAB001), the transport
 * (LAB002), the seed (LAB003), the implementation's name (LAB025), every setting (LAB004, LAB005), an
 * ordering's and the faults' syntax (LAB022, LAB023), and whether the implementation applies to the
 * rest (LAB025). The one place these are decided; whether an ordering or a fault fits the run is known
 * only as it runs, and the SDK's own run reports LAB026.
 */
export function resolveRunParams(
  params: Readonly<Record<string, string>>,
  find: (id: string) => Scenario,
  options: ResolveOptions = {},
): ResolvedRunSpec {
  const { problems } = options;
  const attempt = <T>(param: string, check: (text: string) => T): T | undefined => {
    const text = Object.hasOwn(params, param) ? params[param] : undefined;
    if (text === undefined) return undefined;
    try {
      return check(text);
    } catch (error) {
      if (!(error instanceof LabError) || problems === undefined) throw error;
      problems.push({ param, value: text, code: error.code, message: error.message });
      return undefined;
    }
  };
  const scenario = attempt('scenario', find) ?? options.fallback;
  if (scenario === undefined) throw new Error('a run names its scenario, or a lenient resolve gives a fallback');
  const transport = attempt('transport', checkTransport) ?? scenario.defaultTransport;
  const seed = attempt('seed', seedOf) ?? DEFAULT_SEED;
  let impl = attempt('impl', judgeImpl) ?? 'model';
  const known = settingsSpecFor(scenario);
  const settings: Settings = bare<SettingValue>();
  const judgeSetting = (name: string, judge: (spec: SettingSpec) => SettingValue): SettingValue => {
    // Own keys only: `constructor` or `__proto__` are not settings however a link spells them.
    const spec = Object.hasOwn(known, name) ? known[name] : undefined;
    if (spec === undefined)
      throw new LabError(
        'LAB004',
        `"${name}" is not a setting of scenario ${scenario.id}; known settings: ${Object.keys(known).join(', ')}`,
      );
    return judge(spec);
  };
  if (options.settings === undefined) {
    for (const name of Object.keys(params)) {
      if (isRunSpecKey(name)) continue;
      const value = attempt(name, (text) => judgeSetting(name, (spec) => parseSetting(name, spec, text)));
      if (value !== undefined) settings[name] = value;
    }
  } else {
    if (problems !== undefined) throw new Error('typed settings are judged strictly: a lenient resolve reads text');
    for (const [name, value] of Object.entries(options.settings))
      if (!isRunSpecKey(name)) settings[name] = judgeSetting(name, (spec) => checkSetting(name, spec, value));
  }
  const judgeSdk = (replayed: boolean) => {
    if (impl === 'model') return;
    const sdk = impl;
    const kept = attempt('impl', (text) => {
      const refusal = sdkRefusal(scenario, settings, replayed, options.keepSdkDecidedSettings === true, sdk, transport);
      if (refusal !== null) throw refusal;
      return text;
    });
    if (kept === undefined) impl = 'model';
  };
  if (options.beforeReplay !== undefined) {
    judgeSdk(false);
    options.beforeReplay({ scenario, impl, transport, seed, settings });
  }
  const { replay } = options;
  const schedule = replay === undefined ? attempt('schedule', parseSchedule) : replay.schedule;
  const faults = replay === undefined ? attempt('faults', parseFaults) : replay.faults;
  judgeSdk(schedule !== undefined || faults !== undefined);
  return {
    scenario,
    impl,
    transport,
    seed,
    settings,
    ...(schedule === undefined ? {} : { schedule }),
    ...(faults === undefined ? {} : { faults }),
  };
}

/** A run spec as text parameters (what a link carries). */
export function runSpecParams(spec: RunSpec): Record<string, string> {
  const params = bare<string>();
  params.scenario = spec.scenario;
  if (spec.impl !== 'model') params.impl = spec.impl;
  if (spec.transport !== undefined) params.transport = spec.transport;
  if (spec.seed !== undefined) params.seed = String(spec.seed);
  for (const [key, value] of Object.entries(spec.settings)) if (!isRunSpecKey(key)) params[key] = value;
  if (spec.schedule !== undefined) params.schedule = spec.schedule;
  if (spec.faults !== undefined) params.faults = spec.faults;
  return params;
}

/** Judges a run spec (see resolveRunParams). */
export function resolveRunSpec(
  spec: RunSpec,
  find: (id: string) => Scenario,
  options: ResolveOptions = {},
): ResolvedRunSpec {
  return resolveRunParams(runSpecParams(spec), find, options);
}

/**
 * `<scenario>[:key=value,…]`, the run spec in one word (`lab compare`, the page's Compare tab), where the
 * keys are `impl` (model | ts-sdk | ts-sdk-v2), `transport` (stdio | http), `seed`, `schedule`, `faults` (its commas
 * written `+`) and any setting of the scenario: `C:impl=ts-sdk,transport=http,seed=2`.
 */
export function parseRunSpec(text: string): RunSpec {
  const bad = (why: string): LabError =>
    new LabError(
      'LAB024',
      `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}": ${why}. Write <scenario>[:key=value,…], e.g. C:impl=ts-sdk,transport=http,seed=2`,
    );
  if (text.length === 0 || text.length > RUN_SPEC_CHARS_MAX)
    throw bad(`a run spec has 1 to ${RUN_SPEC_CHARS_MAX} characters`);
  const colon = text.indexOf(':');
  const scenario = colon < 0 ? text : text.slice(0, colon);
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(scenario)) throw bad('it must start with a scenario id');
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  if (colon >= 0 && rest.length === 0) throw bad('nothing follows the colon');
  const given = bare<string>();
  for (const pair of rest.length === 0 ? [] : rest.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw bad(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (Object.hasOwn(given, key)) throw bad(`${key} is given twice`);
    if (key === 'impl' && !isImplementation(value)) throw bad(`impl is ${IMPLEMENTATION_CHOICES}, not "${value}"`);
    if (!isRunSpecKey(key) && !/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw bad(`"${key}" is not a setting name`);
    given[key] = key === 'faults' ? value.replaceAll('+', ',') : value;
  }
  const settings = bare<string>();
  for (const [key, value] of Object.entries(given)) if (!isRunSpecKey(key)) settings[key] = value;
  return {
    scenario,
    impl: given.impl === undefined ? 'model' : judgeImpl(given.impl),
    ...(given.transport === undefined ? {} : { transport: checkTransport(given.transport) }),
    ...(given.seed === undefined ? {} : { seed: seedOf(given.seed) }),
    settings,
    ...(given.schedule === undefined ? {} : { schedule: given.schedule }),
    ...(given.faults === undefined ? {} : { faults: given.faults }),
  };
}

/** The run spec's text: `parseRunSpec(formatRunSpec(spec))` gives `spec` back. */
export function formatRunSpec(spec: RunSpec): string {
  const pairs: string[] = [];
  if (spec.impl !== 'model') pairs.push(`impl=${spec.impl}`);
  if (spec.transport !== undefined) pairs.push(`transport=${spec.transport}`);
  if (spec.seed !== undefined) pairs.push(`seed=${spec.seed}`);
  for (const [key, value] of Object.entries(spec.settings)) if (!isRunSpecKey(key)) pairs.push(`${key}=${value}`);
  if (spec.schedule !== undefined) pairs.push(`schedule=${spec.schedule}`);
  if (spec.faults !== undefined) pairs.push(`faults=${spec.faults.replaceAll(',', '+')}`);
  return pairs.length === 0 ? spec.scenario : `${spec.scenario}:${pairs.join(',')}`;
}
