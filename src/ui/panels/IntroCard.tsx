import { useEffect } from 'react';
import { useRunStore } from '../../store/runStore';
import { usePredictStore } from '../../store/predictStore';
import { selectedScenario } from '../components/selectors';
import { formatMs } from '../format';

/**
 * The first visit's card (the page opened without a link): what is about to race in the request
 * race on screen, read from its settings (the tool's work, the user's cancel), and what to press.
 * Start from step 0 rewinds the replay so the run unfolds from the beginning. It stands over the
 * diagram's empty foot at step 0 and closes once the replay moves past it.
 */
export function IntroCard() {
  const open = usePredictStore((s) => s.introOpen);
  const close = usePredictStore((s) => s.setIntroOpen);
  const scenario = useRunStore(selectedScenario);
  const step = useRunStore((s) => s.step);
  // The card stands over the diagram's empty foot: once the run unfolds, it has said what it had to and closes.
  useEffect(() => {
    if (open && step > 0) close(false);
  }, [open, step, close]);
  if (!open || scenario === undefined || scenario.kind !== 'request-race') return null;
  const workMs = scenario.settings.workMs;
  const cancelAtMs = scenario.settings.cancelAtMs;
  const ms = (value: unknown) => (typeof value === 'number' ? formatMs(value) : null);
  const start = () => {
    useRunStore.getState().rewind();
    close(false);
  };
  return (
    <section className="predict-card intro-card" aria-labelledby="intro-title" data-testid="intro-card">
      <h2 id="intro-title">What is about to race</h2>
      <p>
        The client calls a slow tool{ms(workMs) === null ? '' : `: the server’s worker needs ${ms(workMs)}`}
        {ms(cancelAtMs) === null ? '.' : `, and the user cancels at ${ms(cancelAtMs)}.`} Which one wins, and what does
        each side see?
      </p>
      <p>
        The replay stands at step 0: nothing has happened yet. Press <strong>Step forward</strong> (or the right arrow
        key) for one event at a time, <strong>Play</strong> (Space) to watch it run, or <strong>Predict</strong> (Q) to
        guess first.
      </p>
      <p className="intro-actions">
        <button type="button" className="lab-button predict-reveal" onClick={start}>
          Start from step 0
        </button>{' '}
        <button type="button" className="lab-button" onClick={() => close(false)}>
          Close
        </button>
      </p>
    </section>
  );
}
