import type { MarkerTone } from '../../engine';

/**
 * The sequence diagram's model: its geometry, the shapes of a laid-out run (lanes, rows, wires,
 * markers, deadline bars, time marks and breaks) and each list's extent on the time axis. The page
 * reads these; only the engine worker (and the Compare tab, for its replays) lays a run out
 * (layout.ts), so the page's first load carries none of the layout code.
 */

// ── geometry (flow coordinates, px at zoom 1) ──────────────────────────────────────────────────────

export const ROW_H = 36;
export const TOP_Y = 70;
/** Extra space between rows whose times differ: grows with the logarithm of the gap, up to a bound. */
export const GAP_MIN = 14;
export const GAP_PER_DOUBLING = 16;
export const GAP_MAX = 170;
/** Markers size to their text (markerSize): at least MARKER_W wide, at most MARKER_W_MAX, beyond which the text wraps to two lines. */
export const MARKER_W = 150;
export const MARKER_W_MAX = 340;
export const MARKER_H = 30;
export const MARKER_H_TWO_LINES = 52;
/** Each line of a wrapped marker past the first adds this much. */
export const MARKER_H_PER_LINE = MARKER_H_TWO_LINES - MARKER_H;
/**
 * On a SQLite connection's lane (no message crosses next to it) long statements wrap sooner, and the
 * gap beside such a lane only has to clear the markers: a ledger race's five lanes then fit a laptop's
 * pane (1280 px wide) at zoom 1, where text is at least 14 px.
 */
export const MARKER_W_MAX_CONNECTION = 220;
export const NARROW_GAP_CONNECTION = 160;
/** Horizontal padding and border of a marker, and the font size its width is estimated for (px at zoom 1). */
export const MARKER_PAD_X = 34;
export const MARKER_FONT_PX = 15;
export const TIME_RIGHT_X = 80;
export const BAR_W = 12;
export const IDLE_BAR_X = 88;
export const MAX_BAR_X = 104;
export const FIRST_LANE_X = 200;
/** Between lanes a message crosses: room for the message labels between two markers. */
export const WIDE_GAP = 340;
/** Between lanes no message crosses (worker, SQLite connections): room for the markers only. */
export const NARROW_GAP = 220;
export const RIGHT_MARGIN = 30;
/** Left of the first lane: the time column and the deadline bars (which end at MAX_BAR_X + BAR_W). */
export const BARS_RIGHT_X = MAX_BAR_X + BAR_W + 12;
/** Room between two markers on neighbouring lanes. */
export const MARKER_GAP_X = 24;

// ── the race view: one band per virtual instant ──────────────────────────────────────────────────────

/** The lane headers' own band at the top of the pane: nothing is laid out under it. */
export const HEADER_BAND_PX = 36;
/** Where the first instant's band starts. */
export const BANDS_TOP_Y = HEADER_BAND_PX + 4;
/** A compact chip: 14 px text (never less at zoom 1) on 18 px lines, one line 20 px tall, each wrapped line 18 px more. */
export const CHIP_FONT_PX = 14;
export const CHIP_H = 20;
export const CHIP_H_PER_LINE = 18;
export const CHIP_PAD_X = 22;
export const CHIP_W_MIN = 24;
/** A band holding only dots: a dot and a pixel either side. */
export const SLIM_BAND_H = 16;
/** A dot: bookkeeping with no word of its own (a receipt, a deadline armed, reset or off, a checkpoint). */
export const DOT_PX = 14;
/** Between two items side by side on one lane in one band. */
export const CHIP_GAP_X = 6;
/** A lane's items in one band wrap past this width (on a SQLite connection's lane: MARKER_W_MAX_CONNECTION). */
export const GROUP_W_MAX = 160;
/**
 * On the client's lane (the first) a band's items may share a wider line: they stand right of its
 * line (left of it are the time column and the deadline bars), and the client is where a race's
 * outcome gathers in one instant (a deadline fires, the request is abandoned, the terminal state):
 * side by side they take two rows, not four, and a long race still fits a laptop's pane at zoom 1.
 */
export const GROUP_W_MAX_CLIENT = 220;
/** On a SQLite connection's lane statements wrap sooner: a ledger race's lanes then fit a laptop's pane. */
export const GROUP_W_MAX_CONNECTION = 170;
/** Rows inside a band (a chip and the room above a wire's label): a wire sent in a band leaves from one of its rows. */
export const ROW_PITCH = 24;
/** A lane's items standing beside its line (the side no wire uses) start this far from it. */
export const SIDE_CLEAR_X = 12;
/** Between bands: grows with the logarithm of the time between them, up to a bound. */
export const BAND_GAP_MIN = 1.5;
export const BAND_GAP_PER_DOUBLING = 0.25;
export const BAND_GAP_MAX = 3;
/** The race view's least gaps between lanes: a message's label between two crossed lanes, only the items between others. */
export const BAND_WIDE_GAP = 250;
export const BAND_NARROW_GAP = 140;
/** The time column: its labels' font, and the room right of them. */
export const TIME_FONT_PX = 14;
export const TIME_PAD_X = 12;

