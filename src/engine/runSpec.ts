import { LabError } from './core/errors';
import { checkSeed, checkTransport } from './core/model';
import type { Transport } from './core/transcript';
import type { Implementation } from './transcript';

/**
 * One run named in one word (issue #13), for `lab compare` and the page's compare view:
 * `<scenario>[:key=value,key=value…]`, where the keys are `impl` (model | ts-sdk | ts-sdk-v2), `transport`
 * (stdio | http), `seed`, and any setting of the scenario. `C:impl=ts-sdk,transport=http,seed=2`.
 * Setting values stay text here; the scenario's settings spec parses them where it is known.
 */
export interface RunSpec {
  readonly scenario: string;
  readonly impl: Implementation;
  readonly transport?: Transport;
  readonly seed?: number;
  /** Settings as written (`none` for null), in the order given. */
  readonly settings: Readonly<Record<string, string>>;
}

/** How long a run spec may be: it travels in the page's address. */
export const RUN_SPEC_CHARS_MAX = 2_000;

const RESERVED = new Set(['impl', 'transport', 'seed']);

export function parseRunSpec(text: string): RunSpec {
  const bad = (why: string): LabError => new LabError('LAB024', `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}": ${why}. Write <scenario>[:key=value,…], e.g. C:impl=ts-sdk,transport=http,seed=2`);
  if (text.length === 0 || text.length > RUN_SPEC_CHARS_MAX) throw bad(`a run spec has 1 to ${RUN_SPEC_CHARS_MAX} characters`);
  const colon = text.indexOf(':');
  const scenario = colon < 0 ? text : text.slice(0, colon);
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(scenario)) throw bad('it must start with a scenario id');
  let impl: Implementation = 'model';
  let transport: Transport | undefined;
  let seed: number | undefined;
  const settings: Record<string, string> = {};
  const seen = new Set<string>();
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  if (colon >= 0 && rest.length === 0) throw bad('nothing follows the colon');
  for (const pair of rest.length === 0 ? [] : rest.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw bad(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (seen.has(key)) throw bad(`${key} is given twice`);
    seen.add(key);
    if (key === 'impl') {
      if (value !== 'model' && value !== 'ts-sdk' && value !== 'ts-sdk-v2') throw bad(`impl is model, ts-sdk or ts-sdk-v2, not "${value}"`);
      impl = value;
    } else if (key === 'transport') {
      transport = checkTransport(value);
    } else if (key === 'seed') {
      seed = checkSeed(/^\d+$/.test(value) ? Number(value) : value);
    } else {
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw bad(`"${key}" is not a setting name`);
      settings[key] = value;
    }
  }
  return { scenario, impl, ...(transport === undefined ? {} : { transport }), ...(seed === undefined ? {} : { seed }), settings };
}

/** The run spec's text: `parseRunSpec(formatRunSpec(spec))` gives `spec` back. */
export function formatRunSpec(spec: RunSpec): string {
  const pairs: string[] = [];
  if (spec.impl !== 'model') pairs.push(`impl=${spec.impl}`);
  if (spec.transport !== undefined) pairs.push(`transport=${spec.transport}`);
  if (spec.seed !== undefined) pairs.push(`seed=${spec.seed}`);
  for (const [key, value] of Object.entries(spec.settings)) if (!RESERVED.has(key)) pairs.push(`${key}=${value}`);
  return pairs.length === 0 ? spec.scenario : `${spec.scenario}:${pairs.join(',')}`;
}
