import type { EventWording, LabEvent, MarkerWording, Transcript } from '../../engine';
import {
  BARS_RIGHT_X,
  BREAK_H,
  EXTENTS,
  FIRST_LANE_X,
  FOLD_PX,
  GAP_MAX,
  GAP_MIN,
  GAP_PER_DOUBLING,
  IDLE_BAR_X,
  MARKER_GAP_X,
  MARKER_H,
  MARKER_W_MAX_CONNECTION,
  NARROW_GAP_CONNECTION,
  TIME_RIGHT_X,
  MARKER_W,
  MARKER_W_MAX,
  MAX_BAR_X,
  NARROW_GAP,
  RIGHT_MARGIN,
  ROW_H,
  spanReach,
  TOP_Y,
  WIDE_GAP,
  type DeadlineBar,
  type DiagramLayout,
  type Lane,
  type Marker,
  type MarkerLook,
  CHIP_H,
  BAND_WIDE_GAP,
  BAND_NARROW_GAP,
  DOT_PX,
  GROUP_W_MAX,
  GROUP_W_MAX_CLIENT,
  GROUP_W_MAX_CONNECTION,
  BANDS_TOP_Y,
  HEADER_BAND_PX,
  TIME_FONT_PX,
  TIME_PAD_X,
  type SharedAxis,
  type TimeBreak,
  type TimeMark,
  type TimeScale,
  type Wire,
  type WireFate,
} from './model';

// The model (geometry, shapes, extents) is model.ts, the text metrics text.ts; what is here computes a layout.
import { CHIP_METRICS, markerSize, textWidthPx } from './text';
import { TEXT_HALO_PX } from './headerBand';
import {
  boxesMeet,
  fateWidthPx,
  LABEL_PAD_X,
  LOOKS_BELOW_PX,
  placeLabels,
  tagMeetsLabelOf,
  unplacedTags,
  wireTextBoxes,
  type PlacementLog,
  type TextBox,
} from './labelPlacement';
export { boxesMeet, tagMeetsLabelOf, tagShownUntil, wireTextBoxes, type TextBox } from './labelPlacement';
import {
  bandAtOrAfter,
  bandGap,
  bandHeights,
  bandYAt,
  planBands,
  shapeBands,
  type Band,
  type BandEvent,
  type BandPlan,
  type BandShapes,
} from './bands';
import { eventLanes } from '../../engine';

/**
 * The sequence diagram of a whole run, laid out once per transcript (pure, no React). Every event
 * gets its own row, in transcript order, and the space between two rows grows with the virtual
 * time between them: time flows down, same-instant events stack without overlapping, and the
 * order of rows is exactly the order the engine recorded. A wire message is a line from its
 * sender's lane at the row it was sent to its receiver's lane where it arrives, so latency slopes
 * it and two messages in flight at once cross.
 *
 * The view at step k is this layout cut at k (see src/ui/diagram/flow.ts): nothing here depends on
 * the step, so stepping back or scrubbing never recomputes the layout. The engine worker lays a run out
 * (off the main thread) and sends the layout with the transcript; the page only cuts it.
 */

export function timeGap(deltaMs: number): number {
  if (deltaMs <= 0) return 0;
  return Math.min(GAP_MAX, GAP_MIN + GAP_PER_DOUBLING * Math.log2(1 + deltaMs));
}

/** A SQLite connection's lane (`conn-1` …): every lane the diagram does not name itself. */
const isConnectionLane = (id: string): boolean => !(id in LANE_LABELS);

/** The marker an event draws, sized for the lane it sits on. */
const sizeOn = (lane: string, marker: MarkerWording) =>
  markerSize(marker.text, marker.tone, isConnectionLane(lane) ? MARKER_W_MAX_CONNECTION : MARKER_W_MAX);

/**
 * How the race view draws a marker: bookkeeping (the engine words it `muted`: a deadline armed,
 * reset or off, a checkpoint, a keep-alive) is a dot on the actors' lanes; everything else a chip
 * with its word. A SQLite connection's statements and the buffer's entries stay chips: they are the
 * story on those lanes.
 */
const lookOf = (lane: string, marker: MarkerWording, kind: string): MarkerLook =>
  kind === 'request-started' ||
  (marker.tone === 'muted' && (lane === 'client' || lane === 'server' || lane === 'worker' || lane === 'proxy'))
    ? 'dot'
    : 'chip';

/** Width a lane's items in one band may take before they wrap to another line. */
const groupMaxOn = (lane: string) =>
  isConnectionLane(lane) ? GROUP_W_MAX_CONNECTION : lane === 'client' ? GROUP_W_MAX_CLIENT : GROUP_W_MAX;

/**
 * The race view's short word for a chip: the marker's wording cut to what the eye needs at a
 * glance (the full sentence is the chip's tooltip, its accessible name and the Inspector's).
 */
export function shortWord(event: LabEvent, marker: MarkerWording): string {
  switch (event.kind) {
    case 'state':
      return event.to;
    case 'cancel-accepted':
      return 'accepts cancel';
    case 'cancel-ignored':
      return 'ignores cancel';
    case 'suppressed':
      return `⊘ ${event.what}`;
    case 'disconnect-observed':
      return 'sees close';
    case 'stream-opened':
      return 'opens SSE';
    case 'delivered':
      return event.ignoredBy === undefined ? marker.text : 'ignores';
    case 'worker':
      // One word for every lane: the model's worker calls complete(), a real SDK's tool returns (the timeline says which).
      return event.step === 'started'
        ? 'starts'
        : event.step === 'finished'
          ? 'finishes'
          : event.step === 'stopped'
            ? 'stops'
            : marker.text;
    case 'deadline':
      return event.action === 'fired' ? `${event.deadline} FIRES` : marker.text;
    case 'message-lost':
      return '✕ lost';
    case 'terminal':
      // The state alone: the chip's tone marks it terminal, and its sentence is the tooltip.
      return event.state;
    case 'views-diverge':
      return 'views diverge';
    case 'message':
    case 'stream-closed':
    case 'request-started':
    case 'http-request':
    case 'stream-dropped':
    case 'reconnect-plan':
    case 'recovery':
    case 'sse-comment':
    case 'sql':
    case 'ledger':
    case 'task':
    case 'buffer':
    case 'proxy':
    case 'herd-window':
    case 'probe-note':
    case 'http-response':
    case 'verdict':
      return marker.text;
    default: {
      // Every kind is named above: a new kind fails to compile here until it has its word.
      const unworded: never = event;
      return unworded;
    }
  }
}

