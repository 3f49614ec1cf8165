import { review, type FieldError, type ReviewResult } from './reviewer';
import { jsonDepth, REVIEW_DEPTH_MAX, REVIEW_ERRORS_MAX, REVIEW_INPUT_CHARS_MAX } from './reviewBounds';

export { jsonDepth, REVIEW_DEPTH_MAX, REVIEW_ERRORS_MAX, REVIEW_INPUT_CHARS_MAX };

// The reviewer within its bounds (reviewBounds.ts holds them, apart, for the page).
const invalid = (errors: FieldError[], errorsTotal = errors.length): ReviewResult => ({
  ok: false,
  errors,
  errorsTotal,
});

/** Keeps the first REVIEW_ERRORS_MAX field errors and the count of all. */
export function capErrors(result: ReviewResult): ReviewResult {
  if (result.ok || result.errors.length <= REVIEW_ERRORS_MAX) return result;
  return invalid(result.errors.slice(0, REVIEW_ERRORS_MAX), result.errorsTotal ?? result.errors.length);
}

/** Reviews a design given as JSON text: size, then depth, then parse, then the reviewer, then the error cap. */
export function reviewText(text: string): ReviewResult {
  if (text.length > REVIEW_INPUT_CHARS_MAX)
    return invalid([
      {
        field: '/',
        message: `is ${text.length.toLocaleString('en')} characters, more than the reviewer reads (${REVIEW_INPUT_CHARS_MAX.toLocaleString('en')}); a design is a few kilobytes`,
      },
    ]);
  const depth = jsonDepth(text);
  if (depth > REVIEW_DEPTH_MAX)
    return invalid([
      { field: '/', message: `nests arrays and objects more than ${REVIEW_DEPTH_MAX} levels deep; a design needs 3` },
    ]);
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return invalid([{ field: '/', message: `is not JSON: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  return capErrors(review(input));
}
