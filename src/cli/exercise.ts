import { jsonForTerminal } from './safeOutput';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatTimeline, LabError, type SqliteHost } from '../engine';
import type { ExerciseDef } from '../exercise/exercise';
import { grade, replayOrdering } from '../exercise/grade';
import { EXERCISES, findExercise } from '../exercise/registry';
import { StudentCodeError, type ComponentSource } from '../exercise/runtime';
import { loadQuickJs, sandboxSource } from '../exercise/sandbox';
import { processSource } from '../exercise/processRuntime';
import type { CheckReport, CodeError, StatementResult } from '../exercise/types';
import { readBounded } from './boundedRead';
import { loadSqlJs } from './sqlite';

/** The largest student file `exercise check` reads. */
export const EXERCISE_FILE_BYTES_MAX = 256 * 1024;

export const EXERCISE_USAGE = `  npm run lab -- exercise list
  npm run lab -- exercise starter <id>
  npm run lab -- exercise check <id> --file F [--json] [--show STATEMENT]
  npm run lab -- exercise check <id> --cmd "python3 my_buffer.py" [--json] [--show STATEMENT]
  npm run lab -- exercise check <id> --dir D [--format csv|json]`;

export const EXERCISE_HELP = `  exercise   the graded exercises: write one of the lesson's components, checked in every ordering
             list: the exercises and the statements each checks; starter <id>: print the starter file
             check <id> --file F: grade F (a JavaScript module, run in a sandbox); exit 0 when every statement
               holds, 3 when one is broken (each with its shortest failing ordering found), 2 on bad input
               (a syntax error, a thrown exception, a budget, a wrong return shape: named with line and ordering)
               --json: the report as JSON; --show STATEMENT: also print the failing ordering's timeline
             check <id> --cmd "COMMAND": the same checks on a program in any language (e.g. Python) speaking the
               JSON-lines protocol of docs/exercise-protocol.md over stdio; one process per check, reset between
               orderings, each call bounded in time, the process always ended
             check <id> --dir D: grade every .js file in D into one table, a row per file and a column per
               statement (--format csv, the default, or json); exit 0 when every file passes, else 3`;

export class ExerciseUsageError extends Error {}

function needsSqlite(def: ExerciseDef): boolean {
  return def.sqlite === true;
}

function readStudentFile(path: string): string {
  const bytes = readBounded(path, EXERCISE_FILE_BYTES_MAX, 'exercise checker');
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  return text;
}

function codeErrorText(error: CodeError): string {
  const where =
    error.line === undefined
      ? ''
      : ` (line ${error.line}${error.column === undefined ? '' : `, column ${error.column}`})`;
  const run =
    error.where === undefined
      ? ''
      : `\n  in ${error.where.scenario} on ${error.where.transport}, ordering ${error.where.schedule}, at ${error.where.atMs} ms`;
  return `${error.kind} error${where}: ${error.message}${run}`;
}

function statementLines(def: ExerciseDef, result: StatementResult): string[] {
  const statement = def.statements.find((candidate) => candidate.id === result.id);
  const head = `${result.holds ? 'holds ' : 'BROKEN'} ${result.id}: ${statement?.text ?? ''}${statement === undefined || statement.requirements.length === 0 ? '' : ` (${statement.requirements.join(', ')})`}`;
  if (result.holds) return [head];
  const lines = [head, `       ${result.explanation ?? ''}`];
  const failing = result.failing;
  if (failing !== undefined) {
    const settings = Object.entries(failing.settings)
      .map(([key, value]) => ` --set ${key}=${String(value)}`)
      .join('');
    lines.push(
      `       shortest failing ordering found: ${failing.scenario} on ${failing.transport}${settings}, schedule ${failing.schedule}, broken at step ${failing.step} (${failing.atMs} ms)`,
    );
  }
  for (const call of result.calls ?? [])
    lines.push(`         ${String(call.atMs).padStart(6)} ms  ${call.call} → ${call.returned}`);
  return lines;
}