/** A marker's box in the race view. */
function compactSize(
  lane: string,
  marker: MarkerWording,
  kind: string,
): { width: number; height: number; lines: number; look: MarkerLook } {
  const look = lookOf(lane, marker, kind);
  if (look === 'dot') return { width: DOT_PX, height: DOT_PX, lines: 1, look };
  return { ...markerSize(marker.text, marker.tone, groupMaxOn(lane), CHIP_METRICS), look };
}

// ── linear time ────────────────────────────────────────────────────────────────────────────────────

/** Linear time: about this many px per event over the run's (unfolded) time span. */
const LINEAR_PX_PER_EVENT = 44;
const LINEAR_PX_PER_MS_MAX = 8;

/** px per ms for the linear scale: the run's time, without the gaps that fold, shared out at about LINEAR_PX_PER_EVENT per event. */
function linearPxPerMs(gaps: number[], count: number): number {
  const span = gaps.reduce((sum, gap) => sum + gap, 0);
  if (span <= 0) return 1;
  let scale = Math.min(LINEAR_PX_PER_MS_MAX, (LINEAR_PX_PER_EVENT * count) / span);
  const kept = gaps.reduce((sum, gap) => (gap * scale > FOLD_PX ? sum : sum + gap), 0);
  if (kept > 0) scale = Math.min(LINEAR_PX_PER_MS_MAX, (LINEAR_PX_PER_EVENT * count) / kept);
  return scale;
}

// ── lanes ──────────────────────────────────────────────────────────────────────────────────────────

const LANE_ORDER = ['client', 'proxy', 'server', 'buffer'];
const LANE_LAST = ['worker'];
const LANE_LABELS: Record<string, string> = {
  client: 'Client',
  proxy: 'Proxy',
  server: 'Server',
  buffer: 'SSE buffer',
  worker: 'Worker',
};

function laneLabel(id: string): string {
  return LANE_LABELS[id] ?? `${id} (SQLite)`;
}

function orderLanes(ids: Set<string>): string[] {
  const first = LANE_ORDER.filter((id) => ids.has(id));
  const last = LANE_LAST.filter((id) => ids.has(id));
  const middle = [...ids].filter((id) => !LANE_ORDER.includes(id) && !LANE_LAST.includes(id)).sort();
  return [...first, ...middle, ...last];
}

// ── one axis for several runs (the Compare tab) ─────────────────────────────────────────

export function sharedAxis(
  runs: ReadonlyArray<{ transcript: Transcript; wording: readonly EventWording[] }>,
): SharedAxis {
  const need = new Map<number, number>();
  /** The room a band keeps above it for its wire labels (the most any run needs). */
  const room = new Map<number, number>();
  for (const { transcript, wording } of runs) {
    const prepared = prepare(transcript, wording, 'ordinal');
    const { leads } = labelLeads(prepared);
    for (const [atMs, { height, lead }] of bandHeights(prepared.bandEvents, leads)) {
      need.set(atMs, Math.max(need.get(atMs) ?? 0, height));
      room.set(atMs, Math.max(room.get(atMs) ?? 0, lead));
    }
  }
  const times = [...need.keys()].sort((a, b) => a - b);
  const bandY = new Map<number, number>();
  let y = BANDS_TOP_Y;
  times.forEach((atMs, k) => {
    const before = times[k - 1];
    if (before !== undefined) y += (need.get(before) ?? 0) + bandGap(atMs - before) + (room.get(atMs) ?? 0);
    bandY.set(atMs, y);
  });
  return { bandY };
}

type MessageEvent = Extract<LabEvent, { kind: 'message' }>;

const otherSide = (side: string) => (side === 'client' ? 'server' : 'client');

// ── layout ─────────────────────────────────────────────────────────────────────────────────────────

interface Sized {
  width: number;
  height: number;
  lines: number;
  look: MarkerLook;
}

/**
 * What a layout needs before any position, the same in every pass of labelLeads: each event's marker
 * and size, the lanes in order, what settles which wire, (race view) each event's place in its band,
 * which gaps between lanes a line crosses and the room a label needs in each.
 */
export interface Prepared {
  transcript: Transcript;
  wording: readonly EventWording[];
  scale: TimeScale;
  wordings: Array<MarkerWording | null>;
  sizes: Array<Sized | null>;
  settledAt: Map<number, number>;
  markerLanes: Array<string | null>;
  order: string[];
  position: Map<string, number>;
  bandEvents: BandEvent[];
  /** Race view: what is inside each band, wherever the bands stand (null in linear time). */
  bandShapes: BandShapes | null;
  crossed: boolean[];
  labelRoom: number[];
}

/** The wire's two ends (sender first) and its label, for the events drawn as a wire across lanes. */
function wireEnds(
  event: LabEvent,
  wording: EventWording | undefined,
): { ends: [string, string]; label: string } | null {
  if (event.kind === 'message') return { ends: [event.from, event.to], label: wording?.label ?? event.kind };
  if (event.kind === 'stream-closed')
    return { ends: [event.by, otherSide(event.by)], label: `closes stream #${String(event.requestId)}` };
  if (event.kind === 'sse-comment' && event.action === 'sent') return { ends: ['server', 'client'], label: event.line };
  return null;
}

export function prepare(transcript: Transcript, wording: readonly EventWording[], scale: TimeScale): Prepared {
  const { events } = transcript;
  const lanes = eventLanes(events);
  const { wordings, sizes } = markersOf(events, lanes, wording, scale);
  const { settledAt, indexBySeq } = settling(events);
  const { markerLanes, order } = laneOrder(events, lanes, wordings);
  const position = new Map(order.map((id, i) => [id, i]));
  const bandEvents = bandEventsOf(events, lanes, sizes, markerLanes, position, settles(events, settledAt, indexBySeq));
  const crossed = new Array<boolean>(Math.max(0, order.length - 1)).fill(false);
  for (const event of events) {
    const wire = wireEnds(event, undefined);
    if (wire === null) continue;
    const from = position.get(wire.ends[0]) ?? 0;
    const to = position.get(wire.ends[1]) ?? 0;
    for (let i = Math.min(from, to); i < Math.max(from, to); i++) crossed[i] = true;
  }
  const labelRoom = scale === 'ordinal' ? labelRoomOf(events, wording, order.length, position) : [];
  return {
    transcript,
    wording,
    scale,
    wordings,
    sizes,
    settledAt,
    markerLanes,
    order,
    position,
    bandEvents,
    bandShapes: scale === 'ordinal' ? shapeBands(bandEvents) : null,
    crossed,
    labelRoom,
  };
}

