import { useMemo } from 'react';
import type uPlot from 'uplot';
import { usePanelsStore } from '../../store/panels';
import { HERD_POLICIES, SLIDER_RANGES, type HerdPolicy, type HerdView } from '../../store/panelsStore';
import { Chart } from './Chart';
import { LoadState } from './LoadState';

const POLICY_LABELS: Record<HerdPolicy, string> = {
  'full-jitter': 'full jitter',
  'equal-jitter': 'equal jitter',
  'decorrelated-jitter': 'decorrelated jitter',
  exponential: 'exponential, no jitter',
  none: 'no backoff (retry at once)',
};

const axis = { stroke: '#374151', grid: { stroke: '#e5e7eb' }, font: '14px system-ui', labelFont: '15px system-ui' };

function options(main: string, compare: string | null): Omit<uPlot.Options, 'width' | 'height'> {
  const series: uPlot.Series[] = [
    { label: 'ms' },
    { label: main, stroke: '#1d4ed8', width: 2, fill: 'rgba(29,78,216,0.12)' },
  ];
  if (compare !== null) series.push({ label: compare, stroke: '#c2410c', width: 2, dash: [8, 6] });
  return {
    scales: { x: { time: false } },
    axes: [
      { ...axis, label: 'virtual time (ms)' },
      { ...axis, label: 'attempts per window', size: 70 },
    ],
    series,
  };
}

function chartData(main: HerdView, compare: HerdView | null): uPlot.AlignedData {
  const windows = Math.max(main.attemptsPerWindow.length, compare?.attemptsPerWindow.length ?? 0);
  const xs = Array.from({ length: windows }, (_, i) => i * main.windowMs);
  const pad = (values: number[]) => xs.map((_, i) => values[i] ?? 0);
  return compare === null
    ? [xs, pad(main.attemptsPerWindow)]
    : [xs, pad(main.attemptsPerWindow), pad(compare.attemptsPerWindow)];
}

