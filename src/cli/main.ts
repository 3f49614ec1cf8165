import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LedgerHost } from '../engine';
import { loadSqlJs } from './sqlite';
import { openLedgerFile } from './ledgerFile';
import { RUN_BUDGET_MS, wallClockBudget } from './runBudget';
import { checkOutputFolder, escapeControl, escapeDeep, writeOutputFolder } from './safeOutput';
import { LedgerFile } from '../engine';
import { retryTable } from '../engine';
import { ledgerScopeNotesFor } from '../engine';
import { verify, type Runner } from '../lab/verification';
import { checkFailureModes } from '../lab/failureModes';
import { runCommand } from '../lab/failureCards';
import { buildEvidence } from '../lab/evidence';
import { formatReview } from '../lab/reviewer';
import { REVIEW_INPUT_CHARS_MAX, reviewText } from '../lab/reviewLimits';
import { buildSkill, SKILL_NAME } from '../lab/skill';
import { LabError } from '../engine';
import { formatTimeline } from '../engine';
import { checkSeed, checkTransport, DEFAULT_EXPLORE_BOUND, Exploration, runScenario, settingsSpecFor, usesSqlite, type ExploreResult, type Scenario } from '../engine';
import { parseSetting, type SettingsSpec } from '../engine';
import { findScenario, scenarios } from '../scenarios/index';
import type { Settings } from '../engine';
import { TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from '../sdk/version';
import { runSpecified, specSettings } from '../sdk/runs';
import { compareRuns, formatRunSpec, parseRunSpec, PROTOCOL_VERSION, type Transcript } from '../engine';

/** The command-line runner over the same engine the worker runs: `npm run lab -- <command>`. */
const USAGE = `usage:
  npm run lab -- list
  npm run lab -- run <scenario> [--impl model|ts-sdk] [--transport stdio|http] [--seed N] [--set key=value ...] [--schedule S] [--fault F ...] [--json] [--ledger FILE] [--budget-ms N]
  npm run lab -- explore <scenario> [--transport stdio|http] [--set key=value ...] [--bound N] [--json]
  npm run lab -- compare <runA> <runB> [--json] [--budget-ms N]
  npm run lab -- settings [scenario]
  npm run lab -- retries
  npm run lab -- verify
  npm run lab -- evidence --out DIR [--force]
  npm run lab -- review FILE.json
  npm run lab -- skill --out DIR [--force]

  list       the scenarios, with the SPEC ids each demonstrates
  run        run one scenario and print its transcript (a readable timeline; the JSON with --json)
             --ledger FILE (ledger and task scenarios): open the SQLite ledger in FILE, or create it, and save it back
             --budget-ms N: stop the run after N ms of wall-clock time (default 60000)
             --impl ts-sdk (A–D): run the real @modelcontextprotocol/sdk ${TS_SDK_VERSION} Client and Server on the virtual clock
               instead of the lab's spec model (--impl model, the default); it speaks protocol ${TS_SDK_PROTOCOL_VERSION}
             --schedule S: replay exactly the ordering S that explore printed (same transcript every time)
             --fault F: inject a fault on the message whose event has seq SEQ: drop:SEQ, delay:SEQ:MS,
             duplicate:SEQ, stream-drop:SEQ or crash:SEQ (ledger: the server crashes after COMMIT, before
             response SEQ leaves, and restarts from its SQLite file); the transcript records them
             (--schedule and --fault apply to the lab's model, not to --impl ts-sdk)
  explore    run the scenario in every ordering the network allows (same-instant choices, every order of
             arrivals the latency range permits, each channel FIFO), check the invariants after every step,
             and print the orderings, the distinct endings and any violation with a schedule that replays it
             --bound N: visit at most N states (default ${DEFAULT_EXPLORE_BOUND}); a cut exploration says "complete": false
  compare    two runs side by side: the facts of both (differences marked *) and the first event where they part
             a run is <scenario>[:key=value,…] with keys impl (model|ts-sdk), transport (stdio|http), seed and any setting:
               npm run lab -- compare C C:impl=ts-sdk            the spec model against the real SDK
               npm run lab -- compare D D:transport=stdio        Streamable HTTP against stdio
               npm run lab -- compare C:seed=1,latencyJitterMs=20 C:seed=2,latencyJitterMs=20
  verify     SPEC §8 VF-1 … VF-12 and RC-7, RC-8, RC-9, BF-5, LG-P5, each computed from the scenarios' transcripts (exit 1 if one fails)
  evidence   write the SPEC §10 capstone artifacts (JSON + README.md + the reviewer skill) into DIR; same lab, same bytes
             DIR must be new or empty; --force replaces the lab's files in a folder that holds others
  review     the reliability reviewer: race table, retry class, idempotency boundary, flow control, failure cards
  skill      write the reviewer as a skill folder, DIR/${SKILL_NAME}/ (SKILL.md, input schema, two worked examples)
             --out folders must be new or empty; --force replaces the lab's files in a folder that holds others
  retries    the retry classification of every exposed operation (SPEC §3)
  settings   the settings --set accepts (for one scenario, or all), with their ranges`;

class UsageError extends Error {}

function list(): string {
  const width = Math.max(...scenarios.map((s) => s.id.length));
  return scenarios
    .map((s) => `${s.id.padEnd(width)}  ${s.title}\n${' '.repeat(width + 2)}${s.topic}; default transport ${s.defaultTransport}; demonstrates ${s.requirements.join(', ')}`)
    .join('\n');
}

function retries(): string {
  return retryTable()
    .map((row) => `${row.operation.padEnd(24)} ${row.retryClass.padEnd(12)} ${row.rule}${row.hintWarnings.map((w) => `\n${' '.repeat(38)}! ${w}`).join('')}`)
    .join('\n');
}

function settingsHelp(id: string | undefined): string {
  const chosen = id === undefined ? scenarios : [findScenario(id)];
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const scenario of chosen) {
    if (seen.has(scenario.kind)) continue;
    seen.add(scenario.kind);
    const ids = scenarios.filter((s) => s.kind === scenario.kind).map((s) => s.id).join(', ');
    blocks.push(`settings of ${ids} (${scenario.kind}):\n${describeSpec(settingsSpecFor(scenario))}`);
  }
  return blocks.join('\n\n');
}

