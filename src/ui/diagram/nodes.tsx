import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { withBreaks } from '../components/breaks';
import type { MarkerNode } from './flow';

/** The diagram's node views: drawing only; what they show was decided in layout.ts and flow.ts. */

const MarkerView = memo(function MarkerView({ data }: NodeProps<MarkerNode>) {
  const className = [
    'dg-marker',
    `look-${data.look}`,
    `tone-${data.tone}`,
    data.lines >= 2 ? 'is-two-lines' : '',
    data.current ? 'is-current' : '',
    data.selected ? 'is-selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  // The full sentence is the tooltip (hover) and the node's accessible name (flow.ts), which also carries aria-current.
  // A dot has no word of its own: its sentence is its tooltip and accessible name, and the Inspector's.
  if (data.look === 'dot')
    return <div className={className} title={data.title} data-current={data.current ? 'true' : undefined} />;
  return (
    <div className={className} title={data.title} data-current={data.current ? 'true' : undefined}>
      {/* Wrapped, it may break inside a long name after `_` or `.` (the layout counted its lines the same way). */}
      <span className="dg-marker-text">{data.lines >= 2 ? withBreaks(data.text, /(?<=[_.])/) : data.text}</span>
    </div>
  );
});

/** The invisible box around a wire; its handles let React Flow attach the edge (which draws itself from the layout). */
const AnchorView = memo(function AnchorView() {
  return (
    <>
      <Handle type="source" position={Position.Right} isConnectable={false} className="dg-handle" />
      <Handle type="target" position={Position.Left} isConnectable={false} className="dg-handle" />
    </>
  );
});

export const nodeTypes = { marker: MarkerView, anchor: AnchorView };
