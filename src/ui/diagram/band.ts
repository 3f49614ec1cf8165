import { useStore as useFlowStore } from '@xyflow/react';
import { useMemo } from 'react';
import type { Band } from '../../diagram/geometry/spans';

/** Culling band, in flow px: what is handed to React Flow and drawn behind it covers the pane rounded out to whole bands. */
export const BAND_PX = 600;

/** No rows: far above the diagram, whose rows start at y 0. */
const NO_ROWS: Band = { top: Number.MIN_SAFE_INTEGER, bottom: Number.MIN_SAFE_INTEGER };

/**
 * The rows around the pane (flow px): the pane rounded out to whole bands, one more above and two
 * below, so panning within a band changes nothing and a glide reveals rows already there. None while
 * the view is `unplaced` (a diagram not yet fitted to its pane): until then the viewport stands at the
 * diagram's top, and the rows drawn there would be drawn only to be taken away again a moment later,
 * when the view moves to the current event (for a long run opened at its end, hundreds of elements).
 */
export function useVisibleBand(unplaced = false): Band {
  const firstBand = useFlowStore((state) => Math.floor(-state.transform[1] / state.transform[2] / BAND_PX));
  const lastBand = useFlowStore((state) =>
    Math.floor((-state.transform[1] + state.height) / state.transform[2] / BAND_PX),
  );
  return useMemo(
    () => (unplaced ? NO_ROWS : { top: (firstBand - 1) * BAND_PX, bottom: (lastBand + 2) * BAND_PX }),
    [firstBand, lastBand, unplaced],
  );
}