function describeSpec(spec: SettingsSpec): string {
  return Object.entries(spec)
    .map(([key, spec]) => {
      const range = spec.kind === 'integer' ? `${spec.min}..${spec.max}${'nullable' in spec && spec.nullable ? ' or none' : ''}` : spec.kind === 'boolean' ? 'true|false' : spec.values.join('|');
      return `  ${key.padEnd(20)} ${range.padEnd(28)} ${spec.description}`;
    })
    .join('\n');
}

function parseAssignments(scenario: Scenario, assignments: readonly string[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes key=value, got "${assignment}"`);
    const key = assignment.slice(0, eq);
    // Own keys only: `constructor` or `__proto__` are not settings however an object spells them.
    const spec = Object.hasOwn(settingsSpecFor(scenario), key) ? settingsSpecFor(scenario)[key] : undefined;
    if (spec === undefined) throw new LabError('LAB004', `"${key}" is not a setting of scenario ${scenario.id}; known settings: ${Object.keys(settingsSpecFor(scenario)).join(', ')}`);
    settings[key] = parseSetting(key, spec, assignment.slice(eq + 1));
  }
  return settings;
}

/** `lab explore`: every ordering of one scenario, its endings and any invariant it breaks (issue #11). */
async function exploreCommand(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      transport: { type: 'string' },
      set: { type: 'string', multiple: true },
      bound: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`explore takes exactly one scenario id, got ${positionals.length}`);
  const scenario = findScenario(positionals[0] as string);
  const transport = values.transport === undefined ? undefined : checkTransport(values.transport);
  const settings = parseAssignments(scenario, values.set ?? []);
  if (values.bound !== undefined && !/^[1-9]\d{0,8}$/.test(values.bound)) throw new UsageError(`--bound takes a whole number of states from 1 to 999999999, got "${values.bound}"`);
  const bound = values.bound === undefined ? undefined : Number(values.bound);
  const ledger = usesSqlite(scenario) ? { sql: await loadSqlJs() } : undefined;
  const result = exploreReporting(new Exploration(scenario, { transport, settings, bound, ledger }), scenario.id, process.stderr.isTTY === true ? (line) => process.stderr.write(line) : null);
  return values.json ? JSON.stringify(result, null, 2) : formatExploration(result);
}

/** How often a long exploration says how far it got (on a terminal only: piped output stays the result alone). */
const EXPLORE_PROGRESS_EVERY_MS = 2_000;

/**
 * Runs an exploration to its end; when `write` is given (stderr is a terminal), a long one prints its
 * states, orderings and violations so far every 2 s, so a user can tell progress from a hang (the
 * herd at its defaults needs hours to reach the default bound) and stop it with Ctrl-C.
 */
export function exploreReporting(exploration: Exploration, id: string, write: ((line: string) => void) | null, now: () => number = () => performance.now()): ExploreResult {
  let reportAtMs = now() + EXPLORE_PROGRESS_EVERY_MS;
  let reported = false;
  while (!exploration.advance(64)) {
    if (write === null || now() < reportAtMs) continue;
    reportAtMs = now() + EXPLORE_PROGRESS_EVERY_MS;
    const progress = exploration.progress();
    write(`\rexploring ${id}: ${progress.states.toLocaleString('en-US')} states, ${progress.schedules.toLocaleString('en-US')} orderings, ${progress.violations} violations so far (Ctrl-C stops)`);
    reported = true;
  }
  if (reported) write?.('\n');
  return exploration.result();
}

function formatExploration(result: ExploreResult): string {
  const lines = [
    `${result.scenario} on ${result.transport}: ${result.schedules.toLocaleString('en-US')} orderings, ${result.states.toLocaleString('en-US')} states${result.complete ? ', every ordering explored' : ' — NOT complete: the bound cut the exploration; raise --bound'}`,
    '',
    `endings (${result.endings.length}):`,
    ...result.endings.map((ending) => `  ${String(ending.count).padStart(8)}  ${JSON.stringify(ending.outcome)}\n            e.g. --schedule ${ending.schedule}`),
    '',
  ];
  if (result.violations.length === 0) lines.push(`violations: ${result.verdict}`);
  else {
    lines.push(`violations: ${result.verdict}:`);
    // The replay names the settings the exploration ran with (a schedule is read against them).
    const defaults = findScenario(result.scenario).settings as unknown as Record<string, unknown>;
    const sets = Object.entries(result.settings)
      .filter(([name, value]) => JSON.stringify(defaults[name]) !== JSON.stringify(value))
      .map(([name, value]) => ` --set ${name}=${value === null ? 'null' : String(value)}`)
      .join('');
    for (const violation of result.violations) lines.push(`  ${violation.invariant} at event ${violation.step}: ${violation.explanation}\n    replay: npm run lab -- run ${result.scenario} --transport ${result.transport}${sets} --schedule ${violation.schedule}`);
  }
  return lines.join('\n');
}

async function run(args: string[]): Promise<string> {
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
  if (impl !== 'model' && impl !== 'ts-sdk') throw new UsageError(`--impl takes model or ts-sdk, got "${values.impl}"`);
  const scenario = findScenario(positionals[0] as string);
  const transport = values.transport === undefined ? undefined : checkTransport(values.transport);
  let seed: number | undefined;
  if (values.seed !== undefined) seed = checkSeed(/^\d+$/.test(values.seed) ? Number(values.seed) : values.seed);
  const settings = parseAssignments(scenario, values.set ?? []);
  if (values.ledger !== undefined && !usesSqlite(scenario)) throw new UsageError(`--ledger applies to ledger and task scenarios; ${scenario.id} is a ${scenario.kind} scenario`);
  const budgetText = values['budget-ms'];
  if (budgetText !== undefined && !/^[1-9]\d{0,8}$/.test(budgetText)) throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${budgetText}"`);
  const trace = wallClockBudget(budgetText === undefined ? RUN_BUDGET_MS : Number(budgetText));
  if (impl === 'ts-sdk') {
    if (scenario.kind !== 'request-race') throw new LabError('LAB025', `--impl ts-sdk applies to the request races (A–D); ${scenario.id} is a ${scenario.kind} scenario. Nothing was run`);
    if (values.ledger !== undefined) throw new UsageError('--ledger does not apply to --impl ts-sdk');
    if (values.schedule !== undefined || values.fault !== undefined) throw new UsageError('--schedule and --fault apply to the lab\'s model, not to --impl ts-sdk (the SDK orders its own work)');
    // Loaded only here: every other command runs without the SDK.
    const { runTsSdkScenario } = await import('../sdk/tsSdkRace');
    const sdkTranscript = await runTsSdkScenario(scenario, { transport, seed, settings, onStep: (atMs) => trace.pop(atMs, 0) });
    return values.json ? JSON.stringify(sdkTranscript, null, 2) : formatTimeline(sdkTranscript, scenario.settings as unknown as Settings);
  }
  const transcript = await runWithLedgerFile(values.ledger, (ledger) => runScenario(scenario, { transport, seed, settings, trace, ledger: usesSqlite(scenario) ? ledger : undefined, schedule: values.schedule, faults: values.fault === undefined ? undefined : values.fault.join(',') }));
  if (values.json) return JSON.stringify(transcript, null, 2);
  const timeline = formatTimeline(transcript, scenario.settings as unknown as Settings);
  return scenario.kind === 'ledger' ? `${timeline}\n\nscope of this ledger (LG-8):\n${ledgerScopeNotesFor(transcript.settings.sendKey === true).map((note) => `  - ${note}`).join('\n')}` : timeline;
}

