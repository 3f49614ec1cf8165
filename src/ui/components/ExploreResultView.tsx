import { useEffect, useRef } from 'react';
import { useRunStore, PAGE_EXPLORE_BOUND, type Ending, type Violation } from '../../store/runStore';
import { formatNumber } from '../format';
import { outcomeText } from './exploreText';

type Explored = NonNullable<ReturnType<typeof useRunStore.getState>['exploration']>;

interface ResultProps {
  readonly result: Explored;
  onOpen(schedule: string, seq: number | null): void;
}

/** An exploration's result: the counts, each broken invariant's shortest ordering, the violations and the endings; each opens its ordering. */
export function ExploreResultView({ result, onOpen }: ResultProps) {
  // When an exploration ends, its first shortest failing ordering's button is in view (else the summary).
  const view = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first = view.current?.querySelector('.lab-explore-shortest button') ?? view.current;
    first?.scrollIntoView({ block: 'nearest' });
  }, [result]);
  return (
    <div className="lab-explore-result" data-complete={result.complete} ref={view}>
      <p className="lab-explore-summary" data-testid="explore-summary">
        <strong>{formatNumber(result.schedules)}</strong> {result.schedules === 1 ? 'ordering' : 'orderings'} (
        {formatNumber(result.states)} states),{' '}
        {result.complete
          ? 'every ordering explored'
          : `not complete: cut at ${formatNumber(PAGE_EXPLORE_BOUND)} states, so the counts are lower bounds`}
        .{' '}
        {result.violations.length === 0
          ? result.complete
            ? 'Every invariant holds in every ordering.'
            : `Violations: ${result.verdict}.`
          : `${result.violations.length} ${result.violations.length === 1 ? 'violation' : 'violations'}${result.complete ? '' : ` found in ${formatNumber(result.states)} states, not complete`}.`}
      </p>
      {result.shortest.length > 0 && <ShortestOrderings result={result} onOpen={onOpen} />}
      {result.violations.length > 0 && (
        <>
          <h3>Violations</h3>
          <ul className="lab-explore-list" aria-label="Violations">
            {result.violations.map((violation: Violation, index) => (
              <li key={`${violation.invariant}-${index}`}>
                <button
                  type="button"
                  className="lab-explore-item is-bad"
                  onClick={() => onOpen(violation.schedule, violation.step)}
                >
                  <strong>{violation.invariant}</strong> at event {violation.step}: {violation.explanation}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Endings</h3>
      <ul className="lab-explore-list" aria-label="Endings">
        {result.endings.map((ending: Ending, index) => (
          <li key={index}>
            <button type="button" className="lab-explore-item" onClick={() => onOpen(ending.schedule, null)}>
              <strong>
                {formatNumber(ending.count)} {ending.count === 1 ? 'ordering' : 'orderings'}
              </strong>{' '}
              {outcomeText(ending.distinct)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Per broken invariant, the shortest ordering that breaks it (fewest events, then the earliest break),
 * shrunk from the one the exploration kept: a button opens it in the diagram at the breaking event.
 */
function ShortestOrderings({ result, onOpen }: ResultProps) {
  return (
    <>
      <h3>Shortest failing orderings</h3>
      <ul className="lab-explore-list lab-explore-shortest" aria-label="Shortest failing orderings">
        {result.shortest.map((shortest) => (
          <li key={shortest.invariant} data-testid="explore-shortest">
            <span>
              <strong>{shortest.invariant}</strong> breaks at event {shortest.step} ({formatNumber(shortest.atMs)} ms)
              in <code>{shortest.schedule}</code>
              {shortest.schedule === shortest.explored ? '' : ` (shrunk from ${shortest.explored})`}:{' '}
              {shortest.explanation}
            </span>{' '}
            <button
              type="button"
              className="lab-button"
              aria-label={`Open the shortest ordering that breaks ${shortest.invariant}`}
              onClick={() => onOpen(shortest.schedule, shortest.step)}
            >
              Open the shortest ordering
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