export function formatReport(def: ExerciseDef, report: CheckReport): string {
  const head = `${def.id}: ${def.title}`;
  const figures = `${report.orderings.toLocaleString('en-US')} orderings (${report.states.toLocaleString('en-US')} states) checked in ${(report.elapsedMs / 1000).toFixed(1)} s${report.complete ? '' : ' — NOT complete: a bound cut the exploration'}`;
  if (report.error !== undefined)
    return `${head}\n${codeErrorText(report.error)}${report.orderings === 0 ? '' : `\n(${report.orderings.toLocaleString('en-US')} orderings checked before the error)`}`;
  const broken = report.statements.filter((statement) => !statement.holds).length;
  const verdict =
    broken === 0
      ? `every statement holds (${report.statements.length})`
      : `${broken} of ${report.statements.length} statements broken`;
  return [
    head,
    ...report.statements.flatMap((statement) => statementLines(def, statement)),
    `${verdict}; ${figures}`,
  ].join('\n');
}

async function ledgerFor(def: ExerciseDef): Promise<SqliteHost | undefined> {
  return needsSqlite(def) ? { sql: await loadSqlJs() } : undefined;
}

async function sourceFor(def: ExerciseDef, code: string): Promise<ComponentSource> {
  return sandboxSource(await loadQuickJs(), code, def.exports);
}

/** Grades one piece of code; a failure to load it (syntax, missing export) is a report with its error. */
async function check(
  def: ExerciseDef,
  code: string | { cmd: string },
  ledger: SqliteHost | undefined,
): Promise<{ report: CheckReport; source: ComponentSource | null }> {
  let source: ComponentSource;
  try {
    source = typeof code === 'string' ? await sourceFor(def, code) : processSource(code.cmd);
  } catch (error) {
    if (!(error instanceof StudentCodeError)) throw error;
    const report: CheckReport = {
      exercise: def.id,
      statements: [],
      orderings: 0,
      states: 0,
      elapsedMs: 0,
      complete: false,
      error: error.toCodeError(),
      passed: false,
    };
    return { report, source: null };
  }
  try {
    return { report: grade(def, source, { ledger }), source };
  } catch (error) {
    // A process that fails outside any run (it does not start, or answers the greeting wrongly).
    if (!(error instanceof StudentCodeError)) throw error;
    source.close();
    const report: CheckReport = {
      exercise: def.id,
      statements: [],
      orderings: 0,
      states: 0,
      elapsedMs: 0,
      complete: false,
      error: error.toCodeError(),
      passed: false,
    };
    return { report, source: null };
  }
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** `lab exercise …`: returns the exit code. */
export async function exerciseCommand(args: string[], io: Output): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list': {
      if (rest.length > 0) throw new ExerciseUsageError('exercise list takes no arguments');
      const width = Math.max(...EXERCISES.map((def) => def.id.length));
      io.out(
        `${EXERCISES.map((def) => `${def.id.padEnd(width)}  ${def.title}\n${' '.repeat(width + 2)}exports ${def.exports.join(', ')}; checks ${def.statements.map((statement) => statement.id).join(', ')}`).join('\n')}\n`,
      );
      return 0;
    }
    case 'starter': {
      if (rest.length !== 1) throw new ExerciseUsageError('exercise starter takes one exercise id');
      io.out(findExercise(rest[0] as string).starter);
      return 0;
    }
    case 'check': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: {
          file: { type: 'string' },
          dir: { type: 'string' },
          cmd: { type: 'string' },
          json: { type: 'boolean', default: false },
          format: { type: 'string' },
          show: { type: 'string' },
        },
      });
      if (positionals.length !== 1)
        throw new ExerciseUsageError(`exercise check takes one exercise id, got ${positionals.length}`);
      const def = findExercise(positionals[0] as string);
      const given = [values.file, values.dir, values.cmd].filter((value) => value !== undefined).length;
      if (given !== 1) throw new ExerciseUsageError('exercise check takes one of --file F, --cmd "COMMAND" or --dir D');
      if (values.cmd !== undefined && def.javascriptOnly !== undefined)
        throw new ExerciseUsageError(
          `--cmd is not available for ${def.id}: ${def.javascriptOnly}; write it in JavaScript and check it with --file`,
        );
      const ledger = await ledgerFor(def);
      if (values.dir !== undefined) return checkDir(def, values.dir, values.format ?? 'csv', ledger, io);
      if (values.format !== undefined)
        throw new ExerciseUsageError('--format is for --dir; a single file takes --json');
      const code = values.cmd !== undefined ? { cmd: values.cmd } : readStudentFile(values.file as string);
      const { report, source } = await check(def, code, ledger);
      try {
        io.out(values.json ? `${jsonForTerminal(report)}\n` : `${formatReport(def, report)}\n`);
        if (values.show !== undefined && source !== null) {
          const shown = report.statements.find((statement) => statement.id === values.show);
          if (shown === undefined)
            throw new ExerciseUsageError(
              `--show names a statement of ${def.id}: ${def.statements.map((statement) => statement.id).join(', ')}`,
            );
          if (shown.failing === undefined)
            io.out(
              `\n${shown.id} ${shown.holds ? 'holds: there is no failing ordering to show' : 'is checked outside any run: there is no ordering to show'}\n`,
            );
          else {
            const replayed = replayOrdering(def, source, shown.failing, { ledger });
            io.out(`\nthe failing ordering of ${shown.id} (broken at step ${shown.failing.step}):\n`);
            io.out(
              replayed.transcript === null
                ? `the run stopped part-way: ${replayed.stopped ?? ''}\n`
                : `${formatTimeline(replayed.transcript)}\n`,
            );
          }
        }
      } finally {
        source?.close();
      }
      if (report.error !== undefined) return 2;
      return report.passed ? 0 : 3;
    }
    default:
      throw new ExerciseUsageError(
        sub === undefined
          ? 'exercise takes list, starter or check'
          : `unknown exercise command "${sub}"; use list, starter or check`,
      );
  }
}

