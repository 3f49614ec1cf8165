/**
 * The declaration of a race scenario's Predict question, as its data file writes it: part of a
 * scenario's metadata (core/model.ts's ScenarioMeta), so it lives in the kit; predict.ts locates
 * the question in each transcript.
 */

/** A field's expected value: equal, absent (null), present with any value, or a text that starts with the given words. */
export type PatternValue =
  string | number | boolean | null | { readonly present: true } | { readonly startsWith: string };

/** The events a pattern picks: every listed field matches (a dotted name reads inside, e.g. `message.method`). */
export interface EventPattern {
  readonly where: Readonly<Record<string, PatternValue>>;
  /** Which match counts: 1 for the first (the default), 2 for the second… */
  readonly nth?: number;
}

export interface RaceContender {
  /** Neutral words for it ("the cancellation", "the worker's chunk"). */
  readonly label: string;
  /** It is on screen once an event matching one of these is. */
  readonly on: readonly EventPattern[];
}

export interface RaceAnswer {
  readonly value: string;
  /** What the room picks; `{settingName}` is replaced by the run's setting. */
  readonly label: string;
  /** The deciding event, when this answer is right: the first event matching one of these at or after the race point. */
  readonly when: readonly EventPattern[];
  /** One line: why this answer wins when it does. */
  readonly why: string;
  /** The contender (0 or 1) that wins when this answer is right; absent when neither does outright. */
  readonly winner?: 0 | 1;
}

export interface RaceQuestion {
  /** The scenario's name while Predict is on: what races, never who wins. */
  readonly neutralTitle: string;
  readonly contenders: readonly [RaceContender, RaceContender];
  /** Neutral, naming both contenders; `{settingName}` is replaced by the run's setting. */
  readonly question: string;
  readonly answers: readonly RaceAnswer[];
  /**
   * first: stop as soon as both contenders are on screen; last: stop after the last contender
   * event before the deciding one (a race that builds up, like progress before a deadline).
   */
  readonly pointAt: 'first' | 'last';
}
