import { useMemo } from 'react';
import type uPlot from 'uplot';
import { usePanelsStore } from '../../store/panels';
import { SLIDER_RANGES, type BufferView } from '../../store/panelsStore';
import { Chart } from './Chart';
import { LoadState } from './LoadState';

const OPTIONS: Omit<uPlot.Options, 'width' | 'height'> = {
  scales: { x: { time: false } },
  axes: [
    {
      label: 'virtual time (ms)',
      stroke: '#374151',
      grid: { stroke: '#e5e7eb' },
      font: '14px system-ui',
      labelFont: '15px system-ui',
    },
    {
      label: 'events held',
      stroke: '#374151',
      grid: { stroke: '#e5e7eb' },
      font: '14px system-ui',
      labelFont: '15px system-ui',
    },
  ],
  series: [
    { label: 'ms' },
    { label: 'Occupancy', stroke: '#1d4ed8', width: 2, fill: 'rgba(29,78,216,0.12)' },
    { label: 'Capacity', stroke: '#c2410c', width: 2, dash: [8, 6], points: { show: false } },
    { label: 'Dropped', stroke: '#b91c1c', paths: () => null, points: { show: true, size: 9, fill: '#b91c1c' } },
    { label: 'Final', stroke: '#15803d', paths: () => null, points: { show: true, size: 12, fill: '#15803d' } },
    {
      label: 'Refused (producer held)',
      stroke: '#7c2d12',
      paths: () => null,
      points: { show: true, size: 14, fill: '#fde68a', width: 3 },
    },
  ],
};

function chartData(view: BufferView): uPlot.AlignedData {
  const p = view.points;
  return [
    p.map((point) => point.atMs),
    p.map((point) => point.occupancyEvents),
    p.map(() => view.capacityEvents),
    p.map((point) => (point.action === 'dropped' ? point.occupancyEvents : null)),
    p.map((point) =>
      point.what === 'final' && point.action !== 'refused' && point.action !== 'released'
        ? point.occupancyEvents
        : null,
    ),
    p.map((point) => (point.action === 'refused' ? point.occupancyEvents : null)),
  ];
}

/** docs/requirements.md#bounded-progress-buffer-bf (BF): the bounded buffer's occupancy over time, live against its capacity. */
export function BufferPanel() {
  const capacity = usePanelsStore((s) => s.capacity);
  const setCapacity = usePanelsStore((s) => s.setCapacity);
  const load = usePanelsStore((s) => s.buffer);
  const view = 'value' in load ? load.value : null;
  const data = useMemo(() => (view === null ? null : chartData(view)), [view]);

  return (
    <section className="panel" aria-labelledby="buffer-title">
      <h2 id="buffer-title">Buffer overload</h2>
      <p className="panel-lede">
        Three tool calls stream progress into a bounded SSE buffer faster than the client reads. Progress is coalesced
        or dropped; a final response never is.
      </p>
      <div className="panel-sliders">
        <div className="panel-slider">
          <label htmlFor="buffer-capacity">Queue capacity</label>
          <input
            id="buffer-capacity"
            type="range"
            min={SLIDER_RANGES.bufferCapacity.min}
            max={SLIDER_RANGES.bufferCapacity.max}
            step={SLIDER_RANGES.bufferCapacity.step}
            value={capacity}
            onChange={(e) => setCapacity(Number(e.target.value))}
          />
          <output htmlFor="buffer-capacity" data-testid="capacity-value">
            {capacity} {capacity === 1 ? 'event' : 'events'}
          </output>
        </div>
      </div>
      <LoadState load={load} />
      {view !== null && data !== null && (
        <>
          <BufferNumbers view={view} />
          <Chart
            options={OPTIONS}
            data={data}
            label={`Buffer occupancy over time, capacity ${view.capacityEvents}: ${view.dropped} dropped, ${view.coalesced} coalesced, ${view.refusedPushes} refused (producer held ${view.producerHeldMs} ms), final response ${view.finalDelivered ? 'survived' : 'lost'}`}
          />
          <BufferEvents view={view} />
        </>
      )}
    </section>
  );
}

/** The run's numbers: dropped, coalesced, highest occupancy, the final response, refetch, refusals. */
function BufferNumbers({ view }: { view: BufferView }) {
  return (
    <dl className="panel-numbers" data-testid="buffer-numbers">
      <div>
        <dt>Dropped progress</dt>
        <dd data-testid="buffer-dropped">{view.dropped}</dd>
      </div>
      <div>
        <dt>Coalesced progress</dt>
        <dd data-testid="buffer-coalesced">{view.coalesced}</dd>
      </div>
      <div>
        <dt>Highest occupancy</dt>
        <dd>
          {view.maxOccupancy} of {view.capacityEvents}
        </dd>
      </div>
      <div>
        <dt>Final response</dt>
        <dd data-testid="buffer-final">{view.finalDelivered ? 'survived' : 'lost'}</dd>
      </div>
      <div>
        <dt>Needs refetch</dt>
        <dd data-testid="buffer-refetch">{view.needsRefetch ? 'yes — progress was lost, refetch state' : 'no'}</dd>
      </div>
      <div>
        <dt>Refused pushes</dt>
        <dd data-testid="buffer-refused">{view.refusedPushes}</dd>
      </div>
      <div>
        <dt>Producer held back</dt>
        <dd data-testid="buffer-held">{view.producerHeldMs} ms</dd>
      </div>
    </dl>
  );
}

/** The pushes the buffer refused, and what became of each final response. */
function BufferEvents({ view }: { view: BufferView }) {
  return (
    <>
      {view.refusals.length > 0 && (
        <>
          <h3>Refused pushes (BF-5)</h3>
          <p>
            Every held event was a final response: keeping another would have dropped one. The buffer refused the push
            and the producer waited until the client read an event.
          </p>
          <ul className="panel-list" aria-label="Refused pushes">
            {view.refusals.map((r) => (
              <li key={r.seq}>
                <span className="panel-warn">⏸</span> {r.summary} refused at {r.refusedAtMs} ms — producer held back{' '}
                {r.heldMs} ms, pushed again at {r.releasedAtMs} ms
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Final responses</h3>
      <ul className="panel-list">
        {view.finals.map((f) => (
          <li key={f.seq}>
            <span className="panel-ok">✓</span> {f.summary} — {f.action} at {f.atMs} ms
            {f.action === 'refused' ? ' (the producer waits)' : ', never dropped'}
          </li>
        ))}
        {view.refetchMark !== null && (
          <li>
            <span className="panel-warn">!</span> needs-refetch marked at {view.refetchMark.atMs} ms (
            {view.refetchMark.summary})
          </li>
        )}
      </ul>
    </>
  );
}
