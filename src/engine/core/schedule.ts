import { LabError } from './errors';

/**
 * One choice of an ordering: `c<i>` runs the i-th of the events due at one instant (in the order
 * they were scheduled); `j<ms>` lets a message arrive `ms` after now + latencyMs (its jitter).
 */
export type Choice = { readonly kind: 'c'; readonly value: number } | { readonly kind: 'j'; readonly value: number };

/** The empty ordering: every choice takes its first option. */
export const EMPTY_SCHEDULE = '-';

/**
 * A schedule is the compact string of an ordering's choices, `c1.j115.c0`, in the order the run meets
 * them. Choices the run meets past its end take their first option (the earliest arrival,
 * the event scheduled first), so every prefix of a schedule is a schedule too.
 */
export function formatSchedule(choices: readonly Choice[]): string {
  return choices.length === 0 ? EMPTY_SCHEDULE : choices.map((choice) => `${choice.kind}${choice.value}`).join('.');
}

export function parseSchedule(text: string): Choice[] {
  const trimmed = text.trim();
  if (trimmed === EMPTY_SCHEDULE || trimmed === '') return [];
  if (trimmed.length > 100_000)
    throw new LabError('LAB022', `the schedule is ${trimmed.length} characters long; a schedule is at most 100000`);
  return trimmed.split('.').map((token, index) => {
    const match = /^([cj])(\d{1,9})$/.exec(token);
    if (match === null)
      throw new LabError(
        'LAB022',
        `"${token}" (choice ${index + 1}) is not a choice; a schedule is choices like c1 (the second of the events due at one instant) or j115 (a message arriving 115 ms after its latency) joined by dots, or "${EMPTY_SCHEDULE}"`,
      );
    return { kind: match[1] as 'c' | 'j', value: Number(match[2]) };
  });
}
