/**
 * A server's values turned to text or number without trusting them: `String(value)` calls the value's
 * own `toString`, and a JSON object may carry `"toString": 0` (TypeError: Cannot convert object to
 * primitive value). Every server value the probe prints or compares goes through these.
 */

const DESCRIBED_CHARS_MAX = 400;

/** A server's text cut to `max` characters, saying how many more there were: a line of the timeline stays a line. */
export function shortText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** Text for any value: strings as they are (up to DESCRIBED_CHARS_MAX characters), other primitives as String gives them, objects and arrays as (bounded) JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return shortText(value, DESCRIBED_CHARS_MAX);
  if (
    value === null ||
    value === undefined ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  )
    return String(value);
  try {
    const json = JSON.stringify(value);
    if (typeof json !== 'string') return `(${typeof value})`;
    return json.length > DESCRIBED_CHARS_MAX ? `${json.slice(0, DESCRIBED_CHARS_MAX)}…` : json;
  } catch {
    return `(an unprintable ${typeof value})`;
  }
}

/** A number from a value that should be one: numbers as they are, numeric strings read, anything else NaN (compares false). */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number(value);
  return NaN;
}
