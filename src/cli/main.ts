import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LedgerHost } from '../engine';
import { loadSqlJs } from './sqlite';
import { retryTable } from '../engine';
import { ledgerScopeNotesFor } from '../engine';
import { verify, type Runner } from '../lab/verification';
import { checkFailureModes } from '../lab/failureModes';
import { runCommand } from '../lab/failureCards';
import { buildEvidence } from '../lab/evidence';
import { formatReview, review } from '../lab/reviewer';
import { LabError } from '../engine';
import { formatTimeline } from '../engine';
import { checkSeed, checkTransport, runScenario, settingsSpecFor, usesSqlite } from '../engine';
import { parseSetting, type SettingsSpec } from '../engine';
import { findScenario, scenarios } from '../scenarios/index';
import type { Settings } from '../engine';

/** The command-line runner over the same engine the worker runs: `npm run lab -- <command>`. */
const USAGE = `usage:
  npm run lab -- list
  npm run lab -- run <scenario> [--transport stdio|http] [--seed N] [--set key=value ...] [--json] [--ledger FILE]
  npm run lab -- settings [scenario]
  npm run lab -- retries
  npm run lab -- verify
  npm run lab -- evidence --out DIR
  npm run lab -- review FILE.json

  list       the scenarios, with the SPEC ids each demonstrates
  run        run one scenario and print its transcript (a readable timeline; the JSON with --json)
             --ledger FILE (ledger and task scenarios): open the SQLite ledger in FILE, or create it, and save it back
  verify     SPEC §8 VF-1 … VF-12 and RC-7, RC-8, RC-9, BF-5, LG-P5, each computed from the scenarios' transcripts (exit 1 if one fails)
  evidence   write the SPEC §10 capstone artifacts (JSON + README.md) into DIR; same lab, same bytes
  review     the reliability reviewer: race table, retry class, idempotency boundary, flow control, failure cards
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
    },
  });
  if (positionals.length !== 1) throw new UsageError(`run takes exactly one scenario id, got ${positionals.length}`);
  const scenario = findScenario(positionals[0] as string);
  const transport = values.transport === undefined ? undefined : checkTransport(values.transport);
  let seed: number | undefined;
  if (values.seed !== undefined) seed = checkSeed(/^\d+$/.test(values.seed) ? Number(values.seed) : values.seed);
  const settings: Record<string, unknown> = {};
  for (const assignment of values.set ?? []) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes key=value, got "${assignment}"`);
    const key = assignment.slice(0, eq);
    const spec = settingsSpecFor(scenario)[key];
    if (spec === undefined) throw new LabError('LAB004', `"${key}" is not a setting of scenario ${scenario.id}; known settings: ${Object.keys(settingsSpecFor(scenario)).join(', ')}`);
    settings[key] = parseSetting(key, spec, assignment.slice(eq + 1));
  }
  if (values.ledger !== undefined && !usesSqlite(scenario)) throw new UsageError(`--ledger applies to ledger and task scenarios; ${scenario.id} is a ${scenario.kind} scenario`);
  const ledger = usesSqlite(scenario) ? await ledgerHost(values.ledger) : undefined;
  const transcript = runScenario(scenario, { transport, seed, settings, ledger });
  if (values.json) return JSON.stringify(transcript, null, 2);
  const timeline = formatTimeline(transcript, scenario.settings as unknown as Settings);
  return scenario.kind === 'ledger' ? `${timeline}\n\nscope of this ledger (LG-8):\n${ledgerScopeNotesFor(transcript.settings.sendKey === true).map((note) => `  - ${note}`).join('\n')}` : timeline;
}

/** Runs scenarios by id with sql.js loaded, for the commands that run many of them. */
async function hostRunner(): Promise<Runner> {
  const sql = await loadSqlJs();
  return (id, options = {}) => runScenario(findScenario(id), { ...options, ledger: options.ledger ?? { sql } });
}

/** sql.js for a ledger run, with FILE's bytes when it exists; the file is written only after a completed run. */
async function ledgerHost(path: string | undefined): Promise<LedgerHost> {
  const sql = await loadSqlJs();
  if (path === undefined) return { sql };
  const bytes = existsSync(path) ? new Uint8Array(readFileSync(path)) : null;
  return { sql, bytes, save: (saved) => writeFileSync(path, saved) };
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
        const { values } = parseArgs({ args: rest, strict: true, options: { out: { type: 'string' } } });
        const out = values.out;
        if (out === undefined) throw new UsageError('evidence needs --out DIR');
        const files = buildEvidence(await hostRunner(), await loadSqlJs());
        mkdirSync(out, { recursive: true });
        for (const file of files) writeFileSync(join(out, file.path), file.contents);
        io.out(`${files.map((f) => `${join(out, f.path)}  ${f.description}`).join('\n')}\n`);
        return 0;
      }
      case 'review': {
        if (rest.length !== 1) throw new UsageError('review takes one JSON file');
        const path = rest[0] as string;
        let input: unknown;
        try {
          input = JSON.parse(readFileSync(path, 'utf8'));
        } catch (error) {
          io.err(`lab: ${path} is not readable JSON: ${error instanceof Error ? error.message : String(error)}\n`);
          return 1;
        }
        const result = review(input);
        (result.ok ? io.out : io.err)(`${formatReview(result)}\n`);
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
    if (error instanceof LabError) {
      io.err(`lab: ${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.err(`lab: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

