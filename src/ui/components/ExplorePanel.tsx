import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { formatSchedule, useRunStore } from '../../store/runStore';
import { withoutCode } from './selectors';
import { outcomeText } from './exploreText';
import { ExploreResultView } from './ExploreResultView';
import { ExploreJitter, ExploreProgressView } from './ExploreParts';

export { outcomeText } from './exploreText';
export { EXPLORE_JITTER_MS } from './ExploreParts';

/**
 * "Does this hold whatever the network does?": Explore runs the scenario in every
 * ordering the network allows, in the worker, with a progress bar and a Stop; then the count of
 * orderings, the distinct endings with their counts and the broken invariants, each broken invariant
 * with its shortest ordering. A click on an ending, a violation or a shortest ordering opens that
 * ordering in the diagram (`schedule=` in the link), at the violating step.
 */
export function ExplorePanel({ focusOnMove }: { focusOnMove: FocusOnMove }) {
  const status = useRunStore((state) => state.exploreStatus);
  const result = useRunStore((state) => state.exploration);
  const explore = useRunStore((state) => state.explore);
  const stopExplore = useRunStore((state) => state.stopExplore);
  const openOrdering = useRunStore((state) => state.openOrdering);
  const running = status === 'running';
  const section = useRef<HTMLElement>(null);
  const exploreButton = useRef<HTMLButtonElement>(null);
  useFocusKeptAcrossMoves(section, focusOnMove);

  return (
    <section
      className="lab-explore"
      aria-labelledby="explore-heading"
      aria-busy={running}
      data-status={status}
      ref={section}
    >
      {/* Beside the results when the panel has the row under the diagram; above them in the side column. */}
      <div className="lab-explore-main">
        <h2 id="explore-heading">Every ordering</h2>
        {/* Under the heading: opened, the ordering shown and the way back read with it, before the panel's own text. */}
        <ExploreCurrent />
        <p className="lab-explore-info">
          Runs this scenario in every order the network allows (same-instant events either way, every arrival order the
          latency range permits) and checks eleven invariants after every step.
        </p>
        <div className="lab-explore-actions">
          <button
            type="button"
            className="lab-button"
            onClick={() => void explore()}
            disabled={running}
            ref={exploreButton}
          >
            Explore
          </button>
          {running && <StopButton onStop={stopExplore} onGone={() => exploreButton.current?.focus()} />}
        </div>
        {running && <ExploreProgressView />}
        <ExploreError />
        <ExploreJitter />
      </div>
      {result !== null && <ExploreResultView result={result} onOpen={(s, seq) => void openOrdering(s, seq)} />}
    </section>
  );
}

/** Stop exploring, while an exploration runs: focused when it goes, it hands the focus to Explore (enabled again by then). */
function StopButton({ onStop, onGone }: { onStop(): void; onGone(): void }) {
  const button = useRef<HTMLButtonElement>(null);
  const gone = useRef(onGone);
  gone.current = onGone;
  useLayoutEffect(() => {
    const element = button.current;
    return () => {
      if (element !== null && document.activeElement === element) queueMicrotask(() => gone.current());
    };
  }, []);
  return (
    <button type="button" className="lab-stop" onClick={onStop} ref={button}>
      Stop exploring
    </button>
  );
}

/**
 * The accessible name of the control that had the focus when the panel left its place (side column or
 * row), if any: held by the page around both places, which outlives the move.
 */
export type FocusOnMove = RefObject<string | null>;

/**
 * The panel moves between the side column and the row under the diagram as an exploration starts and
 * ends: the focus a keyboard user had in it follows it, to the control of the same name, else to the
 * one that acts now (Stop exploring while it runs, Explore after).
 */
function useFocusKeptAcrossMoves(section: RefObject<HTMLElement | null>, focusedOnMove: FocusOnMove) {
  useLayoutEffect(() => {
    const element = section.current;
    const lost = document.activeElement === null || document.activeElement === document.body;
    const name = focusedOnMove.current;
    if (name !== null && element !== null && lost) {
      focusedOnMove.current = null;
      const buttons = [...element.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
      const named = (text: string) => buttons.find((button) => nameOf(button) === text);
      (named(name) ?? named('Stop exploring') ?? named('Explore'))?.focus();
    }
    return () => {
      // Leaving the side column for the row: the column shows its top again (the description's line), not
      // wherever it was scrolled to reach Explore.
      element?.closest('.lab-side-scroll')?.scrollTo({ top: 0 });
      const focused = document.activeElement;
      focusedOnMove.current =
        element !== null && focused !== null && element.contains(focused) ? nameOf(focused) : null;
      // A move mounts the panel again in the same commit; any other unmount leaves the focus alone.
      queueMicrotask(() => (focusedOnMove.current = null));
    };
  }, [section, focusedOnMove]);
}

const nameOf = (element: Element): string => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();

/** The explored ordering the diagram shows, and the way back to the seeded run. */
function ExploreCurrent() {
  // As the exploration writes its orderings (a string, so the selector's answer compares by value).
  const schedule = useRunStore((state) =>
    state.spec.schedule === undefined ? null : formatSchedule(state.spec.schedule),
  );
  const result = useRunStore((state) => state.exploration);
  const leaveOrdering = useRunStore((state) => state.leaveOrdering);
  // Opened (from a long list, or with the panel scrolled), the panel's heading and, under it, the ordering
  // shown and the way back come into view: the heading first, then the rest if it is not in view with it.
  const currentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const current = currentRef.current;
    if (schedule === null || current === null) return;
    current.parentElement?.querySelector('h2')?.scrollIntoView({ block: 'nearest' });
    current.scrollIntoView({ block: 'nearest' });
  }, [schedule]);
  if (schedule === null) return null;
  const ending = result?.endings.find((candidate) => candidate.schedule === schedule);
  return (
    <div className="lab-explore-current" role="status" ref={currentRef}>
      <span>
        Showing explored ordering <code>{schedule}</code>
        {schedule === '-' ? ' (every choice its first option)' : ''}
        {ending !== undefined ? `: ${outcomeText(ending.distinct)}` : ''}
      </span>
      <button type="button" className="lab-button" onClick={leaveOrdering}>
        Back to the seeded run
      </button>
    </div>
  );
}

function ExploreError() {
  const status = useRunStore((state) => state.exploreStatus);
  const error = useRunStore((state) => state.exploreError);
  if (status !== 'error' || error === null) return null;
  return (
    <p className="lab-explore-error" role="alert">
      {error.code === 'STOPPED' ? (
        'Exploration stopped; nothing was kept.'
      ) : (
        <>
          <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
        </>
      )}
    </p>
  );
}
