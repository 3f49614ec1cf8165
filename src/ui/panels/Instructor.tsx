import { Fragment, lazy, useEffect } from 'react';
import { PartBoundary } from '../components/PartBoundary';
import { useRunStore } from '../../store/runStore';
import { usePanelsStore } from '../../store/panels';
import { racePoint } from '../predict';
import { OWNS_KEYS } from './ownsKeys';
import { notApplyingReason, TAB_NOTE_ID } from './tabScenario';

/** The presenter keys' hint, a pair to a piece: where it wraps, it wraps between pairs, never inside one. */
const PRESENTER_KEYS = ['→ step', '← back', 'Space play', 'Home start', 'P or Esc to leave'] as const;

/**
 * Instructor modes. Presentation: large type, only the diagram and the facts (the rest hides), driven
 * by the presenter keys (→ ← Space Home End), P toggles it and Escape leaves it. Predict: a replay
 * stops at the race point and asks the room; the next step reveals the answer.
 */
export function InstructorBar() {
  const presentation = usePanelsStore((s) => s.presentation);
  const predict = usePanelsStore((s) => s.predict);
  const setPresentation = usePanelsStore((s) => s.setPresentation);
  const notHere = notApplyingReason(usePanelsStore((s) => s.tab));

  useEffect(() => {
    document.documentElement.dataset.presentation = presentation ? 'on' : 'off';
  }, [presentation]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(OWNS_KEYS) != null || target?.closest('dialog[open]') != null) return;
      const panels = usePanelsStore.getState();
      if (event.key === 'p' || event.key === 'P') {
        event.preventDefault();
        if (!panels.presentation) panels.setTab('race');
        panels.setPresentation(!panels.presentation);
      } else if ((event.key === 'q' || event.key === 'Q') && notApplyingReason(panels.tab) === null) {
        event.preventDefault();
        togglePredict();
      } else if (event.key === 'Escape' && panels.presentation) {
        event.preventDefault();
        panels.setPresentation(false);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="instructor-bar" role="group" aria-label="Instructor">
      <button
        type="button"
        className="panel-toggle"
        aria-pressed={presentation}
        aria-keyshortcuts="P"
        onClick={() => {
          if (!presentation) usePanelsStore.getState().setTab('race');
          setPresentation(!presentation);
        }}
      >
        Presentation
      </button>
      <button
        type="button"
        className="panel-toggle"
        aria-pressed={predict}
        aria-keyshortcuts="Q"
        aria-disabled={notHere !== null ? true : undefined}
        aria-describedby={notHere === null ? undefined : TAB_NOTE_ID}
        title={notHere ?? undefined}
        onClick={() => notHere === null && togglePredict()}
      >
        Predict
      </button>
      {presentation && (
        <span className="instructor-keys">
          {PRESENTER_KEYS.map((pair, index) => (
            <Fragment key={pair}>
              {index > 0 && ' · '}
              <span>{pair}</span>
            </Fragment>
          ))}
        </span>
      )}
    </div>
  );
}

/**
 * Predict on or off. Turned on past the race point of a request race, the replay goes back to the
 * start, so the room predicts before it sees the answer.
 */
function togglePredict(): void {
  const panels = usePanelsStore.getState();
  const lab = useRunStore.getState();
  if (!panels.predict && lab.transcript !== null) {
    const point = racePoint(lab);
    if (point !== null && lab.step > point) lab.rewind();
  }
  panels.setPredict(!panels.predict);
}

const PredictCard = lazy(() => import('./PredictCard').then((module) => ({ default: module.PredictCard })));

/** Predict mode's question at the race point of a request race (A–D), and its answer one step later (PredictCard.tsx, loaded when Predict is on). */
export function PredictPrompt() {
  const predict = usePanelsStore((s) => s.predict);
  if (!predict) return null;
  return (
    <PartBoundary name="the prediction card">
      <PredictCard />
    </PartBoundary>
  );
}