function Numbers({ view, testId }: { view: HerdView; testId: string }) {
  return (
    <dl className="panel-numbers" data-testid={testId}>
      <div>
        <dt>Policy</dt>
        <dd>{view.policy}</dd>
      </div>
      <div>
        <dt>Total attempts</dt>
        <dd data-testid={`${testId}-total`}>{view.totalAttempts.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Peak per {view.windowMs} ms</dt>
        <dd data-testid={`${testId}-peak`}>{view.peakAttemptsPerWindow.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>First window</dt>
        <dd data-testid={`${testId}-first`}>{view.firstWindowAttempts.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Highest retry wave</dt>
        <dd data-testid={`${testId}-retry-peak`}>{view.peakRetryAttemptsPerWindow.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Time to recover</dt>
        <dd data-testid={`${testId}-recover`}>{view.allReconnectedAtMs.toLocaleString('en-US')} ms</dd>
      </div>
    </dl>
  );
}

function Slider({
  id,
  label,
  min,
  max,
  step,
  value,
  unit,
  onChange,
}: {
  id: string;
  label: string;
  min: number;
  max: number;
  step: number;
  value: number;
  unit: string;
  onChange(value: number): void;
}) {
  return (
    <div className="panel-slider">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <output htmlFor={id}>
        {value.toLocaleString('en-US')} {unit}
      </output>
    </div>
  );
}

/**
 * RV-5 in words, from the engine's numbers: why a policy can finish sooner on the clock while hitting
 * the server hardest. The admission floor and every count are the engine's; this only words them.
 */
function Why({ views }: { views: HerdView[] }) {
  const fmt = (value: number) => value.toLocaleString('en-US');
  const floor = views[0]?.admissionFloorMs ?? 0;
  return (
    <div className="panel-why" data-testid="herd-why">
      <h3>Sooner on the clock is not gentler on the server</h3>
      <p>
        The recovering server admits a fixed number of clients per window, so the last of {fmt(views[0]?.clients ?? 0)}{' '}
        clients can get in at {fmt(floor)} ms at the earliest. Retrying at once (no backoff) keeps every window full and
        reaches that floor — but every waiting client comes back in every window, so the server must answer far more
        attempts, almost all of them refusals. With jitter, clients sleep, windows go part-empty and the last client
        gets in later, with far fewer attempts and lower waves.
      </p>
      <ul className="panel-list">
        {views.map((view) => (
          <li key={view.policy}>
            <strong>{view.policy}</strong>: last client in at {fmt(view.allReconnectedAtMs)} ms (
            {view.allReconnectedAtMs <= floor
              ? 'at the floor'
              : `${fmt(view.allReconnectedAtMs - floor)} ms after the floor`}
            ); {fmt(view.totalAttempts)} attempts, {fmt(view.totalAttempts - view.clients)} of them refused;{' '}
            {fmt(view.firstWindowAttempts)} in the first window, at most {fmt(view.peakRetryAttemptsPerWindow)} retries
            in one window.
          </li>
        ))}
      </ul>
    </div>
  );
}

/** docs/requirements.md#proxies-and-recovery-rv (RV-4, RV-5): a herd of clients reconnecting after an outage, with and without jitter. */
export function BackoffPanel() {
  const inputs = usePanelsStore((s) => s.herdInputs);
  const setHerd = usePanelsStore((s) => s.setHerd);
  const load = usePanelsStore((s) => s.herd);
  const value = 'value' in load ? load.value : null;
  const chartOptions = useMemo(
    () => (value === null ? null : options(value.main.policy, value.compare?.policy ?? null)),
    [value],
  );
  const data = useMemo(() => (value === null ? null : chartData(value.main, value.compare)), [value]);

  return (
    <section className="panel" aria-labelledby="backoff-title">
      <h2 id="backoff-title">Backoff and the thundering herd</h2>
      <p className="panel-lede">
        Every client loses its stream at 0 ms. Its first attempt waits too (up to the base delay, RV-4). The server
        admits a fixed number per window and refuses the rest, who back off and try again.
      </p>
      <div className="panel-sliders">
        <Slider
          id="herd-base"
          label="Base delay"
          {...SLIDER_RANGES.herdBaseMs}
          value={inputs.baseMs}
          unit="ms"
          onChange={(baseMs) => setHerd({ baseMs })}
        />
        <Slider
          id="herd-cap"
          label="Cap"
          {...SLIDER_RANGES.herdCapMs}
          value={inputs.capMs}
          unit="ms"
          onChange={(capMs) => setHerd({ capMs })}
        />
        <Slider
          id="herd-clients"
          label="Clients"
          {...SLIDER_RANGES.herdClients}
          value={inputs.clients}
          unit=""
          onChange={(clients) => setHerd({ clients })}
        />
        <div className="panel-slider">
          <label htmlFor="herd-policy">Policy</label>
          <select
            id="herd-policy"
            value={inputs.policy}
            onChange={(e) => setHerd({ policy: e.target.value as HerdPolicy })}
          >
            {HERD_POLICIES.map((p) => (
              <option key={p} value={p}>
                {POLICY_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <div className="panel-slider">
          <label htmlFor="herd-compare">Compare with</label>
          <select
            id="herd-compare"
            value={inputs.comparePolicy ?? ''}
            onChange={(e) => setHerd({ comparePolicy: e.target.value === '' ? null : (e.target.value as HerdPolicy) })}
          >
            <option value="">no second policy</option>
            {HERD_POLICIES.map((p) => (
              <option key={p} value={p}>
                {POLICY_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadState load={load} />
      {value !== null && chartOptions !== null && data !== null && (
        <>
          <div className="panel-columns">
            <Numbers view={value.main} testId="herd-main" />
            {value.compare !== null && <Numbers view={value.compare} testId="herd-compare" />}
          </div>
          <Chart
            options={chartOptions}
            data={data}
            label={`Attempts per ${value.main.windowMs} ms window: ${value.main.policy} peaks at ${value.main.peakAttemptsPerWindow}, ${value.main.totalAttempts} attempts in all`}
          />
          <Why views={value.compare === null ? [value.main] : [value.main, value.compare]} />
        </>
      )}
    </section>
  );
}
