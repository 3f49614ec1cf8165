import { useEffect, useRef } from 'react';
import { formatSchedule, useLabStore } from '../../store/labStore';
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
export function ExplorePanel() {
  const status = useLabStore((state) => state.exploreStatus);
  const result = useLabStore((state) => state.exploration);
  const explore = useLabStore((state) => state.explore);
  const stopExplore = useLabStore((state) => state.stopExplore);
  const openOrdering = useLabStore((state) => state.openOrdering);
  const running = status === 'running';

  return (
    <section className="lab-explore" aria-labelledby="explore-heading" aria-busy={running} data-status={status}>
      <h2 id="explore-heading">Every ordering</h2>
      <p className="lab-explore-info">
        Runs this scenario in every order the network allows (same-instant events either way, every arrival order the
        latency range permits) and checks eleven invariants after every step.
      </p>
      <ExploreCurrent />
      <div className="lab-explore-actions">
        <button type="button" className="lab-button" onClick={() => void explore()} disabled={running}>
          Explore
        </button>
        {running && (
          <button type="button" className="lab-stop" onClick={stopExplore}>
            Stop exploring
          </button>
        )}
      </div>
      {running && <ExploreProgressView />}
      <ExploreError />
      <ExploreJitter />
      {result !== null && <ExploreResultView result={result} onOpen={(s, seq) => void openOrdering(s, seq)} />}
    </section>
  );
}

/** The explored ordering the diagram shows, and the way back to the seeded run. */
function ExploreCurrent() {
  // As the exploration writes its orderings (a string, so the selector's answer compares by value).
  const schedule = useLabStore((state) =>
    state.spec.schedule === undefined ? null : formatSchedule(state.spec.schedule),
  );
  const result = useLabStore((state) => state.exploration);
  const leaveOrdering = useLabStore((state) => state.leaveOrdering);
  // Explored orderings and the way back stay in view when one is opened from a long list.
  const currentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (schedule !== null) currentRef.current?.scrollIntoView({ block: 'nearest' });
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
  const status = useLabStore((state) => state.exploreStatus);
  const error = useLabStore((state) => state.exploreError);
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
