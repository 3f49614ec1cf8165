import type { LabEvent } from '../../engine';
import { OVERVIEW_EVENT_TICK, OVERVIEW_H, OVERVIEW_MESSAGE_TICK, OVERVIEW_WINDOW_MIN_PX } from './model';

/**
 * The run overview: the whole diagram squeezed into a strip, time running left to right (as the
 * DevTools Performance panel's overview runs over its flame chart). A column of the strip stands for
 * a slice of the diagram's time axis (flow y); the pane's visible window and the race window are
 * spans of the strip. Pure: the page draws what these functions return, and moves the view by
 * `viewYAt`.
 */

/** What the strip needs of a layout: each event's row and the events that send a message. */
export interface OverviewSource {
  /** The diagram's height (flow px): the strip's full width stands for it. */
  height: number;
  rowY: readonly number[];
  messageIndexes: readonly number[];
}

/** Per column of a strip `width` px wide: the first event (by index) drawn in it, or Infinity. */
export interface OverviewColumns {
  width: number;
  /** The first event of any kind in each column. */
  firstEvent: Float64Array;
  /** The first message event in each column. */
  firstMessage: Float64Array;
}

/** The strip's x (px) of a flow y. */
export function stripX(flowY: number, flowHeight: number, width: number): number {
  if (flowHeight <= 0) return 0;
  return Math.max(0, Math.min(width, (flowY / flowHeight) * width));
}

/** Which event first reaches each column: computed once per layout and width, so a step only reads it. */
export function overviewColumns(source: OverviewSource, width: number): OverviewColumns {
  const columns = Math.max(0, Math.floor(width));
  const firstEvent = new Float64Array(columns).fill(Infinity);
  const firstMessage = new Float64Array(columns).fill(Infinity);
  const column = (y: number) => Math.min(columns - 1, Math.floor(stripX(y, source.height, columns)));
  if (columns === 0) return { width: columns, firstEvent, firstMessage };
  source.rowY.forEach((y, i) => {
    const c = column(y);
    if (i < (firstEvent[c] as number)) firstEvent[c] = i;
  });
  for (const i of source.messageIndexes) {
    const c = column(source.rowY[i] as number);
    if (i < (firstMessage[c] as number)) firstMessage[c] = i;
  }
  return { width: columns, firstEvent, firstMessage };
}

/**
 * The strip's ticks after `step` events, as SVG path data: one short tick per column where an event
 * has happened, a taller one where a message was sent. Nothing after the current step is drawn.
 */
export function overviewTicks(columns: OverviewColumns, step: number): { events: string; messages: string } {
  let events = '';
  let messages = '';
  const eventTop = (OVERVIEW_H - OVERVIEW_EVENT_TICK) / 2;
  const messageTop = (OVERVIEW_H - OVERVIEW_MESSAGE_TICK) / 2;
  for (let c = 0; c < columns.width; c++) {
    if ((columns.firstMessage[c] as number) < step) messages += `M${c + 0.5} ${messageTop}v${OVERVIEW_MESSAGE_TICK}`;
    else if ((columns.firstEvent[c] as number) < step) events += `M${c + 0.5} ${eventTop}v${OVERVIEW_EVENT_TICK}`;
  }
  return { events, messages };
}

/** The pane's visible window on the strip: from the flow y at the pane's top to the one at its bottom, at least OVERVIEW_WINDOW_MIN_PX wide. */
export function windowOnStrip(
  view: { y: number; zoom: number },
  paneHeight: number,
  flowHeight: number,
  width: number,
): { x: number; width: number } {
  const top = -view.y / view.zoom;
  const bottom = (paneHeight - view.y) / view.zoom;
  const x1 = stripX(top, flowHeight, width);
  const x2 = stripX(bottom, flowHeight, width);
  const drawn = Math.max(OVERVIEW_WINDOW_MIN_PX, x2 - x1);
  return { x: Math.max(0, Math.min(width - drawn, x1)), width: Math.min(width, drawn) };
}

/**
 * The viewport y that puts the window's left edge at strip x `left`: the inverse of windowOnStrip,
 * kept inside the diagram (its top never below the pane's top, its end never above the pane's bottom).
 */
export function viewYAt(left: number, zoom: number, paneHeight: number, flowHeight: number, width: number): number {
  const flowTop = width <= 0 ? 0 : (left / width) * flowHeight;
  const lowest = Math.min(0, paneHeight - flowHeight * zoom);
  return Math.max(lowest, Math.min(0, -flowTop * zoom));
}

/**
 * The race window: from the first request (the first `tools/call`, else the first request of any
 * method) to the terminal event, as event indexes; null when the run has no request.
 */
export function raceSpan(events: readonly LabEvent[]): { from: number; to: number } | null {
  let from = -1;
  let any = -1;
  let to = -1;
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as LabEvent;
    if (event.kind === 'message' && from < 0) {
      const message = event.message as { method?: unknown; id?: unknown };
      if (typeof message.method === 'string' && message.id !== undefined) {
        if (any < 0) any = i;
        if (message.method === 'tools/call') from = i;
      }
    } else if (event.kind === 'terminal' && to < 0 && (from >= 0 || any >= 0)) to = i;
  }
  const start = from >= 0 ? from : any;
  if (start < 0) return null;
  return { from: start, to: to >= 0 ? to : events.length - 1 };
}
