import { runScenario } from '../../engine';
import type { Runner } from '../../lesson/verification';
import { findScenario } from '../../scenarios/index';
import { loadSqlJs } from '../sqlite';

/** A command line the CLI cannot read: the message, then the usage (exit 2). */
export class UsageError extends Error {}

/** Where a command writes: stdout and stderr, each line's control characters already escaped. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** One command of the CLI: its arguments after the command's name, where it writes; its exit code (0 ok, 1 bad input value). */
export type Command = (args: string[], io: Output) => Promise<number>;

/** How often a long command says how far it got (on a terminal only: piped output stays the result alone). */
export const PROGRESS_EVERY_MS = 2_000;

/** A wall-clock span as a person reads it: `850 ms`, `12.3 s`, `4 min 58 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

/** `--budget-ms N` as milliseconds (the default when absent): a whole number from 1 to 999999999. */
export function budgetMs(text: string | undefined, defaultMs: number): number {
  if (text !== undefined && !/^[1-9]\d{0,8}$/.test(text))
    throw new UsageError(`--budget-ms takes a whole number of milliseconds from 1 to 999999999, got "${text}"`);
  return text === undefined ? defaultMs : Number(text);
}

/** Runs scenarios by id with sql.js loaded, for the commands that run many of them. */
export async function hostRunner(): Promise<Runner> {
  const sql = await loadSqlJs();
  return (id, options = {}) => runScenario(findScenario(id), { ...options, ledger: options.ledger ?? { sql } });
}

/**
 * A runner that, on a terminal, says every 2 s how many runs a many-run command (verify, evidence) has
 * made so far; `done()` ends its line. Off a terminal it is the runner itself.
 */
export function reportingRunner(
  runner: Runner,
  label: string,
  write: ((line: string) => void) | null,
  now: () => number = () => performance.now(),
): { runner: Runner; done: () => void } {
  if (write === null) return { runner, done: () => undefined };
  const startedMs = now();
  let reportAtMs = startedMs + PROGRESS_EVERY_MS;
  let runs = 0;
  let reported = false;
  const counted: Runner = (id, options) => {
    runs += 1;
    const atMs = now();
    if (atMs >= reportAtMs) {
      reportAtMs = atMs + PROGRESS_EVERY_MS;
      write(`\r${label}: ${runs} runs so far in ${formatDuration(atMs - startedMs)} (Ctrl-C stops)\u001b[K`);
      reported = true;
    }
    return runner(id, options);
  };
  return { runner: counted, done: () => (reported ? write('\n') : undefined) };
}

/** Where progress goes: stderr when it is a terminal, nowhere otherwise. */
export const terminalWriter = (): ((line: string) => void) | null =>
  process.stderr.isTTY === true ? (line) => process.stderr.write(line) : null;