/** `compare <runA> <runB>`: both runs' facts, the differing ones marked, and where their events first part (issue #13). */
async function compare(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false }, 'budget-ms': { type: 'string' } } });
  if (positionals.length !== 2) throw new UsageError(`compare takes exactly two runs, got ${positionals.length}`);
  const budgetText = values['budget-ms'];
  if (budgetText !== undefined && !/^[1-9]\d{0,8}$/.test(budgetText)) throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${budgetText}"`);
  const specs = positionals.map((text) => parseRunSpec(text));
  // Both are checked before either runs: a typo in the second costs no run of the first.
  for (const spec of specs) specSettings(spec);
  const sql = await loadSqlJs();
  const transcripts: Transcript[] = [];
  for (const spec of specs) {
    const trace = wallClockBudget(budgetText === undefined ? RUN_BUDGET_MS : Number(budgetText));
    transcripts.push(await runSpecified(spec, { ledger: { sql }, onStep: (atMs) => trace.pop(atMs, 0) }));
  }
  const [a, b] = transcripts as [Transcript, Transcript];
  const result = compareRuns(a, b);
  const names = specs.map((spec) => formatRunSpec(spec));
  if (values.json) return JSON.stringify({ runs: names, ...result }, null, 2);
  // Two columns while they fit; a fact too long for a column is written on two lines of its own.
  const COLUMN_MAX = 50;
  const width = Math.max(...result.facts.map((f) => f.name.length));
  const fits = (f: { a: string; b: string }) => f.a.length <= COLUMN_MAX && f.b.length <= COLUMN_MAX;
  const column = Math.max(...result.facts.filter(fits).map((f) => f.a.length), Math.min(names[0]?.length ?? 0, COLUMN_MAX));
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
  if (sdk !== undefined) lines.push(`(${sdk.package} ${sdk.version} speaks protocol ${sdk.negotiatedProtocolVersion}; the lab's model speaks ${PROTOCOL_VERSION})`);
  return lines.join('\n');
}

