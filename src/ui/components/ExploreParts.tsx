// The Explore panel's smaller parts: the latency-jitter hint and setting, and the progress of a running exploration.
import { useRunStore } from '../../store/runStore';
import { formatNumber } from '../format';
import { selectedScenario } from './selectors';
import { valueText } from './exploreText';

/** The jitter the hint offers: enough for a response and a cancellation to cross either way in A–D. */
export const EXPLORE_JITTER_MS = 20;

/** The progress of a running exploration: a bar and its counts so far. */
export function ExploreProgressView() {
  const progress = useRunStore((state) => state.exploreProgress);
  return (
    <div className="lab-explore-progress">
      <progress aria-label="Exploration progress" max={1} value={progress?.fraction ?? 0} />
      <p role="status">
        {progress === null
          ? 'Exploring in the worker…'
          : `Exploring in the worker… ${formatNumber(progress.states)} states, ${formatNumber(progress.schedules)} orderings, ${formatNumber(progress.violations)} violations so far`}
      </p>
    </div>
  );
}

export /** Latency jitter: the hint when there is one ordering for lack of it, and the setting when it is set. */
function ExploreJitter() {
  const result = useRunStore((state) => state.exploration);
  const exploreWith = useRunStore((state) => state.exploreWith);
  const setSetting = useRunStore((state) => state.setSetting);
  const jitterOverride = useRunStore((state) => state.spec.settings.latencyJitterMs);
  const scenario = useRunStore(selectedScenario);
  const takesJitter = scenario !== undefined && Object.hasOwn(scenario.settingsSpec, 'latencyJitterMs');
  const jitterMs = jitterOverride ?? scenario?.settings.latencyJitterMs ?? 0;
  return (
    <>
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
    </>
  );
}
