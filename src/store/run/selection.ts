import { DEFAULT_SPEC, OTHER_RUN, seededSpec, withSetting, type Slice, type SelectionSlice } from './state';
import { toFailure } from './run';

/** What the user picked: one run description, changed by one action (and the two that read a scenario's defaults). */
export const createSelectionSlice: Slice<SelectionSlice> = (deps) => (set, get) => ({
  scenarios: [],
  spec: DEFAULT_SPEC,
  keepLedger: false,
  selectScenario(id) {
    const info = get().scenarios.find((scenario) => scenario.id === id);
    const { spec } = get();
    // The SDK stays chosen from one request race to the next; any other scenario runs on the model.
    const impl = info?.kind === 'request-race' ? spec.impl : 'model';
    set({
      spec: { scenario: id, impl, transport: info?.defaultTransport ?? spec.transport, seed: spec.seed, settings: {} },
      landing: { kind: 'end' },
      ...OTHER_RUN,
    });
    void get().run();
  },
  select({ keepLedger, ...change }) {
    // An explored ordering or a fault belongs to the run it was made on: the SDK, too, orders its own work.
    set({
      spec: { ...seededSpec(get().spec), ...change },
      ...(keepLedger === undefined ? {} : { keepLedger }),
      ...OTHER_RUN,
    });
    void get().run();
  },
  setSetting(name, value) {
    get().select({ settings: withSetting(get().spec.settings, name, value) });
  },
  async openRun(params) {
    try {
      const { view, problems } = await deps.client().resolve({ ...params });
      if (problems.length > 0) throw new Error(problems.map((p) => `${p.param}=${p.value}: ${p.message}`).join('; '));
      set({ spec: { ...view, impl: view.impl ?? 'model' }, landing: { kind: 'end' }, ...OTHER_RUN });
    } catch (error) {
      set({ status: 'error', error: toFailure(error) });
      return;
    }
    await get().run();
  },
});