/** Runs scenarios by id with sql.js loaded, for the commands that run many of them. */
async function hostRunner(): Promise<Runner> {
  const sql = await loadSqlJs();
  return (id, options = {}) => runScenario(findScenario(id), { ...options, ledger: options.ledger ?? { sql } });
}

/**
 * Runs with sql.js and, given a path, FILE locked for the whole run: its bytes are checked as a ledger
 * before the run (LAB010) and the file is replaced atomically only after a completed run.
 */
async function runWithLedgerFile<T>(path: string | undefined, body: (ledger: LedgerHost) => T): Promise<T> {
  const sql = await loadSqlJs();
  if (path === undefined) return body({ sql });
  const file = await openLedgerFile(path);
  try {
    if (file.bytes !== null) LedgerFile.open(sql, file.bytes).close();
    let saved: Uint8Array | null = null;
    const result = body({ sql, bytes: file.bytes, save: (bytes) => (saved = bytes) });
    if (saved !== null) file.save(saved);
    return result;
  } finally {
    await file.release();
  }
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const processOutput: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs one command line; returns the exit code (0 ok, 1 bad input value, 2 bad usage). */
export async function main(argv: string[], io: Output = processOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'list':
        io.out(`${list()}\n`);
        return 0;
      case 'verify': {
        const runner = await hostRunner();
        const results = verify(runner);
        io.out(`${results.map((r) => `${r.holds ? 'ok  ' : 'FAIL'} ${r.id} ${r.statement}${r.holds ? '' : `\n       ${r.problems.join('\n       ')}`}`).join('\n')}\n`);
        // SPEC §9: every failure mode runs, next to its fix (issue #12).
        const modes = checkFailureModes(runner);
        io.out(`\nSPEC §9 failure modes, each shown by one run and fixed by another:\n`);
        for (const mode of modes) {
          const ok = mode.failureShown && mode.fixShown;
          io.out(`${ok ? 'ok  ' : 'FAIL'} ${mode.failure}\n       failure: ${runCommand(mode.failureRun)} — ${mode.failureDetail}\n       fix:     ${runCommand(mode.fixRun)} — ${mode.fixDetail}\n`);
        }
        return results.every((r) => r.holds) && modes.every((m) => m.failureShown && m.fixShown) ? 0 : 1;
      }
      case 'evidence': {
        const { values } = parseArgs({ args: rest, strict: true, options: { out: { type: 'string' }, force: { type: 'boolean', default: false } } });
        const out = values.out;
        if (out === undefined) throw new UsageError('evidence needs --out DIR');
        // Checked before the evidence is computed, and again when it is written.
        checkOutputFolder(out, values.force);
        const files = buildEvidence(await hostRunner(), await loadSqlJs());
        writeOutputFolder(out, files, values.force);
        io.out(`${files.map((f) => `${escapeControl(join(out, f.path))}  ${f.description}`).join('\n')}\n`);
        return 0;
      }
      case 'skill': {
        const { values } = parseArgs({ args: rest, strict: true, options: { out: { type: 'string' }, force: { type: 'boolean', default: false } } });
        if (values.out === undefined) throw new UsageError('skill needs --out DIR');
        // The target is the skill's own folder, so DIR may hold other skills.
        const folder = values.out.trim() === '' ? values.out : join(values.out, SKILL_NAME);
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
          // The size first: a huge file is refused before it is read (issue #14).
          const size = statSync(path).size;
          if (size > REVIEW_INPUT_CHARS_MAX) throw new LabError('LAB015', `${path} is ${size} bytes, more than the reviewer reads (${REVIEW_INPUT_CHARS_MAX}); nothing was reviewed`);
          text = readFileSync(path, 'utf8');
        } catch (error) {
          if (error instanceof LabError) throw error;
          io.err(`lab: ${escapeControl(path)} is not readable (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
          return 1;
        }
        const result = reviewText(text);
        if (!result.ok && result.errors.length === 1 && result.errors[0]?.field === '/' && result.errors[0].message.startsWith('is not JSON')) {
          io.err(`lab: ${escapeControl(path)} is not readable JSON: ${escapeControl(result.errors[0].message.slice('is not JSON: '.length))}\n`);
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
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.err(`lab: ${escapeControl(error.message)}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

