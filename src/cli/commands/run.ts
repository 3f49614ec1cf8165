import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LabError, LedgerFile, usesSqlite, withLanes, type LedgerHost } from '../../engine';
import { findKnownBug, type KnownBug } from '../../gallery/knownBugs';
import { runModel, runResolved } from '../../runs/runs';
import { IMPLEMENTATION_CHOICES, isImplementation, resolveRunParams } from '../../runs/runSpec';
import { findScenario } from '../../scenarios/index';
import { openLedgerFile } from '../ledgerFile';
import { commandBudget, RUN_BUDGET_MS, wallClockBudget } from '../runBudget';
import { runText } from '../runText';
import { jsonForTerminal } from '../safeOutput';
import { loadSqlJs } from '../sqlite';
import { FAULT_FLAG, REPLAY_FLAGS, RUN_FLAGS, runParams } from './runFlags';
import { budgetMs, UsageError, type Command } from './shared';

/** `run <scenario>` (or a known bug's id): one run, its transcript as a timeline or JSON. */
export const run: Command = async (args, io) => {
  io.out(`${await runOutput(args)}\n`);
  return 0;
};

/** `run <bug id>`: the known-bugs entry on its real package, its references and its timelines. */
async function runBug(bug: KnownBug, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { 'budget-ms': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError(`run takes exactly one scenario id, got ${positionals.length}`);
  const budget = commandBudget(budgetMs(values['budget-ms'], RUN_BUDGET_MS));
  const trace = budget.trace();
  const { runKnownBug, formatKnownBug } = await import('../../gallery/runKnownBug');
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const result = await runKnownBug(bug, {
    onStep: (atMs) => trace.pop(atMs, 0),
    readFixture: (path) => readFileSync(join(root, path)),
  });
  return formatKnownBug(result);
}

async function runOutput(args: string[]): Promise<string> {
  const bug = findKnownBug(args.find((arg) => !arg.startsWith('-')) ?? '');
  if (bug !== undefined) return runBug(bug, args);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ...RUN_FLAGS,
      json: { type: 'boolean', default: false },
      ledger: { type: 'string' },
      'budget-ms': { type: 'string' },
      ...REPLAY_FLAGS,
      ...FAULT_FLAG,
    },
  });
  if (positionals.length !== 1) throw new UsageError(`run takes exactly one scenario id, got ${positionals.length}`);
  const impl = values.impl ?? 'model';
  if (!isImplementation(impl)) throw new UsageError(`--impl takes ${IMPLEMENTATION_CHOICES}, got "${values.impl}"`);
  let budget = RUN_BUDGET_MS;
  // The run is judged once; the command line's own combinations are checked after the run and before its replay (ordering, faults).
  const resolved = resolveRunParams(runParams(positionals[0] as string, values), findScenario, {
    beforeReplay: ({ scenario }) => {
      if (values.ledger !== undefined && !usesSqlite(scenario))
        throw new UsageError(
          `--ledger applies to ledger and task scenarios; ${scenario.id} is a ${scenario.kind} scenario`,
        );
      budget = budgetMs(values['budget-ms'], RUN_BUDGET_MS);
      if (impl !== 'model') {
        if (values.ledger !== undefined) throw new UsageError(`--ledger does not apply to --impl ${impl}`);
        if (values.schedule !== undefined || values.fault !== undefined)
          throw new UsageError(
            `--schedule and --fault apply to the lab's model, not to --impl ${impl} (the SDK orders its own work)`,
          );
      }
    },
  });
  const { scenario } = resolved;
  const trace = wallClockBudget(budget);
  const onStep = (atMs: number) => trace.pop(atMs, 0);
  // Loaded only for an SDK (runResolved imports it then): every other command runs without them.
  const transcript =
    resolved.impl !== 'model'
      ? await runResolved(resolved, { onStep })
      : await runWithLedgerFile(values.ledger, (ledger) =>
          runModel(resolved, { onStep, ledger: usesSqlite(scenario) ? ledger : undefined }),
        );
  return values.json ? jsonForTerminal(withLanes(transcript)) : runText(scenario, transcript);
}

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