/** The run overview (overview.ts): the strip's height, its ticks (an event, a message sent) and the least width of the visible window drawn on it. */
export const OVERVIEW_H = 22;
export const OVERVIEW_EVENT_TICK = 8;
export const OVERVIEW_MESSAGE_TICK = 16;
export const OVERVIEW_WINDOW_MIN_PX = 8;

/** A wire's arrowhead: its length back from the tip along the line, and the half-angle of its spread (radians). */
export const ARROW_LENGTH = 13;
export const ARROW_SPREAD = 0.42;

/** A quiet gap drawn longer than this is folded into a break of BREAK_H with its length written on it. */
export const FOLD_PX = 12 * ROW_H;
export const BREAK_H = 56;
export type TimeScale = 'ordinal' | 'linear';

// ── model ──────────────────────────────────────────────────────────────────────────────────────────

export interface Lane {
  id: string;
  label: string;
  x: number;
}

/** What finally became of a wire line; before `resolvedAt` is reached it shows as in flight. */
export type WireFate = 'delivered' | 'ignored' | 'lost' | 'closed';
export type WireKind = 'message' | 'stream-close' | 'comment';

export interface Wire {
  id: string;
  kind: WireKind;
  /** Index of the event that puts it on the wire. */
  index: number;
  seq: number;
  from: string;
  to: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  labelX: number;
  labelY: number;
  /** Where its fate word ("IN FLIGHT", "LOST", "IGNORED") is centred, on its baseline: under the label, or beside it where that would cover another wire's label. */
  tagX: number;
  tagY: number;
  label: string;
  sentAtMs: number;
  arrivesAtMs: number | null;
  fate: WireFate;
  /** Index of the event at which its fate is known (its delivery, its loss, or when it is due). */
  resolvedAt: number;
  /** Why it was ignored or lost, or why the stream closed. */
  reason: string | null;
  /** One sentence for screen readers and tooltips. */
  description: string;
  /** The top of the band it is sent in (its row, on Linear time): the key it is found by on the time axis. */
  bandY: number;
}

export interface Marker {
  id: string;
  index: number;
  seq: number;
  kind: string;
  lane: string;
  x: number;
  y: number;
  text: string;
  tone: MarkerTone;
  title: string;
  width: number;
  height: number;
  lines: number;
  /** How it is drawn: a full marker (Linear time), or in the race view a chip with its word or a dot. */
  look: MarkerLook;
  /** The top of its instant's band (its row, on Linear time): the key it is found by on the time axis. */
  bandY: number;
}

export type MarkerLook = 'marker' | 'chip' | 'dot';

/** A folded quiet gap (linear time): drawn as a break of BREAK_H at `y`, with its length. */
export interface TimeBreak {
  id: string;
  /** The event after the break: it shows once the replay reaches that event. */
  index: number;
  y: number;
  ms: number;
}

export interface TimeMark {
  id: string;
  /** The first event at this instant. */
  index: number;
  y: number;
  atMs: number;
}

export type DeadlineName = 'idle' | 'max';

/**
 * One stretch of a deadline on the client lane: from being armed (or restarted) to its due time.
 * Once the event that ends it is reached (`endIndex`), the bar stops there: a progress restart
 * ends one idle stretch and begins the next one; nothing restarts the maximum deadline.
 */
export interface DeadlineBar {
  id: string;
  deadline: DeadlineName;
  index: number;
  x: number;
  y1: number;
  dueAtMs: number;
  yDue: number;
  endIndex: number | null;
  endAction: 'reset' | 'fired' | 'disarmed' | null;
  yEnd: number | null;
}

export interface DiagramLayout {
  lanes: Lane[];
  width: number;
  height: number;
  /** The time column's right edge: as wide as its widest label. */
  timeRight: number;
  /** Row centre of each event, by index. */
  rowY: number[];
  wires: Wire[];
  markers: Marker[];
  times: TimeMark[];
  bars: DeadlineBar[];
  /** Index of each message event (the wires of kind `message`), ascending. */
  messageIndexes: number[];
  scale: TimeScale;
  /** Folded quiet gaps (linear time only). */
  breaks: TimeBreak[];
  /** Each list's reach on the time axis (see EXTENTS), so the page indexes it without a pass of its own. */
  spans: Record<SpanLists, SpanReach>;
  /**
   * For each event that sends or settles a wire, the first such wire (its position in `wires`), as
   * pairs [event index, wire position] by event index: it marks the event when the event has no marker.
   */
  wireMarks: number[];
  /** Every wire's resolvedAt, ascending: with `messageIndexes`-like counting, how many are in flight at a step. */
  resolvedSorted: number[];
}

