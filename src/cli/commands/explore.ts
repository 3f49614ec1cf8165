import { parseArgs } from 'node:util';
import {
  DEFAULT_EXPLORE_BOUND,
  Exploration,
  formatFaults,
  smallestFaultSets,
  usesSqlite,
  type ExploreProgress,
  type ExploreResult,
  type Settings,
} from '../../engine';
import { resolveRunParams } from '../../runs/runSpec';
import { findScenario } from '../../scenarios/index';
import { jsonForTerminal } from '../safeOutput';
import { loadSqlJs } from '../sqlite';
import { FAULT_FLAG, RUN_FLAGS, runParams } from './runFlags';
import { faultArgs, shortestLines } from './shortest';
import { formatDuration, PROGRESS_EVERY_MS, terminalWriter, UsageError, type Command } from './shared';

/** `lab explore`: every ordering of one scenario, its endings and any invariant it breaks. A violation is a finding, not a failure of the command: exit 0 either way; the output says which. */
export const explore: Command = async (args, io) => {
  io.out(`${await exploreText(args)}\n`);
  return 0;
};

async function exploreText(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ...RUN_FLAGS,
      bound: { type: 'string' },
      'no-reduction': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      ...FAULT_FLAG,
    },
  });
  if (positionals.length !== 1)
    throw new UsageError(`explore takes exactly one scenario id, got ${positionals.length}`);
  const { scenario, transport, settings, seed, faults } = resolveRunParams(
    runParams(positionals[0] as string, values),
    findScenario,
  );
  if (values.bound !== undefined && !/^[1-9]\d{0,8}$/.test(values.bound))
    throw new UsageError(`--bound takes a whole number of states from 1 to 999999999, got "${values.bound}"`);
  const bound = values.bound === undefined ? undefined : Number(values.bound);
  const ledger = usesSqlite(scenario) ? { sql: await loadSqlJs() } : undefined;
  const reduction = !values['no-reduction'];
  const given = values.seed === undefined ? undefined : seed;
  const options = { transport, settings, seed: given, bound, ledger, reduction, faults };
  const result = exploreReporting(
    new Exploration(scenario, options),
    scenario.id,
    terminalWriter(),
    undefined,
    bound ?? DEFAULT_EXPLORE_BOUND,
  );
  if (faults !== undefined) result.shortest = smallestFaultSets(scenario, { ...options, faults }, result);
  return values.json
    ? jsonForTerminal(result)
    : formatExploration(result, given, faults === undefined ? undefined : formatFaults(faults));
}

/** Below this share of the search explored, or this soon, an estimate of what is left says nothing. */
const ESTIMATE_FRACTION_MIN = 0.01;
const ESTIMATE_AFTER_MS = 4_000;

/**
 * What is left of an exploration, where its progress allows a guess: the share of the search tree's
 * first levels already explored extrapolated over the states and the time spent so far, and capped by
 * the bound. A rough figure (subtrees differ in size, and merged states are not run again), said so.
 */
export function estimateAhead(progress: ExploreProgress, elapsedMs: number, bound: number): string {
  if (progress.fraction < ESTIMATE_FRACTION_MIN || elapsedMs < ESTIMATE_AFTER_MS || progress.states === 0)
    return '; too early to estimate what is left';
  const total = progress.states / progress.fraction;
  const leftByShare = Math.max(0, total - progress.states);
  const leftByBound = Math.max(0, bound - progress.states);
  const ahead = Math.min(leftByShare, leftByBound);
  const timeAhead = (elapsedMs / progress.states) * ahead;
  const cut = leftByBound < leftByShare ? ', where the bound stops it' : '';
  return `; about ${Math.floor(progress.fraction * 100)}% explored, roughly ${Math.round(ahead).toLocaleString('en-US')} states (${formatDuration(timeAhead)}) ahead${cut}`;
}

/**
 * Runs an exploration to its end; when `write` is given (stderr is a terminal), a long one prints its
 * states, orderings and violations so far every 2 s, with an estimate of what is left, so a user can
 * tell progress from a hang (the herd at its defaults needs hours to reach the default bound) and stop
 * it with Ctrl-C.
 */
export function exploreReporting(
  exploration: Exploration,
  id: string,
  write: ((line: string) => void) | null,
  now: () => number = () => performance.now(),
  bound: number = DEFAULT_EXPLORE_BOUND,
): ExploreResult {
  const startedMs = now();
  let reportAtMs = startedMs + PROGRESS_EVERY_MS;
  let reported = false;
  while (!exploration.advance(64)) {
    if (write === null || now() < reportAtMs) continue;
    const atMs = now();
    reportAtMs = atMs + PROGRESS_EVERY_MS;
    const progress = exploration.progress();
    write(
      `\rexploring ${id}: ${progress.states.toLocaleString('en-US')} states, ${progress.schedules.toLocaleString('en-US')} orderings, ${progress.violations} violations so far in ${formatDuration(atMs - startedMs)}${estimateAhead(progress, atMs - startedMs, bound)} (Ctrl-C stops)\u001b[K`,
    );
    reported = true;
  }
  if (reported) write?.('\n');
  return exploration.result();
}

/**
 * The command that replays one ordering of an exploration, ready to paste: the scenario, its transport,
 * the seed when one was given, every setting that differs from the scenario's (a schedule is read
 * against the very run it came from) and the schedule.
 */
export function replayCommand(
  result: Pick<ExploreResult, 'scenario' | 'transport' | 'settings'>,
  schedule: string,
  seed?: number,
  faults?: string,
): string {
  const defaults: Settings = findScenario(result.scenario).settings;
  const sets = Object.entries(result.settings)
    .filter(([name, value]) => JSON.stringify(defaults[name]) !== JSON.stringify(value))
    .map(([name, value]) => ` --set ${name}=${value === null ? 'null' : String(value)}`)
    .join('');
  return `npm run lab -- run ${result.scenario} --transport ${result.transport}${seed === undefined ? '' : ` --seed ${seed}`}${sets}${faultArgs(faults)} --schedule ${schedule}`;
}

function formatExploration(result: ExploreResult, seed?: number, faults?: string): string {
  const lines = [
    `${result.scenario} on ${result.transport}: ${result.schedules.toLocaleString('en-US')} orderings, ${result.states.toLocaleString('en-US')} states${result.complete ? ', every ordering explored' : ' — NOT complete: the bound cut the exploration; raise --bound'}`,
    '',
    `endings (${result.endings.length}):`,
    ...result.endings.map(
      (ending) =>
        `  ${String(ending.count).padStart(8)}  ${JSON.stringify(ending.distinct)}\n            e.g. ${replayCommand(result, ending.schedule, seed, faults)}`,
    ),
    '',
  ];
  if (result.violations.length === 0) lines.push(`violations: ${result.verdict}`);
  else {
    lines.push(`violations: ${result.verdict}:`);
    for (const violation of result.violations)
      lines.push(
        `  ${violation.invariant} at event ${violation.step}: ${violation.explanation}\n    replay: ${replayCommand(result, violation.schedule, seed, faults)}`,
      );
  }
  lines.push(...shortestLines(result, (shortest) => replayCommand(result, shortest.schedule, seed, shortest.faults)));
  return lines.join('\n');
}