/** Each event's marker wording (race view: its short word) and its box, or null where it draws none. */
function markersOf(
  events: readonly LabEvent[],
  lanes: readonly string[],
  wording: readonly EventWording[],
  scale: TimeScale,
): { wordings: Array<MarkerWording | null>; sizes: Array<Sized | null> } {
  const wordings: Array<MarkerWording | null> = events.map((event) => {
    const marker = wording[event.seq]?.marker ?? null;
    return marker === null || scale !== 'ordinal' ? marker : { text: shortWord(event, marker), tone: marker.tone };
  });
  const sizes: Array<Sized | null> = wordings.map((marker, i) => {
    if (marker === null) return null;
    const lane = lanes[i] as string;
    return scale === 'ordinal'
      ? compactSize(lane, marker, (events[i] as LabEvent).kind)
      : { ...sizeOn(lane, marker), look: 'marker' as const };
  });
  return { wordings, sizes };
}

/** Which events settle which messages: the index of each message's first delivery or loss, by the message's seq. */
function settling(events: readonly LabEvent[]): { settledAt: Map<number, number>; indexBySeq: Map<number, number> } {
  const settledAt = new Map<number, number>();
  const indexBySeq = new Map<number, number>();
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as LabEvent;
    indexBySeq.set(event.seq, i);
    if ((event.kind === 'delivered' || event.kind === 'message-lost') && !settledAt.has(event.messageSeq))
      settledAt.set(event.messageSeq, i);
  }
  return { settledAt, indexBySeq };
}

/** Lanes: every side that sends, receives or records something, in the diagram's order; and each event's marker lane. */
function laneOrder(
  events: readonly LabEvent[],
  lanes: readonly string[],
  wordings: ReadonlyArray<MarkerWording | null>,
): { markerLanes: Array<string | null>; order: string[] } {
  const laneIds = new Set<string>();
  const markerLanes: Array<string | null> = [];
  events.forEach((event, i) => {
    const wire = wireEnds(event, undefined);
    if (wire !== null) for (const end of wire.ends) laneIds.add(end);
    const lane = wordings[i] === null ? null : (lanes[i] as string);
    markerLanes.push(lane);
    if (lane !== null) laneIds.add(lane);
  });
  if (events.some((event) => event.kind === 'deadline')) laneIds.add('client');
  return { markerLanes, order: orderLanes(laneIds) };
}

/** The race view's settling events: the index of the wire each one settles, by its own index (a closed stream lands where the other side sees the disconnect). */
function settles(
  events: readonly LabEvent[],
  settledAt: ReadonlyMap<number, number>,
  indexBySeq: ReadonlyMap<number, number>,
): Map<number, number> {
  const found = new Map<number, number>();
  for (const [messageSeq, at] of settledAt) {
    const sentBy = indexBySeq.get(messageSeq);
    if (sentBy !== undefined) found.set(at, sentBy);
  }
  events.forEach((event, i) => {
    if (event.kind !== 'stream-closed') return;
    const observed = disconnectObserved(events, i);
    if (observed >= 0 && !found.has(observed)) found.set(observed, i);
  });
  return found;
}

/** Where the other side observes the stream closed by event i (-1 if it never does). */
function disconnectObserved(events: readonly LabEvent[], i: number): number {
  const event = events[i] as Extract<LabEvent, { kind: 'stream-closed' }>;
  const to = otherSide(event.by);
  for (let j = i + 1; j < events.length; j++) {
    const later = events[j] as LabEvent;
    if (later.kind === 'disconnect-observed' && later.by === to && later.requestId === event.requestId) return j;
  }
  return -1;
}

/** The race view's bands: what each event puts in its instant's band. */
function bandEventsOf(
  events: readonly LabEvent[],
  lanes: readonly string[],
  sizes: ReadonlyArray<Sized | null>,
  markerLanes: ReadonlyArray<string | null>,
  position: ReadonlyMap<string, number>,
  settled: ReadonlyMap<number, number>,
): BandEvent[] {
  const span = (a: string, b: string) => ({ from: position.get(a) ?? 0, to: position.get(b) ?? 0 });
  return events.map((event, i) => {
    const size = sizes[i];
    const lane = markerLanes[i];
    const local =
      size === null || size === undefined || lane === null || lane === undefined
        ? null
        : { lane, width: size.width, height: size.height, groupMax: groupMaxOn(lane), word: size.look !== 'dot' };
    const wire = wireEnds(event, undefined);
    let item: BandEvent['item'];
    if (wire !== null) item = { kind: 'wire', ...span(...wire.ends) };
    else if (settled.has(i))
      item = {
        kind: 'settle',
        sentBy: settled.get(i) as number,
        at: position.get(lanes[i] as string) ?? 0,
        item: local,
      };
    else item = local === null ? { kind: 'quiet' } : { kind: 'local', ...local };
    return { atMs: event.atMs, lanePosition: position.get(lanes[i] as string) ?? 0, item };
  });
}

/** Race view: the room the gap next to a wire's sender keeps for its label beside the items there. */
function labelRoomOf(
  events: readonly LabEvent[],
  wording: readonly EventWording[],
  laneCount: number,
  position: ReadonlyMap<string, number>,
): number[] {
  const labelRoom = new Array<number>(Math.max(0, laneCount - 1)).fill(0);
  const widths = new Map<string, number>();
  events.forEach((event, i) => {
    // An SSE comment is a wire too, but (as ever) keeps no room of its own.
    if (event.kind !== 'message' && event.kind !== 'stream-closed') return;
    const { ends, label } = wireEnds(event, wording[i]) as { ends: [string, string]; label: string };
    const from = position.get(ends[0]) ?? 0;
    const to = position.get(ends[1]) ?? 0;
    if (from === to) return;
    const gap = to > from ? from : from - 1;
    let width = widths.get(label);
    if (width === undefined) widths.set(label, (width = textWidthPx(label, 15, true)));
    labelRoom[gap] = Math.max(labelRoom[gap] ?? 0, Math.max(width, fateWidthPx()) + 2 * LABEL_PAD_X + 2 * MARKER_GAP_X);
  });
  return labelRoom;
}

/** Each event's row: its y, its x offset from its lane (race view), its band's top, and y of any time. */
interface Rows {
  rowY: number[];
  dx: number[];
  bandTop: number[];
  breaks: TimeBreak[];
  plan: BandPlan | null;
  /** The widest marker (race view: the widest line of items in one band) on each lane: lanes are spaced so that neighbouring markers never touch. */
  widest: Map<string, number>;
  lastY: number;
  /** y of any virtual time: the first row at that instant, else between the rows around it. */
  yAt: (atMs: number) => number;
}

