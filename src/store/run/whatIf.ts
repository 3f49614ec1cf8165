import { withFault, type MessageFault } from '../../engine/core/faults';
import {
  currentTimeMs,
  FAULT_DELAY_MS,
  selectedInfo,
  type FaultSlice,
  type Landing,
  type Slice,
  type WhatIf,
  type WhatIfSlice,
} from './state';

/** "What if…": the same run again with the user's cancel, or a dropped connection, at the replay's virtual time. */
export const createWhatIfSlice: Slice<WhatIfSlice> = () => (set, get) => {
  function rerun(kind: WhatIf['kind'], setting: string, atMs: number, landing: Landing): void {
    const { spec, step, whatIf } = get();
    // A what-if of a what-if still returns to the scenario as it was first.
    const previous = whatIf?.previous ?? { spec, step };
    const { schedule: _schedule, faults: _faults, ...seeded } = previous.spec;
    set({
      whatIf: { kind, atMs, previous },
      spec: { ...seeded, settings: { ...previous.spec.settings, [setting]: atMs } },
      exploration: null,
      landing,
    });
    void get().run();
  }
  return {
    whatIf: null,
    cancelHere() {
      if (selectedInfo(get())?.kind !== 'request-race' || get().status !== 'done') return;
      const atMs = currentTimeMs(get());
      // The new run opens where the user cancels, not at its end: what follows is the lesson.
      rerun('cancel', 'cancelAtMs', atMs, { kind: 'time', atMs });
    },
    dropConnectionHere() {
      const kind = selectedInfo(get())?.kind;
      if ((kind !== 'reconnect' && kind !== 'herd') || get().status !== 'done') return;
      const spec = selectedInfo(get())?.settingsSpec.dropAtMs;
      const min = spec?.kind === 'integer' ? spec.min : 0;
      const atMs = currentTimeMs(get());
      if (atMs < min) {
        const why =
          kind === 'reconnect'
            ? 'the reconnect scenario sets up its streams first'
            : 'at 0 ms every client has just lost its stream';
        get().notify(`The connection can drop from ${min} ms on (${why}); the replay stands at ${atMs} ms.`);
        return;
      }
      rerun('drop', 'dropAtMs', atMs, { kind: 'end' });
    },
    backToScenario() {
      const whatIf = get().whatIf;
      if (whatIf === null) return;
      set({ whatIf: null, spec: whatIf.previous.spec, landing: { kind: 'link', text: String(whatIf.previous.step) } });
      void get().run();
    },
  };
};

/** Faults the user injects on a message of the run (the diagram's Drop, Delay, Duplicate, Crash). */
export const createFaultSlice: Slice<FaultSlice> = () => (set, get) => ({
  injectFault(kind, seq) {
    // A fault already on this message is replaced (one per message), the faults kept ordered by seq.
    const fault: MessageFault = kind === 'delay' ? { kind, seq, ms: FAULT_DELAY_MS } : { kind, seq };
    const faults = withFault(get().spec.faults ?? [], fault);
    set({
      spec: { ...get().spec, faults },
      landing: { kind: 'link', text: String(seq + 1) },
      exploration: null,
      whatIf: null,
    });
    void get()
      .run()
      .then(() => {
        if (get().spec.faults === faults && get().status === 'done') set({ selectedSeq: seq });
      });
  },
  clearFaults() {
    const { faults, ...withoutFaults } = get().spec;
    if (faults === undefined) return;
    set({ spec: withoutFaults, landing: { kind: 'keep' }, exploration: null });
    void get().run();
  },
});
