import { parseFaults, type MessageFault } from '../engine/core/faults';
import { parseSchedule, type Choice } from '../engine/core/schedule';
import {
  FAULTS_CHARS_MAX,
  FAULTS_MAX,
  RUN_SPEC_CHARS_MAX,
  SCHEDULE_CHARS_MAX,
  SCHEDULE_CHOICES_MAX,
} from '../runs/runSpecLimits';
import type { RunSelection } from '../runs/runSpec';

/**
 * The page's link as the lab reads it, one reader for both sides: the page's store applies it
 * (src/store/url.ts writes it back), and the engine worker reads the same query when the built page
 * opens it early (the `open` request, host.ts), so both see the same run.
 */

/**
 * What a shared link asks for: the run's parameters and settings and the step as text (the worker
 * judges them), its ordering and faults parsed (read once, by readLink below).
 */
export interface LinkView {
  /** `scenario`, `transport`, `seed` and setting names, exactly as written in the link. */
  params: Record<string, string>;
  /** The `step` parameter, or null when the link has none (the view opens at the end of the run). */
  step: string | null;
  /** The `schedule` parameter, parsed: the explored ordering the link replays; absent: the seeded run. */
  schedule?: RunSelection['schedule'];
  /** The `faults` parameter, parsed: faults injected on given messages; absent: none. */
  faults?: RunSelection['faults'];
  /** What the link carried beyond a limit, each as the notice that says so; none of it is used. */
  refused?: readonly string[];
  /** How the page shows the run (tab, mode, Linear time, panel sliders): the page applies these, not the worker. */
  view?: Partial<Record<string, string>>;
}

/**
 * How the page shows the run, kept in the link too (the worker judges none of these; its early start
 * reads Linear time only, the axis it lays the link's run out on): the tab, the instructor mode, Linear
 * time (the run store's time scale) and every panel slider. Defaults are left out of the link.
 */
export const VIEW_PARAMS = [
  'tab',
  'instructor',
  'linear',
  'bufferCapacity',
  'herdBaseMs',
  'herdCapMs',
  'herdClients',
  'herdPolicy',
  'herdCompare',
  'runA',
  'runB',
  'runC',
  'compareMs',
] as const;
export type ViewParam = (typeof VIEW_PARAMS)[number];

/** The query parameters that are not settings; no scenario may name a setting after one of them. */
export const RESERVED_PARAMS = [
  'scenario',
  'transport',
  'seed',
  'impl',
  'step',
  'schedule',
  'faults',
  ...VIEW_PARAMS,
] as const;

/** A limit on what a link may carry (a limit on everything): longer values are not read. */
const PARAM_CHARS_MAX = 200;
const PARAMS_MAX = 64;

/** How much of each of a run's long texts a run takes: characters as written, values once parsed. */
const REPLAY_LIMITS = {
  schedule: { charsMax: SCHEDULE_CHARS_MAX, countMax: SCHEDULE_CHOICES_MAX, unit: 'choices' },
  faults: { charsMax: FAULTS_CHARS_MAX, countMax: FAULTS_MAX, unit: 'faults' },
} as const;

/**
 * A run's long text, read whole up to the length a run reads and parsed with its grammar: one longer,
 * one the grammar refuses, or one of more choices or faults than the worker's run request takes is
 * refused here with a notice (a cut ordering would replay another ordering, and a value the worker
 * refuses would leave the page with no run).
 */
function replayValue<T>(
  name: keyof typeof REPLAY_LIMITS,
  value: string,
  refused: string[],
  parse: (text: string) => T[],
): T[] | null {
  const { charsMax, countMax, unit } = REPLAY_LIMITS[name];
  const count = (n: number) => n.toLocaleString('en');
  if (value.length > charsMax) {
    refused.push(
      `The link's ${name} is ${count(value.length)} characters, more than a run reads (${count(charsMax)}); it was not used.`,
    );
    return null;
  }
  let parsed: T[];
  try {
    parsed = parse(value);
  } catch (error) {
    // The grammar's own message (LAB022, LAB023) says what is wrong.
    refused.push(
      `The link's ${name}=${value} was not used: ${error instanceof Error ? error.message : String(error)}.`,
    );
    return null;
  }
  if (parsed.length <= countMax) return parsed;
  refused.push(
    `The link's ${name} has ${count(parsed.length)} ${unit}, more than a run takes (${count(countMax)}); it was not used.`,
  );
  return null;
}

/** The link a page was opened with; null when its query holds nothing the lab reads. */
export function readLink(search: string): LinkView | null {
  const query = new URLSearchParams(search);
  // No prototype: `constructor` or `__proto__` in a link are parameters like any other (the worker refuses them).
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const view: Partial<Record<ViewParam, string>> = {};
  let step: string | null = null;
  let schedule: Choice[] | null = null;
  let faults: MessageFault[] | null = null;
  const longSeen = new Set<string>();
  const refused: string[] = [];
  let count = 0;
  for (const [name, value] of query) {
    if (count++ >= PARAMS_MAX) break;
    const text = value.length > PARAM_CHARS_MAX ? `${value.slice(0, PARAM_CHARS_MAX)}…` : value;
    if (name === 'step') step ??= text;
    // An ordering's schedule and the faults may be long: each is read whole or refused, never cut.
    else if (name === 'schedule' || name === 'faults') {
      // The first one counts, as for every parameter.
      if (longSeen.has(name)) continue;
      longSeen.add(name);
      if (name === 'schedule') schedule = replayValue(name, value, refused, parseSchedule);
      else faults = replayValue(name, value, refused, parseFaults);
    }
    // Compare's runs are run specs: read up to the length a run spec may have, so the parser judges them whole.
    else if (name === 'runA' || name === 'runB' || name === 'runC')
      view[name] ??= value.length > RUN_SPEC_CHARS_MAX ? `${value.slice(0, RUN_SPEC_CHARS_MAX)}…` : value;
    else if ((VIEW_PARAMS as readonly string[]).includes(name)) view[name as ViewParam] ??= text;
    else if (!Object.hasOwn(params, name)) params[name] = text;
  }
  if (
    Object.keys(params).length === 0 &&
    step === null &&
    schedule === null &&
    faults === null &&
    refused.length === 0 &&
    Object.keys(view).length === 0
  )
    return null;
  const link: LinkView = {
    params: { ...params },
    step,
    ...(schedule === null ? {} : { schedule }),
    ...(faults === null ? {} : { faults }),
    ...(refused.length === 0 ? {} : { refused }),
  };
  return Object.keys(view).length === 0 ? link : { ...link, view };
}
