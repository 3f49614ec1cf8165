import { parseSchedule } from '../../engine/core/schedule';
import type { RunSelection } from '../../worker/protocol';
import { toFailure } from './run';
import { OTHER_RUN, PAGE_EXPLORE_BOUND, seededSpec, withSetting, type ExploreSlice, type Slice } from './state';

/** What an exploration explores: the seeded run of a selection (an ordering or faults of it are among its orderings). */
const explored = (spec: RunSelection) => JSON.stringify([spec.scenario, spec.transport, spec.seed, spec.settings]);

/** Every ordering of the selection, explored in the worker; the orderings it found open in the diagram. */
export const createExploreSlice: Slice<ExploreSlice> = (deps) => (set, get) => ({
  exploration: null,
  exploreStatus: 'idle',
  exploreProgress: null,
  exploreError: null,
  exploreRequest: 0,
  async explore() {
    const exploreRequest = get().exploreRequest + 1;
    const { spec } = get();
    const selection = explored(spec);
    const latest = () => get().exploreRequest === exploreRequest;
    /** Still the exploration of what is selected: the answer to another selection is not shown. */
    const current = () => latest() && explored(get().spec) === selection;
    set({ exploreRequest, exploreStatus: 'running', exploreProgress: null, exploreError: null, exploration: null });
    try {
      const { scenario, transport, seed, settings } = spec;
      const result = await deps
        .client()
        .explore({ scenario, transport, seed, settings, bound: PAGE_EXPLORE_BOUND }, (progress) => {
          if (latest()) set({ exploreProgress: progress });
        });
      if (current()) set({ exploreStatus: 'done', exploration: result, exploreProgress: null });
      else if (latest()) set({ exploreStatus: 'idle', exploreProgress: null });
    } catch (error) {
      if (current()) set({ exploreStatus: 'error', exploreError: toFailure(error), exploreProgress: null });
      else if (latest()) set({ exploreStatus: 'idle', exploreProgress: null });
    }
  },
  async exploreWith(name, value) {
    const { spec } = get();
    set({ spec: { ...seededSpec(spec), settings: withSetting(spec.settings, name, value) }, ...OTHER_RUN });
    await get().run();
    await get().explore();
  },
  stopExplore() {
    if (get().exploreStatus !== 'running') return;
    deps.client().stop();
  },
  async openOrdering(text, seq) {
    // The exploration names its orderings as text: parsed once, here, like a link's.
    const schedule = parseSchedule(text);
    set({
      spec: { ...get().spec, schedule },
      landing: seq === null ? { kind: 'end' } : { kind: 'link', text: String(seq + 1) },
    });
    await get().run();
    // The violating event is the one the inspector shows.
    if (seq !== null && get().spec.schedule === schedule && get().status === 'done') set({ selectedSeq: seq });
  },
  leaveOrdering() {
    const { schedule: _schedule, ...seeded } = get().spec;
    if (_schedule === undefined) return;
    set({ spec: seeded, landing: { kind: 'end' } });
    void get().run();
  },
});