/**
 * Rows. The race view (ordinal time): one band per instant (bands.ts). Linear time: one row per
 * event, each at its time on a linear scale, pushed down only where the row before would overlap
 * (the push is absorbed by the next long enough gap); a gap too long to draw is folded.
 */
export function layRows(
  p: Prepared,
  axis: SharedAxis | undefined,
  leads: ReadonlyMap<number, number> | undefined,
): Rows {
  const { events } = p.transcript;
  const count = events.length;
  const lastMs = count === 0 ? 0 : (events[count - 1] as LabEvent).atMs;
  if (p.scale === 'ordinal') {
    const plan = planBands(p.bandEvents, axis?.bandY, leads, p.bandShapes ?? undefined);
    const widest = new Map<string, number>();
    for (const [lane, { left, right }] of plan.reach) widest.set(lane, 2 * Math.max(left, right));
    const lastY =
      count === 0 ? TOP_Y : Math.max(...plan.bands.slice(-1).map((band) => band.top + band.height - CHIP_H / 2));
    return { ...plan, breaks: [], plan, widest, lastY, yAt: (atMs) => bandYAt(plan.bands, atMs) };
  }
  const { rowY, breaks, pxPerMs } = linearRows(p);
  const widest = new Map<string, number>();
  p.markerLanes.forEach((lane, i) => {
    if (lane !== null) widest.set(lane, Math.max(widest.get(lane) ?? MARKER_W, p.sizes[i]?.width ?? MARKER_W));
  });
  const lastY = count === 0 ? TOP_Y : (rowY[count - 1] as number);
  /** How far below the last row a later time lies (a deadline due after the run ended). */
  const afterLast = (deltaMs: number) => Math.min(FOLD_PX, deltaMs * pxPerMs);
  const yAt = (atMs: number): number => {
    if (count === 0) return TOP_Y;
    if (atMs > lastMs) return lastY + afterLast(atMs - lastMs);
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((events[mid] as LabEvent).atMs < atMs) low = mid + 1;
      else high = mid;
    }
    const at = events[low] as LabEvent;
    if (at.atMs === atMs || low === 0) return rowY[low] as number;
    const before = events[low - 1] as LabEvent;
    const fraction = (atMs - before.atMs) / (at.atMs - before.atMs);
    return (rowY[low - 1] as number) + ((rowY[low] as number) - (rowY[low - 1] as number)) * fraction;
  };
  return { rowY, dx: new Array<number>(count).fill(0), bandTop: rowY, breaks, plan: null, widest, lastY, yAt };
}

/** Linear time's rows, the breaks where a quiet too long to draw is folded, and the scale. */
function linearRows(p: Prepared): { rowY: number[]; breaks: TimeBreak[]; pxPerMs: number } {
  const { events } = p.transcript;
  const count = events.length;
  const extraAround = (i: number) => ((p.sizes[i]?.height ?? MARKER_H) - MARKER_H) / 2;
  const rowY = new Array<number>(count);
  const breaks: TimeBreak[] = [];
  const gaps: number[] = [];
  for (let i = 1; i < count; i++) gaps.push((events[i] as LabEvent).atMs - (events[i - 1] as LabEvent).atMs);
  const pxPerMs = linearPxPerMs(gaps, count);
  /** The y where time t0 (of the previous row) maps, and the time scale's origin after folds. */
  let linearY = TOP_Y;
  for (let i = 0; i < count; i++) {
    const event = events[i] as LabEvent;
    const previous = events[i - 1];
    if (previous === undefined) {
      rowY[i] = TOP_Y + extraAround(i);
      linearY = rowY[i] as number;
      continue;
    }
    const minimum = (rowY[i - 1] as number) + ROW_H + extraAround(i - 1) + extraAround(i);
    const deltaMs = event.atMs - previous.atMs;
    const drawn = deltaMs * pxPerMs;
    if (drawn > FOLD_PX) {
      // Folded: a break between the two rows says how long the quiet was.
      const y = (rowY[i - 1] as number) + ROW_H / 2 + extraAround(i - 1) + BREAK_H / 2;
      breaks.push({ id: `k${i}`, index: i, y, ms: deltaMs });
      rowY[i] = Math.max(minimum, y + BREAK_H / 2 + ROW_H / 2 + extraAround(i));
      linearY = rowY[i] as number;
      continue;
    }
    linearY += drawn;
    // linearY stays on the scale: a row pushed below it is back on it after the next gap long enough.
    rowY[i] = Math.max(minimum, linearY);
  }
  return { rowY, breaks, pxPerMs };
}

/** The lanes across: each lane's x, the deadline bars' shift, the time column, and the diagram's width. */
interface Across {
  lanes: Lane[];
  xOf: (id: string) => number;
  timeRight: number;
  barShift: number;
  width: number;
}

