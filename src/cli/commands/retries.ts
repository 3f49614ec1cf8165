import { retryTable } from '../../engine';
import type { Command } from './shared';

/** `retries`: the retry classification of every exposed operation. */
export const retries: Command = async (_args, io) => {
  io.out(`${retriesText()}\n`);
  return 0;
};

function retriesText(): string {
  return retryTable()
    .map(
      (row) =>
        `${row.operation.padEnd(24)} ${row.retryClass.padEnd(12)} ${row.rule}${row.hintWarnings.map((w) => `\n${' '.repeat(38)}! ${w}`).join('')}`,
    )
    .join('\n');
}
