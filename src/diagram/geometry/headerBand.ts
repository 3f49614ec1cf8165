import { HEADER_BAND_PX, TIME_FONT_PX, type DiagramLayout } from './model';

/**
 * The lane headers' band and the diagram's text. The band (HEADER_BAND_PX on screen, opaque) is pinned
 * to the top of the pane and the diagram scrolls under it. The layout lays nothing out under it at the
 * top (the race view's first band keeps the room its labels need), and a view the lab moves to never
 * leaves a text cut by the band's lower edge: each text is either whole below it or scrolled past it
 * (clearOfHeaders). The page reads this module (it lays nothing out): only rows, no text widths.
 */

/** A wire label's baseline above its line (its fate word's baseline is its own tagY), and the two fonts (px at zoom 1). */
export const LABEL_RAISE = 9;
export const LABEL_FONT_PX = 15;
/** The halo around a wire's label and fate word (a 6 px stroke, half of it outside the ink). */
export const TEXT_HALO_PX = 3;
export const FATE_FONT_PX = 14;
/** A time label's line (.dg-time: 14 px, line-height 1.25), centred on its row. */
const TIME_HALF_PX = (TIME_FONT_PX * 1.25) / 2;

/**
 * The rows a line of text's ink takes from its baseline (the sans-serif's ascent and descent). Its halo
 * (the paper-coloured stroke that breaks lines under a label) is left out: over the band, which is paper
 * too, it is not seen.
 */
export const textTop = (baseline: number, fontPx: number): number => baseline - 0.95 * fontPx;
export const textBottom = (baseline: number, fontPx: number): number => baseline + 0.25 * fontPx;

/**
 * Every text's rows in a layout (wire labels and fate words, markers and chips, times), merged where they
 * touch: [top, bottom, top, bottom, …] in flow px, ascending. A fate word's rows count whether or not the
 * wire shows one (a view that clears a word never shown moves a little more than it had to, never less).
 */
export function textRows(layout: Pick<DiagramLayout, 'wires' | 'markers' | 'times'>): Float64Array {
  // The tops and the bottoms sorted apart (typed arrays, no pair per text): the merged runs are the
  // same as merging the texts in order of their tops, since each text's bottom is below its top.
  const count = 2 * layout.wires.length + layout.markers.length + layout.times.length;
  const tops = new Float64Array(count);
  const bottoms = new Float64Array(count);
  let at = 0;
  for (const wire of layout.wires) {
    const baseline = wire.labelY - LABEL_RAISE;
    tops[at] = textTop(baseline, LABEL_FONT_PX);
    bottoms[at++] = textBottom(baseline, LABEL_FONT_PX);
    tops[at] = textTop(wire.tagY, FATE_FONT_PX);
    bottoms[at++] = textBottom(wire.tagY, FATE_FONT_PX);
  }
  for (const marker of layout.markers) {
    tops[at] = marker.y - marker.height / 2;
    bottoms[at++] = marker.y + marker.height / 2;
  }
  for (const time of layout.times) {
    tops[at] = time.y - TIME_HALF_PX;
    bottoms[at++] = time.y + TIME_HALF_PX;
  }
  tops.sort();
  bottoms.sort();
  const merged: number[] = [];
  // A run starts at the lowest top not yet taken; it takes every text that starts at or above the
  // lowest bottom still open, and ends when every text it took has ended before the next top.
  let opened = 0;
  let closed = 0;
  while (opened < count) {
    const top = tops[opened++] as number;
    for (;;) {
      while (opened < count && (tops[opened] as number) <= (bottoms[closed] as number)) opened += 1;
      while (closed < opened && (opened === count || (bottoms[closed] as number) < (tops[opened] as number)))
        closed += 1;
      if (closed === opened) break;
    }
    merged.push(top, bottoms[closed - 1] as number);
  }
  return Float64Array.from(merged);
}

/** How far a view the lab follows with may move (a share of the pane's height) so that the band cuts no text. */
export const HEADER_CLEAR_SHARE = 0.2;

/**
 * The highest pan y of a view at `zoom` the lab moves to (the diagram's top in view): 0, or, at a zoom
 * under 1 (a replay fitted to its pane), lower by what the layout's room above its first texts
 * (HEADER_BAND_PX at zoom 1) is drawn short of the band, which is HEADER_BAND_PX on screen at any zoom.
 * Written as clearOfHeaders writes the pan that shows a text at HEADER_BAND_PX, so that the two are equal.
 */
export const topPan = (zoom: number): number => Math.max(0, HEADER_BAND_PX - HEADER_BAND_PX * zoom);

