import { Position, type Edge, type Node } from '@xyflow/react';
import {
  EXTENTS,
  ROW_H,
  TOP_Y,
  type DeadlineBar,
  type DiagramLayout,
  type Marker,
  type TimeBreak,
  type TimeMark,
  type Wire,
} from '../../diagram/geometry/model';
import { SpanIndex, WHOLE, type Band } from '../../diagram/geometry/spans';
import type { MarkerTone } from '../../store/runStore';

/**
 * The layout's interactive part as @xyflow/react nodes and edges (markers you can pick, wires), cut
 * at a step and to a band of rows around the pane. Only what reaches into the band is handed to
 * React Flow (found through spans.ts, without a pass over the run), so a step's work follows what is
 * on screen, not the run's length. Node and edge objects are built when first shown and reused: the
 * ones whose look depends on the step (wires still in flight, the current and the picked event) are
 * rebuilt, the rest stay the same objects, so React Flow keeps its internals for them. Lanes, times,
 * deadline bars and the "now" line are drawn by Backdrop.tsx, culled with the same indexes.
 */

export interface MarkerData extends Record<string, unknown> {
  text: string;
  tone: MarkerTone;
  title: string;
  lines: number;
  look: Marker['look'];
  current: boolean;
  selected: boolean;
}

export type MarkerNode = Node<MarkerData, 'marker'>;
/** An invisible box around one wire: React Flow culls the wire by it and attaches it by its handles. */
export type AnchorNode = Node<Record<string, never>, 'anchor'>;
export type DiagramNode = MarkerNode | AnchorNode;

/** What a wire looks like at a step: in flight until its fate is reached. */
export type WireStatus = 'in-flight' | 'delivered' | 'ignored' | 'lost' | 'closed';

export interface WireData
  extends
    Record<string, unknown>,
    Pick<Wire, 'kind' | 'x1' | 'y1' | 'x2' | 'y2' | 'labelX' | 'labelY' | 'tagX' | 'tagY' | 'label'> {
  status: WireStatus;
  reason: string | null;
  /** One sentence: the edge's accessible name and tooltip. */
  description: string;
  current: boolean;
  /** The current event has no marker of its own: this wire marks it (aria-current). */
  marksCurrent: boolean;
  selected: boolean;
}
export type WireEdge = Edge<WireData, 'wire'>;

type Attributes = NonNullable<Node['domAttributes']>;
type EdgeAttributes = NonNullable<Edge['domAttributes']>;
/** `data-*` attributes, which React's attribute types allow in JSX but do not name. */
type DataAttributes = { readonly [name: `data-${string}`]: string | number };
const attributes = (values: Attributes & DataAttributes): Attributes => values;
const edgeAttributes = (values: EdgeAttributes & DataAttributes): EdgeAttributes => values;

/** Nodes are drawn, not inspected by keyboard: the timeline and the inspector are their text. */
const STATIC = { draggable: false, selectable: false, connectable: false, focusable: false, deletable: false } as const;
/** Handles given up front: React Flow need not render a node to know where its edges attach. */
const NO_HANDLES: Node['handles'] = [];

export interface DiagramFlow {
  layout: DiagramLayout;
  /** Where each marker, wire, time, break and deadline bar reaches on the time axis (positions into the layout's lists). */
  markerSpans: SpanIndex<Marker>;
  wireSpans: SpanIndex<Wire>;
  timeSpans: SpanIndex<TimeMark>;
  breakSpans: SpanIndex<TimeBreak>;
  /** Deadline bars by where they reach once ended (a bar never ended: to its due time)… */
  barSpans: SpanIndex<DeadlineBar>;
  /** …and by the events they are running over (from the one after arming to the one ending them), in event-index units. */
  barLives: SpanIndex<DeadlineBar>;
  /** Node and edge objects, built when first shown and reused after: React Flow keeps its internals for unchanged objects. */
  markerNodes: Map<number, MarkerNode>;
  anchorNodes: Map<number, AnchorNode>;
  /** Settled wires' edges (a wire in flight is drawn up to now, so built for its step). */
  wireEdges: Map<number, WireEdge>;
  /** Marker positions by their event's seq, built when an event is first picked. */
  markerBySeq: Map<number, number> | null;
}

