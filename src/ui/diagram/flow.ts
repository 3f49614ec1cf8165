import { Position, type Edge, type Node } from '@xyflow/react';
import { ROW_H, TOP_Y, type DiagramLayout, type Marker, type Wire } from './layout';
import type { MarkerTone } from '../../store/labStore';

/**
 * The layout's interactive part as @xyflow/react nodes and edges (markers you can pick, wires),
 * built once per transcript, and the cut of it at a step. Every node and edge object is created
 * here once and reused: the view at step k is a prefix of the static items plus the few whose look
 * depends on k (wires still in flight, the current and the picked event). React Flow keeps its
 * internal nodes for the unchanged objects, and with `onlyRenderVisibleElements` draws only what is
 * on screen, so a run with thousands of messages steps as cheaply as a short one. Lanes, times,
 * deadline bars and the "now" line are drawn by Backdrop.tsx, which culls them itself.
 */

export interface MarkerData extends Record<string, unknown> {
  text: string;
  tone: MarkerTone;
  title: string;
  lines: 1 | 2;
  current: boolean;
  selected: boolean;
}

export type MarkerNode = Node<MarkerData, 'marker'>;
/** An invisible box around one wire: React Flow culls the wire by it and attaches it by its handles. */
export type AnchorNode = Node<Record<string, never>, 'anchor'>;
export type DiagramNode = MarkerNode | AnchorNode;

/** What a wire looks like at a step: in flight until its fate is reached. */
export type WireStatus = 'in-flight' | 'delivered' | 'ignored' | 'lost' | 'closed';

