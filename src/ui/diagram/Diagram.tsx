import type { Transcript } from '../../engine';
import {
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore as useFlowStore,
  type Edge,
  type Node,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/base.css';
import './diagram.css';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { useRunStore } from '../../store/runStore';
import { usePanelsStore } from '../../store/panels';
import { useReducedMotion } from '../hooks/useReducedMotion';
import { Backdrop } from './Backdrop';
import { useVisibleBand } from './band';
import { buildFlow, flowAt } from './flow';
import {
  CHIP_FONT_PX,
  messagesShown,
  OVERVIEW_H,
  RIGHT_MARGIN,
  TIME_FONT_PX,
  TOP_Y,
  type DiagramLayout,
  type Lane,
} from '../../diagram/geometry/model';
import { Legend, ReactFlowCredit } from './Legend';
import { nodeTypes } from './nodes';
import { edgeTypes } from './WireEdgeView';
import { FaultMenu } from '../components/lazyParts';
import { fitZoom, followedY, HEADERS_PX, textRows, topPan } from '../../diagram/geometry/headerBand';

/**
 * The sequence diagram: lanes for the actors, time flowing down, each wire message an edge from
 * its sender when sent to its receiver when it arrives. Laid out once per transcript, in the lab
 * worker (the layout comes with the run's answer); each step
 * only cuts the layout at the step and to the rows around the pane (flow.ts), so React Flow is
 * handed only what is near the screen.
 */

/** Zoom bounds when fitting the lanes to the width: never below 1, so text stays at least 14 px (a wide scenario pans sideways). */
const FIT_ZOOM_MIN = 1;
const FIT_ZOOM_MAX = 1.25;
/** Presentation: as large as the width allows, at least one and a half times the normal view's text (PRESENT_RATIO). */
const PRESENT_ZOOM_MIN = 1.5;
const PRESENT_ZOOM_MAX = 2.5;
const PRESENT_RATIO = 1.5;
/** Pixels added to the normal pane's estimated width while presenting (normalPaneWidth). */
const PANE_ROUNDING = 2;
/** The zoom buttons' step, and the bounds of any zoom. */
const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.05;
const ZOOM_MAX = 3;
/** Where the current event sits when the view follows it (fraction of the pane's height). */
const FOLLOW_AT = 0.55;
/** Presenting, lower: nothing is drawn after now, so the pane's height goes to the instants before it. */
const FOLLOW_AT_PRESENTING = 0.8;
/** Presenting, how near a side of the pane the current event may be before the view moves sideways. */
const PRESENT_EDGE = 0.02;
const FOLLOW_MARGIN = 0.1;
const PAN_MS = 180;
/**
 * Following glides by frames, not by time: each animation frame covers this share of the way left,
 * and never more than GLIDE_MAX of the pane, so a busy machine that drops frames slows the glide
 * instead of turning it into a jump (at most a fifth of the pane between two frames).
 */
const GLIDE_SHARE = 0.22;
const GLIDE_MAX = 0.2;
/** The least text size Fit View draws (px on screen): past it a fit gives up the whole race for legible text. */
const LEGIBLE_PX = 12;
/** The smallest text in the diagram at zoom 1 (chips, times, wire labels): the zoom below which some text is under LEGIBLE_PX. */
const LEGIBLE_ZOOM = LEGIBLE_PX / Math.min(CHIP_FONT_PX, TIME_FONT_PX);
/** The lane headers' text at zoom 1 (0.9rem): they scale with their lanes, never under LEGIBLE_PX nor past the normal view's largest zoom. */
const HEADER_FONT_PX = 14.4;
/** After a new run or a mode change, pane resizes within this long still refit (the layout settling). */
const FIT_SETTLE_MS = 600;

/** What a view too wide for the pane keeps of the right margin (px at zoom 1): the last lane's items clear the pane's edge. */
const RIGHT_KEEP = 3;

/** Before the worker's first layout (never for long: a run's answer carries its layout). */
const NO_REACH = { above: 0, below: 0, long: [] };
const EMPTY_LAYOUT: DiagramLayout = {
  lanes: [],
  width: 0,
  height: 0,
  timeRight: 0,
  rowY: [],
  wires: [],
  markers: [],
  times: [],
  bars: [],
  messageIndexes: [],
  scale: 'ordinal',
  breaks: [],
  spans: { markers: NO_REACH, wires: NO_REACH, times: NO_REACH, breaks: NO_REACH, bars: NO_REACH, barLives: NO_REACH },
  wireMarks: [],
  resolvedSorted: [],
};

/**
 * A replay the diagram shows instead of the lab's own (the Compare tab): its step, its layout (laid out
 * by the caller through the diagram's geometry, on the axis it shares with the diagrams beside it), and
 * the heading that names it. Nothing is selected in it.
 */
export interface DiagramReplay {
  step: number;
  layout: DiagramLayout;
  headingId: string;
  title: string;
  /** On a shared axis: the y every diagram beside it keeps in view (the current instant), and the size they all fit, so they line up at one zoom. */
  followY?: number;
  fitWidth?: number;
  fitHeight?: number;
  /** Where the current instant stands (fraction of the pane's height): low panes keep it low, to show the instants before it. */
  followAt?: number;
}

/** A replay fits its lanes at no zoom that puts text under LEGIBLE_PX. */
const REPLAY_FIT_ZOOM_MIN = LEGIBLE_ZOOM;

const noSelection = () => undefined;

/** The run overview strip (Overview.tsx), loaded on first draw. */
const Overview = lazy(() => import('./Overview').then((module) => ({ default: module.Overview })));

export function Diagram({ transcript, replay }: { transcript: Transcript; replay?: DiagramReplay }) {
  // The provider lets the toolbar above the pane drive the same viewport as the pane.
  return (
    <ReactFlowProvider>
      <DiagramView transcript={transcript} replay={replay} />
    </ReactFlowProvider>
  );
}

function DiagramView({ transcript, replay }: { transcript: Transcript; replay?: DiagramReplay }) {
  const { step, selectedSeq, selectEvent, headingId, layout, fitKey } = useDiagramSource(transcript, replay);
  const flow = useMemo(() => buildFlow(layout), [layout]);
  /** The run the view has been fitted to: until then the zoom buttons wait (a press before would be undone). */
  const [fittedRun, setFittedRun] = useState<object | null>(null);
  // Only the rows around the pane go to React Flow: a step's work follows the screen, not the run;
  // none before the view is first fitted to the pane (it then moves to the current event).
  const unplaced = fittedRun === null;
  const band = useVisibleBand(unplaced);
  const view = useMemo(() => flowAt(flow, step, selectedSeq, band), [flow, step, selectedSeq, band]);
  /** The viewport the lab last asked for, or the user left: the truth while a glide is under way. */
  const target = useRef<Viewport | null>(null);
  /** What the last fit was for, and when; `chosen` once the user picks a view (then no settle refit overrides it). */
  const fitted = useRef<Fitted | null>(null);
  // The overview moves the view as a drag would: the user's choice, kept until the replay leaves it.
  const go = useGo(target);
  const moveByOverview = useCallback(
    (viewport: Viewport) => {
      if (fitted.current !== null) fitted.current.chosen = true;
      go(viewport, false);
    },
    [go],
  );
  const nowY = replay?.followY ?? view.nowY;

  return (
    <section className="lab-diagram" aria-labelledby={headingId} data-scale={layout.scale}>
      <div className="lab-diagram-head">
        <h2 id={headingId} title={replay?.title}>
          {replay?.title ?? 'Sequence diagram'}
        </h2>
        {replay === undefined ? (
          // Loaded just after the page (the first load carries less script); its slot keeps the head's height.
          <Suspense fallback={<span className="dg-overview-slot" style={{ height: OVERVIEW_H }} />}>
            <Overview layout={layout} transcript={transcript} step={step} onMove={moveByOverview} />
          </Suspense>
        ) : (
          <ReactFlowCredit />
        )}
        <Toolbar
          layout={layout}
          target={target}
          fitted={fitted}
          ready={fittedRun === fitKey}
          linearToggle={replay === undefined}
          nowX={view.nowX}
          nowY={nowY}
        />
      </div>
      <FlowPane
        transcript={transcript}
        layout={layout}
        step={step}
        view={view}
        selectEvent={selectEvent}
        target={target}
        fitted={fitted}
      >
        <Backdrop flow={flow} step={step} nowY={view.nowY} unplaced={unplaced} />
        <LaneHeaders lanes={layout.lanes} />
        <Follow
          layout={layout}
          transcriptKey={fitKey}
          nowY={nowY}
          nowX={view.nowX}
          target={target}
          fitted={fitted}
          onFitted={setFittedRun}
          fitZoomMin={replay === undefined ? FIT_ZOOM_MIN : REPLAY_FIT_ZOOM_MIN}
          fitWidth={replay?.fitWidth}
          fitHeight={replay?.fitHeight}
          followAt={replay?.followAt ?? FOLLOW_AT}
          lockstep={replay?.followY !== undefined}
        />
      </FlowPane>
      {/* Under the pane, one line: the head above it holds the overview and the view's tools. */}
      {replay === undefined && <Legend />}
    </section>
  );
}

/** What the diagram shows: the lab's own run at the lab's step, or a replay (nothing selected in it). */
function useDiagramSource(transcript: Transcript, replay: DiagramReplay | undefined) {
  const labStep = useRunStore((state) => state.step);
  const labSelectedSeq = useRunStore((state) => state.selectedSeq);
  const labSelectEvent = useRunStore((state) => state.selectEvent);
  // The lab's own run is laid out in the worker with the run (and again there when Linear time
  // changes), a compared replay by the Compare tab on the axis it shares: the page only cuts it.
  const labLayout = useRunStore((state) => state.layout);
  const layout = replay === undefined ? (labLayout ?? EMPTY_LAYOUT) : replay.layout;
  return {
    step: replay?.step ?? labStep,
    selectedSeq: replay === undefined ? labSelectedSeq : null,
    selectEvent: replay === undefined ? labSelectEvent : noSelection,
    headingId: replay?.headingId ?? 'diagram-heading',
    layout,
    // What a fit is for: the lab's run (Linear time keeps the zoom), or a replay's layout.
    fitKey: (replay === undefined ? transcript : layout) as object,
  };
}

/** Clicks on the diagram select an event; a message's context menu (Drop, Delay, Duplicate) opens where it was asked for. */
function useFlowClicks(transcript: Transcript, selectEvent: (seq: number) => void) {
  // Ids carry the event's seq: `w<seq>` for wires, `m<seq>` for markers.
  const onEdgeClick = useCallback((_: unknown, edge: Edge) => selectEvent(Number(edge.id.slice(1))), [selectEvent]);
  /** A message's context menu (Drop, Delay, Duplicate): where it opened and for which message. */
  const [menu, setMenu] = useState<{ seq: number; x: number; y: number } | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const onEdgeContextMenu = useCallback(
    (event: React.MouseEvent, edge: Edge) => {
      const seq = Number(edge.id.slice(1));
      const message = transcript.events[seq];
      // A recording of a real server cannot be run again with a fault: no menu.
      if (
        message?.kind !== 'message' ||
        message.lost === true ||
        !edge.id.startsWith('w') ||
        transcript.kind === 'recording'
      )
        return;
      event.preventDefault();
      selectEvent(seq);
      setMenu({ seq, x: event.clientX, y: event.clientY });
    },
    [transcript, selectEvent],
  );
  const onNodeClick = useCallback(
    (_: unknown, node: Node) => {
      if (node.type === 'marker') selectEvent(Number(node.id.slice(1)));
    },
    [selectEvent],
  );
  return { onEdgeClick, onEdgeContextMenu, onNodeClick, menu, closeMenu };
}

/** The pane: React Flow given the rows around the screen, its data attributes for the tests, and the fault menu. */
function FlowPane({
  transcript,
  layout,
  step,
  view,
  selectEvent,
  target,
  fitted,
  children,
}: {
  transcript: Transcript;
  layout: DiagramLayout;
  step: number;
  view: ReturnType<typeof flowAt>;
  selectEvent: (seq: number) => void;
  target: TargetRef;
  fitted: FittedRef;
  children: React.ReactNode;
}) {
  const { onEdgeClick, onEdgeContextMenu, onNodeClick, menu, closeMenu } = useFlowClicks(transcript, selectEvent);
  // A move with a source event is the user's (drag, wheel, Ctrl and the wheel): that view, zoom included, is kept.
  const onMoveEnd = useCallback(
    (event: MouseEvent | TouchEvent | null, viewport: Viewport) => {
      if (event === null) return;
      target.current = viewport;
      if (fitted.current !== null) fitted.current.chosen = true;
    },
    [target, fitted],
  );
  return (
    <div
      className="lab-flow"
      data-step={step}
      data-events={transcript.events.length}
      data-messages={messagesShown(layout, step)}
      data-messages-total={layout.messageIndexes.length}
      data-in-flight={view.inFlight}
      data-lanes={layout.lanes.map((lane) => lane.id).join(' ')}
      data-scale={layout.scale}
    >
      <ReactFlow
        nodes={view.nodes}
        edges={view.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onlyRenderVisibleElements
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        disableKeyboardA11y
        panOnScroll
        zoomOnScroll={false}
        zoomOnDoubleClick={false}
        zoomActivationKeyCode="Control"
        panActivationKeyCode={null}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        minZoom={ZOOM_MIN}
        maxZoom={ZOOM_MAX}
        // The credit is in the legend under the pane (Legend.tsx), where it covers no event.
        proOptions={{ hideAttribution: true }}
        onEdgeClick={onEdgeClick}
        onEdgeContextMenu={onEdgeContextMenu}
        onNodeClick={onNodeClick}
        onMoveEnd={onMoveEnd}
        aria-label="Sequence diagram: pan by dragging or scrolling, zoom with the buttons or Ctrl and the wheel"
      >
        {children}
      </ReactFlow>
      {menu !== null && <FaultMenu seq={menu.seq} x={menu.x} y={menu.y} onClose={closeMenu} />}
    </div>
  );
}

/** The lane names, pinned to the top of the pane while the diagram scrolls under them. */
function LaneHeaders({ lanes }: { lanes: Lane[] }) {
  const x = useFlowStore((state) => state.transform[0]);
  const zoom = useFlowStore((state) => state.transform[2]);
  const fontSize = Math.max(LEGIBLE_PX, Math.min(HEADER_FONT_PX * FIT_ZOOM_MAX, HEADER_FONT_PX * zoom));
  return (
    <div className="dg-lane-headers">
      {lanes.map((lane) => (
        <span
          key={lane.id}
          className={`dg-lane-header lane-${lane.id}`}
          style={{ left: lane.x * zoom + x, fontSize }}
          data-lane={lane.id}
        >
          {lane.label}
        </span>
      ))}
    </div>
  );
}

/**
 * The pane's width in the normal view while presenting (presentation gives it the side column's
 * width too): the side column's width (`--side-w`) and the gap beside it, as the stylesheet sets them.
 * Rounded up to the next whole pixels (PANE_ROUNDING): the two panes' sizes reach the fit rounded
 * differently, and a text scale a hair under PRESENT_RATIO (1.499 at 1600×900) is under it.
 */
function normalPaneWidth(paneWidth: number): number {
  const results = document.querySelector('.lab-results');
  if (results === null) return paneWidth;
  const style = getComputedStyle(results);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const side = style.getPropertyValue('--side-w').trim();
  const sidePx = side.endsWith('rem') ? parseFloat(side) * rem : parseFloat(side) || 0;
  const gap = parseFloat(style.getPropertyValue('--side-gap')) * rem || 0;
  return Math.max(1, Math.ceil(paneWidth - sidePx - gap) + PANE_ROUNDING);
}

type TargetRef = MutableRefObject<Viewport | null>;
interface Fitted {
  run: object;
  presentation: boolean;
  atMs: number;
  chosen: boolean;
  /** Where the current event stood at the fit: once the replay moves on, the pane settling no longer refits. */
  nowY: number;
}
type FittedRef = MutableRefObject<Fitted | null>;

/** Sets the viewport and remembers it as the intended one; glides linearly (d3's default "fly" dips the zoom mid-way). */
function useGo(target: TargetRef) {
  const { setViewport } = useReactFlow();
  return useCallback(
    (viewport: Viewport, glide: boolean) => {
      target.current = viewport;
      void setViewport(viewport, glide ? { duration: PAN_MS, interpolate: 'linear' } : undefined);
    },
    [setViewport, target],
  );
}

/** One frame of a glide from `from` toward `to` over a pane `size` px long. */
function approach(from: number, to: number, size: number): number {
  const left = to - from;
  if (Math.abs(left) < 0.5) return to;
  return (
    from + Math.sign(left) * Math.min(Math.abs(left), Math.max(0.5, Math.abs(left) * GLIDE_SHARE), size * GLIDE_MAX)
  );
}

/**
 * Pans toward the intended viewport (`target`) a share of the way each animation frame. The goal is
 * read every frame, so a new goal mid-glide bends the glide instead of restarting it; a goal at
 * another zoom (a zoom button's own glide under way) is handed to React Flow's glide.
 */
function useGlide(target: TargetRef, paneWidth: number, paneHeight: number) {
  const { setViewport, getViewport } = useReactFlow();
  const frame = useRef<number | null>(null);
  const pane = useRef({ paneWidth, paneHeight });
  useEffect(() => {
    pane.current = { paneWidth, paneHeight };
  }, [paneWidth, paneHeight]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useCallback(
    (viewport: Viewport) => {
      target.current = viewport;
      if (frame.current !== null) return;
      const tick = () => {
        frame.current = null;
        const goal = target.current;
        if (goal === null) return;
        const at = getViewport();
        if (Math.abs(at.zoom - goal.zoom) > 1e-6) {
          void setViewport(goal, { duration: PAN_MS, interpolate: 'linear' });
          return;
        }
        const next = {
          x: approach(at.x, goal.x, pane.current.paneWidth),
          y: approach(at.y, goal.y, pane.current.paneHeight),
          zoom: goal.zoom,
        };
        void setViewport(next);
        if (next.x !== goal.x || next.y !== goal.y) frame.current = requestAnimationFrame(tick);
      };
      frame.current = requestAnimationFrame(tick);
    },
    [target, getViewport, setViewport],
  );
}

/**
 * Presenting, a diagram wider than the pane gives up its time column first (the playback bar says
 * the time), then the deadline bars: its lanes and their items stay in the pane.
 */
function presentingX(layout: DiagramLayout, zoom: number, paneWidth: number): number {
  const right = layout.width - RIGHT_MARGIN;
  if (layout.width * zoom <= paneWidth) return (paneWidth - layout.width * zoom) / 2;
  const left = layout.timeRight;
  if ((right - left) * zoom <= paneWidth) return (paneWidth - (right - left) * zoom) / 2 - left * zoom;
  return paneWidth - right * zoom;
}

/**
 * The x that keeps the lanes on screen: centred when they fit, otherwise never past either edge. Too
 * wide, the right margin (empty, but for RIGHT_KEEP) is given up before the view pans right: panned
 * past the time labels' own room, the time column is pinned over what stands right of it (the deadline bars).
 */
function clampX(x: number, zoom: number, width: number, paneWidth: number): number {
  const drawn = width * zoom;
  if (drawn <= paneWidth) return (paneWidth - drawn) / 2;
  const least = Math.min(0, paneWidth - (width - RIGHT_MARGIN + RIGHT_KEEP) * zoom);
  return Math.max(least, Math.min(0, x));
}

/**
 * Keeps the current event in view. The zoom is chosen by a new run (or presentation mode turning on
 * or off: the lanes fitted to the width), by Fit View and by the user, and by nothing else: following
 * only pans, from the intended viewport, never from one caught in the middle of a glide.
 */
function Follow({
  layout,
  transcriptKey,
  nowY,
  nowX,
  target,
  fitted,
  onFitted,
  fitZoomMin,
  fitWidth,
  fitHeight,
  followAt,
  lockstep,
}: {
  fitZoomMin: number;
  /** The size to fit instead of the layout's (diagrams side by side fit the widest and the tallest, at one zoom). */
  fitWidth: number | undefined;
  fitHeight: number | undefined;
  followAt: number;
  /** Diagrams on one axis: always keep `nowY` at the same place, so they stay level. */
  lockstep: boolean;
  layout: DiagramLayout;
  transcriptKey: object;
  nowY: number;
  nowX: number;
  target: TargetRef;
  fitted: FittedRef;
  onFitted: (run: object) => void;
}) {
  const paneWidth = useFlowStore((state) => state.width);
  const paneHeight = useFlowStore((state) => state.height);
  const presentation = usePanelsStore((state) => state.presentation);
  const go = useGo(target);
  const now = useRef({ x: nowX, y: nowY });
  useEffect(() => {
    now.current = { x: nowX, y: nowY };
  }, [nowX, nowY]);
  const pane = { paneWidth, paneHeight, presentation };
  const followed = useFollowed(layout, now, pane, lockstep, followAt);
  const ready = paneWidth > 0 && paneHeight > 0;
  useFit({ layout, transcriptKey, fitted, onFitted, fitZoomMin, fitWidth, fitHeight, now, pane, ready, go, followed });
  useKeepInView({ nowX, nowY, pane, ready, target, lockstep, go, followed });
  return null;
}

interface Pane {
  paneWidth: number;
  paneHeight: number;
  presentation: boolean;
}
type Followed = (zoom: number, x: number) => Viewport;

/** The viewport at `zoom` that puts the current event in view: moves x only when the event is off to a side. */
function useFollowed(
  layout: DiagramLayout,
  now: MutableRefObject<{ x: number; y: number }>,
  { paneWidth, paneHeight, presentation }: Pane,
  lockstep: boolean,
  followAt: number,
): Followed {
  const { width, height } = layout;
  // The texts' rows: a view the lab moves to leaves none cut by the lane headers' band.
  const rows = useMemo(() => textRows(layout), [layout]);
  return useCallback(
    (zoom: number, x: number): Viewport => {
      const { x: atX, y: atY } = now.current;
      const screenX = atX * zoom + x;
      // Presenting, the lanes are placed once (below) and the view moves sideways only for an event off the pane.
      const edge = presentation ? PRESENT_EDGE : 0.1;
      const nextX = screenX < paneWidth * edge || screenX > paneWidth * (1 - edge) ? paneWidth / 2 - atX * zoom : x;
      const followAtY = presentation ? FOLLOW_AT_PRESENTING : followAt;
      const y = followedY(rows, atY, zoom, { paneHeight, height, lockstep, followAt: followAtY });
      return { x: clampX(nextX, zoom, width, paneWidth), y, zoom };
    },
    [paneWidth, paneHeight, width, height, lockstep, presentation, followAt, rows, now],
  );
}

/** The pane settles to its new size just after a new run or a mode change: refit then, unless the user has chosen a view. */
function useFit({
  layout,
  transcriptKey,
  fitted,
  onFitted,
  fitZoomMin,
  fitWidth,
  fitHeight,
  now,
  pane: { paneWidth, paneHeight, presentation },
  ready,
  go,
  followed,
}: {
  layout: DiagramLayout;
  transcriptKey: object;
  fitted: FittedRef;
  onFitted: (run: object) => void;
  fitZoomMin: number;
  fitWidth: number | undefined;
  fitHeight: number | undefined;
  now: MutableRefObject<{ x: number; y: number }>;
  pane: Pane;
  ready: boolean;
  go: (viewport: Viewport, glide: boolean) => void;
  followed: Followed;
}) {
  const { width, height } = layout;
  useEffect(() => {
    if (!ready) return;
    const last = fitted.current;
    const changed = last === null || last.run !== transcriptKey || last.presentation !== presentation;
    // A step taken since the fit ends the settling: only the user moves the zoom from then on (a pane
    // that resizes while the replay steps, a line of the step sentence wrapping, keeps the zoom).
    if (!changed && (last.chosen || last.nowY !== now.current.y || performance.now() - last.atMs > FIT_SETTLE_MS))
      return;
    // The normal view fits the lanes to the width and, when it can, the run's height: a whole race on
    // screen beats larger text. Presenting, the text is at least PRESENT_RATIO times the normal view's
    // (the normal pane is this one less the side column), and as large as the width allows.
    const normalFit = (w: number, h: number) =>
      fitZoom(w, h, fitWidth ?? width, fitHeight ?? height, fitZoomMin, FIT_ZOOM_MAX);
    const zoom = presentation
      ? Math.min(
          PRESENT_ZOOM_MAX,
          Math.max(
            PRESENT_ZOOM_MIN,
            PRESENT_RATIO * normalFit(normalPaneWidth(paneWidth), Infinity),
            paneWidth / (fitWidth ?? width),
          ),
        )
      : normalFit(paneWidth, paneHeight);
    go(followed(zoom, presentation ? presentingX(layout, zoom, paneWidth) : (paneWidth - width * zoom) / 2), false);
    fitted.current = {
      run: transcriptKey,
      presentation,
      atMs: changed ? performance.now() : last.atMs,
      chosen: false,
      nowY: now.current.y,
    };
    onFitted(transcriptKey);
    // Only a new run and the mode refit (and the pane settling right after): a later resize, a step or
    // Linear time keeps the zoom.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [transcriptKey, presentation, ready, paneWidth, paneHeight]);
}

/** Each step: when the current event leaves the inside of the pane, the view glides (pans only) to bring it back. */
function useKeepInView({
  nowX,
  nowY,
  pane: { paneWidth, paneHeight, presentation },
  ready,
  target,
  lockstep,
  go,
  followed,
}: {
  nowX: number;
  nowY: number;
  pane: Pane;
  ready: boolean;
  target: TargetRef;
  lockstep: boolean;
  go: (viewport: Viewport, glide: boolean) => void;
  followed: Followed;
}) {
  const reducedMotion = useReducedMotion();
  const glideTo = useGlide(target, paneWidth, paneHeight);
  useEffect(() => {
    if (!ready || target.current === null) return;
    const { x, y, zoom } = target.current;
    const screenY = nowY * zoom + y;
    const screenX = nowX * zoom + x;
    const top = nowY <= TOP_Y ? 0 : Math.max(HEADERS_PX, paneHeight * FOLLOW_MARGIN);
    const insideY = screenY >= top && screenY <= paneHeight * (1 - FOLLOW_MARGIN);
    const insideX =
      screenX >= paneWidth * (presentation ? PRESENT_EDGE : 0.05) &&
      screenX <= paneWidth * (1 - (presentation ? PRESENT_EDGE : 0.05));
    if (insideY && insideX && !lockstep) return;
    // Always a glide (unless motion is reduced), at any speed: a step that comes mid-glide moves its
    // goal, and the view keeps going from where it is, so playing at 32 steps/s pans steadily.
    if (reducedMotion) go(followed(zoom, x), false);
    else glideTo(followed(zoom, x));
  }, [nowY, nowX, ready, paneHeight, paneWidth, followed, go, glideTo, reducedMotion, target, lockstep, presentation]);
}

/** Above the pane, so it covers no event: Linear time, the zoom buttons and Fit View. */
function Toolbar({
  layout,
  target,
  fitted,
  ready,
  linearToggle,
  nowX,
  nowY,
}: {
  layout: DiagramLayout;
  target: TargetRef;
  fitted: FittedRef;
  ready: boolean;
  linearToggle: boolean;
  /** The current event: what a fit that cannot show the whole race legibly keeps in the middle. */
  nowX: number;
  nowY: number;
}) {
  const { getViewport } = useReactFlow();
  const paneWidth = useFlowStore((state) => state.width);
  const paneHeight = useFlowStore((state) => state.height);
  const linearTime = useRunStore((state) => state.scale === 'linear');
  const setScale = useRunStore((state) => state.setScale);
  const reducedMotion = useReducedMotion();
  const move = useGo(target);
  const go = (viewport: Viewport, glide: boolean) => {
    if (fitted.current !== null) fitted.current.chosen = true;
    move(viewport, glide);
  };
  const { width, height } = layout;

  const zoomBy = (factor: number) => {
    const current = target.current ?? getViewport();
    const zoom = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, current.zoom * factor));
    // The pane's centre stays where it is.
    const cx = (paneWidth / 2 - current.x) / current.zoom;
    const cy = (paneHeight / 2 - current.y) / current.zoom;
    go({ x: paneWidth / 2 - cx * zoom, y: paneHeight / 2 - cy * zoom, zoom }, !reducedMotion);
  };
  /**
   * The whole diagram in the pane when its text stays at least LEGIBLE_PX; a race too long for that is
   * fitted at the least legible zoom around the current event, as much of it as the pane holds
   * (stepping then pans at that zoom).
   */
  const fitAll = () => {
    if (paneWidth === 0 || paneHeight === 0) return;
    const room = 0.92;
    const whole = Math.min(ZOOM_MAX, (paneWidth * room) / width, (paneHeight * room) / height);
    if (whole >= LEGIBLE_ZOOM) {
      go({ x: (paneWidth - whole * width) / 2, y: (paneHeight - height * whole) / 2, zoom: whole }, !reducedMotion);
      return;
    }
    const zoom = LEGIBLE_ZOOM;
    const x = clampX(paneWidth / 2 - nowX * zoom, zoom, width, paneWidth);
    // At the top, the diagram stands as low as its first texts need to clear the headers' band (topPan).
    const y = Math.max(Math.min(0, paneHeight - height * zoom), Math.min(topPan(zoom), paneHeight / 2 - nowY * zoom));
    go({ x, y, zoom }, !reducedMotion);
  };

  return (
    <div className="dg-toolbar" role="toolbar" aria-label="Diagram view">
      {linearToggle && (
        <button
          type="button"
          className="dg-tool"
          aria-pressed={linearTime}
          aria-keyshortcuts="L"
          onClick={() => setScale(linearTime ? 'ordinal' : 'linear')}
        >
          Linear time
        </button>
      )}
      <button
        type="button"
        className="dg-tool"
        aria-label="Zoom Out"
        disabled={!ready}
        onClick={() => zoomBy(1 / ZOOM_STEP)}
      >
        −
      </button>
      <button
        type="button"
        className="dg-tool"
        aria-label="Zoom In"
        disabled={!ready}
        onClick={() => zoomBy(ZOOM_STEP)}
      >
        +
      </button>
      <button type="button" className="dg-tool" disabled={!ready} onClick={fitAll}>
        Fit View
      </button>
    </div>
  );
}
