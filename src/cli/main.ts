import { LabError } from '../engine';
import { COMMANDS } from './commands/index';
import { formatDuration, UsageError, type Output } from './commands/shared';
import { ExerciseUsageError } from './exercise';
import { escapeControl, escapeLines } from './safeOutput';
import { USAGE } from './usage';

export type { Output } from './commands/shared';

/** A command that runs longer than this says, when it ends, how long it ran (stderr; see lab.ts). */
export const LONG_COMMAND_MS = 2_000;

/** The closing line of a long command, or null for a quick one. */
export function durationNote(command: string | undefined, elapsedMs: number): string | null {
  return elapsedMs < LONG_COMMAND_MS ? null : `lab ${escapeControl(command ?? '')}: ran ${formatDuration(elapsedMs)}\n`;
}

const processOutput: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs one command line; returns the exit code (0 ok, 1 bad input value, 2 bad usage). */
export async function main(argv: string[], terminal: Output = processOutput): Promise<number> {
  // Every value the CLI prints may come from a file (a ledger's stored result, a review's names): each
  // line's control characters are escaped on the way out, so no input can drive the terminal.
  const io: Output = { out: (text) => terminal.out(escapeLines(text)), err: (text) => terminal.err(escapeLines(text)) };
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) throw new UsageError(`unknown command "${command}"`);
    return await run(rest, io);
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