export interface WireData extends Record<string, unknown> {
  kind: Wire['kind'];
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  labelX: number;
  labelY: number;
  label: string;
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
const attributes = (values: Record<string, string | number>) => values as unknown as Attributes;
const edgeAttributes = (values: Record<string, string | number>) => values as unknown as EdgeAttributes;

/** Nodes are drawn, not inspected by keyboard: the timeline and the inspector are their text. */
const STATIC = { draggable: false, selectable: false, connectable: false, focusable: false, deletable: false } as const;
/** Handles given up front: React Flow need not render a node to know where its edges attach. */
const NO_HANDLES: Node['handles'] = [];

export interface DiagramFlow {
  layout: DiagramLayout;
  /** Nodes that never change once shown, in the order they appear; `appearsAt[i]` is the event index of `items[i]`. */
  items: DiagramNode[];
  appearsAt: number[];
  /** Each marker by the index of its event, with the node built for it. */
  markers: Map<number, { marker: Marker; node: MarkerNode }>;
  markerIndexBySeq: Map<number, number>;
  wires: Array<{ wire: Wire; inFlight: WireEdge; settled: WireEdge }>;
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
    zIndex: current || selected ? 2 : 1,
    ariaRole: 'img',
    ariaLabel: marker.title,
    data: { text: marker.text, tone: marker.tone, title: marker.title, lines: marker.lines, current, selected },
    domAttributes: attributes({
      'data-kind': 'marker',
      'data-event-kind': marker.kind,
      'data-seq': marker.seq,
      'data-lane': marker.lane,
      'data-tone': marker.tone,
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

function wireEdge(wire: Wire, status: WireStatus, current = false, selected = false, marksCurrent = false): WireEdge {
  const description = status === 'in-flight' ? `${wire.label}: ${wire.from} to ${wire.to}, sent at ${wire.sentAtMs} ms, in flight` : wire.description;
  return {
    id: wire.id,
    type: 'wire',
    source: `${wire.id}-box`,
    target: `${wire.id}-box`,
    selectable: false,
    focusable: false,
    deletable: false,
    // Above the markers (z 1), so a message's label stays readable where it passes a marker and its
    // arrowhead shows on the marker it lands on; the current and the picked marker rise to 2.
    zIndex: selected || current ? 3 : 2,
    ariaLabel: description,
    data: {
      kind: wire.kind,
      x1: wire.x1,
      y1: wire.y1,
      x2: wire.x2,
      y2: wire.y2,
      labelX: wire.labelX,
      labelY: wire.labelY,
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

export function buildFlow(layout: DiagramLayout): DiagramFlow {
  const staged: Array<{ at: number; node: DiagramNode }> = [];
  const markers = new Map<number, { marker: Marker; node: MarkerNode }>();
  for (const marker of layout.markers) {
    const node = markerNode(marker);
    markers.set(marker.index, { marker, node });
    staged.push({ at: marker.index, node });
  }
  for (const wire of layout.wires) staged.push({ at: wire.index, node: anchorNode(wire) });
  // Stable sort: by the event that shows it, then in the order added.
  staged.sort((a, b) => a.at - b.at);
  return {
    layout,
    items: staged.map((item) => item.node),
    appearsAt: staged.map((item) => item.at),
    markers,
    markerIndexBySeq: new Map(layout.markers.map((marker) => [marker.seq, marker.index])),
    wires: layout.wires.map((wire) => ({ wire, inFlight: wireEdge(wire, 'in-flight'), settled: wireEdge(wire, wire.fate) })),
  };
}

/** How many of the sorted `appearsAt` are below `step`. */
function countBelow(sorted: number[], step: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as number) < step) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface FlowAtStep {
  nodes: DiagramNode[];
  edges: WireEdge[];
  /** y of the current event's row (the top before the first step). */
  nowY: number;
  /** x of where the current event is drawn: its marker's lane, or the end of the wire that marks it. */
  nowX: number;
  /** Wires on screen still travelling. */
  inFlight: number;
}

/** The diagram after the first `step` events; `selectedSeq` is the event the inspector shows by choice. */
export function flowAt(flow: DiagramFlow, step: number, selectedSeq: number | null): FlowAtStep {
  const { layout } = flow;
  const current = step - 1;
  const nodes: DiagramNode[] = flow.items.slice(0, countBelow(flow.appearsAt, step));
  // The current and the selected marker get their own objects; the rest stay as built.
  const highlight = (index: number, isCurrent: boolean, isSelected: boolean) => {
    const entry = flow.markers.get(index);
    if (entry === undefined) return;
    const at = nodes.lastIndexOf(entry.node);
    if (at >= 0) nodes[at] = markerNode(entry.marker, isCurrent, isSelected);
  };
  const selectedIndex = selectedSeq === null ? -1 : (flow.markerIndexBySeq.get(selectedSeq) ?? -1);
  if (current >= 0) highlight(current, true, current === selectedIndex);
  if (selectedIndex >= 0 && selectedIndex !== current && selectedIndex < step) highlight(selectedIndex, false, true);

  const nowY = current >= 0 ? (layout.rowY[current] as number) : TOP_Y - ROW_H;

  const edges: WireEdge[] = [];
  let inFlight = 0;
  const currentMarker = current >= 0 ? flow.markers.get(current) : undefined;
  const currentHasMarker = currentMarker !== undefined;
  let markedByWire = false;
  let nowX = currentMarker?.marker.x ?? layout.lanes[0]?.x ?? 0;
  for (const { wire, inFlight: travelling, settled } of flow.wires) {
    if (wire.index >= step) break;
    const isSettled = wire.resolvedAt < step;
    if (!isSettled) inFlight += 1;
    const isCurrent = wire.index === current || wire.resolvedAt === current;
    const isSelected = wire.seq === selectedSeq;
    // The current event is marked once: by its marker, else by the wire it sends (or settles).
    const marksCurrent = isCurrent && !currentHasMarker && !markedByWire;
    if (marksCurrent) {
      markedByWire = true;
      nowX = wire.index === current ? wire.x1 : wire.x2;
    }
    edges.push(isCurrent || isSelected ? wireEdge(wire, isSettled ? wire.fate : 'in-flight', isCurrent, isSelected, marksCurrent) : isSettled ? settled : travelling);
  }
  return { nodes, edges, nowY, nowX, inFlight };
}