/** Lanes left to right: the first clears the time column (and the deadline bars), each next one its neighbour's items and, race view, the labels of the gap between them. */
export function layLanes(p: Prepared, rows: Rows): Across {
  const { events } = p.transcript;
  const { order, crossed } = p;
  const { plan, widest } = rows;
  const minWidth = plan === null ? MARKER_W : DOT_PX;
  const half = (id: string | undefined) => (id === undefined ? 0 : (widest.get(id) ?? minWidth) / 2);
  /** How far a lane's items reach toward its neighbour on one side (race view: each side apart). */
  const reachOf = (id: string | undefined, side: 'left' | 'right') =>
    id === undefined ? 0 : plan === null ? half(id) : Math.max(DOT_PX / 2, plan.reach.get(id)?.[side] ?? 0);
  const lastMs = events.length === 0 ? 0 : (events[events.length - 1] as LabEvent).atMs;
  // The time column is as wide as its widest label; the deadline bars stand right of it.
  const timeRight = Math.max(TIME_RIGHT_X, Math.ceil(textWidthPx(`${lastMs} ms`, TIME_FONT_PX, true)) + TIME_PAD_X);
  const barShift = timeRight - TIME_RIGHT_X;
  // The first lane clears the deadline bars; each next one clears both lanes' widest markers.
  // Without deadline bars the first lane only clears the time column.
  const hasBars = events.some((event) => event.kind === 'deadline');
  const firstReach = plan === null ? half(order[0]) : reachOf(order[0], 'left');
  let x = hasBars
    ? Math.max(FIRST_LANE_X + barShift, BARS_RIGHT_X + barShift + firstReach)
    : timeRight + MARKER_GAP_X + firstReach;
  const lanes: Lane[] = [];
  order.forEach((id, i) => {
    lanes.push({ id, label: laneLabel(id), x });
    const next = order[i + 1];
    // Markers sit on rows of their own, so two lanes' markers never share a row: across a gap no
    // message crosses, a marker only has to clear the other lane's line, not its markers.
    const clear =
      plan !== null
        ? reachOf(id, 'right') + reachOf(next, 'left') + MARKER_GAP_X
        : crossed[i]
          ? half(id) + half(next) + MARKER_GAP_X
          : Math.max(half(id), half(next)) + 2 * MARKER_GAP_X;
    const narrow =
      isConnectionLane(id) || (next !== undefined && isConnectionLane(next)) ? NARROW_GAP_CONNECTION : NARROW_GAP;
    // Race view: a label may have to pass beside the items on either lane of its gap.
    const room = p.labelRoom[i];
    const besideItems =
      room === undefined || room === 0 ? 0 : room + Math.max(reachOf(id, 'right'), reachOf(next, 'left'));
    x +=
      plan === null
        ? Math.max(crossed[i] ? WIDE_GAP : narrow, clear)
        : Math.max(crossed[i] ? BAND_WIDE_GAP : BAND_NARROW_GAP, clear, besideItems);
  });
  const laneX = new Map(lanes.map((lane) => [lane.id, lane.x]));
  const lastLane = lanes[lanes.length - 1];
  const width =
    (lastLane?.x ?? FIRST_LANE_X) +
    (plan === null ? half(lastLane?.id) : reachOf(lastLane?.id, 'right')) +
    RIGHT_MARGIN;
  return { lanes, xOf: (id) => laneX.get(id) ?? FIRST_LANE_X, timeRight, barShift, width };
}

/** What a layout draws at its rows: the wires, markers, times and deadline bars, in event order. */
interface Items {
  wires: Wire[];
  markers: Marker[];
  times: TimeMark[];
  bars: DeadlineBar[];
  messageIndexes: number[];
}

/** Everything the items of one event are drawn from. */
interface ItemContext {
  p: Prepared;
  rows: Rows;
  across: Across;
  /** The label sits in the first gap next to the sender, on the line, so it reads as the sender's. */
  labelAt: (
    from: string,
    to: string,
    x1: number,
    y1: number,
    x2: number,
    y2: number,
  ) => { labelX: number; labelY: number };
  /** First index whose time is at or after atMs (the end of the run if none). */
  indexAtOrAfter: (atMs: number, from: number) => number;
}

function itemContext(p: Prepared, rows: Rows, across: Across): ItemContext {
  const { events } = p.transcript;
  const count = events.length;
  const { lanes } = across;
  const labelAt = (from: string, to: string, x1: number, y1: number, x2: number, y2: number) => {
    const step = (p.position.get(to) ?? 0) > (p.position.get(from) ?? 0) ? 1 : -1;
    const next = lanes[(p.position.get(from) ?? 0) + step];
    const labelX = next === undefined ? (x1 + x2) / 2 : (x1 + next.x) / 2;
    const labelY = x2 === x1 ? (y1 + y2) / 2 : y1 + ((y2 - y1) * (labelX - x1)) / (x2 - x1);
    return { labelX, labelY };
  };
  const indexAtOrAfter = (atMs: number, from: number): number => {
    for (let i = from; i < count; i++) if ((events[i] as LabEvent).atMs >= atMs) return i;
    return Math.max(count - 1, from);
  };
  return { p, rows, across, labelAt, indexAtOrAfter };
}

export function layItems(p: Prepared, rows: Rows, across: Across): Items {
  const { events } = p.transcript;
  const count = events.length;
  const context = itemContext(p, rows, across);
  const items: Items = { wires: [], markers: [], times: [], bars: [], messageIndexes: [] };
  const openBars = new Map<string, DeadlineBar>();
  for (let i = 0; i < count; i++) {
    const event = events[i] as LabEvent;
    const previous = events[i - 1];
    if (rows.plan === null && (previous === undefined || previous.atMs !== event.atMs))
      items.times.push({ id: `t${i}`, index: i, y: rows.rowY[i] as number, atMs: event.atMs });
    if (event.kind === 'message') {
      items.messageIndexes.push(i);
      items.wires.push(messageWire(context, i, event));
      continue;
    }
    if (event.kind === 'stream-closed') {
      items.wires.push(closeWire(context, i, event));
      continue;
    }
    if (event.kind === 'sse-comment' && event.action === 'sent') {
      items.wires.push(commentWire(context, i, event));
      continue;
    }
    if (event.kind === 'deadline') deadlineBar(context, i, event, openBars, items.bars);
    const marker = markerAt(context, i, event);
    if (marker !== null) items.markers.push(marker);
  }
  // One time per band, level with the band's first row.
  if (rows.plan !== null)
    for (const band of rows.plan.bands)
      items.times.push({ id: `t${band.first}`, index: band.first, y: band.centre, atMs: band.atMs });
  return items;
}

/**
 * A layout's items stood on other rows of the same run (other leads: its lanes are the same): each
 * keeps what does not depend on where the rows stand (its words, lanes, x, fate) and takes the y that
 * layItems gives it on these rows, its label back where the lines alone put it. The items are changed
 * in place and returned: as layItems(p, rows, across) would lay them, without making them again.
 */
export function standItems(p: Prepared, rows: Rows, across: Across, items: Items): Items {
  const context = itemContext(p, rows, across);
  for (const wire of items.wires) standWire(context, wire);
  for (const marker of items.markers) standMarker(rows, marker);
  for (const bar of items.bars) standBar(context, bar);
  const bands = rows.plan?.bands;
  items.times.forEach((time, k) => {
    time.y = bands === undefined ? (rows.rowY[time.index] as number) : (bands[k] as Band).centre;
  });
  return items;
}

