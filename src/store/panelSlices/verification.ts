import { message, valueOf, type EvidenceSlice, type PanelSlice, type VerificationSlice } from './state';

/** After Stop or a failure the last export that finished stays listed (it was downloaded); this says whose list it is. */
const listedAreLastFinished = (article: 'The' | 'the'): string =>
  `${article} files listed are those of the last export that finished.`;

/** The checklist, on a tools worker of its own: its Stop ends that worker alone. */
export const createVerificationSlice: PanelSlice<VerificationSlice> = (deps) => (set, get) => {
  deps.opens.verification = () => {
    if (get().verification.status === 'idle') void get().loadVerification();
  };
  return {
    verification: { status: 'idle' },
    verificationProgress: null,
    failureModes: [],
    async loadVerification() {
      if (get().verification.status === 'loading') return;
      set({ verification: { status: 'loading', value: valueOf(get().verification) }, verificationProgress: null });
      try {
        const answer = await deps.verifyClient.call(
          { type: 'verify' },
          { verifyProgress: (verificationProgress) => set({ verificationProgress }) },
        );
        set({
          verification: { status: 'done', value: answer.results },
          failureModes: answer.failureModes ?? [],
          verificationProgress: null,
        });
      } catch (error) {
        set({ verification: { status: 'error', message: message(error), value: null }, verificationProgress: null });
      }
    },
    stopVerification() {
      if (get().verification.status !== 'loading') return;
      deps.verifyClient.stop?.();
    },
  };
};

/** The evidence export, on a tools worker of its own: an answer that arrives after Stop is never saved. */
export const createEvidenceSlice: PanelSlice<EvidenceSlice> = (deps) => (set, get) => ({
  evidence: { status: 'idle' },
  evidenceProgress: null,
  evidenceRequest: 0,
  async exportEvidence(save) {
    if (get().evidence.status === 'loading') return;
    const current = get().evidenceRequest + 1;
    set({
      evidenceRequest: current,
      evidence: { status: 'loading', value: valueOf(get().evidence) },
      evidenceProgress: null,
    });
    const stopped = () => current !== get().evidenceRequest;
    try {
      const answer = await deps.evidenceClient.call(
        { type: 'evidence' },
        { verifyProgress: (evidenceProgress) => !stopped() && set({ evidenceProgress }) },
      );
      if (stopped()) return; // the zip is not saved
      save(answer.bytes);
      set({ evidence: { status: 'done', value: answer.files }, evidenceProgress: null });
    } catch (error) {
      if (stopped()) return;
      // As after Stop: the last export that finished was downloaded, so its list stays, and the error says whose list it is.
      const earlier = valueOf(get().evidence);
      const failure =
        earlier === null
          ? message(error)
          : `${message(error).replace(/\.$/, '')}. Nothing was downloaded; ${listedAreLastFinished('the')}`;
      set({ evidence: { status: 'error', message: failure, value: earlier }, evidenceProgress: null });
    }
  },
  stopEvidence() {
    if (get().evidence.status !== 'loading') return;
    // An earlier export that finished was downloaded: its list stays, and the message says whose it is.
    const earlier = valueOf(get().evidence);
    const message = `Stopped: the evidence export was ended before it finished; nothing was downloaded.${earlier === null ? '' : ` ${listedAreLastFinished('The')}`}`;
    set({
      evidenceRequest: get().evidenceRequest + 1,
      evidence: { status: 'error', message, value: earlier },
      evidenceProgress: null,
    });
    deps.evidenceClient.stop?.();
  },
});
