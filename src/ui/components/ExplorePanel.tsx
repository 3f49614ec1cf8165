import { useLabStore, PAGE_EXPLORE_BOUND, type Ending, type Violation } from '../../store/labStore';
import { formatNumber } from '../format';
import { withoutCode } from './selectors';

/** An ending's outcome in words: `terminalState cancelled · finalResponse no · …`. */
function outcomeText(outcome: Record<string, unknown>): string {
  return Object.entries(outcome)
    .map(([name, value]) => `${name} ${Array.isArray(value) ? (value.length === 0 ? 'none' : value.join(', ')) : value === true ? 'yes' : value === false ? 'no' : value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' · ');
}

/**
 * "Does this hold whatever the network does?" (issue #11): Explore runs the scenario in every
 * ordering the network allows, in the worker, with a progress bar and a Stop; then the count of
 * orderings, the distinct endings with their counts and the broken invariants. A click on an ending
 * or a violation opens that ordering in the diagram (`schedule=` in the link), at the violating step.
 */
export function ExplorePanel() {
  const status = useLabStore((state) => state.exploreStatus);
  const progress = useLabStore((state) => state.exploreProgress);
  const result = useLabStore((state) => state.exploration);
  const error = useLabStore((state) => state.exploreError);
  const schedule = useLabStore((state) => state.schedule);
  const explore = useLabStore((state) => state.explore);
  const stopExplore = useLabStore((state) => state.stopExplore);
  const openOrdering = useLabStore((state) => state.openOrdering);
  const leaveOrdering = useLabStore((state) => state.leaveOrdering);
  const running = status === 'running';

  return (
    <section className="lab-explore" aria-labelledby="explore-heading" aria-busy={running} data-status={status}>
      <h2 id="explore-heading">Every ordering</h2>
      <p className="lab-explore-info">Runs this scenario in every order the network allows (same-instant events either way, every arrival order the latency range permits) and checks eleven invariants after every step.</p>
      {schedule !== null && (
        <div className="lab-explore-current" role="status">
          <span>
            Showing explored ordering <code>{schedule}</code>
            {schedule === '-' ? ' (every choice its first option)' : ''}
          </span>
          <button type="button" className="lab-button" onClick={leaveOrdering}>
            Back to the seeded run
          </button>
        </div>
      )}
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
      {running && (
        <div className="lab-explore-progress">
          <progress aria-label="Exploration progress" max={1} value={progress?.fraction ?? 0} />
          <p role="status">
            {progress === null ? 'Exploring in the worker…' : `Exploring in the worker… ${formatNumber(progress.states)} states, ${formatNumber(progress.schedules)} orderings, ${formatNumber(progress.violations)} violations so far`}
          </p>
        </div>
      )}
      {status === 'error' && error !== null && (
        <p className="lab-explore-error" role="alert">
          {error.code === 'STOPPED' ? 'Exploration stopped; nothing was kept.' : <><strong>{error.code}</strong> {withoutCode(error.code, error.message)}</>}
        </p>
      )}
      {result !== null && <ExploreResultView result={result} onOpen={(s, seq) => void openOrdering(s, seq)} />}
    </section>
  );
}

function ExploreResultView({ result, onOpen }: { result: NonNullable<ReturnType<typeof useLabStore.getState>['exploration']>; onOpen(schedule: string, seq: number | null): void }) {
  return (
    <div className="lab-explore-result" data-complete={result.complete}>
      <p className="lab-explore-summary" data-testid="explore-summary">
        <strong>{formatNumber(result.schedules)}</strong> {result.schedules === 1 ? 'ordering' : 'orderings'} ({formatNumber(result.states)} states),{' '}
        {result.complete ? 'every ordering explored' : `not complete: cut at ${formatNumber(PAGE_EXPLORE_BOUND)} states, so the counts are lower bounds`}.{' '}
        {result.violations.length === 0 ? (result.complete ? 'Every invariant holds in every ordering.' : `Violations: ${result.verdict}.`) : `${result.violations.length} ${result.violations.length === 1 ? 'violation' : 'violations'}${result.complete ? '' : ` found in ${formatNumber(result.states)} states, not complete`}.`}
      </p>
      {result.violations.length > 0 && (
        <>
          <h3>Violations</h3>
          <ul className="lab-explore-list" aria-label="Violations">
            {result.violations.map((violation: Violation, index) => (
              <li key={`${violation.invariant}-${index}`}>
                <button type="button" className="lab-explore-item is-bad" onClick={() => onOpen(violation.schedule, violation.step)}>
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
              {outcomeText(ending.outcome)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