function markerNode(marker: Marker, current = false, selected = false): MarkerNode {
  return {
    ...STATIC,
    id: marker.id,
    type: 'marker',
    position: { x: marker.x - marker.width / 2, y: marker.y - marker.height / 2 },
    width: marker.width,
    height: marker.height,
    // The size is known, so React Flow need not render a node to measure it (off-screen nodes never are).
    measured: { width: marker.width, height: marker.height },
    handles: NO_HANDLES,
    // Over the wires: a line that leaves from under a chip breaks there, never runs through its word.
    zIndex: current || selected ? 4 : 3,
    ariaRole: 'img',
    ariaLabel: marker.title,
    data: {
      text: marker.text,
      tone: marker.tone,
      title: marker.title,
      lines: marker.lines,
      look: marker.look,
      current,
      selected,
    },
    domAttributes: attributes({
      'data-kind': 'marker',
      'data-event-kind': marker.kind,
      'data-seq': marker.seq,
      'data-lane': marker.lane,
      'data-tone': marker.tone,
      'data-look': marker.look,
      ...(current ? { 'aria-current': 'step' } : {}),
    }),
  };
}

function anchorNode(wire: Wire): AnchorNode {
  const x = Math.min(wire.x1, wire.x2);
  const y = Math.min(wire.y1, wire.y2);
  const width = Math.max(2, Math.abs(wire.x2 - wire.x1));
  const height = Math.max(2, Math.abs(wire.y2 - wire.y1));
  return {
    ...STATIC,
    id: `${wire.id}-box`,
    type: 'anchor',
    position: { x, y },
    width,
    height,
    measured: { width, height },
    handles: [
      { type: 'source', position: Position.Right, x: wire.x1 - x, y: wire.y1 - y, width: 1, height: 1 },
      { type: 'target', position: Position.Left, x: wire.x2 - x, y: wire.y2 - y, width: 1, height: 1 },
    ],
    data: {},
    domAttributes: attributes({ 'data-kind': 'anchor', 'aria-hidden': 'true' }),
  };
}

/**
 * A wire still in flight at the now-line `nowY`: drawn from its send to now, its head on the
 * now-line (nothing is drawn before it happens). Its label stays where the layout put it, clear of
 * every mark: it names what was sent, which has happened.
 */
function inFlightAt(wire: Wire, nowY: number): Wire {
  if (wire.y2 <= nowY || wire.y2 === wire.y1) return wire;
  const y = Math.max(wire.y1, nowY);
  const x = wire.x1 + ((wire.x2 - wire.x1) * (y - wire.y1)) / (wire.y2 - wire.y1);
  return { ...wire, x2: x, y2: y };
}

function wireEdge(wire: Wire, status: WireStatus, current = false, selected = false, marksCurrent = false): WireEdge {
  const description =
    status === 'in-flight'
      ? `${wire.label}: ${wire.from} to ${wire.to}, sent at ${wire.sentAtMs} ms, in flight`
      : wire.description;
  return {
    id: wire.id,
    type: 'wire',
    source: `${wire.id}-box`,
    target: `${wire.id}-box`,
    selectable: false,
    focusable: false,
    deletable: false,
    // Under the chips (z 3): the layout keeps labels and arrowheads clear of them.
    zIndex: selected || current ? 2 : 1,
    ariaLabel: description,
    data: {
      kind: wire.kind,
      x1: wire.x1,
      y1: wire.y1,
      x2: wire.x2,
      y2: wire.y2,
      labelX: wire.labelX,
      labelY: wire.labelY,
      tagX: wire.tagX,
      tagY: wire.tagY,
      label: wire.label,
      status,
      reason: wire.reason,
      description,
      current,
      marksCurrent,
      selected,
    },
    domAttributes: edgeAttributes({
      'data-kind': wire.kind,
      'data-seq': wire.seq,
      'data-status': status,
      'data-from': wire.from,
      'data-to': wire.to,
      'data-label': wire.label,
      ...(marksCurrent ? { 'aria-current': 'step' } : {}),
    }),
  };
}