/** Where a wire's line ends (its y) on the rows: the row its settling lands on, its arrival's time, or its own row. */
function wireEndY({ p, rows }: ItemContext, wire: Wire): number {
  const { plan, rowY } = rows;
  const i = wire.index;
  const y = rowY[i] as number;
  const event = p.transcript.events[i] as LabEvent;
  if (event.kind === 'message') {
    const { settled, lost } = messageFate(p, event);
    // Race view: a lost message ends where it was lost (the drop, or the loss the receiver records), not at its due time.
    const y2 =
      settled !== undefined && (!lost || plan !== null)
        ? plan === null
          ? (rowY[settled] as number)
          : (plan.landY[settled] as number)
        : rows.yAt(event.arrivesAtMs);
    return Math.max(y, y2);
  }
  if (wire.kind === 'stream-close') {
    // It lands where the other side observes the disconnect (its resolvedAt), if it ever does.
    if (wire.arrivesAtMs === null) return y;
    return plan === null ? (rowY[wire.resolvedAt] as number) : (plan.landY[wire.resolvedAt] as number);
  }
  const arrives = wire.arrivesAtMs;
  return arrives === null ? y + (plan === null ? ROW_H : 0) : rows.yAt(arrives);
}

/** Stands a wire on the rows: its line from its row to where it ends, its label where the line puts it (tagX and tagY 0 until placed), its band's top. */
function standWire(context: ItemContext, wire: Wire): void {
  const { rows, labelAt } = context;
  const y = rows.rowY[wire.index] as number;
  const y2 = wireEndY(context, wire);
  const where = labelAt(wire.from, wire.to, wire.x1, y, wire.x2, y2);
  wire.y1 = y;
  wire.y2 = y2;
  wire.tagX = 0;
  wire.tagY = 0;
  wire.labelX = where.labelX;
  wire.labelY = where.labelY;
  wire.bandY = rows.bandTop[wire.index] as number;
}

/** The event that settles a message (its first delivery or loss), and whether it is lost. */
function messageFate(p: Prepared, event: MessageEvent): { settled: number | undefined; lost: boolean } {
  const settled = p.settledAt.get(event.seq);
  const settledEvent = settled === undefined ? undefined : p.transcript.events[settled];
  return { settled, lost: event.lost === true || settledEvent?.kind === 'message-lost' };
}

function messageWire(context: ItemContext, i: number, event: MessageEvent): Wire {
  const { p, across, indexAtOrAfter } = context;
  const { settled, lost } = messageFate(p, event);
  const fate: WireFate = lost ? 'lost' : event.ignoredBy !== undefined ? 'ignored' : 'delivered';
  const label = p.wording[i]?.label ?? event.kind;
  const why = event.reason ?? null;
  const fateText =
    fate === 'ignored'
      ? `, ignored by the ${event.ignoredBy}: ${why ?? ''}`
      : fate === 'lost'
        ? `, lost: ${why ?? ''}`
        : '';
  return stood(context, {
    id: `w${event.seq}`,
    kind: 'message',
    index: i,
    seq: event.seq,
    from: event.from,
    to: event.to,
    x1: across.xOf(event.from),
    y1: 0,
    x2: across.xOf(event.to),
    y2: 0,
    tagX: 0,
    tagY: 0,
    labelX: 0,
    labelY: 0,
    label,
    sentAtMs: event.atMs,
    arrivesAtMs: event.arrivesAtMs,
    fate,
    resolvedAt: settled ?? indexAtOrAfter(event.arrivesAtMs, i),
    reason: why,
    description: `${event.from} to ${event.to}: ${label}, sent at ${event.atMs} ms on ${event.channel}, ${lost ? 'due' : 'arrives'} at ${event.arrivesAtMs} ms${fateText}`,
    bandY: 0,
  });
}

/** A wire made with its rows' fields 0 (in their places), stood on the rows. */
function stood(context: ItemContext, wire: Wire): Wire {
  standWire(context, wire);
  return wire;
}

/** The close travels to the other side; it lands where that side observes the disconnect. */
function closeWire(context: ItemContext, i: number, event: Extract<LabEvent, { kind: 'stream-closed' }>): Wire {
  const { p, across } = context;
  const { events } = p.transcript;
  const to = otherSide(event.by);
  const observed = disconnectObserved(events, i);
  return stood(context, {
    id: `w${event.seq}`,
    kind: 'stream-close',
    index: i,
    seq: event.seq,
    from: event.by,
    to,
    x1: across.xOf(event.by),
    y1: 0,
    x2: across.xOf(to),
    y2: 0,
    tagX: 0,
    tagY: 0,
    labelX: 0,
    labelY: 0,
    label: `closes stream #${String(event.requestId)}`,
    sentAtMs: event.atMs,
    arrivesAtMs: observed < 0 ? null : (events[observed] as LabEvent).atMs,
    fate: 'closed',
    resolvedAt: observed < 0 ? i : observed,
    reason: event.reason,
    description: `the ${event.by} closes the response stream of #${String(event.requestId)} at ${event.atMs} ms: ${event.reason}`,
    bandY: 0,
  });
}

function commentWire(context: ItemContext, i: number, event: Extract<LabEvent, { kind: 'sse-comment' }>): Wire {
  const { across, indexAtOrAfter } = context;
  const arrives = event.arrivesAtMs;
  return stood(context, {
    id: `w${event.seq}`,
    kind: 'comment',
    index: i,
    seq: event.seq,
    from: 'server',
    to: 'client',
    x1: across.xOf('server'),
    y1: 0,
    x2: across.xOf('client'),
    y2: 0,
    tagX: 0,
    tagY: 0,
    labelX: 0,
    labelY: 0,
    label: event.line,
    sentAtMs: event.atMs,
    arrivesAtMs: arrives,
    fate: arrives === null ? 'lost' : 'delivered',
    resolvedAt: arrives === null ? i : indexAtOrAfter(arrives, i),
    reason: event.reason,
    description: `server to client: SSE comment "${event.line}" at ${event.atMs} ms (${event.reason})`,
    bandY: 0,
  });
}

/** A deadline event ends the bar open for its request and deadline, and (armed or reset) opens the next. */
function deadlineBar(
  context: ItemContext,
  i: number,
  event: Extract<LabEvent, { kind: 'deadline' }>,
  openBars: Map<string, DeadlineBar>,
  bars: DeadlineBar[],
): void {
  const y = context.rows.rowY[i] as number;
  const key = `${String(event.requestId)}:${event.deadline}`;
  const open = openBars.get(key);
  if (open !== undefined) {
    open.endIndex = i;
    open.endAction = event.action === 'armed' ? 'reset' : event.action;
    open.yEnd = y;
    openBars.delete(key);
  }
  if (event.action !== 'armed' && event.action !== 'reset') return;
  const bar: DeadlineBar = {
    id: `b${event.seq}`,
    deadline: event.deadline,
    index: i,
    x: (event.deadline === 'idle' ? IDLE_BAR_X : MAX_BAR_X) + context.across.barShift,
    y1: 0,
    dueAtMs: event.dueAtMs,
    yDue: 0,
    endIndex: null,
    endAction: null,
    yEnd: null,
  };
  standBar(context, bar);
  bars.push(bar);
  openBars.set(key, bar);
}

