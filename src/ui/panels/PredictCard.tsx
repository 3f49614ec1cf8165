import { useRef } from 'react';
import type { Transcript } from '../../engine';
import { useRunStore } from '../../store/runStore';
import { roundScore, usePredictStore } from '../../store/predictStore';
import { eventTextAt, formatMs } from '../format';
import { revealStep, ROUND_SCENARIOS, type RaceOnScreen } from '../predict';
import { reveal, runKey } from './predictGate';
import { usePredictKeys, usePredictRound } from './predictKeys';
import { usePredictRace } from './predictPhase';
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
  const transcript = useRunStore((s) => s.transcript);
  const step = useRunStore((s) => s.step);
  const key = transcript === null ? '' : runKey(transcript);
  const guess = usePredictStore((s) => s.guesses[key] ?? null);
  const setGuess = usePredictStore((s) => s.guess);
  usePredictRound(phase, race, transcript, guess);
  usePredictKeys(phase, race, transcript, key, setGuess);

  if (phase === 'none' || race === null || transcript === null) {
    return (
      <p className="predict-card" role="note" data-predict="none">
        Predict works on the race scenarios (A–D, the ignored cancellations and the two ledger races) at settings where
        both sides race: pick one of them.
      </p>
    );
  }
  if (phase === 'before') {
    const ahead = race.location.point - step;
    return (
      <section className="predict-card" aria-label="Predict" data-predict="waiting">
        <p>
          Predict: step on (the right arrow key, Space or Play). The replay stops when {contendersOf(race)} are both
          under way, {ahead} step{ahead === 1 ? '' : 's'} ahead.
        </p>
        <Score />
      </section>
    );
  }
  if (phase === 'asking') return <Asking race={race} transcript={transcript} runKey={key} guess={guess} />;
  return <Revealed race={race} transcript={transcript} guess={guess} step={step} />;
}

const contendersOf = (race: RaceOnScreen): string => `${race.contenders[0]} and ${race.contenders[1]}`;

interface AtRace {
  race: RaceOnScreen;
  transcript: Transcript;
  guess: string | null;
}

/** At the race point: the question, the answers (keys 1–4), and Reveal. */
function Asking({ race, transcript, runKey: key, guess }: AtRace & { runKey: string }) {
  const setGuess = usePredictStore((s) => s.guess);
  const nudged = usePredictStore((s) => s.nudged);
  const revealButton = useRef<HTMLButtonElement>(null);
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
          `Both are under way now: ${contendersOf(race)}. Answer with the keys 1–${race.answers.length}, then the right arrow key (or Reveal) jumps to the event that decides it.`
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

/** Past the race point: the answer and the verdict, the why, then the round's score (under the diagram, across its width). */
function Revealed({ race, transcript, guess, step }: AtRace & { step: number }) {
  const answer = race.answers.find((candidate) => candidate.value === race.location.answer);
  const guessed = race.answers.find((candidate) => candidate.value === guess);
  const verdict = guess === null ? 'none' : guess === race.location.answer ? 'right' : 'wrong';
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
        <Deciding race={race} transcript={transcript} step={step} />
      </div>
      <Score />
    </section>
  );
}

/** The event that decided the race, and a way to it when the replay stands elsewhere. */
function Deciding({ race, transcript, step }: Omit<AtRace, 'guess'> & { step: number }) {
  const wording = useRunStore((s) => s.wording);
  const decidingStep = revealStep(race);
  const deciding = transcript.events[race.location.decidingIndex];
  if (deciding === undefined) return null;
  return (
    <p className={step === decidingStep ? 'predict-deciding is-current' : 'predict-deciding'}>
      Decided at step {decidingStep}, {formatMs(deciding.atMs)}:{' '}
      {eventTextAt(wording, transcript.events, deciding, decidingStep)}{' '}
      {step !== decidingStep && (
        <button type="button" className="lab-button" onClick={() => reveal(race, transcript)}>
          Show the deciding event
        </button>
      )}
    </p>
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
