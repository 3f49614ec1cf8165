import { useStore as useFlowStore, ViewportPortal } from '@xyflow/react';
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { textWidthPx } from '../../diagram/geometry/text';
import { usePanelsStore } from '../../store/panels';
import { formatMs, formatNumber } from '../format';
import { useVisibleBand } from './band';
import { barsAt, type DiagramFlow } from './flow';
import {
  BAR_W,
  BREAK_H,
  TIME_FONT_PX,
  type DeadlineBar,
  type DiagramLayout,
  type TimeMark,
} from '../../diagram/geometry/model';

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

export const Backdrop = memo(function Backdrop({
  flow,
  step,
  nowY,
  unplaced,
}: {
  flow: DiagramFlow;
  step: number;
  nowY: number;
  /** The view is not yet fitted to the pane: no rows yet (see useVisibleBand). */
  unplaced: boolean;
}) {
  const { layout } = flow;
  const band = useVisibleBand(unplaced);
  const inBand = useMemo(
    () => ({
      times: flow.timeSpans.query(band).map((at) => layout.times[at]),
      breaks: flow.breakSpans.query(band).map((at) => layout.breaks[at]),
    }),
    [flow, layout, band],
  );
  const breaks = useMemo(
    () => inBand.breaks.flatMap((fold) => (fold !== undefined && fold.index < step ? [fold] : [])),
    [inBand, step],
  );
  const bars = useMemo(() => barsAt(flow, step, band, nowY), [flow, step, band, nowY]);

  return (
    <ViewportPortal>
      <div className="dg-backdrop">
        {layout.lanes.map((lane) => (
          <div
            key={lane.id}
            className="dg-lane"
            data-lane={lane.id}
            style={{ left: lane.x - 2, height: layout.height }}
          />
        ))}
        {breaks.map((fold) => (
          <div
            key={fold.id}
            className="dg-break"
            data-kind="break"
            data-ms={fold.ms}
            style={{ top: fold.y - BREAK_H / 2, width: layout.width, height: BREAK_H }}
          >
            <span>⋯ {formatNumber(fold.ms)} ms ⋯</span>
          </div>
        ))}
        {bars.map(({ bar, ended, y2 }) => (
          <div
            key={bar.id}
            role="img"
            aria-label={barLabel(bar, ended)}
            title={barLabel(bar, ended)}
            className={[
              'dg-bar',
              `deadline-${bar.deadline}`,
              ended ? 'state-ended' : 'state-running',
              ended && bar.endAction !== null ? `end-${bar.endAction}` : '',
            ]
              .filter(Boolean)
              .join(' ')}
            data-kind="bar"
            data-deadline={bar.deadline}
            data-state={ended ? 'ended' : 'running'}
            data-due-ms={bar.dueAtMs}
            style={{ left: bar.x, top: Math.min(bar.y1, y2 - 4), width: BAR_W, height: Math.max(4, y2 - bar.y1) }}
          />
        ))}
        <div className="dg-now" style={{ top: nowY - 1, width: layout.width }} />
      </div>
      <TimeColumn flow={flow} times={inBand.times} step={step} />
    </ViewportPortal>
  );
});

/**
 * The widest time label's box (flow px): the last instant's (times only grow), in the labels' monospace
 * font, so one drawn label's advance per character gives it. Until a label is drawn, an estimate a
 * little generous (it errs toward pinning early).
 */
function widestTimeBox(layout: DiagramLayout, advancePx: number | null, padPx: number): number {
  const lastMs = layout.times.reduce((most, time) => Math.max(most, time.atMs), 0);
  const text = formatMs(lastMs);
  return padPx + (advancePx === null ? textWidthPx(text, TIME_FONT_PX, true) : advancePx * text.length);
}

/** The zoom of the viewport an element is drawn in (its transform's scale). */
function zoomOf(element: Element): number {
  const viewport = element.closest('.react-flow__viewport');
  return viewport === null ? 1 : new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a || 1;
}

/** The label's padding (.dg-time: 0.4rem right, 1 px left) at a 16 px root, until a label is measured. */
const TIME_BOX_PAD_PX = 7.4;

/**
 * The time of each instant, a row header at the diagram's left. Panned right further than the labels'
 * own room, the column stays pinned at the pane's left edge on a background of its own, over what it
 * covers, so a time is never read cut ("1205 ms" as "205 ms"). Presenting, the view gives up the column
 * on purpose (the playback bar says the time): there a column that would be cut is not drawn at all.
 */
function TimeColumn({ flow, times, step }: { flow: DiagramFlow; times: Array<TimeMark | undefined>; step: number }) {
  const { layout } = flow;
  const column = useRef<HTMLDivElement>(null);
  const [font, setFont] = useState<{ advancePx: number; padPx: number } | null>(null);
  // The room left of the widest label: how far the view may pan right before a label would be cut.
  // Memoized: the column re-renders on every pan frame while pinned, and the box only moves with the layout or font.
  const slack = useMemo(
    () =>
      Math.max(
        0,
        layout.timeRight - widestTimeBox(layout, font?.advancePx ?? null, font?.padPx ?? TIME_BOX_PAD_PX) - 1,
      ),
    [layout, font],
  );
  // Flow px the column moves right to stay whole; 0 while it fits (the view is not panned past its room).
  const pin = useFlowStore((state) => Math.max(0, -state.transform[0] / state.transform[2] - slack));
  const presentation = usePanelsStore((state) => state.presentation);
  const labels = useMemo(
    () =>
      times.flatMap((time) =>
        time !== undefined && time.index < step
          ? [
              <div
                key={time.id}
                className="dg-time"
                data-at-ms={time.atMs}
                style={{ top: time.y, left: layout.timeRight }}
              >
                {formatMs(time.atMs)}
              </div>,
            ]
          : [],
      ),
    [times, step, layout],
  );
  // One drawn label measures the font (its box on screen over the viewport's zoom: the layout's px).
  useLayoutEffect(() => {
    const label = column.current?.firstElementChild;
    if (font !== null || !(label instanceof HTMLElement) || (label.textContent ?? '').length === 0) return;
    const style = getComputedStyle(label);
    const padPx = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const advancePx = (label.getBoundingClientRect().width / zoomOf(label) - padPx) / (label.textContent ?? '').length;
    if (advancePx > 0) setFont({ advancePx, padPx });
  }, [font, labels]);
  const pinned = pin > 0;
  return (
    <div
      ref={column}
      className="dg-time-column"
      data-pinned={pinned}
      data-given-up={pinned && presentation}
      style={pinned ? { transform: `translateX(${pin}px)` } : undefined}
    >
      {labels}
    </div>
  );
}
