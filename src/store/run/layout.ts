import { toFailure } from './run';
import type { LayoutSlice, Slice } from './state';

/** The diagram of the run on screen and its one time scale: a run is laid out in the worker on `scale`, and a new scale asks for the layout again (no re-run). */
export const createLayoutSlice: Slice<LayoutSlice> = (deps) => (set, get) => ({
  layout: null,
  scale: 'ordinal',
  layoutRequest: 0,
  setScale(scale) {
    if (scale === get().scale) return;
    set({ scale });
    get().relayout();
  },
  relayout() {
    const { runId, layout, scale } = get();
    const layoutRequest = get().layoutRequest + 1;
    set({ layoutRequest });
    if (runId === null || layout === null || layout.scale === scale) return;
    const latest = () => get().layoutRequest === layoutRequest && get().runId === runId;
    deps
      .client()
      .layout(runId, scale)
      .then(
        (answer) => {
          if (latest()) set({ layout: answer });
        },
        (error: unknown) => {
          if (latest()) set({ error: toFailure(error) });
        },
      );
  },
});
