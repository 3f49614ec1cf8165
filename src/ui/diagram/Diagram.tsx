import { Controls, ReactFlow, useReactFlow, useStore as useFlowStore, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/base.css';
import './diagram.css';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLabStore, type Transcript } from '../../store/labStore';
import { useReducedMotion } from '../hooks/useReducedMotion';
import { Backdrop } from './Backdrop';
import { buildFlow, flowAt } from './flow';
import { layoutDiagram, messagesShown, TOP_Y, type Lane } from './layout';
import { nodeTypes } from './nodes';
import { edgeTypes } from './WireEdgeView';

/**
 * The sequence diagram: lanes for the actors, time flowing down, each wire message an edge from
 * its sender when sent to its receiver when it arrives. Laid out once per transcript; each step
 * only cuts the layout (flow.ts), and React Flow draws only what is on screen.
 */

/** Zoom bounds when fitting the lanes to the width: text stays readable on a projector (a wide scenario pans sideways). */
const FIT_ZOOM_MIN = 0.8;
const FIT_ZOOM_MAX = 1.25;
/** Where the current event sits when the view follows it (fraction of the pane's height). */
const FOLLOW_AT = 0.6;
const FOLLOW_MARGIN = 0.1;

export function Diagram({ transcript }: { transcript: Transcript }) {
  const step = useLabStore((state) => state.step);
  const selectedSeq = useLabStore((state) => state.selectedSeq);
  const selectEvent = useLabStore((state) => state.selectEvent);
  const wording = useLabStore((state) => state.wording);
  const layout = useMemo(() => layoutDiagram(transcript, wording), [transcript, wording]);
  const flow = useMemo(() => buildFlow(layout), [layout]);
  const view = useMemo(() => flowAt(flow, step, selectedSeq), [flow, step, selectedSeq]);

  // Ids carry the event's seq: `w<seq>` for wires, `m<seq>` for markers.
  const onEdgeClick = useCallback((_: unknown, edge: Edge) => selectEvent(Number(edge.id.slice(1))), [selectEvent]);
  const onNodeClick = useCallback(
    (_: unknown, node: Node) => {
      if (node.type === 'marker') selectEvent(Number(node.id.slice(1)));
    },
    [selectEvent],
  );

  return (
    <section className="lab-diagram" aria-labelledby="diagram-heading">
      <div className="lab-diagram-head">
        <h2 id="diagram-heading">Sequence diagram</h2>
        <Legend />
      </div>
      <div
        className="lab-flow"
        data-step={step}
        data-events={transcript.events.length}
        data-messages={messagesShown(layout, step)}
        data-messages-total={layout.messageIndexes.length}
        data-in-flight={view.inFlight}
        data-lanes={layout.lanes.map((lane) => lane.id).join(' ')}
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
          minZoom={0.05}
          maxZoom={2.5}
          onEdgeClick={onEdgeClick}
          onNodeClick={onNodeClick}
          aria-label="Sequence diagram: pan by dragging or scrolling, zoom with the buttons or Ctrl and the wheel"
        >
          <Backdrop layout={layout} step={step} nowY={view.nowY} />
          <LaneHeaders lanes={layout.lanes} />
          <Follow width={layout.width} height={layout.height} nowY={view.nowY} layoutKey={layout} />
          <Controls showInteractive={false} position="bottom-right" fitViewOptions={{ padding: 0.05 }} />
        </ReactFlow>
      </div>
    </section>
  );
}

/** The lane names, pinned to the top of the pane while the diagram scrolls under them. */
function LaneHeaders({ lanes }: { lanes: Lane[] }) {
  const x = useFlowStore((state) => state.transform[0]);
  const zoom = useFlowStore((state) => state.transform[2]);
  return (
    <div className="dg-lane-headers">
      {lanes.map((lane) => (
        <span key={lane.id} className={`dg-lane-header lane-${lane.id}`} style={{ left: lane.x * zoom + x }} data-lane={lane.id}>
          {lane.label}
        </span>
      ))}
    </div>
  );
}

/**
 * Keeps the current event in view: fits the lanes to the width when a new run arrives, and scrolls
 * when a step moves the current row out of the pane (instantly under prefers-reduced-motion).
 */
function Follow({ width, height, nowY, layoutKey }: { width: number; height: number; nowY: number; layoutKey: object }) {
  const { setViewport, getViewport } = useReactFlow();
  const paneWidth = useFlowStore((state) => state.width);
  const paneHeight = useFlowStore((state) => state.height);
  const playing = useLabStore((state) => state.playing);
  const speed = useLabStore((state) => state.speed);
  const reducedMotion = useReducedMotion();
  // The fit below reads the current row without re-fitting on every step.
  const nowYRef = useRef(nowY);
  useEffect(() => {
    nowYRef.current = nowY;
  }, [nowY]);

  useEffect(() => {
    if (paneWidth === 0 || paneHeight === 0) return;
    const zoom = Math.max(FIT_ZOOM_MIN, Math.min(FIT_ZOOM_MAX, paneWidth / width));
    void setViewport({ x: Math.max(0, (paneWidth - width * zoom) / 2), y: followY(paneHeight, nowYRef.current, zoom, height), zoom });
  }, [layoutKey, width, height, paneWidth, paneHeight, setViewport]);

  useEffect(() => {
    if (paneHeight === 0) return;
    const { x, y, zoom } = getViewport();
    const screenY = nowY * zoom + y;
    const top = nowY <= TOP_Y ? 0 : paneHeight * FOLLOW_MARGIN;
    if (screenY >= top && screenY <= paneHeight * (1 - FOLLOW_MARGIN)) return;
    const glide = !reducedMotion && !(playing && speed > 4);
    void setViewport({ x, y: followY(paneHeight, nowY, zoom, height), zoom }, { duration: glide ? 180 : 0 });
  }, [nowY, height, paneHeight, getViewport, setViewport, reducedMotion, playing, speed]);

  return null;
}

/** The viewport's y that puts row `nowY` at FOLLOW_AT of the pane, never scrolling past the top or the bottom. */
function followY(paneHeight: number, nowY: number, zoom: number, height: number): number {
  const lowest = Math.min(0, paneHeight - height * zoom);
  return Math.max(lowest, Math.min(0, paneHeight * FOLLOW_AT - nowY * zoom));
}

/** What the lines and bars mean, in words as well as looks. */
function Legend() {
  return (
    <ul className="dg-legend" aria-label="Legend">
      <li>
        <svg width="44" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="34" y2="7" className="dg-key-line" />
          <polygon points="42,7 32,2 32,12" className="dg-key-head" />
        </svg>
        message (sloped by latency)
      </li>
      <li>
        <svg width="44" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="34" y2="7" className="dg-key-line is-in-flight" />
          <polygon points="42,7 32,2 32,12" className="dg-key-head is-in-flight" />
        </svg>
        in flight
      </li>
      <li>
        <svg width="44" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="34" y2="7" className="dg-key-line is-bad" />
          <polygon points="42,7 32,2 32,12" className="dg-key-head is-bad" />
        </svg>
        ignored, lost or stream closed
      </li>
      <li>
        <span className="dg-key-bar deadline-idle" aria-hidden="true" />
        idle deadline
      </li>
      <li>
        <span className="dg-key-bar deadline-max" aria-hidden="true" />
        maximum deadline
      </li>
    </ul>
  );
}