// ── spans: what each item covers on the time axis, for finding what is on screen ────────────────

/**
 * The page finds the items near the screen through an index over these extents (spans.ts);
 * the one pass over each list that index needs is made here, with the layout (`spans`), so the page
 * makes none when a run arrives. Most items are short and found by binary search on their key,
 * widened by the reach of the short ones; the long ones are listed.
 */
/** An item whose extent is taller than this (flow px) is long: kept in buckets of this height. */
export const LONG_PX = 2400;

/** What one pass over a list finds: how far its short items reach above and below their key, and which items are long. */
export interface SpanReach {
  above: number;
  below: number;
  /** Positions of the long items, ascending. */
  long: number[];
}

/** Where an item sits on the time axis (`key`, never decreasing along its list) and what it covers around it. */
export interface Extent<T> {
  key(item: T): number;
  lo(item: T): number;
  hi(item: T): number;
}

/** The extents of the layout's lists, the one definition the worker's pass and the page's queries share. */
export const EXTENTS = {
  markers: {
    key: (marker) => marker.bandY,
    lo: (marker) => marker.y - marker.height / 2,
    hi: (marker) => marker.y + marker.height / 2,
  } satisfies Extent<Marker>,
  wires: {
    key: (wire) => wire.bandY,
    lo: (wire) => Math.min(wire.y1, wire.y2, wire.labelY - ROW_H),
    hi: (wire) => Math.max(wire.y2, wire.labelY + ROW_H),
  } satisfies Extent<Wire>,
  times: {
    key: (time) => time.y,
    lo: (time) => time.y - ROW_H / 2,
    hi: (time) => time.y + ROW_H / 2,
  } satisfies Extent<TimeMark>,
  breaks: {
    key: (fold) => fold.y,
    lo: (fold) => fold.y - BREAK_H / 2,
    hi: (fold) => fold.y + BREAK_H / 2,
  } satisfies Extent<TimeBreak>,
  /** A deadline bar by where it reaches once ended (a bar never ended: to its due time). */
  bars: {
    key: (bar) => bar.y1,
    lo: (bar) => bar.y1,
    hi: (bar) => Math.max(bar.yEnd ?? bar.yDue, bar.y1 + 4),
  } satisfies Extent<DeadlineBar>,
  /** A deadline bar by the events it runs over, from the one after arming to the one ending it (event-index units; never ended: unbounded). */
  barLives: {
    key: (bar) => bar.index,
    lo: (bar) => bar.index + 1,
    hi: (bar) => bar.endIndex ?? Infinity,
  } satisfies Extent<DeadlineBar>,
} as const;

export type SpanLists = keyof typeof EXTENTS;

/** One pass over a list: its short items' reach and its long items (see SpanIndex). */
export function spanReach<T>(items: readonly T[], extent: Extent<T>): SpanReach {
  const long: number[] = [];
  let above = 0;
  let below = 0;
  let previousKey = -Infinity;
  for (let at = 0; at < items.length; at++) {
    const item = items[at] as T;
    const k = extent.key(item);
    if (k < previousKey) throw new Error(`SpanIndex: keys must not decrease (item ${at}: ${k} after ${previousKey})`);
    previousKey = k;
    const top = Math.min(extent.lo(item), k);
    const bottom = Math.max(extent.hi(item), k);
    if (bottom - top > LONG_PX) {
      long.push(at);
      continue;
    }
    if (k - top > above) above = k - top;
    if (bottom - k > below) below = bottom - k;
  }
  return { above, below, long };
}

/**
 * One virtual-time axis shared by several diagrams: each instant at which any of the runs did
 * something gets a band, as tall as the run that did most then needs, and the bands are spaced as
 * ordinal time spaces rows. A diagram laid out on it puts an instant at the same height as every
 * other diagram on it, so what happened at the same time lines up across them.
 */
export interface SharedAxis {
  /** Where each instant's band starts (the first row of that instant sits just below it). */
  readonly bandY: ReadonlyMap<number, number>;
}

/** How many message events the first `step` events hold. */
export function messagesShown(layout: DiagramLayout, step: number): number {
  let low = 0;
  let high = layout.messageIndexes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((layout.messageIndexes[mid] as number) < step) low = mid + 1;
    else high = mid;
  }
  return low;
}