async function checkDir(
  def: ExerciseDef,
  dir: string,
  format: string,
  ledger: SqliteHost | undefined,
  io: Output,
): Promise<number> {
  if (format !== 'csv' && format !== 'json')
    throw new ExerciseUsageError(`--format takes csv or json, got "${format}"`);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.js') || name.endsWith('.mjs'))
      .sort();
  } catch (error) {
    throw new LabError(
      'LAB015',
      `${dir} is not a readable folder (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was graded`,
    );
  }
  const rows: {
    file: string;
    passed: boolean;
    error: string | null;
    statements: Record<string, string>;
    orderings: number;
    elapsedMs: number;
  }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    let report: CheckReport;
    try {
      const found = await check(def, readStudentFile(path), ledger);
      found.source?.close();
      report = found.report;
    } catch (error) {
      if (!(error instanceof LabError)) throw error;
      report = {
        exercise: def.id,
        statements: [],
        orderings: 0,
        states: 0,
        elapsedMs: 0,
        complete: false,
        error: { kind: 'process', message: error.message },
        passed: false,
      };
    }
    const statements = Object.fromEntries(
      def.statements.map((statement) => {
        const result = report.statements.find((candidate) => candidate.id === statement.id);
        return [
          statement.id,
          report.error !== undefined ? 'error' : result === undefined ? 'unchecked' : result.holds ? 'holds' : 'broken',
        ];
      }),
    );
    rows.push({
      file: name,
      passed: report.passed,
      error: report.error === undefined ? null : codeErrorText(report.error),
      statements,
      orderings: report.orderings,
      elapsedMs: report.elapsedMs,
    });
  }
  if (format === 'json')
    io.out(
      `${jsonForTerminal({ exercise: def.id, statements: def.statements.map((statement) => statement.id), rows })}\n`,
    );
  else {
    const header = ['file', 'passed', ...def.statements.map((statement) => statement.id), 'orderings', 'error'];
    const lines = rows.map((row) =>
      [
        row.file,
        String(row.passed),
        ...def.statements.map((statement) => row.statements[statement.id] ?? ''),
        String(row.orderings),
        row.error ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
    io.out(`${[header.join(','), ...lines].join('\n')}\n`);
  }
  return rows.every((row) => row.passed) ? 0 : 3;
}
