import type { InspectorSlice, NoticeSlice, Slice } from './state';

/** The event the inspector shows. */
export const createInspectorSlice: Slice<InspectorSlice> = () => (set) => ({
  selectedSeq: null,
  selectEvent: (selectedSeq) => set({ selectedSeq }),
});

/** What the page tells the user about values it could not use. */
export const createNoticeSlice: Slice<NoticeSlice> = () => (set, get) => ({
  notices: [],
  nextNoticeId: 1,
  notify: (text) =>
    set({ notices: [...get().notices, { id: get().nextNoticeId, text }], nextNoticeId: get().nextNoticeId + 1 }),
  dismissNotices: () => set({ notices: [] }),
});
