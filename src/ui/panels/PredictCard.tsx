import { useEffect, useRef } from 'react';
import { useLabStore } from '../../store/labStore';
import { roundScore, usePredictStore } from '../../store/predictStore';
import { eventTextAt, formatMs } from '../format';
import { revealStep, ROUND_SCENARIOS } from '../predict';
import { forwardAtRacePoint, reveal, runKey } from './predictGate';
import { usePredictRace } from './predictPhase';
import { OWNS_KEYS, TEXT_FIELD } from './ownsKeys';
import { keepRoundInBrowser } from '../../store/roundStorage';

// The round outlives a reload: read back when Predict's card first loads, saved on every change.
keepRoundInBrowser();

// Predict mode's card, loaded when Predict is first turned on (less script on first load).

/**
 * Predict mode's question at the race point of a race scenario, and its answer at the deciding
 * event. Before the race point it says where the replay will stop; at it, it names both contenders
 * and asks (keys 1–4 pick, → or Reveal jumps to the deciding event); past it, the answer, the
 * verdict and why. The round's score over A–D stays on the card.
 */
export function PredictCard() {
  const { race, phase } = usePredictRace();
  const transcript = useLabStore((s) => s.transcript);
  const step = useLabStore((s) => s.step);
  const wording = useLabStore((s) => s.wording);
  const key = transcript === null ? '' : runKey(transcript);
  const guess = usePredictStore((s) => s.guesses[key] ?? null);
  const setGuess = usePredictStore((s) => s.guess);
  const revealButton = useRef<HTMLButtonElement>(null);
  const nudged = usePredictStore((s) => s.nudged);

  // The request for a guess belongs to the race point: away from it, it goes.
  useEffect(() => {
    if (phase !== 'asking' && nudged) usePredictStore.getState().setNudged(false);
  }, [phase, nudged]);

  // Past the race point with a guess: the round counts it (whichever way the replay got there).
  useEffect(() => {
    if (phase !== 'revealed' || race === null || transcript === null || guess === null) return;
    if ((ROUND_SCENARIOS as readonly string[]).includes(transcript.scenario))
      usePredictStore.getState().score(transcript.scenario, { guess, answer: race.location.answer });
  }, [phase, race, transcript, guess]);

  // At the race point the room answers by number; → or Space reveals (ahead of the stepping keys).
  useEffect(() => {
    if (phase !== 'asking' || race === null || transcript === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog[open]') != null) return;
      const inField = target?.closest(OWNS_KEYS) != null;
      const answer = race.answers[Number(event.key) - 1];
      if (
        answer !== undefined &&
        !(inField && target?.matches('input[type="text"], input[type="number"], textarea') === true)
      ) {
        event.preventDefault();
        setGuess(key, answer.value);
        return;
      }
      if (target?.closest(TEXT_FIELD) != null) return;
      // Every key that moves forward (→, End, Space and "." unless they press a focused control) reveals
      // after a guess, and before one stays here and asks for it: no key shows the answer by accident.
      const presses =
        (event.key === ' ' || event.key === '.') && (inField || target?.closest('button, a[href], summary') != null);
      if (event.key === 'ArrowRight' || event.key === 'End' || ((event.key === ' ' || event.key === '.') && !presses)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        forwardAtRacePoint();
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [phase, race, transcript, key, setGuess]);

  if (phase === 'none' || race === null || transcript === null) {
    return (
      <p className="predict-card" role="note" data-predict="none">
        Predict works on the race scenarios (A–D, the ignored cancellations and the two ledger races) at settings where
        both sides race: pick one of them.
      </p>
    );
  }
  const contenders = `${race.contenders[0]} and ${race.contenders[1]}`;
  const point = race.location.point;

  if (phase === 'before') {
    return (
      <section className="predict-card" aria-label="Predict" data-predict="waiting">
        <p>
          Predict: step on (the right arrow key, Space or Play). The replay stops when {contenders} are both under way,{' '}
          {point - step} step{point - step === 1 ? '' : 's'} ahead.
        </p>
        <Score />
      </section>
    );
  }

  if (phase === 'asking') {
    return (
      <section className="predict-card" aria-labelledby="predict-title" data-predict="asking">
        <h2 id="predict-title">Race point: predict, then reveal</h2>
        {/* A step forward without a guess stays here: the hint's line says why the replay did not move (announced). */}
        <p className="predict-hint" role="status">
          {nudged && guess === null ? (
            <strong data-testid="predict-nudge">
              The replay waits at the race point: make your guess (keys 1–{race.answers.length}), or press Reveal to see
              the answer without one.
            </strong>
          ) : (
            `Both are under way now: ${contenders}. Answer with the keys 1–${race.answers.length}, then the right arrow key (or Reveal) jumps to the event that decides it.`
          )}
        </p>
        <fieldset>
          <legend>{race.question}</legend>
          {race.answers.map((answer, n) => (
            <label key={answer.value} className="predict-choice">
              <input
                type="radio"
                name="predict-winner"
                value={answer.value}
                checked={guess === answer.value}
                onChange={() => {
                  setGuess(key, answer.value);
                  // Back to the keys of the replay: → reveals from here.
                  revealButton.current?.focus();
                }}
              />{' '}
              <kbd>{n + 1}</kbd> {answer.label}
            </label>
          ))}
        </fieldset>
        <div className="predict-actions">
          <button
            type="button"
            ref={revealButton}
            className="lab-button predict-reveal"
            onClick={() => reveal(race, transcript)}
          >
            Reveal
          </button>
          <Score />
        </div>
      </section>
    );
  }

  const answer = race.answers.find((candidate) => candidate.value === race.location.answer);
  const guessed = race.answers.find((candidate) => candidate.value === guess);
  const decidingStep = revealStep(race);
  const deciding = transcript.events[race.location.decidingIndex];
  const verdict = guess === null ? 'none' : guess === race.location.answer ? 'right' : 'wrong';
  // Under the diagram, across its width: the answer and the verdict, the why, then the round's score.
  return (
    <section className="predict-card" aria-labelledby="predict-answer" data-predict="revealed" data-verdict={verdict}>
      <div className="predict-result">
        <h2 id="predict-answer">Answer</h2>
        <p className="predict-answer">
          <strong data-testid="predict-winner">{answer?.label ?? race.location.answer}</strong>
        </p>
        <p className="predict-verdict" data-testid="predict-verdict">
          {verdict === 'none' ? (
            'No prediction was made.'
          ) : verdict === 'right' ? (
            <>
              <span className="predict-badge">Right</span> that was the prediction.
            </>
          ) : (
            <>
              <span className="predict-badge">Not quite</span> the prediction was “{guessed?.label ?? guess}”.
            </>
          )}
        </p>
      </div>
      <div className="predict-explain">
        <p className="predict-why" data-testid="predict-why">
          Why: {answer?.why}
        </p>
        {deciding !== undefined && (
          <p className={step === decidingStep ? 'predict-deciding is-current' : 'predict-deciding'}>
            Decided at step {decidingStep}, {formatMs(deciding.atMs)}:{' '}
            {eventTextAt(wording, transcript.events, deciding, decidingStep)}{' '}
            {step !== decidingStep && (
              <button type="button" className="lab-button" onClick={() => reveal(race, transcript)}>
                Show the deciding event
              </button>
            )}
          </p>
        )}
      </div>
      <Score />
    </section>
  );
}

/** The round over A–D: right answers of those answered, and a reset for the next group. */
function Score() {
  const round = usePredictStore((s) => s.round);
  const resetRound = usePredictStore((s) => s.resetRound);
  const { right, answered, total } = roundScore(round, ROUND_SCENARIOS);
  return (
    <p className="predict-score" data-testid="predict-score" data-complete={answered === total ? 'true' : undefined}>
      Round {ROUND_SCENARIOS[0]}–{ROUND_SCENARIOS.at(-1)}:{' '}
      {answered === 0 ? (
        <strong className="predict-tally">no answers yet</strong>
      ) : (
        <>
          <strong className="predict-tally">
            {right} of {answered} right
          </strong>
          {answered < total ? ` (${answered} of ${total} answered)` : ' (round complete)'}
        </>
      )}{' '}
      <button type="button" className="lab-button predict-reset" disabled={answered === 0} onClick={resetRound}>
        Reset score
      </button>
    </p>
  );
}
