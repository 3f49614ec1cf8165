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
import { LABEL_RAISE, TEXT_HALO_PX, textBottom, textTop } from './headerBand';
import { bandGap, bandHeights, bandYAt, planBands, type BandEvent } from './bands';
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
 * the step, so stepping back or scrubbing never recomputes the layout. The lab worker lays a run out
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
    const { leads } = labelLeads(transcript, wording);
    for (const [atMs, { height, lead }] of bandHeights(prepare(transcript, wording, 'ordinal').bandEvents, leads)) {
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

/** What a layout needs before any position: each event's marker and size, the lanes in order, what settles which wire, and (race view) each event's place in its band. */
function prepare(transcript: Transcript, wording: readonly EventWording[], scale: TimeScale) {
  const { events } = transcript;
  const count = events.length;
  const lanes = eventLanes(events);
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

  // Which events settle which messages.
  const messagesBySeq = new Map<number, MessageEvent>();
  const settledAt = new Map<number, number>();
  const indexBySeq = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const event = events[i] as LabEvent;
    indexBySeq.set(event.seq, i);
    if (event.kind === 'message') messagesBySeq.set(event.seq, event);
    else if ((event.kind === 'delivered' || event.kind === 'message-lost') && !settledAt.has(event.messageSeq))
      settledAt.set(event.messageSeq, i);
  }

  // Lanes: every side that sends, receives or records something.
  const laneIds = new Set<string>();
  const markerLanes: Array<string | null> = [];
  events.forEach((event, i) => {
    if (event.kind === 'message') {
      laneIds.add(event.from);
      laneIds.add(event.to);
    } else if (event.kind === 'stream-closed') {
      laneIds.add(event.by);
      laneIds.add(otherSide(event.by));
    } else if (event.kind === 'sse-comment' && event.action === 'sent') {
      laneIds.add('server');
      laneIds.add('client');
    }
    const lane = wordings[i] === null ? null : (lanes[i] as string);
    markerLanes.push(lane);
    if (lane !== null) laneIds.add(lane);
  });
  if (events.some((event) => event.kind === 'deadline')) laneIds.add('client');
  const order = orderLanes(laneIds);
  const position = new Map(order.map((id, i) => [id, i]));
  const span = (a: string, b: string) => ({ from: position.get(a) ?? 0, to: position.get(b) ?? 0 });

  // The race view's bands: what each event puts in its instant's band.
  const settles = new Map<number, number>();
  for (const [messageSeq, at] of settledAt) {
    const sentBy = indexBySeq.get(messageSeq);
    if (sentBy !== undefined) settles.set(at, sentBy);
  }
  // A closed stream lands where the other side sees the disconnect.
  events.forEach((event, i) => {
    if (event.kind !== 'stream-closed') return;
    const to = otherSide(event.by);
    for (let j = i + 1; j < count; j++) {
      const later = events[j] as LabEvent;
      if (later.kind === 'disconnect-observed' && later.by === to && later.requestId === event.requestId) {
        if (!settles.has(j)) settles.set(j, i);
        return;
      }
    }
  });
  const bandEvents: BandEvent[] = events.map((event, i) => {
    const size = sizes[i];
    const lane = markerLanes[i];
    const local =
      size === null || size === undefined || lane === null || lane === undefined
        ? null
        : { lane, width: size.width, height: size.height, groupMax: groupMaxOn(lane), word: size.look !== 'dot' };
    let item: BandEvent['item'];
    if (event.kind === 'message') item = { kind: 'wire', ...span(event.from, event.to) };
    else if (event.kind === 'stream-closed') item = { kind: 'wire', ...span(event.by, otherSide(event.by)) };
    else if (event.kind === 'sse-comment' && event.action === 'sent')
      item = { kind: 'wire', ...span('server', 'client') };
    else if (settles.has(i))
      item = {
        kind: 'settle',
        sentBy: settles.get(i) as number,
        at: position.get(lanes[i] as string) ?? 0,
        item: local,
      };
    else item = local === null ? { kind: 'quiet' } : { kind: 'local', ...local };
    return { atMs: event.atMs, lanePosition: position.get(lanes[i] as string) ?? 0, item };
  });
  return { wordings, sizes, messagesBySeq, settledAt, markerLanes, order, position, bandEvents };
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
 */
function labelLeads(
  transcript: Transcript,
  wording: readonly EventWording[],
): { leads: Map<number, number>; layout: DiagramLayout } {
  const leads = new Map<number, number>();
  for (let pass = 0; ; pass++) {
    const layout = layoutOnce(transcript, wording, 'ordinal', undefined, leads);
    if (pass === LABEL_PASSES_MAX) return { leads, layout };
    const more = new Map<number, number>();
    // The lane headers' band is pinned over the top of the pane: a band whose label or fate word would
    // reach under it (the first, with its wire's label above the line) keeps the room to clear it.
    for (const wire of layout.wires) {
      const { label, tag } = wireTextBoxes(wire);
      const top = Math.min(label.top, tag?.top ?? Infinity) + TEXT_HALO_PX;
      const need = HEADER_BAND_PX - top;
      if (need > 0) {
        const atMs = (transcript.events[wire.index] as LabEvent).atMs;
        more.set(atMs, Math.max(more.get(atMs) ?? 0, need));
      }
    }
    for (const [earlier, later] of meetingTexts(layout.wires)) {
      const atMs = (transcript.events[later.wire.index] as LabEvent).atMs;
      // Two texts of one band cannot be moved apart by the band's room.
      if ((transcript.events[earlier.wire.index] as LabEvent).atMs === atMs) continue;
      const need = earlier.box.bottom - later.box.top + LABEL_CLEAR_PX;
      if (need > 0) more.set(atMs, Math.max(more.get(atMs) ?? 0, need));
    }
    if (more.size === 0) return { leads, layout };
    for (const [atMs, need] of more) leads.set(atMs, (leads.get(atMs) ?? 0) + need);
  }
}

/**
 * Pairs of wire texts on screen at once that meet: two labels, or a fate word and another wire's label
 * (a wire's own label and fate word are one block), the earlier-sent wire first.
 */
export function meetingTexts(
  wires: readonly Wire[],
): Array<[{ wire: Wire; box: TextBox; label: boolean }, { wire: Wire; box: TextBox; label: boolean }]> {
  const texts: Array<{ wire: Wire; box: TextBox; label: boolean }> = [];
  for (const wire of wires) {
    const { label, tag } = wireTextBoxes(wire);
    texts.push({ wire, box: label, label: true });
    if (tag !== null) texts.push({ wire, box: tag, label: false });
  }
  texts.sort((a, b) => a.box.top - b.box.top);
  const pairs: Array<[(typeof texts)[number], (typeof texts)[number]]> = [];
  for (const [i, a] of texts.entries()) {
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
  if (labels === 'unplaced') return layoutOnce(transcript, wording, scale, axis, undefined, false);
  // A shared axis already keeps each band's room for labels (sharedAxis asks labelLeads of every run).
  return scale === 'ordinal' && axis === undefined
    ? labelLeads(transcript, wording).layout
    : layoutOnce(transcript, wording, scale, axis, undefined);
}

function layoutOnce(
  transcript: Transcript,
  wording: readonly EventWording[],
  scale: TimeScale,
  axis: SharedAxis | undefined,
  leads: ReadonlyMap<number, number> | undefined,
  place = true,
): DiagramLayout {
  const { events } = transcript;
  const count = events.length;
  const eventWording = wording;
  const { wordings, sizes, settledAt, markerLanes, order, position, bandEvents } = prepare(transcript, wording, scale);
  const extraAround = (i: number) => ((sizes[i]?.height ?? MARKER_H) - MARKER_H) / 2;

  // Rows. The race view (ordinal time): one band per instant (bands.ts). Linear time: one row per
  // event, each at its time on a linear scale, pushed down only where the row before would overlap
  // (the push is absorbed by the next long enough gap); a gap too long to draw is folded.
  let rowY: number[] = new Array<number>(count);
  let dx: number[] = new Array<number>(count).fill(0);
  let bandTop: number[] = rowY;
  const breaks: TimeBreak[] = [];
  const gaps: number[] = [];
  for (let i = 1; i < count; i++) gaps.push((events[i] as LabEvent).atMs - (events[i - 1] as LabEvent).atMs);
  const pxPerMs = scale === 'linear' ? linearPxPerMs(gaps, count) : 0;
  const plan = scale === 'ordinal' ? planBands(bandEvents, axis?.bandY, leads) : null;
  /** The widest marker (race view: the widest line of items in one band) on each lane: lanes are spaced so that neighbouring markers never touch. */
  const widest = new Map<string, number>();
  if (plan !== null) {
    rowY = plan.rowY;
    dx = plan.dx;
    bandTop = plan.bandTop;
    for (const [lane, { left, right }] of plan.reach) widest.set(lane, 2 * Math.max(left, right));
  } else {
    /** Linear time: the y where time t0 (of the previous row) maps, and the time scale's origin after folds. */
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
    markerLanes.forEach((lane, i) => {
      if (lane !== null) widest.set(lane, Math.max(widest.get(lane) ?? MARKER_W, sizes[i]?.width ?? MARKER_W));
    });
  }
  const lastY =
    count === 0
      ? TOP_Y
      : Math.max(
          ...(plan === null
            ? [rowY[count - 1] as number]
            : plan.bands.slice(-1).map((band) => band.top + band.height - CHIP_H / 2)),
        );
  const lastMs = count === 0 ? 0 : (events[count - 1] as LabEvent).atMs;
  /** How far below the last row a later time lies (a deadline due after the run ended). */
  const afterLast = (deltaMs: number) => Math.min(FOLD_PX, deltaMs * pxPerMs);

  /** y of any virtual time: the first row at that instant, else between the rows around it. */
  const yAt = (atMs: number): number => {
    if (plan !== null) return bandYAt(plan.bands, atMs);
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
  /** First index whose time is at or after atMs (the end of the run if none). */
  const indexAtOrAfter = (atMs: number, from: number): number => {
    for (let i = from; i < count; i++) if ((events[i] as LabEvent).atMs >= atMs) return i;
    return Math.max(count - 1, from);
  };

  // Wire endpoints, to know which gaps between lanes a line crosses (those get room for labels).
  const crossed = new Array<boolean>(Math.max(0, order.length - 1)).fill(false);
  const cross = (a: string, b: string) => {
    const from = position.get(a) ?? 0;
    const to = position.get(b) ?? 0;
    for (let i = Math.min(from, to); i < Math.max(from, to); i++) crossed[i] = true;
  };
  for (const event of events) {
    if (event.kind === 'message') cross(event.from, event.to);
    else if (event.kind === 'stream-closed') cross(event.by, otherSide(event.by));
    else if (event.kind === 'sse-comment' && event.action === 'sent') cross('server', 'client');
  }
  const lanes: Lane[] = [];
  const minWidth = plan === null ? MARKER_W : DOT_PX;
  const half = (id: string | undefined) => (id === undefined ? 0 : (widest.get(id) ?? minWidth) / 2);
  /** How far a lane's items reach toward its neighbour on one side (race view: each side apart). */
  const reachOf = (id: string | undefined, side: 'left' | 'right') =>
    id === undefined ? 0 : plan === null ? half(id) : Math.max(DOT_PX / 2, plan.reach.get(id)?.[side] ?? 0);
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
  // Race view: the gap next to a wire's sender holds its label beside the items there.
  const labelRoom = new Array<number>(Math.max(0, order.length - 1)).fill(0);
  if (plan !== null) {
    events.forEach((event, i) => {
      let ends: [string, string];
      let label: string;
      if (event.kind === 'message') {
        ends = [event.from, event.to];
        label = eventWording[i]?.label ?? event.kind;
      } else if (event.kind === 'stream-closed') {
        ends = [event.by, otherSide(event.by)];
        label = `closes stream #${String(event.requestId)}`;
      } else return;
      const from = position.get(ends[0]) ?? 0;
      const to = position.get(ends[1]) ?? 0;
      if (from === to) return;
      const gap = to > from ? from : from - 1;
      labelRoom[gap] = Math.max(
        labelRoom[gap] ?? 0,
        Math.max(textWidthPx(label, 15, true), fateWidthPx()) + 2 * LABEL_PAD_X + 2 * MARKER_GAP_X,
      );
    });
  }
  order.forEach((id, i) => {
    lanes.push({ id, label: laneLabel(id), x });
    // Markers sit on rows of their own, so two lanes' markers never share a row: across a gap no
    // message crosses, a marker only has to clear the other lane's line, not its markers.
    const clear =
      plan !== null
        ? reachOf(id, 'right') + reachOf(order[i + 1], 'left') + MARKER_GAP_X
        : crossed[i]
          ? half(id) + half(order[i + 1]) + MARKER_GAP_X
          : Math.max(half(id), half(order[i + 1])) + 2 * MARKER_GAP_X;
    const next = order[i + 1];
    const narrow =
      isConnectionLane(id) || (next !== undefined && isConnectionLane(next)) ? NARROW_GAP_CONNECTION : NARROW_GAP;
    // Race view: a label may have to pass beside the items on either lane of its gap.
    const besideItems =
      labelRoom[i] === undefined || labelRoom[i] === 0
        ? 0
        : (labelRoom[i] as number) + Math.max(reachOf(id, 'right'), reachOf(order[i + 1], 'left'));
    x +=
      plan === null
        ? Math.max(crossed[i] ? WIDE_GAP : narrow, clear)
        : Math.max(crossed[i] ? BAND_WIDE_GAP : BAND_NARROW_GAP, clear, besideItems);
  });
  const laneX = new Map(lanes.map((lane) => [lane.id, lane.x]));
  const xOf = (id: string) => laneX.get(id) ?? FIRST_LANE_X;

  /** The label sits in the first gap next to the sender, on the line, so it reads as the sender's. */
  const labelAt = (from: string, to: string, x1: number, y1: number, x2: number, y2: number) => {
    const step = (position.get(to) ?? 0) > (position.get(from) ?? 0) ? 1 : -1;
    const next = lanes[(position.get(from) ?? 0) + step];
    const labelX = next === undefined ? (x1 + x2) / 2 : (x1 + next.x) / 2;
    const labelY = x2 === x1 ? (y1 + y2) / 2 : y1 + ((y2 - y1) * (labelX - x1)) / (x2 - x1);
    return { labelX, labelY };
  };

  const wires: Wire[] = [];
  const markers: Marker[] = [];
  const times: TimeMark[] = [];
  const bars: DeadlineBar[] = [];
  const messageIndexes: number[] = [];
  const openBars = new Map<string, DeadlineBar>();

  for (let i = 0; i < count; i++) {
    const event = events[i] as LabEvent;
    const y = rowY[i] as number;
    const previous = events[i - 1];
    if (plan === null && (previous === undefined || previous.atMs !== event.atMs))
      times.push({ id: `t${i}`, index: i, y, atMs: event.atMs });
    const bandY = bandTop[i] as number;

    if (event.kind === 'message') {
      messageIndexes.push(i);
      const settled = settledAt.get(event.seq);
      const settledEvent = settled === undefined ? undefined : events[settled];
      const lost = event.lost === true || settledEvent?.kind === 'message-lost';
      const fate: WireFate = lost ? 'lost' : event.ignoredBy !== undefined ? 'ignored' : 'delivered';
      const x1 = xOf(event.from);
      const x2 = xOf(event.to);
      // Race view: a lost message ends where it was lost (the drop, or the loss the receiver records), not at its due time.
      const y2 =
        settledEvent !== undefined && (!lost || plan !== null)
          ? plan === null
            ? (rowY[settled as number] as number)
            : (plan.landY[settled as number] as number)
          : yAt(event.arrivesAtMs);
      const label = eventWording[i]?.label ?? event.kind;
      const why = event.reason ?? null;
      const fateText =
        fate === 'ignored'
          ? `, ignored by the ${event.ignoredBy}: ${why ?? ''}`
          : fate === 'lost'
            ? `, lost: ${why ?? ''}`
            : '';
      wires.push({
        id: `w${event.seq}`,
        kind: 'message',
        index: i,
        seq: event.seq,
        from: event.from,
        to: event.to,
        x1,
        y1: y,
        x2,
        y2: Math.max(y, y2),
        tagX: 0,
        tagY: 0,
        ...labelAt(event.from, event.to, x1, y, x2, Math.max(y, y2)),
        label,
        sentAtMs: event.atMs,
        arrivesAtMs: event.arrivesAtMs,
        fate,
        resolvedAt: settled ?? indexAtOrAfter(event.arrivesAtMs, i),
        reason: why,
        description: `${event.from} to ${event.to}: ${label}, sent at ${event.atMs} ms on ${event.channel}, ${lost ? 'due' : 'arrives'} at ${event.arrivesAtMs} ms${fateText}`,
        bandY,
      });
      continue;
    }

    if (event.kind === 'stream-closed') {
      // The close travels to the other side; it lands where that side observes the disconnect.
      const to = otherSide(event.by);
      let observed = -1;
      for (let j = i + 1; j < count; j++) {
        const later = events[j] as LabEvent;
        if (later.kind === 'disconnect-observed' && later.by === to && later.requestId === event.requestId) {
          observed = j;
          break;
        }
      }
      const x1 = xOf(event.by);
      const x2 = xOf(to);
      const y2 = observed < 0 ? y : plan === null ? (rowY[observed] as number) : (plan.landY[observed] as number);
      const label = `closes stream #${String(event.requestId)}`;
      wires.push({
        id: `w${event.seq}`,
        kind: 'stream-close',
        index: i,
        seq: event.seq,
        from: event.by,
        to,
        x1,
        y1: y,
        x2,
        y2,
        tagX: 0,
        tagY: 0,
        ...labelAt(event.by, to, x1, y, x2, y2),
        label,
        sentAtMs: event.atMs,
        arrivesAtMs: observed < 0 ? null : (events[observed] as LabEvent).atMs,
        fate: 'closed',
        resolvedAt: observed < 0 ? i : observed,
        reason: event.reason,
        description: `the ${event.by} closes the response stream of #${String(event.requestId)} at ${event.atMs} ms: ${event.reason}`,
        bandY,
      });
      continue;
    }

    if (event.kind === 'sse-comment' && event.action === 'sent') {
      const x1 = xOf('server');
      const x2 = xOf('client');
      const arrives = event.arrivesAtMs;
      const y2 = arrives === null ? y + (plan === null ? ROW_H : 0) : yAt(arrives);
      wires.push({
        id: `w${event.seq}`,
        kind: 'comment',
        index: i,
        seq: event.seq,
        from: 'server',
        to: 'client',
        x1,
        y1: y,
        x2,
        y2,
        tagX: 0,
        tagY: 0,
        ...labelAt('server', 'client', x1, y, x2, y2),
        label: event.line,
        sentAtMs: event.atMs,
        arrivesAtMs: arrives,
        fate: arrives === null ? 'lost' : 'delivered',
        resolvedAt: arrives === null ? i : indexAtOrAfter(arrives, i),
        reason: event.reason,
        description: `server to client: SSE comment "${event.line}" at ${event.atMs} ms (${event.reason})`,
        bandY,
      });
      continue;
    }

    if (event.kind === 'deadline') {
      const key = `${String(event.requestId)}:${event.deadline}`;
      const open = openBars.get(key);
      if (open !== undefined) {
        open.endIndex = i;
        open.endAction = event.action === 'armed' ? 'reset' : event.action;
        open.yEnd = y;
        openBars.delete(key);
      }
      if (event.action === 'armed' || event.action === 'reset') {
        const bar: DeadlineBar = {
          id: `b${event.seq}`,
          deadline: event.deadline,
          index: i,
          x: (event.deadline === 'idle' ? IDLE_BAR_X : MAX_BAR_X) + barShift,
          // Linear time: from the instant it was armed (its first row), so its length is its duration.
          y1: scale === 'linear' ? Math.min(y, yAt(event.atMs)) : y,
          dueAtMs: event.dueAtMs,
          yDue: Math.max(y + 4, yAt(event.dueAtMs)),
          endIndex: null,
          endAction: null,
          yEnd: null,
        };
        bars.push(bar);
        openBars.set(key, bar);
      }
    }

    const lane = markerLanes[i];
    const wording = wordings[i] ?? null;
    const size = sizes[i] ?? null;
    if (lane !== null && lane !== undefined && wording !== null && size !== null) {
      markers.push({
        id: `m${event.seq}`,
        index: i,
        seq: event.seq,
        kind: event.kind,
        lane,
        x: xOf(lane) + (dx[i] as number),
        y,
        bandY,
        text: wording.text,
        tone: wording.tone,
        title: `${event.atMs} ms · ${eventWording[i]?.text ?? event.kind}`,
        ...size,
      });
    }
  }

  if (plan !== null) {
    // One time per band, level with the band's first row.
    for (const band of plan.bands)
      times.push({ id: `t${band.first}`, index: band.first, y: band.centre, atMs: band.atMs });
  }
  if (place) placeLabels(wires, markers, lanes);
  else
    for (const wire of wires) {
      wire.tagX = wire.labelX;
      wire.tagY = wire.labelY + TAG_BELOW;
    }

  const lastLane = lanes[lanes.length - 1];
  const width =
    (lastLane?.x ?? FIRST_LANE_X) +
    (plan === null ? half(lastLane?.id) : reachOf(lastLane?.id, 'right')) +
    RIGHT_MARGIN;
  const lowest = Math.max(
    lastY,
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
    lanes,
    width,
    height: lowest + (plan === null ? ROW_H * 2 : CHIP_H / 2),
    timeRight,
    rowY,
    wires,
    markers,
    times,
    bars,
    messageIndexes,
    scale,
    breaks,
    spans,
    wireMarks: [...firstWire].sort((a, b) => a[0] - b[0]).flat(),
    resolvedSorted: wires.map((wire) => wire.resolvedAt).sort((a, b) => a - b),
  };
}

// ── wire labels beside markers ─────────────────────────────────────────────────────────────────────

/** A wire's label (15 px bold) sits 9 px above its line, its fate word (14 px, spaced capitals) 21 px below: the rows they take around labelY. */
const LABEL_ABOVE = 28;
const LABEL_BELOW = 28;
/** Its fate word's baseline under its line when it stands under the label (the label's baseline is LABEL_RAISE above it). */
const TAG_BELOW = 21;
/** The label's halo (a 6 px stroke) and the room kept between a label and a marker. */
const LABEL_PAD_X = 8;
/** The widest fate word ("IN FLIGHT"), spaced capitals (a function: the page, which lays nothing out, need not compute it). */
const fateWidthPx = () => Math.ceil(textWidthPx('IN FLIGHT', 14, true) * 1.15);

/** A text's box on the diagram: the em box the browser gives it, with its halo. */
export interface TextBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A line of text's box, centred on x, from its baseline and font size (ascent and descent of the sans-serif, the 3 px halo). */
function textBox(x: number, baseline: number, width: number, fontPx: number): TextBox {
  const halo = TEXT_HALO_PX;
  return {
    left: x - width / 2 - halo,
    right: x + width / 2 + halo,
    top: textTop(baseline, fontPx) - halo,
    bottom: textBottom(baseline, fontPx) + halo,
  };
}

/**
 * The last step at which a wire shows a fate word (a wire is drawn from the step after it is sent): in
 * flight until the step of its fate, then "LOST" or "IGNORED" to the end (Infinity); null if it never shows one.
 */
export function tagShownUntil(wire: Wire): number | null {
  if (wire.kind === 'stream-close') return null;
  if (wire.fate === 'lost' || wire.fate === 'ignored') return Infinity;
  return wire.resolvedAt > wire.index ? wire.resolvedAt : null;
}

/** Whether `wire`'s fate word and `other`'s label are ever on screen at once (`other`'s label shows from the step after it is sent, to the end). */
export const tagMeetsLabelOf = (wire: Wire, other: Wire): boolean => (tagShownUntil(wire) ?? -Infinity) > other.index;

/** Where a wire's label and its fate word ("IN FLIGHT", "LOST", "IGNORED"; the widest) are drawn: the view draws them at these baselines. */
export function wireTextBoxes(wire: Wire): { label: TextBox; tag: TextBox | null } {
  return {
    label: textBox(wire.labelX, wire.labelY - LABEL_RAISE, textWidthPx(wire.label, 15, true), 15),
    tag: tagShownUntil(wire) !== null ? textBox(wire.tagX, wire.tagY, fateWidthPx(), 14) : null,
  };
}

export const boxesMeet = (a: TextBox, b: TextBox): boolean =>
  Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

/** Room kept between a label and its fate word when the word stands beside it. */
const TAG_GAP_X = 10;
/** How far apart the places tried along a line are. */
const LABEL_STEP_PX = 6;
/** Height of a row of the grid that finds the boxes near a place. */
const GRID_PX = 64;

/**
 * Boxes found by the rows of the diagram they reach into: what a label could cover, looked up without a
 * pass over the run. Each box may have an owner (a wire): `removeOwner` takes that owner's boxes out of
 * the rows they were added to and no others, so lifting a label costs the rows it spans, not the run.
 */
class BoxGrid<T> {
  private readonly rows = new Map<number, Array<{ box: TextBox; what: T; owner: unknown }>>();
  private readonly rowsOf = new Map<unknown, number[]>();
  add(box: TextBox, what: T, owner?: unknown): void {
    const first = Math.floor(box.top / GRID_PX);
    const last = Math.floor(box.bottom / GRID_PX);
    for (let row = first; row <= last; row++) {
      const list = this.rows.get(row);
      if (list === undefined) this.rows.set(row, [{ box, what, owner }]);
      else list.push({ box, what, owner });
    }
    if (owner === undefined) return;
    const taken = this.rowsOf.get(owner);
    if (taken === undefined) this.rowsOf.set(owner, rowRange(first, last));
    else for (let row = first; row <= last; row++) if (!taken.includes(row)) taken.push(row);
  }
  removeOwner(owner: unknown): void {
    for (const row of this.rowsOf.get(owner) ?? []) {
      const list = this.rows.get(row);
      if (list !== undefined)
        this.rows.set(
          row,
          list.filter((entry) => entry.owner !== owner),
        );
    }
    this.rowsOf.delete(owner);
  }
  /** Each box in the rows that [top, bottom] reaches into (a box reaching into two of them is visited twice). */
  within(top: number, bottom: number, visit: (box: TextBox, what: T) => void): void {
    for (let row = Math.floor(top / GRID_PX); row <= Math.floor(bottom / GRID_PX); row++)
      for (const entry of this.rows.get(row) ?? []) visit(entry.box, entry.what);
  }
  some(box: TextBox, meets: (what: T) => boolean): boolean {
    for (let row = Math.floor(box.top / GRID_PX); row <= Math.floor(box.bottom / GRID_PX); row++) {
      for (const entry of this.rows.get(row) ?? []) if (boxesMeet(entry.box, box) && meets(entry.what)) return true;
    }
    return false;
  }
}

const rowRange = (first: number, last: number): number[] =>
  Array.from({ length: last - first + 1 }, (_, k) => first + k);

/**
 * Moves each wire's label along its line, within the gap next to its sender, so that it clears the
 * markers beside it on the two lanes of that gap: centred in the gap when there is room, else pushed
 * away from the marker that would cover it, over the other lane's line if no marker is there. Only
 * where markers stand on both sides of a gap too narrow for the label is it centred between them.
 *
 * Then it keeps clear of the labels placed before it: a label and a fate word that are on screen at
 * the same step never meet, nor do two labels. From that place it tries others along its line, first
 * with its fate word under it, then beside it (right, then left); where none is clear of both the
 * markers and the other labels, it stays where the markers put it.
 */
function placeLabels(wires: Wire[], markers: Marker[], lanes: Lane[]): void {
  const byLane = new Map<string, Marker[]>();
  /** Half the tallest marker's height: how far any marker's box reaches from its row. */
  let reach = MARKER_H / 2;
  for (const marker of markers) {
    reach = Math.max(reach, marker.height / 2);
    const list = byLane.get(marker.lane);
    if (list === undefined) byLane.set(marker.lane, [marker]);
    else list.push(marker);
  }
  /** How far right of `lane`'s line and how far left of it the markers on it whose boxes reach into [top, bottom] extend (markers are in row order). */
  const extentNear = (lane: Lane, top: number, bottom: number): { right: number; left: number } => {
    const list = byLane.get(lane.id) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((list[mid] as Marker).y + reach < top) low = mid + 1;
      else high = mid;
    }
    let right = 0;
    let left = 0;
    for (let i = low; i < list.length; i++) {
      const marker = list[i] as Marker;
      if (marker.y - reach > bottom) break;
      if (marker.y + marker.height / 2 >= top && marker.y - marker.height / 2 <= bottom) {
        right = Math.max(right, marker.x + marker.width / 2 - lane.x);
        left = Math.max(left, lane.x - (marker.x - marker.width / 2));
      }
    }
    return { right, left };
  };
  const laneAt = new Map(lanes.map((lane, i) => [lane.id, i]));
  const fateWidth = fateWidthPx();
  const markerBoxes = new BoxGrid<null>();
  for (const marker of markers)
    markerBoxes.add(
      {
        left: marker.x - marker.width / 2,
        right: marker.x + marker.width / 2,
        top: marker.y - marker.height / 2,
        bottom: marker.y + marker.height / 2,
      },
      null,
    );
  /** Every wire's line, by the rows it spans: a label keeps its text off the other wires' lines where it can. */
  const lineRows = new Map<number, Wire[]>();
  for (const wire of wires) {
    for (
      let row = Math.floor(Math.min(wire.y1, wire.y2) / GRID_PX);
      row <= Math.floor(Math.max(wire.y1, wire.y2) / GRID_PX);
      row++
    ) {
      const list = lineRows.get(row);
      if (list === undefined) lineRows.set(row, [wire]);
      else list.push(wire);
    }
  }
  const crossedByLine = (spot: Spot, box: TextBox): boolean => {
    // The text itself, inside its halo: a line under the halo is already broken by it.
    const text = { left: box.left + 3, right: box.right - 3, top: box.top + 3, bottom: box.bottom - 3 };
    for (let row = Math.floor(text.top / GRID_PX); row <= Math.floor(text.bottom / GRID_PX); row++) {
      for (const wire of lineRows.get(row) ?? []) if (wire !== spot.wire && segmentCrosses(wire, text)) return true;
    }
    return false;
  };
  /** What is placed so far: each wire's label and fate word, with the wire (to know the steps it shows at). */
  const placed = new BoxGrid<{ wire: Wire; tag: boolean }>();
  for (const wire of wires) {
    wire.tagX = wire.labelX;
    wire.tagY = wire.labelY + TAG_BELOW;
  }
  const spots = new Map<Wire, Spot>();
  const tagXOf = (spot: Spot, at: number, side: Side) =>
    side === 'below' ? at : at + (side === 'right' ? 1 : -1) * (spot.labelWidth / 2 + TAG_GAP_X + fateWidth / 2);
  const tagYOf = (y: number, side: Side) => (side === 'below' ? y + TAG_BELOW : y - LABEL_RAISE);
  /** The boxes of a spot's label and fate word at x, the word `side` of the label. */
  const boxesAt = (spot: Spot, at: number, side: Side) => {
    const y = spot.yOn(at);
    return {
      y,
      label: textBox(at, y - LABEL_RAISE, spot.labelWidth, 15),
      tag: spot.tagged ? textBox(tagXOf(spot, at, side), tagYOf(y, side), fateWidth, 14) : null,
    };
  };
  /**
   * Whether a spot's label at x is clear of the markers (its block too: the rows a label and a fate word
   * under it take, as wide as the wider of the two) and of the placed texts it would be on screen with:
   * the part of clearAt that does not depend on where the fate word stands.
   */
  const labelClearAt = (spot: Spot, at: number): boolean => {
    const y = spot.yOn(at);
    const label = textBox(at, y - LABEL_RAISE, spot.labelWidth, 15);
    const block = {
      left: at - (spot.width / 2 - LABEL_PAD_X),
      right: at + (spot.width / 2 - LABEL_PAD_X),
      top: y - LABEL_ABOVE,
      bottom: y + LABEL_BELOW,
    };
    if (markerBoxes.some(block, () => true) || markerBoxes.some(label, () => true)) return false;
    return !placed.some(label, (other) => (other.tag ? tagMeetsLabelOf(other.wire, spot.wire) : true));
  };
  /**
   * labelClearAt at each of a spot's places (`places`: its line's points LABEL_STEP_PX apart, in any
   * order), in one sweep. The markers and placed texts in the rows the places reach are gathered once;
   * each is tested exactly as labelClearAt tests it (boxesMeet against the label and its block) but only
   * at the places whose boxes could reach it: those where the box holding both, widened by a pixel, meets
   * it along x and along the line's y. So a search costs its places plus what stands near its gap, not
   * the places times what each place's box finds, and each answer is labelClearAt's.
   */
  const labelsClearAlong = (spot: Spot, places: readonly number[]): boolean[] => {
    const clear = places.map(() => true);
    if (places.length === 0) return clear;
    const { wire } = spot;
    const ys = places.map((at) => spot.yOn(at));
    // The place at spot.x + j·LABEL_STEP_PX, by j.
    const js = places.map((at) => Math.round((at - spot.x) / LABEL_STEP_PX));
    const jLow = Math.min(...js);
    const jHigh = Math.max(...js);
    const placeAt: number[] = new Array<number>(jHigh - jLow + 1).fill(-1);
    js.forEach((j, k) => (placeAt[j - jLow] = k));
    // The box holding a place's label and its block, about (at, y): the block spans LABEL_ABOVE..LABEL_BELOW, which holds the label's rows.
    const halfX = Math.max(spot.labelWidth / 2 + 3, spot.width / 2 - LABEL_PAD_X) + 1;
    const above = LABEL_ABOVE + 1;
    const below = LABEL_BELOW + 1;
    const level = wire.x2 === wire.x1 || wire.y2 === wire.y1;
    const slope = level ? 0 : (wire.y2 - wire.y1) / (wire.x2 - wire.x1);
    const test = (box: TextBox, marker: boolean): void => {
      // The places whose holding box meets `box` along x, then along the line's y.
      let from = box.left - halfX;
      let to = box.right + halfX;
      const yLow = box.top - below;
      const yHigh = box.bottom + above;
      if (level) {
        const y = ys[0] as number;
        if (y < yLow || y > yHigh) return;
      } else {
        const a = wire.x1 + (yLow - wire.y1) / slope;
        const b = wire.x1 + (yHigh - wire.y1) / slope;
        from = Math.max(from, Math.min(a, b) - 1);
        to = Math.min(to, Math.max(a, b) + 1);
      }
      const first = Math.max(jLow, Math.ceil((from - spot.x) / LABEL_STEP_PX) - 1);
      const last = Math.min(jHigh, Math.floor((to - spot.x) / LABEL_STEP_PX) + 1);
      for (let j = first; j <= last; j++) {
        const k = placeAt[j - jLow] as number;
        if (k < 0 || !(clear[k] as boolean)) continue;
        const at = places[k] as number;
        const y = ys[k] as number;
        const label = textBox(at, y - LABEL_RAISE, spot.labelWidth, 15);
        const block = {
          left: at - (spot.width / 2 - LABEL_PAD_X),
          right: at + (spot.width / 2 - LABEL_PAD_X),
          top: y - LABEL_ABOVE,
          bottom: y + LABEL_BELOW,
        };
        if (boxesMeet(box, label) || (marker && boxesMeet(box, block))) clear[k] = false;
      }
    };
    const top = Math.min(...ys) - LABEL_ABOVE - 1;
    const bottom = Math.max(...ys) + LABEL_BELOW + 1;
    markerBoxes.within(top, bottom, (box) => test(box, true));
    placed.within(top, bottom, (box, other) => {
      if (other.tag ? tagMeetsLabelOf(other.wire, spot.wire) : true) test(box, false);
    });
    return clear;
  };
  /** Whether a spot's fate word, `side` of its label at x, is clear of the markers and of the placed labels it would be on screen with (a spot with none is). */
  const tagClearAt = (spot: Spot, at: number, side: Side): boolean => {
    const { tag } = boxesAt(spot, at, side);
    if (tag === null) return true;
    return (
      !markerBoxes.some(tag, () => true) &&
      !placed.some(tag, (other) => !other.tag && tagMeetsLabelOf(spot.wire, other.wire))
    );
  };
  /** Whether no other wire's line runs through a spot's label text at x. */
  const offLinesAt = (spot: Spot, at: number): boolean =>
    !crossedByLine(spot, textBox(at, spot.yOn(at) - LABEL_RAISE, spot.labelWidth, 15));
  /** Whether the label at x, its fate word `side` of it, is clear of the markers and of what is placed (and, `offLines`, of the other wires' lines). */
  const clearAt = (spot: Spot, at: number, side: Side, offLines = true): boolean =>
    labelClearAt(spot, at) && tagClearAt(spot, at, side) && (!offLines || offLinesAt(spot, at));
  /** The placed labels a spot's label or fate word would meet (on screen at the same step). */
  const blockersAt = (spot: Spot, label: TextBox, tag: TextBox | null): Spot[] => {
    const found = new Set<Spot>();
    placed.some(label, (other) => {
      if (other.tag ? tagMeetsLabelOf(other.wire, spot.wire) : true) found.add(spots.get(other.wire) as Spot);
      return false;
    });
    if (tag !== null)
      placed.some(tag, (other) => {
        if (!other.tag && tagMeetsLabelOf(spot.wire, other.wire)) found.add(spots.get(other.wire) as Spot);
        return false;
      });
    return [...found];
  };
  const blockers = (spot: Spot, at: number): Spot[] => {
    const { label, tag } = boxesAt(spot, at, 'below');
    return blockersAt(spot, label, tag);
  };
  /** Places along the line in the gap, nearest the markers' place first (the label's centre stays between the two lanes), the fate word under the label, then beside it. */
  const search = (spot: Spot): { at: number; side: Side } | null => {
    const tries: number[] = [spot.x];
    for (let d = LABEL_STEP_PX; spot.x - d > spot.left || spot.x + d < spot.right; d += LABEL_STEP_PX) {
      if (spot.x - d > spot.left) tries.push(spot.x - d);
      if (spot.x + d < spot.right) tries.push(spot.x + d);
    }
    // A label wholly inside the gap first; over a lane's line (where no marker is) only if nothing inside is clear.
    const inside = (at: number) => at - spot.labelWidth / 2 >= spot.left && at + spot.labelWidth / 2 <= spot.right;
    const ordered = [...tries.filter(inside), ...tries.filter((at) => !inside(at))];
    // Off the other lines first; where no place is, a line may run under the label (its halo breaks it).
    // This is clearAt asked of each place in that order, with each of its parts asked once per place
    // (the label's for all places in one sweep, the fate word's once per place and side) and the rest
    // only when the parts before it hold: the answer is clearAt's.
    const labelClear = labelsClearAlong(spot, ordered);
    const offLines: Array<boolean | undefined> = [];
    const tagClear: Record<Side, Array<boolean | undefined>> = { below: [], right: [], left: [] };
    for (const linesCount of [true, false]) {
      for (const side of spot.tagged ? (['below', 'right', 'left'] as const) : (['below'] as const)) {
        for (let k = 0; k < ordered.length; k++) {
          const at = ordered[k] as number;
          if (!(labelClear[k] as boolean)) continue;
          if (linesCount && !(offLines[k] ??= offLinesAt(spot, at))) continue;
          const tagOk = (tagClear[side][k] ??= tagClearAt(spot, at, side));
          if (tagOk) return { at, side };
        }
      }
    }
    return null;
  };
  const drop = (spot: Spot) => {
    const boxes = wireTextBoxes(spot.wire);
    placed.add(boxes.label, { wire: spot.wire, tag: false }, spot.wire);
    if (boxes.tag !== null) placed.add(boxes.tag, { wire: spot.wire, tag: true }, spot.wire);
  };
  const lift = (spot: Spot) => placed.removeOwner(spot.wire);
  const put = (spot: Spot, { at, side }: { at: number; side: Side }) => {
    spot.wire.labelX = at;
    spot.wire.labelY = spot.yOn(at);
    spot.wire.tagX = tagXOf(spot, at, side);
    spot.wire.tagY = tagYOf(spot.wire.labelY, side);
    drop(spot);
  };
  for (const wire of wires) {
    const from = laneAt.get(wire.from);
    const to = laneAt.get(wire.to);
    if (from === undefined || to === undefined || from === to) continue;
    const next = lanes[from + (to > from ? 1 : -1)];
    const sender = lanes[from];
    if (next === undefined || sender === undefined) continue;
    const [left, right] = sender.x < next.x ? [sender, next] : [next, sender];
    const labelWidth = textWidthPx(wire.label, 15, true);
    const width = Math.max(labelWidth, fateWidth) + 2 * LABEL_PAD_X;
    const yOn = (x: number) =>
      wire.x2 === wire.x1
        ? (wire.y1 + wire.y2) / 2
        : wire.y1 + ((wire.y2 - wire.y1) * (x - wire.x1)) / (wire.x2 - wire.x1);
    let x = wire.labelX;
    // Moving along a sloped line changes the rows the label takes: settle in a few passes.
    for (let pass = 0; pass < 3; pass++) {
      const y = yOn(x);
      const leftHalf = extentNear(left, y - LABEL_ABOVE, y + LABEL_BELOW).right;
      const rightHalf = extentNear(right, y - LABEL_ABOVE, y + LABEL_BELOW).left;
      const room = { from: left.x + leftHalf, to: right.x - rightHalf };
      let settled: number;
      if (room.to - room.from >= width) settled = Math.min(Math.max(x, room.from + width / 2), room.to - width / 2);
      // Too narrow: the label may pass over a lane's line where no marker is, not over a marker.
      else if (rightHalf === 0) settled = room.from + width / 2;
      else if (leftHalf === 0) settled = room.to - width / 2;
      else settled = (room.from + room.to) / 2;
      if (Math.abs(settled - x) < 0.5) break;
      x = settled;
    }
    wire.labelX = x;
    wire.labelY = yOn(x);
    const spot: Spot = {
      wire,
      left: left.x,
      right: right.x,
      width,
      yOn,
      x,
      labelWidth,
      tagged: tagShownUntil(wire) !== null,
    };
    spots.set(wire, spot);
    if (clearAt(spot, x, 'below')) {
      put(spot, { at: x, side: 'below' });
      continue;
    }
    const found = search(spot);
    if (found !== null) {
      put(spot, found);
      continue;
    }
    // No place is clear: move the one earlier label in the way, if it has another place, so that this one takes its own.
    const inWay = blockers(spot, x);
    if (inWay.length === 1) {
      const other = inWay[0] as Spot;
      const was = {
        labelX: other.wire.labelX,
        labelY: other.wire.labelY,
        tagX: other.wire.tagX,
        tagY: other.wire.tagY,
      };
      lift(other);
      const mine = clearAt(spot, x, 'below') ? ({ at: x, side: 'below' } as const) : search(spot);
      if (mine !== null) {
        put(spot, mine);
        const theirs = search(other);
        if (theirs !== null) {
          put(other, theirs);
          continue;
        }
        lift(spot);
      }
      Object.assign(other.wire, was);
      drop(other);
    }
    put(spot, { at: x, side: 'below' });
  }
}

/** Whether a wire's line passes through a box (the line clipped to the box leaves a piece of it). */
function segmentCrosses(wire: Wire, box: TextBox): boolean {
  const dx = wire.x2 - wire.x1;
  const dy = wire.y2 - wire.y1;
  let enter = 0;
  let leave = 1;
  for (const [p, q] of [
    [-dx, wire.x1 - box.left],
    [dx, box.right - wire.x1],
    [-dy, wire.y1 - box.top],
    [dy, box.bottom - wire.y1],
  ] as const) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) enter = Math.max(enter, r);
    else leave = Math.min(leave, r);
    if (enter >= leave) return false;
  }
  return true;
}

/** A wire's label with what its places are tried in: the gap's lanes, its width among markers, its line. */
interface Spot {
  wire: Wire;
  left: number;
  right: number;
  width: number;
  yOn: (x: number) => number;
  /** Where the markers alone put it. */
  x: number;
  labelWidth: number;
  tagged: boolean;
}
type Side = 'below' | 'right' | 'left';
