import { useEffect, useMemo, useState } from 'react';
import { useLabStore } from '../../store/labStore';
import { usePanelsStore } from '../../store/panels';
import { racePoint } from '../predict';
import { OWNS_KEYS } from './ownsKeys';

// Predict mode's card, loaded when Predict is first turned on (issue #9: less script on first load).

const WINNERS = [
  { value: 'completed', label: 'The result: the request completes' },
  { value: 'cancelled', label: 'The cancellation: the request is cancelled' },
  { value: 'timeout-idle', label: 'The idle timeout' },
  { value: 'timeout-max', label: 'The maximum timeout' },
] as const;

const IGNORES = [
  { value: 'late', label: 'A late final response or progress for the ended request' },
  { value: 'nothing', label: 'Nothing: every message is still for a live request' },
] as const;

/** Predict mode's question at the race point of a request race (A–D), and its answer one step later. */
export function PredictCard() {
  const predict = usePanelsStore((s) => s.predict);
  const transcript = useLabStore((s) => s.transcript);
  const step = useLabStore((s) => s.step);
  const playing = useLabStore((s) => s.playing);
  const [winner, setWinner] = useState<string | null>(null);
  const [ignore, setIgnore] = useState<string | null>(null);
  // The race point: the step before either side of the race shows (see predict.ts).
  const point = useMemo(() => (transcript === null ? null : racePoint(transcript)), [transcript]);
  const key = transcript === null ? '' : `${transcript.scenario}/${transcript.transport}/${transcript.seed}`;
  const [forKey, setForKey] = useState(key);
  if (forKey !== key) {
    setForKey(key);
    setWinner(null);
    setIgnore(null);
  }

  useEffect(() => {
    if (predict && playing && point !== null && step === point) useLabStore.getState().pause();
  }, [predict, playing, point, step]);

  // At the race point the room answers by number (1–4: who wins, 5–6: what to ignore); → reveals.
  const asking = predict && point !== null && step === point;
  useEffect(() => {
    if (!asking) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(OWNS_KEYS) != null) return;
      const digit = Number(event.key);
      const w = WINNERS[digit - 1];
      const i = IGNORES[digit - 1 - WINNERS.length];
      if (w !== undefined) setWinner(w.value);
      else if (i !== undefined) setIgnore(i.value);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [asking]);

  if (!predict || transcript === null || point === null || transcript.kind !== 'request-race') {
    return predict ? (
      <p className="predict-card" role="note">
        Predict mode works on the request races A–D: pick one of them.
      </p>
    ) : null;
  }
  const outcome = transcript.outcome as { terminalState: string; clientIgnores: { summary: string; reason: string }[] };

  if (step < point) {
    return (
      <p className="predict-card" role="note" data-predict="waiting">
        Predict: step on (→ or Space) — the lab stops at the race point, {point - step} step{point - step === 1 ? '' : 's'} ahead.
      </p>
    );
  }
  if (step === point) {
    return (
      <section className="predict-card" aria-labelledby="predict-title" data-predict="asking">
        <h2 id="predict-title">Race point: predict, then step (→)</h2>
        <p className="predict-hint">Both sides are still open: the diagram shows everything up to here. Answer with the keys 1–6, then → reveals who won.</p>
        <fieldset>
          <legend>Which event wins?</legend>
          {WINNERS.map((w, n) => (
            <label key={w.value} className="predict-choice">
              <input type="radio" name="predict-winner" value={w.value} checked={winner === w.value} onChange={() => setWinner(w.value)} /> <kbd>{n + 1}</kbd> {w.label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>What must the client ignore?</legend>
          {IGNORES.map((w, n) => (
            <label key={w.value} className="predict-choice">
              <input type="radio" name="predict-ignore" value={w.value} checked={ignore === w.value} onChange={() => setIgnore(w.value)} /> <kbd>{n + 1 + WINNERS.length}</kbd> {w.label}
            </label>
          ))}
        </fieldset>
      </section>
    );
  }
  const winnerRight = winner === outcome.terminalState;
  const ignoreAnswer = outcome.clientIgnores.length === 0 ? 'nothing' : 'late';
  return (
    <section className="predict-card" aria-labelledby="predict-answer" data-predict="revealed">
      <h2 id="predict-answer">Answer</h2>
      <p data-verdict={winner === null ? 'none' : winnerRight ? 'right' : 'wrong'}>
        Wins: <strong data-testid="predict-winner">{outcome.terminalState}</strong>
        {winner === null ? ' — no prediction was made.' : winnerRight ? ' — right: your prediction was correct.' : ` — wrong: you predicted ${winner}.`}
      </p>
      <p>
        The client ignores:{' '}
        {outcome.clientIgnores.length === 0 ? <strong>nothing</strong> : outcome.clientIgnores.map((i) => <strong key={i.summary}>{i.summary} </strong>)}
        {ignore === null ? '' : ignore === ignoreAnswer ? ' — right.' : ' — not what you predicted.'}
      </p>
    </section>
  );
}
