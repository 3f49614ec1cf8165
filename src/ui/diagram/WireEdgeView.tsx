import type { EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import type { WireEdge } from './flow';
import { ARROW_LENGTH, ARROW_SPREAD } from '../../diagram/geometry/model';

/**
 * One wire line, drawn from the coordinates the layout computed (the anchors only tell React Flow
 * where it is, for culling). Its fate is written on it, not only coloured: "ignored", "lost".
 */

const FATE_WORDS: Partial<Record<string, string>> = { ignored: 'ignored', lost: 'lost', 'in-flight': 'in flight' };

function WireEdgeViewImpl({ data }: EdgeProps<WireEdge>) {
  if (data === undefined) return null;
  const {
    x1,
    y1,
    x2,
    y2,
    labelX,
    labelY,
    tagX,
    tagY,
    label,
    status,
    kind,
    current,
    selected,
    description,
    marksCurrent,
  } = data;
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const point = (spread: number) =>
    `${x2 - ARROW_LENGTH * Math.cos(angle - spread)},${y2 - ARROW_LENGTH * Math.sin(angle - spread)}`;
  const line = `M${x1},${y1} L${x2},${y2}`;
  const className = [
    'dg-wire',
    `kind-${kind}`,
    `status-${status}`,
    current ? 'is-current' : '',
    selected ? 'is-selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const fate = kind === 'message' || kind === 'comment' ? FATE_WORDS[status] : undefined;
  return (
    <g className={className} data-current={marksCurrent ? 'true' : undefined}>
      {/* The tooltip: what the wire is and, once known, its fate and why. */}
      <title>{description}</title>
      <path d={line} className="dg-wire-hit" />
      <path d={line} className="dg-wire-line" />
      {status === 'lost' ? (
        <path
          d={`M${x2 - 8},${y2 - 8} L${x2 + 8},${y2 + 8} M${x2 - 8},${y2 + 8} L${x2 + 8},${y2 - 8}`}
          className="dg-wire-cross"
        />
      ) : (
        <polygon points={`${x2},${y2} ${point(ARROW_SPREAD)} ${point(-ARROW_SPREAD)}`} className="dg-wire-head" />
      )}
      {kind === 'stream-close' && (
        <path
          d={`M${x1 - 7},${y1 - 7} L${x1 + 7},${y1 + 7} M${x1 - 7},${y1 + 7} L${x1 + 7},${y1 - 7}`}
          className="dg-wire-cross"
        />
      )}
      <text x={labelX} y={labelY - 9} className="dg-wire-label">
        {label}
      </text>
      {fate !== undefined && (
        <text x={tagX} y={tagY} className="dg-wire-fate">
          {fate}
        </text>
      )}
    </g>
  );
}

export const WireEdgeView = memo(WireEdgeViewImpl);
export const edgeTypes = { wire: WireEdgeView };