/** Stands a deadline bar on the rows: from its row (linear time: from the instant it was armed, so its length is its duration) to its due time, and where it ended. */
function standBar({ p, rows }: ItemContext, bar: DeadlineBar): void {
  const y = rows.rowY[bar.index] as number;
  bar.y1 = p.scale === 'linear' ? Math.min(y, rows.yAt((p.transcript.events[bar.index] as LabEvent).atMs)) : y;
  bar.yDue = Math.max(y + 4, rows.yAt(bar.dueAtMs));
  if (bar.endIndex !== null) bar.yEnd = rows.rowY[bar.endIndex] as number;
}

/** Stands a marker on the rows: its row and its band's top. */
function standMarker(rows: Rows, marker: Marker): void {
  marker.y = rows.rowY[marker.index] as number;
  marker.bandY = rows.bandTop[marker.index] as number;
}

function markerAt({ p, rows, across }: ItemContext, i: number, event: LabEvent): Marker | null {
  const lane = p.markerLanes[i];
  const wording = p.wordings[i] ?? null;
  const size = p.sizes[i] ?? null;
  if (lane === null || lane === undefined || wording === null || size === null) return null;
  return {
    id: `m${event.seq}`,
    index: i,
    seq: event.seq,
    kind: event.kind,
    lane,
    x: across.xOf(lane) + (rows.dx[i] as number),
    y: rows.rowY[i] as number,
    bandY: rows.bandTop[i] as number,
    text: wording.text,
    tone: wording.tone,
    title: `${event.atMs} ms · ${p.wording[i]?.text ?? event.kind}`,
    width: size.width,
    height: size.height,
    lines: size.lines,
    look: size.look,
  };
}

/** The layout from its phases' answers: its size, and the indexes the view cuts it with. */
export function finishLayout(p: Prepared, rows: Rows, across: Across, items: Items): DiagramLayout {
  const { wires, markers, times, bars } = items;
  const { plan, breaks } = rows;
  const lowest = Math.max(
    rows.lastY,
    ...wires.map((wire) => wire.y2),
    ...bars.map((bar) => (bar.endIndex === null ? bar.yDue : (bar.yEnd ?? bar.yDue))),
  );
  const firstWire = new Map<number, number>();
  wires.forEach((wire, at) => {
    if (!firstWire.has(wire.index)) firstWire.set(wire.index, at);
    if (!firstWire.has(wire.resolvedAt)) firstWire.set(wire.resolvedAt, at);
  });
  const spans = {
    markers: spanReach(markers, EXTENTS.markers),
    wires: spanReach(wires, EXTENTS.wires),
    times: spanReach(times, EXTENTS.times),
    breaks: spanReach(breaks, EXTENTS.breaks),
    bars: spanReach(bars, EXTENTS.bars),
    barLives: spanReach(bars, EXTENTS.barLives),
  };
  return {
    lanes: across.lanes,
    width: across.width,
    height: lowest + (plan === null ? ROW_H * 2 : CHIP_H / 2),
    timeRight: across.timeRight,
    rowY: rows.rowY,
    wires,
    markers,
    times,
    bars,
    messageIndexes: items.messageIndexes,
    scale: p.scale,
    breaks,
    spans,
    wireMarks: [...firstWire].sort((a, b) => a[0] - b[0]).flat(),
    resolvedSorted: wires.map((wire) => wire.resolvedAt).sort((a, b) => a - b),
  };
}

/** Passes of the race view's layout that look for wire labels still meeting: a burst rarely needs more than one. */
const LABEL_PASSES_MAX = 4;
/** Room kept between a label and the label or fate word a band is moved below. */
const LABEL_CLEAR_PX = 2;

/**
 * The room each band of the race view keeps above it so that its wire labels clear those of the bands
 * before: where the placer (placeLabels) finds no clear place on a line, as in a burst of level lines
 * one band after another, the later wire's band moves down by the overlap, and the run is laid out again.
 * Elsewhere the layout is what the bands alone give.
 *
 * Laying out again moves only the bands from the first one given more room: each placement takes up,
 * as the one before left them, the labels of the wires placed before the first whose placement could
 * see anything that moved (labelsToKeep), and places the rest.
 */
function labelLeads(p: Prepared): { leads: Map<number, number>; layout: DiagramLayout } {
  const leads = new Map<number, number>();
  let before: { log: PlacementLog; keep: number } | undefined;
  let laid: { across: Across; items: Items } | undefined;
  for (let pass = 0; ; pass++) {
    const rows = layRows(p, undefined, leads);
    // The lanes do not depend on where the bands stand; the items of the pass before are stood on the new rows.
    const across = laid?.across ?? layLanes(p, rows);
    const items = laid === undefined ? layItems(p, rows, across) : standItems(p, rows, across, laid.items);
    laid = { across, items };
    const log = placeLabels(items.wires, items.markers, across.lanes, before);
    const more = roomStillNeeded(p.transcript, items.wires);
    if (pass === LABEL_PASSES_MAX || more.size === 0) return { leads, layout: finishLayout(p, rows, across, items) };
    for (const [atMs, need] of more) leads.set(atMs, (leads.get(atMs) ?? 0) + need);
    before = { log, keep: labelsToKeep(p, rows, items.wires, log, Math.min(...more.keys())) };
  }
}

/**
 * How many of a placement's first labels the next placement takes up as they are when every band from
 * the instant `movedMs` on moves down: those of the wires before the first wire whose line ends on or
 * between moved bands, or whose placement looked as low as (LOOKS_BELOW_PX above) a moved band's top or
 * a line that moves. Above that, the markers, the lines and so the placements are what they were.
 */
