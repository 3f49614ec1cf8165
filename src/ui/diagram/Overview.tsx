import type { Transcript } from '../../engine';
import { useReactFlow, useStore as useFlowStore, type Viewport } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatMs } from '../format';
import { overviewColumns, overviewTicks, raceSpan, viewYAt, windowOnStrip } from '../../diagram/geometry/overview';
import { OVERVIEW_H, type DiagramLayout } from '../../diagram/geometry/model';

/** A press of ← → ↑ ↓ moves the window by this share of its width; PageUp and PageDown by all of it. */
const KEY_SHARE = 0.25;

/**
 * The run overview: the whole run as a strip above the pane (time left to right), with what has
 * happened so far ticked on it (a taller tick where a message was sent), the race window (the first
 * request to the terminal event, up to now) shaded and the pane's visible window drawn on it. A click
 * or a drag moves the view there; focused, ← → ↑ ↓ PageUp PageDown Home End move it (one Tab stop).
 * A pointer leaves the focus where it was, so → still steps the replay after a click.
 */
export function Overview({
  layout,
  transcript,
  step,
  onMove,
}: {
  layout: DiagramLayout;
  transcript: Transcript;
  step: number;
  onMove(viewport: Viewport): void;
}) {
  const transform = useFlowStore((state) => state.transform);
  const paneHeight = useFlowStore((state) => state.height);
  const { strip, width } = useStripWidth();
  const columns = useMemo(() => overviewColumns(layout, width), [layout, width]);
  const ticks = useMemo(() => overviewTicks(columns, step), [columns, step]);
  const race = useMemo(() => raceSpan(transcript.events), [transcript]);
  const flowHeight = Math.max(1, layout.height);
  const [, y, zoom] = transform;
  const view = windowOnStrip({ y, zoom }, paneHeight, flowHeight, width);
  const moves = useStripMoves({ view, width, paneHeight, flowHeight, onMove });
  const top = Math.round(-y / zoom);
  const bottom = Math.round((paneHeight - y) / zoom);
  const lastMs = transcript.events[transcript.events.length - 1]?.atMs ?? 0;
  const valueText = `showing ${formatMs(timeAt(layout, top))} to ${formatMs(timeAt(layout, bottom))} of ${formatMs(lastMs)}`;
  return (
    <div
      ref={strip}
      className="dg-overview"
      style={{ height: OVERVIEW_H }}
      role="slider"
      aria-label="Run overview"
      aria-orientation="horizontal"
      aria-valuemin={0}
      aria-valuemax={Math.round(flowHeight)}
      aria-valuenow={Math.max(0, top)}
      aria-valuetext={valueText}
      aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown PageUp PageDown Home End"
      title={`Run overview: ${valueText}. Click or drag to move the view; focused, the arrow keys and Page Up/Down move it.`}
      tabIndex={0}
      data-window-x={Math.round(view.x)}
      data-window-width={Math.round(view.width)}
      onMouseDown={(event) => event.preventDefault()}
      onPointerDown={moves.onPointerDown}
      onPointerMove={moves.onPointerMove}
      onPointerUp={moves.onPointerUp}
      onPointerCancel={moves.onPointerUp}
      onKeyDown={moves.onKeyDown}
    >
      {width > 0 && (
        <StripDrawing
          layout={layout}
          race={race}
          step={step}
          width={width}
          flowHeight={flowHeight}
          ticks={ticks}
          view={view}
        />
      )}
    </div>
  );
}

/** The strip's element and its width in whole pixels, followed as it resizes. */
function useStripWidth() {
  const strip = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = strip.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(element.clientWidth)));
    observer.observe(element);
    setWidth(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, []);
  return { strip, width };
}

/** The time of the last instant at or above flow y (times are in y order). */
function timeAt(layout: DiagramLayout, flowY: number): number {
  const times = layout.times;
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((times[mid]?.y ?? 0) <= flowY) low = mid + 1;
    else high = mid;
  }
  return times[Math.max(0, low - 1)]?.atMs ?? 0;
}

/** A click or a drag on the strip, and its keys, move the view's window there. */
function useStripMoves({
  view,
  width,
  paneHeight,
  flowHeight,
  onMove,
}: {
  view: { x: number; width: number };
  width: number;
  paneHeight: number;
  flowHeight: number;
  onMove(viewport: Viewport): void;
}) {
  const { getViewport } = useReactFlow();
  const grab = useRef<number | null>(null);
  const moveLeftTo = (left: number) => {
    const current = getViewport();
    onMove({ x: current.x, y: viewYAt(left, current.zoom, paneHeight, flowHeight, width), zoom: current.zoom });
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (width === 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const px = event.clientX - event.currentTarget.getBoundingClientRect().left;
    // Inside the window: drag it by where it was taken; elsewhere: centre it there.
    grab.current = px >= view.x && px <= view.x + view.width ? px - view.x : view.width / 2;
    moveLeftTo(px - grab.current);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (grab.current === null) return;
    moveLeftTo(event.clientX - event.currentTarget.getBoundingClientRect().left - grab.current);
  };
  const onPointerUp = () => {
    grab.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const by = {
      ArrowLeft: -KEY_SHARE,
      ArrowUp: -KEY_SHARE,
      ArrowRight: KEY_SHARE,
      ArrowDown: KEY_SHARE,
      PageUp: -1,
      PageDown: 1,
    }[event.key];
    let left: number | null = null;
    if (by !== undefined) left = view.x + by * view.width;
    else if (event.key === 'Home') left = 0;
    else if (event.key === 'End') left = width;
    if (left === null || event.altKey || event.ctrlKey || event.metaKey) return;
    // The strip's own keys: handled here, so the lab's playback keys leave them alone.
    event.preventDefault();
    moveLeftTo(left);
  };
  return { onPointerDown, onPointerMove, onPointerUp, onKeyDown };
}

/** The strip's drawing: the race window shaded, the ticks so far, now, and the pane's window. */
function StripDrawing({
  layout,
  race,
  step,
  width,
  flowHeight,
  ticks,
  view,
}: {
  layout: DiagramLayout;
  race: ReturnType<typeof raceSpan>;
  step: number;
  width: number;
  flowHeight: number;
  ticks: ReturnType<typeof overviewTicks>;
  view: { x: number; width: number };
}) {
  const nowY = step > 0 ? (layout.rowY[step - 1] ?? 0) : 0;
  const at = (flowY: number) => (flowY / flowHeight) * width;
  const raceShown =
    race !== null && race.from < step
      ? { x1: at(layout.rowY[race.from] ?? 0), x2: at(race.to < step ? (layout.rowY[race.to] ?? 0) : nowY) }
      : null;
  return (
    <svg width={width} height={OVERVIEW_H} aria-hidden="true">
      {raceShown !== null && (
        <rect
          className="dg-overview-race"
          x={raceShown.x1}
          y={0}
          width={Math.max(2, raceShown.x2 - raceShown.x1)}
          height={OVERVIEW_H}
        />
      )}
      <path className="dg-overview-event" d={ticks.events} />
      <path className="dg-overview-message" d={ticks.messages} />
      {step > 0 && <line className="dg-overview-now" x1={at(nowY)} x2={at(nowY)} y1={0} y2={OVERVIEW_H} />}
      <rect
        className="dg-overview-window"
        x={view.x + 1}
        y={1}
        width={Math.max(0, view.width - 2)}
        height={OVERVIEW_H - 2}
      />
    </svg>
  );
}
