import { assert } from './core/assert';
import type { EventPattern, PatternValue, RaceQuestion } from './core/raceQuestion';

/**
 * A race scenario's Predict question, declared in its data file and located in each transcript:
 * the race point is the step at which both contenders are on screen (on the wire or running), the
 * deciding event is the first later event that one of the answers names. Nothing here counts steps
 * by hand, so another transport, seed, setting or explored ordering moves both to where they
 * happen in that run.
 */

/** Where one transcript's race stands. Steps count events shown: step k shows events 0…k-1. */
export interface RaceLocation {
  /** The step that stops and asks: both contenders are shown, the deciding event is not. */
  readonly point: number;
  /** Index of the deciding event; the reveal lands on step `decidingIndex + 1`. */
  readonly decidingIndex: number;
  /** The answer whose event decided the race. */
  readonly answer: string;
  /** Index of each contender's event at the race point (the latest shown by then). */
  readonly contenderIndexes: readonly [number, number];
}

export const RACE_ANSWERS_MIN = 2;
export const RACE_ANSWERS_MAX = 4;

type LooseEvent = Readonly<Record<string, unknown>>;

/** A field's value at a dotted path (undefined where the path leaves the objects), the path split once. */
function fieldAt(event: LooseEvent, names: readonly string[]): unknown {
  let value: unknown = event;
  for (const name of names) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

function matchesValue(actual: unknown, expected: PatternValue): boolean {
  if (expected === null) return actual === undefined || actual === null;
  if (typeof expected !== 'object') return actual === expected;
  if ('present' in expected) return actual !== undefined && actual !== null;
  return typeof actual === 'string' && actual.startsWith(expected.startsWith);
}

/**
 * A pattern's test of one event: its fields listed and their paths split once, not per event (a
 * pattern is tried on every event of a run, 20,000 in a long one).
 */
function matcher(pattern: EventPattern): (event: LooseEvent) => boolean {
  const fields = Object.entries(pattern.where).map(([path, expected]) => ({ names: path.split('.'), expected }));
  return (event) => {
    for (const { names, expected } of fields) if (!matchesValue(fieldAt(event, names), expected)) return false;
    return true;
  };
}

/** Indexes of the events each pattern picks (its nth match), sorted. */
function picked(events: readonly LooseEvent[], patterns: readonly EventPattern[]): number[] {
  const indexes: number[] = [];
  for (const pattern of patterns) {
    const nth = pattern.nth ?? 1;
    assert(Number.isSafeInteger(nth) && nth >= 1, `a race pattern's nth is a count from 1, not ${nth}`);
    const matches = matcher(pattern);
    // Most patterns name the event's kind: the other kinds are passed over without trying the rest.
    const kind = typeof pattern.where.kind === 'string' ? pattern.where.kind : undefined;
    let seen = 0;
    for (let index = 0; index < events.length; index++) {
      const event = events[index] as LooseEvent;
      if ((kind !== undefined && event.kind !== kind) || !matches(event)) continue;
      seen++;
      if (pattern.nth === undefined) indexes.push(index);
      else if (seen === nth) {
        indexes.push(index);
        break;
      }
    }
  }
  return [...new Set(indexes)].sort((a, b) => a - b);
}

/** Checks a declared question: 2–4 answers, distinct values, every pattern names at least one field. */
export function checkRaceQuestion(question: RaceQuestion): void {
  assert(
    question.answers.length >= RACE_ANSWERS_MIN && question.answers.length <= RACE_ANSWERS_MAX,
    `a race question offers ${RACE_ANSWERS_MIN}–${RACE_ANSWERS_MAX} answers, not ${question.answers.length}`,
  );
  assert(
    new Set(question.answers.map((answer) => answer.value)).size === question.answers.length,
    "a race question's answers have distinct values",
  );
  const patterns = [
    ...question.contenders.flatMap((contender) => contender.on),
    ...question.answers.flatMap((answer) => answer.when),
  ];
  for (const pattern of patterns)
    assert(Object.keys(pattern.where).length > 0, 'a race pattern names at least one field');
}

/**
 * The race in one transcript: null when a contender never shows, or when no answer's event comes
 * after both are shown (the settings took the race away).
 */
export function locateRace(question: RaceQuestion, events: readonly object[]): RaceLocation | null {
  const loose = events as readonly LooseEvent[];
  const [first, second] = question.contenders.map((contender) => picked(loose, contender.on));
  if (first === undefined || second === undefined || first.length === 0 || second.length === 0) return null;
  const bothShown = Math.max(first[0] as number, second[0] as number);
  // The deciding event: the earliest answer event after both contenders are on screen.
  let deciding: { index: number; answer: string } | null = null;
  for (const answer of question.answers) {
    const index = picked(loose, answer.when).find((candidate) => candidate > bothShown);
    if (index !== undefined && (deciding === null || index < deciding.index))
      deciding = { index, answer: answer.value };
  }
  if (deciding === null) return null;
  const decidingIndex = deciding.index;
  const latestBefore = (indexes: number[]): number => indexes.filter((index) => index < decidingIndex).at(-1) as number;
  const contenderIndexes: [number, number] =
    question.pointAt === 'last'
      ? [latestBefore(first), latestBefore(second)]
      : [first[0] as number, second[0] as number];
  const point = Math.max(...contenderIndexes) + 1;
  assert(point <= decidingIndex, 'the race point comes before the deciding event');
  return { point, decidingIndex, answer: deciding.answer, contenderIndexes };
}

/** Replaces `{settingName}` with the run's value of that setting (an unknown name stays as written). */
export function fillRaceText(text: string, settings: Readonly<Record<string, unknown>>): string {
  return text.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => {
    const value = settings[name];
    return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? String(value) : whole;
  });
}