function labelsToKeep(p: Prepared, rows: Rows, wires: readonly Wire[], log: PlacementLog, movedMs: number): number {
  const { bands } = rows.plan as BandPlan;
  const moved = bandAtOrAfter(bands, movedMs);
  const bandOfEvent = new Int32Array(p.transcript.events.length);
  bands.forEach((band, k) => bandOfEvent.fill(k, band.first, bands[k + 1]?.first ?? bandOfEvent.length));
  const bandOf = (index: number) => bandOfEvent[index] as number;
  /** The last band a wire's line stands on or between. */
  const lastBand = (wire: Wire): number => {
    const end = wireEnd(p, wire);
    const own = bandOf(wire.index);
    return end === null ? own : 'land' in end ? bandOf(end.land) : Math.max(own, bandAtOrAfter(bands, end.atMs));
  };
  const moves = wires.map((wire) => lastBand(wire) >= moved);
  let from = (bands[moved] as Band).top;
  wires.forEach((wire, k) => {
    if (moves[k] === true) from = Math.min(from, wire.y1, wire.y2);
  });
  const keep = wires.findIndex((wire, k) => moves[k] === true || (log.lowest[k] as number) + LOOKS_BELOW_PX >= from);
  return keep < 0 ? wires.length : keep;
}

/** Where a race-view wire's line ends: the row where the event that settles it lands, else its arrival's time, else (null) its own row. */
type WireEnd = { land: number } | { atMs: number } | null;

/** A race-view wire's end, as messageWire, closeWire and commentWire lay it out. */
function wireEnd(p: Prepared, wire: Wire): WireEnd {
  if (wire.kind === 'message') {
    const settled = p.settledAt.get(wire.seq);
    return settled !== undefined ? { land: settled } : { atMs: wire.arrivesAtMs as number };
  }
  if (wire.kind === 'stream-close') return wire.arrivesAtMs === null ? null : { land: wire.resolvedAt };
  return wire.arrivesAtMs === null ? null : { atMs: wire.arrivesAtMs };
}

/** The room each band still needs above it in a layout (by instant): for its texts to clear the lane headers' band and the texts of earlier bands. */
function roomStillNeeded(transcript: Transcript, wires: readonly Wire[]): Map<number, number> {
  const more = new Map<number, number>();
  const boxes = wires.map(wireTextBoxes);
  // The lane headers' band is pinned over the top of the pane: a band whose label or fate word would
  // reach under it (the first, with its wire's label above the line) keeps the room to clear it.
  wires.forEach((wire, k) => {
    const { label, tag } = boxes[k] as WireTexts;
    const top = Math.min(label.top, tag?.top ?? Infinity) + TEXT_HALO_PX;
    const need = HEADER_BAND_PX - top;
    if (need > 0) {
      const atMs = (transcript.events[wire.index] as LabEvent).atMs;
      more.set(atMs, Math.max(more.get(atMs) ?? 0, need));
    }
  });
  for (const [earlier, later] of meetingTextsOf(wires, boxes)) {
    const atMs = (transcript.events[later.wire.index] as LabEvent).atMs;
    // Two texts of one band cannot be moved apart by the band's room.
    if ((transcript.events[earlier.wire.index] as LabEvent).atMs === atMs) continue;
    const need = earlier.box.bottom - later.box.top + LABEL_CLEAR_PX;
    if (need > 0) more.set(atMs, Math.max(more.get(atMs) ?? 0, need));
  }
  return more;
}

/**
 * Pairs of wire texts on screen at once that meet: two labels, or a fate word and another wire's label
 * (a wire's own label and fate word are one block), the earlier-sent wire first.
 */
export function meetingTexts(
  wires: readonly Wire[],
): Array<[{ wire: Wire; box: TextBox; label: boolean }, { wire: Wire; box: TextBox; label: boolean }]> {
  return meetingTextsOf(wires, wires.map(wireTextBoxes));
}

type WireTexts = ReturnType<typeof wireTextBoxes>;

/** meetingTexts, each wire's texts (wireTextBoxes) already found. */
function meetingTextsOf(
  wires: readonly Wire[],
  boxes: readonly WireTexts[],
): Array<[{ wire: Wire; box: TextBox; label: boolean }, { wire: Wire; box: TextBox; label: boolean }]> {
  const texts: Array<{ wire: Wire; box: TextBox; label: boolean }> = [];
  wires.forEach((wire, k) => {
    const { label, tag } = boxes[k] as WireTexts;
    texts.push({ wire, box: label, label: true });
    if (tag !== null) texts.push({ wire, box: tag, label: false });
  });
  texts.sort((a, b) => a.box.top - b.box.top);
  const pairs: Array<[(typeof texts)[number], (typeof texts)[number]]> = [];
  for (let i = 0; i < texts.length; i++) {
    const a = texts[i] as (typeof texts)[number];
    for (let j = i + 1; j < texts.length && (texts[j] as (typeof texts)[number]).box.top < a.box.bottom; j++) {
      const b = texts[j] as (typeof texts)[number];
      if (a.wire === b.wire || (!a.label && !b.label)) continue;
      if (!a.label && !tagMeetsLabelOf(a.wire, b.wire)) continue;
      if (!b.label && !tagMeetsLabelOf(b.wire, a.wire)) continue;
      if (boxesMeet(a.box, b.box)) pairs.push(a.wire.index <= b.wire.index ? [a, b] : [b, a]);
    }
  }
  return pairs;
}

/** Geometry only: the lanes come from the view's lane rules (../lanes.ts), the rows and labels from the wording. */
/**
 * Where wire labels go: 'placed' (the lab's view) moves each label clear of markers, lines and other
 * labels and gives a band the room its labels need; 'unplaced' leaves each label at its line's middle
 * with its fate word under it, in one pass (what the benchmark draws to show what placement costs).
 */
export type LabelPlacement = 'placed' | 'unplaced';

export function layoutDiagram(
  transcript: Transcript,
  wording: readonly EventWording[],
  scale: TimeScale = 'ordinal',
  axis?: SharedAxis,
  labels: LabelPlacement = 'placed',
): DiagramLayout {
  // What does not depend on where the bands stand is prepared once for every pass of labelLeads.
  const prepared = prepare(transcript, wording, scale);
  if (labels === 'unplaced') return layoutOnce(prepared, axis, undefined, false);
  // A shared axis already keeps each band's room for labels (sharedAxis asks labelLeads of every run).
  return scale === 'ordinal' && axis === undefined
    ? labelLeads(prepared).layout
    : layoutOnce(prepared, axis, undefined);
}

/** One layout of a prepared run, its bands kept `leads` apart: rows, lanes, items, then (`place`) the wire labels. */
function layoutOnce(
  p: Prepared,
  axis: SharedAxis | undefined,
  leads: ReadonlyMap<number, number> | undefined,
  place = true,
): DiagramLayout {
  const rows = layRows(p, axis, leads);
  const across = layLanes(p, rows);
  const items = layItems(p, rows, across);
  if (place) placeLabels(items.wires, items.markers, across.lanes);
  else unplacedTags(items.wires);
  return finishLayout(p, rows, across, items);
}
