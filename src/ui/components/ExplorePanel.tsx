import { useEffect, useRef } from 'react';
import { useLabStore, PAGE_EXPLORE_BOUND, type Ending, type Violation } from '../../store/labStore';
import { formatNumber } from '../format';
import { selectedScenario, withoutCode } from './selectors';

/** The jitter the hint offers: enough for a response and a cancellation to cross either way in A–D. */
export const EXPLORE_JITTER_MS = 20;

/** The facts' own names for a request race's ending fields; another field reads as words from its name. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  terminalState: 'Terminal state',
  clientOutcome: 'Client outcome',
  finalResponse: 'Final response',
  cancellationSignal: 'Cancellation signal',
  clientIgnores: 'Client ignores',
};

function fieldLabel(name: string): string {
  if (Object.hasOwn(FIELD_LABELS, name)) return FIELD_LABELS[name] ?? name;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'nothing' : value.map(valueText).join(', ');
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * An ending as the facts read: "Terminal state completed · Client outcome cancelled (views diverge) ·
 * Client ignores response #41 · …". The views' divergence reads beside the client's outcome, as the
 * facts show it, not as a field of its own.
 */
export function outcomeText(outcome: Record<string, unknown>): string {
  const diverge = outcome.viewsDiverge === true;
  return Object.entries(outcome)
    .filter(([name]) => name !== 'viewsDiverge')
    .map(
      ([name, value]) =>
        `${fieldLabel(name)} ${valueText(value)}${name === 'clientOutcome' && diverge ? ' (views diverge)' : ''}`,
    )
    .join(' · ');
}

/**
 * "Does this hold whatever the network does?": Explore runs the scenario in every
 * ordering the network allows, in the worker, with a progress bar and a Stop; then the count of
 * orderings, the distinct endings with their counts and the broken invariants. A click on an ending
 * or a violation opens that ordering in the diagram (`schedule=` in the link), at the violating step.
 */
export function ExplorePanel() {
  const status = useLabStore((state) => state.exploreStatus);
  const progress = useLabStore((state) => state.exploreProgress);
  const result = useLabStore((state) => state.exploration);
  const error = useLabStore((state) => state.exploreError);
  const schedule = useLabStore((state) => state.spec.schedule ?? null);
  const explore = useLabStore((state) => state.explore);
  const stopExplore = useLabStore((state) => state.stopExplore);
  const openOrdering = useLabStore((state) => state.openOrdering);
  const leaveOrdering = useLabStore((state) => state.leaveOrdering);
  const exploreWith = useLabStore((state) => state.exploreWith);
  const setSetting = useLabStore((state) => state.setSetting);
  const jitterOverride = useLabStore((state) => state.spec.settings.latencyJitterMs);
  const scenario = useLabStore(selectedScenario);
  const running = status === 'running';
  const takesJitter = scenario !== undefined && Object.hasOwn(scenario.settingsSpec, 'latencyJitterMs');
  const jitterMs = jitterOverride ?? scenario?.settings.latencyJitterMs ?? 0;
  // Explored orderings and the way back stay in view when one is opened from a long list.
  const currentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (schedule !== null) currentRef.current?.scrollIntoView({ block: 'nearest' });
  }, [schedule]);
  const ending = schedule === null ? undefined : result?.endings.find((candidate) => candidate.schedule === schedule);

  return (
    <section className="lab-explore" aria-labelledby="explore-heading" aria-busy={running} data-status={status}>
      <h2 id="explore-heading">Every ordering</h2>
      <p className="lab-explore-info">
        Runs this scenario in every order the network allows (same-instant events either way, every arrival order the
        latency range permits) and checks eleven invariants after every step.
      </p>
      {schedule !== null && (
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
            {progress === null
              ? 'Exploring in the worker…'
              : `Exploring in the worker… ${formatNumber(progress.states)} states, ${formatNumber(progress.schedules)} orderings, ${formatNumber(progress.violations)} violations so far`}
          </p>
        </div>
      )}
      {status === 'error' && error !== null && (
        <p className="lab-explore-error" role="alert">
          {error.code === 'STOPPED' ? (
            'Exploration stopped; nothing was kept.'
          ) : (
            <>
              <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
            </>
          )}
        </p>
      )}
      {result !== null && result.complete && result.schedules === 1 && takesJitter && jitterMs === 0 && (
        <div className="lab-explore-hint" role="note" data-testid="explore-one-ordering">
          <p>
            <strong>Only one ordering at these settings.</strong> With no latency jitter the network delivers every
            message at a fixed time, so the client, the server and the worker always meet in the same order: there is
            nothing to race. Jitter lets each message take a little longer or shorter, and the explorer tries every
            arrival order that allows.
          </p>
          <button
            type="button"
            className="lab-button"
            onClick={() => void exploreWith('latencyJitterMs', EXPLORE_JITTER_MS)}
          >
            Explore with {EXPLORE_JITTER_MS} ms of jitter
          </button>
        </div>
      )}
      {jitterOverride !== undefined && takesJitter && (
        <p className="lab-explore-setting" data-testid="explore-jitter">
          Latency jitter: <strong>{valueText(jitterOverride)} ms</strong> (a setting, in Settings and in the link).{' '}
          <button type="button" className="lab-button" onClick={() => setSetting('latencyJitterMs', undefined)}>
            Reset latency jitter
          </button>
        </p>
      )}
      {result !== null && <ExploreResultView result={result} onOpen={(s, seq) => void openOrdering(s, seq)} />}
    </section>
  );
}

function ExploreResultView({
  result,
  onOpen,
}: {
  result: NonNullable<ReturnType<typeof useLabStore.getState>['exploration']>;
  onOpen(schedule: string, seq: number | null): void;
}) {
  return (
    <div className="lab-explore-result" data-complete={result.complete}>
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