/**
 * The layout's indexes for cutting it at a step and a band of rows, from the reach the worker found
 * for each list: no pass over the run here (a run's first draw is one task on the page, and this
 * code runs cold); nodes and edges are built as they are first shown.
 */
export function buildFlow(layout: DiagramLayout): DiagramFlow {
  const { spans } = layout;
  return {
    layout,
    markerSpans: new SpanIndex(layout.markers, EXTENTS.markers, spans.markers),
    wireSpans: new SpanIndex(layout.wires, EXTENTS.wires, spans.wires),
    timeSpans: new SpanIndex(layout.times, EXTENTS.times, spans.times),
    breakSpans: new SpanIndex(layout.breaks, EXTENTS.breaks, spans.breaks),
    barSpans: new SpanIndex(layout.bars, EXTENTS.bars, spans.bars),
    barLives: new SpanIndex(layout.bars, EXTENTS.barLives, spans.barLives),
    markerNodes: new Map(),
    anchorNodes: new Map(),
    wireEdges: new Map(),
    markerBySeq: null,
  };
}

/** The first wire that event `index` sends or settles (its position in layout.wires), or -1. */
function wireMarking(layout: DiagramLayout, index: number): number {
  const marks = layout.wireMarks;
  let low = 0;
  let high = marks.length / 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((marks[2 * mid] as number) < index) low = mid + 1;
    else high = mid;
  }
  return marks[2 * low] === index ? (marks[2 * low + 1] as number) : -1;
}

