import type { PageSlice, PanelSlice } from './state';

/** Which tab and which modes the page shows; opening a tab loads what it shows, once. */
export const createPageSlice: PanelSlice<PageSlice> = (deps) => (set, get) => ({
  tab: 'race',
  presentation: false,
  predict: false,
  settingsOpen: false,
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  setTab(tab) {
    set({ tab });
    get().ensureTab(tab);
  },
  setPresentation: (presentation) => set({ presentation }),
  setPredict: (predict) => set({ predict }),
  ensureTab: (tab) => deps.opens[tab]?.(),
});
