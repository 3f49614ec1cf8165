import { useStore as useFlowStore } from '@xyflow/react';
import { useMemo } from 'react';
import type { Band } from '../../diagram/geometry/spans';

/** Culling band, in flow px: what is handed to React Flow and drawn behind it covers the pane rounded out to whole bands. */
export const BAND_PX = 600;

/**
 * The rows around the pane (flow px): the pane rounded out to whole bands, one more above and two
 * below, so panning within a band changes nothing and a glide reveals rows already there.
 */
export function useVisibleBand(): Band {
  const firstBand = useFlowStore((state) => Math.floor(-state.transform[1] / state.transform[2] / BAND_PX));
  const lastBand = useFlowStore((state) =>
    Math.floor((-state.transform[1] + state.height) / state.transform[2] / BAND_PX),
  );
  return useMemo(() => ({ top: (firstBand - 1) * BAND_PX, bottom: (lastBand + 2) * BAND_PX }), [firstBand, lastBand]);
}