/**
 * The viewport y nearest `y` (a pan of the view at `zoom`) at which the band's lower edge cuts no text:
 * where it would, the view moves by the least that shows the texts there whole (down) or puts them wholly
 * behind the band (up), never above `highest` (the diagram's top, topPan, unless the caller asks for less),
 * below `lowest`, or more than `maxShift` px on screen; where no such move exists, y as it was.
 */
export function clearOfHeaders(
  rows: Float64Array,
  y: number,
  zoom: number,
  lowest = -Infinity,
  maxShift = Infinity,
  highest = topPan(zoom),
): number {
  const edge = (HEADER_BAND_PX - y) / zoom;
  // The last run of text starting above the edge.
  let low = 0;
  let high = rows.length / 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((rows[2 * mid] as number) < edge) low = mid + 1;
    else high = mid;
  }
  const at = low - 1;
  if (at < 0 || (rows[2 * at + 1] as number) <= edge) return y;
  const show = HEADER_BAND_PX - (rows[2 * at] as number) * zoom;
  const hide = HEADER_BAND_PX - (rows[2 * at + 1] as number) * zoom;
  const moves = [show, hide]
    .filter((next) => next <= Math.min(topPan(zoom), highest) && next >= lowest && Math.abs(next - y) <= maxShift)
    .sort((a, b) => Math.abs(a - y) - Math.abs(b - y));
  return moves[0] ?? y;
}

/** The pinned lane names' band and a little below it: the current event is kept under it. */
export const HEADERS_PX = HEADER_BAND_PX + 8;
/** The room the current event keeps on either side inside the pane when the view clears the headers' band (its marker and label). */
export const CURRENT_ROOM_PX = 32;

/** A pane a view follows the current event in (the diagram's Follow). */
export interface FollowedPane {
  paneHeight: number;
  /** The layout's height (flow px). */
  height: number;
  /** Diagrams on one axis: the current instant is always kept at the same place, so they stay level. */
  lockstep: boolean;
  /** Where the current instant stands (fraction of the pane's height). */
  followAt: number;
}

/**
 * The pan y of a view at `zoom` that puts the current event (at flow y `atY`) `followAt` down the pane,
 * the diagram's texts rows `rows` (textRows) clear of the band's lower edge where a move allows it.
 *
 * Diagrams in lockstep may scroll past their own end: one that ended earlier stays level with the other.
 * Alone, a run taller than the pane keeps CURRENT_ROOM_PX under its end: its last event is never at the
 * pane's very foot (a run that fits stays whole). The view moves at most a fifth of the pane's height
 * either way to clear the band, and never so far that the current event leaves the room between the
 * lane headers and the pane's foot: following at 80% of the height (presenting) or at a run's end, a
 * fifth down pushed it off the foot. Up, the view may pass the end by the text it hides behind the band;
 * where neither way is free, a label may stay cut by the band: the current event is what the view is for.
 */
export function followedY(
  rows: Float64Array,
  atY: number,
  zoom: number,
  { paneHeight, height, lockstep, followAt }: FollowedPane,
): number {
  const top = topPan(zoom);
  // (A fit to the height is whole: the sum may exceed the pane by a rounding.)
  const fits = top + height * zoom <= paneHeight + 1e-9;
  const lowest = lockstep ? -Infinity : fits ? top : paneHeight - height * zoom - CURRENT_ROOM_PX;
  const wanted = Math.max(lowest, Math.min(top, paneHeight * followAt - atY * zoom));
  const atScreen = atY * zoom + wanted;
  const share = paneHeight * HEADER_CLEAR_SHARE;
  const up = Math.max(0, Math.min(share, atScreen - HEADERS_PX - CURRENT_ROOM_PX));
  const down = Math.max(0, Math.min(share, paneHeight - CURRENT_ROOM_PX - atScreen));
  return clearOfHeaders(rows, wanted, zoom, fits && !lockstep ? top : wanted - up, Infinity, wanted + down);
}

/**
 * The zoom a view fits a layout `width` × `height` to a pane at: its lanes to the pane's width and, when
 * it can, its whole height, within [least, most]. Under 1 the whole height is drawn below the top's room
 * (topPan): HEADER_BAND_PX of the pane's height holds the layout's first HEADER_BAND_PX.
 */
export function fitZoom(
  paneWidth: number,
  paneHeight: number,
  width: number,
  height: number,
  least: number,
  most: number,
): number {
  const tall = paneHeight / Math.max(1, height);
  const whole =
    tall >= 1 || height <= HEADER_BAND_PX ? tall : (paneHeight - HEADER_BAND_PX) / (height - HEADER_BAND_PX);
  return Math.max(least, Math.min(most, paneWidth / width, whole));
}
