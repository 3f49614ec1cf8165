import { LabError } from '../../engine';
import { formatReview } from '../../lesson/reviewer';
import { REVIEW_INPUT_CHARS_MAX, reviewText } from '../../lesson/reviewLimits';
import { readBounded } from '../boundedRead';
import { escapeControl, escapeDeep } from '../safeOutput';
import { UsageError, type Command } from './shared';

/** `review FILE.json`: the reliability reviewer's report on a design (exit 1 when the input is refused). */
export const review: Command = async (args, io) => {
  if (args.length !== 1) throw new UsageError('review takes one JSON file');
  const path = args[0] as string;
  let text: string;
  try {
    // Bounded in bytes and time whatever the file is: a device or a pipe has no size to check first.
    text = readBounded(path, REVIEW_INPUT_CHARS_MAX, 'reviewer').toString('utf8');
  } catch (error) {
    if (error instanceof LabError) throw error;
    io.err(`lab: ${escapeControl(path)} is not readable (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
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
};