/** The first position below `count` whose value is at least `value` (values ascending). */
function firstAtOrAbove(count: number, valueAt: (at: number) => number, value: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (valueAt(mid) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The position of the marker of event `index` (markers are in event order), if it has one. */
function markerOf(layout: DiagramLayout, index: number): number | undefined {
  const { markers } = layout;
  let low = 0;
  let high = markers.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((markers[mid] as Marker).index < index) low = mid + 1;
    else high = mid;
  }
  return markers[low]?.index === index ? low : undefined;
}

export interface BarAtStep {
  bar: DeadlineBar;
  ended: boolean;
  /** Where it ends on screen: where it was ended, or, while it runs, the now-line (its due time is in its label). */
  y2: number;
}

/**
 * The deadline bars shown after `step` events that reach into `band`: the ended ones by where they
 * ended, the few still running (armed before `step`, not yet ended) up to the now-line `nowY`:
 * nothing is drawn below now, so a running bar grows as the replay steps and stops where it ends.
 */
export function barsAt(flow: DiagramFlow, step: number, band: Band, nowY = Infinity): BarAtStep[] {
  const { bars } = flow.layout;
  const shown = new Map<number, BarAtStep>();
  for (const at of flow.barSpans.query(band)) {
    const bar = bars[at] as DeadlineBar;
    if (bar.index < step && bar.endIndex !== null && bar.endIndex < step)
      shown.set(at, { bar, ended: true, y2: bar.yEnd ?? bar.yDue });
  }
  for (const at of flow.barLives.query({ top: step, bottom: step })) {
    const bar = bars[at] as DeadlineBar;
    const running = bar.index < step && (bar.endIndex === null || bar.endIndex >= step);
    if (running && bar.yDue >= band.top && bar.y1 <= band.bottom)
      shown.set(at, { bar, ended: false, y2: Math.max(bar.y1, Math.min(bar.yDue, nowY)) });
  }
  return [...shown.keys()].sort((a, b) => a - b).map((at) => shown.get(at) as BarAtStep);
}

function cached<K, V>(cache: Map<K, V>, key: K, build: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

export interface FlowAtStep {
  nodes: DiagramNode[];
  edges: WireEdge[];
  /** y of the current event's row (the top before the first step). */
  nowY: number;
  /** x of where the current event is drawn: its marker's lane, or the end of the wire that marks it. */
  nowX: number;
  /** Wires shown that are still travelling. */
  inFlight: number;
}

/**
 * The diagram after the first `step` events, as far as it reaches into `band` (flow px; the whole
 * diagram by default); `selectedSeq` is the event the inspector shows by choice. The current and the
 * selected event are always included, on screen or not, so `aria-current` is always there to find.
 */
export function flowAt(flow: DiagramFlow, step: number, selectedSeq: number | null, band: Band = WHOLE): FlowAtStep {
  const { layout } = flow;
  const current = step - 1;
  const selectedAt =
    selectedSeq === null
      ? undefined
      : (flow.markerBySeq ??= new Map(layout.markers.map((marker, at) => [marker.seq, at]))).get(selectedSeq);
  const selectedIndex = selectedAt === undefined ? -1 : (layout.markers[selectedAt] as Marker).index;

  const markerPositions = new Set(
    flow.markerSpans.query(band).filter((at) => (layout.markers[at] as Marker).index < step),
  );
  const currentMarker = current >= 0 ? markerOf(layout, current) : undefined;
  if (currentMarker !== undefined) markerPositions.add(currentMarker);
  const selectedMarker = selectedIndex >= 0 && selectedIndex < step ? selectedAt : undefined;
  if (selectedMarker !== undefined) markerPositions.add(selectedMarker);

  // The current event is marked once: by its marker, else by the first wire it sends (or settles).
  const markingWire = current >= 0 && currentMarker === undefined ? wireMarking(layout, current) : -1;
  const wirePositions = new Set(flow.wireSpans.query(band).filter((at) => (layout.wires[at] as Wire).index < step));
  if (markingWire >= 0) wirePositions.add(markingWire);

  const nowY = current >= 0 ? (layout.rowY[current] as number) : TOP_Y - ROW_H;
  // Nodes in the order they appear: by event, a marker before the anchor of the wire it sends.
  const staged: Array<{ at: number; order: number; node: DiagramNode }> = [];
  for (const at of markerPositions) {
    const marker = layout.markers[at] as Marker;
    const isCurrent = at === currentMarker;
    const isSelected = at === selectedMarker;
    staged.push({
      at: marker.index,
      order: 0,
      node:
        isCurrent || isSelected
          ? markerNode(marker, isCurrent, isSelected)
          : cached(flow.markerNodes, at, () => markerNode(marker)),
    });
  }
  const edges: WireEdge[] = [];
  for (const at of [...wirePositions].sort((a, b) => a - b)) {
    const wire = layout.wires[at] as Wire;
    staged.push({ at: wire.index, order: 1, node: cached(flow.anchorNodes, at, () => anchorNode(wire)) });
    const isSettled = wire.resolvedAt < step;
    const isCurrent = wire.index === current || wire.resolvedAt === current;
    const isSelected = wire.seq === selectedSeq;
    const marksCurrent = at === markingWire;
    if (!isSettled) {
      // In flight: drawn up to now, so built for this step.
      edges.push(wireEdge(inFlightAt(wire, nowY), 'in-flight', isCurrent, isSelected, marksCurrent));
      continue;
    }
    if (isCurrent || isSelected) {
      edges.push(wireEdge(wire, wire.fate, isCurrent, isSelected, marksCurrent));
      continue;
    }
    edges.push(cached(flow.wireEdges, at, () => wireEdge(wire, wire.fate)));
  }
  staged.sort((a, b) => a.at - b.at || a.order - b.order);

  const wireMarkingCurrent = markingWire >= 0 ? (layout.wires[markingWire] as Wire) : undefined;
  const nowX =
    currentMarker !== undefined
      ? (layout.markers[currentMarker] as Marker).x
      : wireMarkingCurrent !== undefined
        ? wireMarkingCurrent.index === current
          ? wireMarkingCurrent.x1
          : wireMarkingCurrent.x2
        : (layout.lanes[0]?.x ?? 0);
  return {
    nodes: staged.map((item) => item.node),
    edges,
    nowY,
    nowX,
    // Every wire settles at or after the event that sends it: sent before `step` minus settled before it.
    inFlight:
      firstAtOrAbove(layout.wires.length, (at) => (layout.wires[at] as Wire).index, step) -
      firstAtOrAbove(layout.resolvedSorted.length, (at) => layout.resolvedSorted[at] as number, step),
  };
}
