import { ViewportPortal } from '@xyflow/react';
import { memo, useMemo } from 'react';
import { formatMs, formatNumber } from '../format';
import { useVisibleBand } from './band';
import { barsAt, type DiagramFlow } from './flow';
import { BAR_W, BREAK_H, ROW_H, type DeadlineBar } from './layout';

/**
 * What sits behind the wires and markers, in flow coordinates: the lanes' lifelines, the time of
 * each instant, the deadline bars on the client lane and the line at the current event. None of it
 * is interactive, so it is drawn here rather than as React Flow nodes, and culled to the rows on
 * screen (in bands, so panning within a band re-renders nothing), found without a pass over the run.
 */

function barLabel(bar: DeadlineBar, ended: boolean): string {
  const name = bar.deadline === 'idle' ? 'idle deadline' : 'maximum deadline';
  if (!ended) return `${name}, due at ${bar.dueAtMs} ms`;
  const how = bar.endAction === 'reset' ? 'restarted' : bar.endAction === 'fired' ? 'fired' : 'switched off';
  return `${name}, due at ${bar.dueAtMs} ms: ${how}`;
}

export const Backdrop = memo(function Backdrop({ flow, step, nowY }: { flow: DiagramFlow; step: number; nowY: number }) {
  const { layout } = flow;
  const band = useVisibleBand();
  const inBand = useMemo(() => ({ times: flow.timeSpans.query(band).map((at) => layout.times[at]), breaks: flow.breakSpans.query(band).map((at) => layout.breaks[at]) }), [flow, layout, band]);
  const breaks = useMemo(() => inBand.breaks.flatMap((fold) => (fold !== undefined && fold.index < step ? [fold] : [])), [inBand, step]);
  const times = useMemo(() => inBand.times.flatMap((time) => (time !== undefined && time.index < step ? [time] : [])), [inBand, step]);
  const bars = useMemo(() => barsAt(flow, step, band, nowY), [flow, step, band, nowY]);

  return (
    <ViewportPortal>
      <div className="dg-backdrop">
        {layout.lanes.map((lane) => (
          <div key={lane.id} className="dg-lane" data-lane={lane.id} style={{ left: lane.x - 2, height: layout.height }} />
        ))}
        {times.map((time) => (
          <div key={time.id} className="dg-time" data-at-ms={time.atMs} style={{ top: time.y - ROW_H / 2, width: layout.timeRight }}>
            {formatMs(time.atMs)}
          </div>
        ))}
        {breaks.map((fold) => (
          <div key={fold.id} className="dg-break" data-kind="break" data-ms={fold.ms} style={{ top: fold.y - BREAK_H / 2, width: layout.width, height: BREAK_H }}>
            <span>⋯ {formatNumber(fold.ms)} ms ⋯</span>
          </div>
        ))}
        {bars.map(({ bar, ended, y2 }) => (
          <div
            key={bar.id}
            role="img"
            aria-label={barLabel(bar, ended)}
            title={barLabel(bar, ended)}
            className={['dg-bar', `deadline-${bar.deadline}`, ended ? 'state-ended' : 'state-running', ended && bar.endAction !== null ? `end-${bar.endAction}` : ''].filter(Boolean).join(' ')}
            data-kind="bar"
            data-deadline={bar.deadline}
            data-state={ended ? 'ended' : 'running'}
            data-due-ms={bar.dueAtMs}
            style={{ left: bar.x, top: Math.min(bar.y1, y2 - 4), width: BAR_W, height: Math.max(4, y2 - bar.y1) }}
          />
        ))}
        <div className="dg-now" style={{ top: nowY - 1, width: layout.width }} />
      </div>
    </ViewportPortal>
  );
});
