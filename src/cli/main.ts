import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { LedgerHost } from '../engine';
import { loadSqlJs } from './sqlite';
import { readBounded } from './boundedRead';
import { runText } from './runText';
import { openLedgerFile } from './ledgerFile';
import { commandBudget, RUN_BUDGET_MS, wallClockBudget } from './runBudget';
import {
  checkOutputFolder,
  checkParentFolder,
  escapeControl,
  escapeDeep,
  escapeLines,
  jsonForTerminal,
  writeOutputFolder,
} from './safeOutput';
import { LedgerFile } from '../engine';
import { retryTable } from '../engine';
import { verify, type Runner } from '../lab/verification';
import { checkFailureModes } from '../lab/failureModes';
import { runCommand } from '../lab/failureCards';
import { buildEvidence } from '../lab/evidence';
import { formatReview } from '../lab/reviewer';
import { REVIEW_INPUT_CHARS_MAX, reviewText } from '../lab/reviewLimits';
import { buildSkill, SKILL_NAME } from '../lab/skill';
import { requirementDocLink, REQUIREMENTS_DOC } from '../lab/requirements';
import { LabError } from '../engine';
import {
  DEFAULT_EXPLORE_BOUND,
  Exploration,
  runScenario,
  settingsSpecFor,
  usesSqlite,
  type ExploreProgress,
  type ExploreResult,
} from '../engine';
import type { Settings, SettingsSpec } from '../engine';
import { findScenario, scenarios } from '../scenarios/index';
import { findKnownBug, KNOWN_BUGS, type KnownBug } from '../gallery/knownBugs';
import { EXT_TASKS_VERSION, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from '../sdk/version';
import { runResolved } from '../lab/runs';
import { PROBE_HELP, PROBE_USAGE, probeCommand } from './probeCommand';
import {
  formatRunSpec,
  IMPLEMENTATION_CHOICES,
  isImplementation,
  parseRunSpec,
  resolveRunParams,
  resolveRunSpec,
} from '../lab/runSpec';
import { compareMany, compareRuns, COMPARED_RUNS_MAX, PROTOCOL_VERSION, type Transcript } from '../engine';
import { smallestFaultSets, withLanes } from '../engine';
import { faultArgs, shortestLines } from './shortest';
import { EXERCISE_HELP, EXERCISE_USAGE, ExerciseUsageError, exerciseCommand } from './exercise';

/** The command-line runner over the same engine the worker runs: `npm run lab -- <command>`. */
const USAGE = `usage:
  npm run lab -- list
  npm run lab -- run <scenario> [--impl model|ts-sdk|ts-sdk-v2|ext-tasks] [--transport stdio|http] [--seed N] [--set key=value ...] [--schedule S] [--fault F ...] [--json] [--ledger FILE] [--budget-ms N]
  npm run lab -- explore <scenario> [--transport stdio|http] [--seed N] [--set key=value ...] [--bound N] [--no-reduction] [--fault F ...] [--json]
  npm run lab -- compare <runA> <runB> [<runC>] [--json] [--budget-ms N]
  npm run lab -- settings [scenario]
  npm run lab -- retries
  npm run lab -- verify
  npm run lab -- evidence --out DIR [--force]
  npm run lab -- review FILE.json
  npm run lab -- skill --out DIR [--force]
${PROBE_USAGE}
${EXERCISE_USAGE}

  list       the scenarios, with the requirement ids each demonstrates (defined in docs/requirements.md),
             then the known bugs: defects of real MCP packages, each run on the package with lab run <bug id>
  run        run one scenario and print its transcript (a readable timeline; the JSON with --json)
             --ledger FILE (ledger and task scenarios): open the SQLite ledger in FILE, or create it, and save it back
             --budget-ms N: stop the run after N ms of wall-clock time (default 60000)
             --impl ts-sdk (A–D): run the real @modelcontextprotocol/sdk ${TS_SDK_VERSION} Client and Server on the virtual clock
               instead of the lab's spec model (--impl model, the default); it speaks protocol ${TS_SDK_PROTOCOL_VERSION}
             --impl ext-tasks (task-…): the tasks extension's own package, @modelcontextprotocol/ext-tasks ${EXT_TASKS_VERSION},
               as the client of the task scenarios (docs/ext-tasks.md)
             --schedule S: replay exactly the ordering S that explore printed (same transcript every time)
             --fault F: inject a fault on the message whose event has seq SEQ: drop:SEQ, delay:SEQ:MS,
             duplicate:SEQ, stream-drop:SEQ or crash:SEQ (ledger: the server crashes after COMMIT, before
             response SEQ leaves, and restarts from its SQLite file); the transcript records them
             (--schedule and --fault apply to the lab's model, not to --impl ts-sdk)
  explore    run the scenario in every ordering the network allows (same-instant choices, every order of
             arrivals the latency range permits, each channel FIFO), check the invariants after every step,
             and print the orderings, the distinct endings and any violation with a schedule that replays it
             --bound N: visit at most N states (default ${DEFAULT_EXPLORE_BOUND}); a cut exploration says "complete": false
             --no-reduction: run every order of independent same-instant events too (the partial-order
             reduction off: same endings and violations, more states); --seed N: the runs' seed
             --fault F: explore with the faults of run --fault; per broken invariant, the smallest set of them that
             still breaks it (delta debugging) and the shortest ordering with it, each with its replay line
  compare    two runs side by side: the facts of both (differences marked *) and the first event where they part
             a run is <scenario>[:key=value,…] with keys impl (model|ts-sdk|ts-sdk-v2|ext-tasks), transport (stdio|http), seed and any setting:
               npm run lab -- compare C C:impl=ts-sdk            the spec model against the real SDK
               npm run lab -- compare D D:transport=stdio        Streamable HTTP against stdio
               npm run lab -- compare C:seed=1,latencyJitterMs=20 C:seed=2,latencyJitterMs=20
  verify     VF-1 … VF-12 and RC-7, RC-8, RC-9, BF-5, LG-P5, each computed from the scenarios' transcripts (exit 1 if one fails)
  evidence   write the lab's evidence (JSON + README.md + the reviewer skill) into DIR; same lab, same bytes
             DIR must be new or empty; --force replaces the lab's files in a folder that holds others
  review     the reliability reviewer: race table, retry class, idempotency boundary, flow control, failure cards
  skill      write the reviewer as a skill folder, DIR/${SKILL_NAME}/ (SKILL.md, input schema, two worked examples)
             --out folders must be new or empty; --force replaces the lab's files in a folder that holds others
${PROBE_HELP}
${EXERCISE_HELP}
  retries    the retry classification of every exposed operation (RT)
  settings   the settings --set accepts (for one scenario, or all), with their ranges`;

class UsageError extends Error {}

function list(): string {
  const width = Math.max(...scenarios.map((s) => s.id.length), ...KNOWN_BUGS.map((b) => b.id.length));
  const scenarioLines = scenarios
    .map(
      (s) =>
        `${s.id.padEnd(width)}  ${s.title}\n${' '.repeat(width + 2)}${s.topic}; default transport ${s.defaultTransport}; demonstrates ${s.requirements.join(', ')}`,
    )
    .join('\n');
  const bugLines = KNOWN_BUGS.map(
    (b) =>
      `${b.id.padEnd(width)}  ${b.title}\n${' '.repeat(width + 2)}${b.packages.map((p) => `${p.name} ${p.version}`).join(', ')}; upstream ${b.upstream[0]?.ref ?? 'none on record'}`,
  ).join('\n');
  return `${scenarioLines}\n\nKnown bugs (real packages, run with lab run <id>):\n${bugLines}`;
}

/** `run <bug id>`: the known-bugs entry on its real package, its references and its timelines. */
async function runBug(bug: KnownBug, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { 'budget-ms': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError(`run takes exactly one scenario id, got ${positionals.length}`);
  const budgetText = values['budget-ms'];
  if (budgetText !== undefined && !/^[1-9]\d{0,8}$/.test(budgetText))
    throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${budgetText}"`);
  const budget = commandBudget(budgetText === undefined ? RUN_BUDGET_MS : Number(budgetText));
  const trace = budget.trace();
  const { runKnownBug, formatKnownBug } = await import('../gallery/runKnownBug');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const result = await runKnownBug(bug, {
    onStep: (atMs) => trace.pop(atMs, 0),
    readFixture: (path) => readFileSync(join(root, path)),
  });
  return formatKnownBug(result);
}

function retries(): string {
  return retryTable()
    .map(
      (row) =>
        `${row.operation.padEnd(24)} ${row.retryClass.padEnd(12)} ${row.rule}${row.hintWarnings.map((w) => `\n${' '.repeat(38)}! ${w}`).join('')}`,
    )
    .join('\n');
}

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
function runParams(
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

/** `lab explore`: every ordering of one scenario, its endings and any invariant it breaks. */
async function exploreCommand(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      transport: { type: 'string' },
      set: { type: 'string', multiple: true },
      seed: { type: 'string' },
      bound: { type: 'string' },
      'no-reduction': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      fault: { type: 'string', multiple: true },
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
  return values.json ? jsonForTerminal(result) : formatExploration(result, given, faults);
}

/** How often a long exploration says how far it got (on a terminal only: piped output stays the result alone). */
const EXPLORE_PROGRESS_EVERY_MS = 2_000;
/** Below this share of the search explored, or this soon, an estimate of what is left says nothing. */
const ESTIMATE_FRACTION_MIN = 0.01;
const ESTIMATE_AFTER_MS = 4_000;

/** A wall-clock span as a person reads it: `850 ms`, `12.3 s`, `4 min 58 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

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
  let reportAtMs = startedMs + EXPLORE_PROGRESS_EVERY_MS;
  let reported = false;
  while (!exploration.advance(64)) {
    if (write === null || now() < reportAtMs) continue;
    const atMs = now();
    reportAtMs = atMs + EXPLORE_PROGRESS_EVERY_MS;
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

async function run(args: string[]): Promise<string> {
  const bug = findKnownBug(args.find((arg) => !arg.startsWith('-')) ?? '');
  if (bug !== undefined) return runBug(bug, args);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      transport: { type: 'string' },
      seed: { type: 'string' },
      set: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      ledger: { type: 'string' },
      'budget-ms': { type: 'string' },
      impl: { type: 'string' },
      schedule: { type: 'string' },
      fault: { type: 'string', multiple: true },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`run takes exactly one scenario id, got ${positionals.length}`);
  const impl = values.impl ?? 'model';
  if (!isImplementation(impl)) throw new UsageError(`--impl takes ${IMPLEMENTATION_CHOICES}, got "${values.impl}"`);
  const params = runParams(positionals[0] as string, values);
  // The run is judged before the command line's own combinations; the replay (ordering, faults) after them.
  const { schedule: _schedule, faults: _faults, ...unreplayed } = params;
  const { scenario } = resolveRunParams(unreplayed, findScenario);
  if (values.ledger !== undefined && !usesSqlite(scenario))
    throw new UsageError(
      `--ledger applies to ledger and task scenarios; ${scenario.id} is a ${scenario.kind} scenario`,
    );
  const budgetText = values['budget-ms'];
  if (budgetText !== undefined && !/^[1-9]\d{0,8}$/.test(budgetText))
    throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${budgetText}"`);
  if (impl !== 'model') {
    if (values.ledger !== undefined) throw new UsageError(`--ledger does not apply to --impl ${impl}`);
    if (values.schedule !== undefined || values.fault !== undefined)
      throw new UsageError(
        `--schedule and --fault apply to the lab's model, not to --impl ${impl} (the SDK orders its own work)`,
      );
  }
  const resolved = resolveRunParams(params, findScenario);
  const trace = wallClockBudget(budgetText === undefined ? RUN_BUDGET_MS : Number(budgetText));
  const onStep = (atMs: number) => trace.pop(atMs, 0);
  // Loaded only for an SDK (runResolved imports it then): every other command runs without them.
  const transcript =
    resolved.impl !== 'model'
      ? await runResolved(resolved, { onStep })
      : await runWithLedgerFile(values.ledger, (ledger) =>
          runScenario(scenario, {
            transport: resolved.transport,
            seed: resolved.seed,
            settings: resolved.settings,
            trace,
            ledger: usesSqlite(scenario) ? ledger : undefined,
            schedule: resolved.schedule,
            faults: resolved.faults,
          }),
        );
  return values.json ? jsonForTerminal(withLanes(transcript)) : runText(scenario, transcript);
}

/** `compare <runA> <runB> [<runC>]`: the runs' facts, the differing ones marked, and where their events first part (each pair, for three). */
async function compare(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean', default: false }, 'budget-ms': { type: 'string' } },
  });
  if (positionals.length < 2 || positionals.length > COMPARED_RUNS_MAX)
    throw new UsageError(`compare takes two or three runs, got ${positionals.length}`);
  const budgetText = values['budget-ms'];
  if (budgetText !== undefined && !/^[1-9]\d{0,8}$/.test(budgetText))
    throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${budgetText}"`);
  const specs = positionals.map((text) => parseRunSpec(text));
  // Both are checked before either runs: a typo in the second costs no run of the first.
  const runs = specs.map((spec) => resolveRunSpec(spec, findScenario));
  const sql = await loadSqlJs();
  const budget = commandBudget(budgetText === undefined ? RUN_BUDGET_MS : Number(budgetText));
  const transcripts: Transcript[] = [];
  for (const run of runs) {
    const trace = budget.trace();
    transcripts.push(await runResolved(run, { ledger: { sql }, onStep: (atMs) => trace.pop(atMs, 0) }));
  }
  const names = specs.map((spec) => formatRunSpec(spec));
  const tick = (events: number) => budget.check(`while comparing (${events} events compared)`);
  if (transcripts.length === 3) return compareThree(names, transcripts, values.json === true, tick);
  const [a, b] = transcripts as [Transcript, Transcript];
  const result = compareRuns(a, b, { tick });
  if (values.json) return jsonForTerminal({ runs: names, ...result });
  // Two columns while they fit; a fact too long for a column is written on two lines of its own.
  const COLUMN_MAX = 50;
  const width = Math.max(...result.facts.map((f) => f.name.length));
  const fits = (f: { a: string; b: string }) => f.a.length <= COLUMN_MAX && f.b.length <= COLUMN_MAX;
  const column = Math.max(
    ...result.facts.filter(fits).map((f) => f.a.length),
    Math.min(names[0]?.length ?? 0, COLUMN_MAX),
  );
  const lines = [`  ${''.padEnd(width)}   ${(names[0] ?? '').padEnd(column)}   ${names[1] ?? ''}`];
  for (const fact of result.facts) {
    const mark = fact.differs ? '*' : ' ';
    if (fits(fact)) lines.push(`${mark} ${fact.name.padEnd(width)}   ${fact.a.padEnd(column)}   ${fact.b}`);
    else lines.push(`${mark} ${fact.name}`, `    ${names[0]}: ${fact.a}`, `    ${names[1]}: ${fact.b}`);
  }
  lines.push('');
  if (result.divergence === null) {
    lines.push('the runs do not part: every compared event matches');
  } else {
    const d = result.divergence;
    lines.push(`first event where they part, at ${d.atMs} ms:`);
    lines.push(`  ${names[0]}: ${d.a === null ? 'nothing else at that instant' : `event ${d.indexA}: ${d.a}`}`);
    lines.push(`  ${names[1]}: ${d.b === null ? 'nothing else at that instant' : `event ${d.indexB}: ${d.b}`}`);
  }
  lines.push(`(${result.note})`);
  const sdk = transcripts.find((t) => t.sdk !== undefined)?.sdk;
  if (sdk !== undefined)
    lines.push(
      `(${sdk.package} ${sdk.version} speaks protocol ${sdk.negotiatedProtocolVersion}; the lab's model speaks ${PROTOCOL_VERSION})`,
    );
  return lines.join('\n');
}

/** Three runs (the model, SDK 1.x, v2): their facts in three columns, and where each pair first parts. */
function compareThree(
  names: readonly string[],
  transcripts: readonly Transcript[],
  json: boolean,
  tick: (events: number) => void,
): string {
  const result = compareMany(transcripts, { tick });
  if (json) return jsonForTerminal({ runs: names, ...result });
  const lines = names.map((name, index) => `  run ${'ABC'[index]}: ${name}`);
  lines.push('');
  for (const fact of result.facts) {
    lines.push(`${fact.differs ? '*' : ' '} ${fact.name}`);
    fact.values.forEach((value, index) => lines.push(`    ${'ABC'[index]}  ${value}`));
  }
  lines.push('');
  for (const pair of result.pairs) {
    const [x, y] = ['ABC'[pair.a], 'ABC'[pair.b]];
    const d = pair.divergence;
    if (d === null) {
      lines.push(`${x} and ${y} do not part: every compared event matches`);
      continue;
    }
    lines.push(`${x} and ${y} first part at ${d.atMs} ms:`);
    lines.push(`  ${x}: ${d.a === null ? 'nothing else at that instant' : `event ${d.indexA}: ${d.a}`}`);
    lines.push(`  ${y}: ${d.b === null ? 'nothing else at that instant' : `event ${d.indexB}: ${d.b}`}`);
  }
  lines.push('');
  for (const t of transcripts)
    if (t.sdk !== undefined)
      lines.push(
        `(${t.sdk.package} ${t.sdk.version} speaks protocol ${t.sdk.negotiatedProtocolVersion}; the lab's model speaks ${PROTOCOL_VERSION})`,
      );
  return lines.join('\n');
}

/** Runs scenarios by id with sql.js loaded, for the commands that run many of them. */
async function hostRunner(): Promise<Runner> {
  const sql = await loadSqlJs();
  return (id, options = {}) => runScenario(findScenario(id), { ...options, ledger: options.ledger ?? { sql } });
}

/** A command that runs longer than this says, when it ends, how long it ran (stderr; see lab.ts). */
export const LONG_COMMAND_MS = 2_000;

/** The closing line of a long command, or null for a quick one. */
export function durationNote(command: string | undefined, elapsedMs: number): string | null {
  return elapsedMs < LONG_COMMAND_MS ? null : `lab ${escapeControl(command ?? '')}: ran ${formatDuration(elapsedMs)}\n`;
}

/**
 * A runner that, on a terminal, says every 2 s how many runs a many-run command (verify, evidence) has
 * made so far; `done()` ends its line. Off a terminal it is the runner itself.
 */
function reportingRunner(
  runner: Runner,
  label: string,
  write: ((line: string) => void) | null,
  now: () => number = () => performance.now(),
): { runner: Runner; done: () => void } {
  if (write === null) return { runner, done: () => undefined };
  const startedMs = now();
  let reportAtMs = startedMs + EXPLORE_PROGRESS_EVERY_MS;
  let runs = 0;
  let reported = false;
  const counted: Runner = (id, options) => {
    runs += 1;
    const atMs = now();
    if (atMs >= reportAtMs) {
      reportAtMs = atMs + EXPLORE_PROGRESS_EVERY_MS;
      write(`\r${label}: ${runs} runs so far in ${formatDuration(atMs - startedMs)} (Ctrl-C stops)\u001b[K`);
      reported = true;
    }
    return runner(id, options);
  };
  return { runner: counted, done: () => (reported ? write('\n') : undefined) };
}

const terminalWriter = (): ((line: string) => void) | null =>
  process.stderr.isTTY === true ? (line) => process.stderr.write(line) : null;

/**
 * Runs with sql.js and, given a path, FILE locked for the whole run: its bytes are checked as a ledger
 * before the run (LAB010) and the file is replaced atomically only after a completed run.
 */
async function runWithLedgerFile<T>(path: string | undefined, body: (ledger: LedgerHost) => T): Promise<T> {
  const sql = await loadSqlJs();
  if (path === undefined) return body({ sql });
  const file = await openLedgerFile(path);
  let outcome: { ok: true; result: T } | { ok: false; error: unknown };
  let savedAny = false;
  try {
    if (file.bytes !== null) LedgerFile.open(sql, file.bytes).close();
    let saved: Uint8Array | null = null;
    const result = body({ sql, bytes: file.bytes, save: (bytes) => (saved = bytes) });
    if (saved !== null) file.save(saved);
    savedAny = saved !== null;
    outcome = { ok: true, result };
  } catch (error) {
    outcome = { ok: false, error };
  }
  try {
    await file.release();
  } catch (releaseError) {
    // Both problems are told: the run's own (or that it completed) and the lock left behind.
    if (!(releaseError instanceof LabError)) throw releaseError;
    const before = outcome.ok
      ? `the run completed${savedAny ? ` and ${path} was saved` : ''}`
      : outcome.error instanceof LabError
        ? outcome.error.detail
        : null;
    if (before === null) throw (outcome as { error: unknown }).error;
    throw new LabError(
      outcome.ok ? 'LAB012' : (outcome.error as LabError).code,
      `${before}; then ${releaseError.detail}`,
    );
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const processOutput: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs one command line; returns the exit code (0 ok, 1 bad input value, 2 bad usage). */
export async function main(argv: string[], terminal: Output = processOutput): Promise<number> {
  // Every value the CLI prints may come from a file (a ledger's stored result, a review's names): each
  // line's control characters are escaped on the way out, so no input can drive the terminal.
  const io: Output = { out: (text) => terminal.out(escapeLines(text)), err: (text) => terminal.err(escapeLines(text)) };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'list':
        io.out(`${list()}\n`);
        return 0;
      case 'verify': {
        const reporting = reportingRunner(await hostRunner(), 'verify', terminalWriter());
        const runner = reporting.runner;
        const results = verify(runner);
        io.out(
          `${results.map((r) => `${r.holds ? 'ok  ' : 'FAIL'} ${r.id} ${r.statement} (${requirementDocLink(r.id)})\n       from ${r.scope}${r.holds ? '' : `\n       ${r.problems.join('\n       ')}`}`).join('\n')}\n`,
        );
        // SPEC §9: every failure mode runs, next to its fix.
        const modes = checkFailureModes(runner);
        io.out(
          `\nfailure modes, each shown by one run and fixed by another (${REQUIREMENTS_DOC}#failure-modes-each-runnable-next-to-its-fix):\n`,
        );
        for (const mode of modes) {
          const ok = mode.failureShown && mode.fixShown;
          io.out(
            `${ok ? 'ok  ' : 'FAIL'} ${mode.failure}\n       failure: ${runCommand(mode.failureRun)} — ${mode.failureDetail}\n       fix:     ${runCommand(mode.fixRun)} — ${mode.fixDetail}\n`,
          );
        }
        reporting.done();
        return results.every((r) => r.holds) && modes.every((m) => m.failureShown && m.fixShown) ? 0 : 1;
      }
      case 'evidence': {
        const { values } = parseArgs({
          args: rest,
          strict: true,
          options: { out: { type: 'string' }, force: { type: 'boolean', default: false } },
        });
        const out = values.out;
        if (out === undefined) throw new UsageError('evidence needs --out DIR');
        // Checked before the evidence is computed, and again when it is written.
        checkOutputFolder(out, values.force);
        const reporting = reportingRunner(await hostRunner(), 'evidence', terminalWriter());
        const files = buildEvidence(reporting.runner, await loadSqlJs());
        reporting.done();
        writeOutputFolder(out, files, values.force);
        io.out(`${files.map((f) => `${escapeControl(join(out, f.path))}  ${f.description}`).join('\n')}\n`);
        return 0;
      }
      case 'skill': {
        const { values } = parseArgs({
          args: rest,
          strict: true,
          options: { out: { type: 'string' }, force: { type: 'boolean', default: false } },
        });
        if (values.out === undefined) throw new UsageError('skill needs --out DIR');
        // The target is the skill's own folder, so DIR may hold other skills.
        checkParentFolder(values.out);
        const folder = join(values.out, SKILL_NAME);
        checkOutputFolder(folder, values.force);
        const files = buildSkill().map((f) => ({ ...f, path: f.path.slice(SKILL_NAME.length + 1) }));
        writeOutputFolder(folder, files, values.force);
        io.out(`${files.map((f) => `${escapeControl(join(folder, f.path))}  ${f.description}`).join('\n')}\n`);
        return 0;
      }
      case 'review': {
        if (rest.length !== 1) throw new UsageError('review takes one JSON file');
        const path = rest[0] as string;
        let text: string;
        try {
          // Bounded in bytes and time whatever the file is: a device or a pipe has no size to check first.
          text = readBounded(path, REVIEW_INPUT_CHARS_MAX, 'reviewer').toString('utf8');
        } catch (error) {
          if (error instanceof LabError) throw error;
          io.err(
            `lab: ${escapeControl(path)} is not readable (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`,
          );
          return 1;
        }
        const result = reviewText(text);
        if (
          !result.ok &&
          result.errors.length === 1 &&
          result.errors[0]?.field === '/' &&
          result.errors[0].message.startsWith('is not JSON')
        ) {
          io.err(
            `lab: ${escapeControl(path)} is not readable JSON: ${escapeControl(result.errors[0].message.slice('is not JSON: '.length))}\n`,
          );
          return 1;
        }
        // The review quotes the file (operation names, unknown keys): every string escaped for the terminal.
        (result.ok ? io.out : io.err)(`${formatReview(escapeDeep(result))}\n`);
        return result.ok ? 0 : 1;
      }
      case 'retries':
        io.out(`${retries()}\n`);
        return 0;
      case 'settings':
        if (rest.length > 1) throw new UsageError('settings takes at most one scenario id');
        io.out(`${settingsHelp(rest[0])}\n`);
        return 0;
      case 'run':
        io.out(`${await run(rest)}\n`);
        return 0;
      case 'compare':
        io.out(`${await compare(rest)}\n`);
        return 0;
      case 'probe':
        return await probeCommand(rest, io);
      case 'exercise':
        return await exerciseCommand(rest, io);
      case 'explore': {
        // A violation is a finding, not a failure of the command: exit 0 either way; the output says which.
        io.out(`${await exploreCommand(rest)}\n`);
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    // Messages quote input (an id, a key, a path): escaped, so it cannot drive the terminal.
    if (error instanceof LabError) {
      io.err(`lab: ${escapeControl(error.message)}\n`);
      return 1;
    }
    if (
      error instanceof UsageError ||
      error instanceof ExerciseUsageError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.err(`lab: ${escapeControl(error.message)}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}
