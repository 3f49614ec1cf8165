import type { Transcript } from '../engine';
import { create } from 'zustand';
import { LabClientError, type RecordingProgress } from '../worker/client';
import { RECORDING_BYTES_MAX } from '../engine/core/recordingLimits';
import type { Transport } from '../worker/protocol';
import { useRunStore } from './runStore';
import { usePanelsStore } from './panels';
import { recordedRunSpec, type PanelsState, type PanelsStore } from './panelsStore';

/**
 * Opening a `lab probe --json` transcript in the page (the file picker or a drop anywhere on it):
 * the file's size is checked here, before it is read; its content in the engine worker (LAB049 names
 * the check that failed). An opened recording becomes the run on screen, stepped like any run; a
 * refused file leaves the page exactly as it was and says why in a notice of its own.
 */

export type RecordingTranscript = Transcript<'recording'>;
export type { RecordingProgress };

export interface RecordingState {
  /** A file is being read and checked. */
  opening: boolean;
  /** The file being opened (“name”, or "the file"), while `opening`. */
  openingFile: string | null;
  /** How far the worker got with it: its stage and events done of the file's total; null until its first report. */
  progress: RecordingProgress | null;
  /** Why the last file was refused (which check failed); null when the last one opened, or after Dismiss. */
  refusal: { file: string; code: string; message: string } | null;
  open(file: Blob): Promise<void>;
  dismiss(): void;
}

const nameOf = (file: Blob): string => {
  const name = (file as Partial<File>).name;
  return name === undefined || name === '' ? 'the file' : `“${name}”`;
};

export const useRecordingStore = create<RecordingState>()((set) => ({
  opening: false,
  openingFile: null,
  progress: null,
  refusal: null,
  async open(file) {
    const name = nameOf(file);
    if (file.size > RECORDING_BYTES_MAX) {
      set({
        refusal: {
          file: name,
          code: 'LAB049',
          message: `the file is ${file.size.toLocaleString('en')} bytes, more than a probe transcript's ${RECORDING_BYTES_MAX.toLocaleString('en')}; nothing was opened`,
        },
      });
      return;
    }
    set({ opening: true, openingFile: name, progress: null });
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      await useRunStore
        .getState()
        .show((client, scale) => client.openRecording(bytes, scale, (progress) => set({ progress })));
      set({ refusal: null });
    } catch (error) {
      const code = error instanceof LabClientError ? error.code : 'INTERNAL';
      const message = error instanceof Error ? error.message : String(error);
      set({
        refusal: {
          file: name,
          code,
          message: message.startsWith(`${code} `) ? message.slice(code.length + 1) : message,
        },
      });
    } finally {
      set({ opening: false, openingFile: null, progress: null });
    }
  },
  dismiss: () => set({ refusal: null }),
}));

/** The probes of a recording the lab has a model scenario for: the ordering each plays. */
const MODEL_OF: Record<string, (transport: Transport) => string> = {
  'cancel-during-work': (transport) => (transport === 'stdio' ? 'A:transport=stdio' : 'D:transport=http'),
  'complete-then-cancel': (transport) => `B:transport=${transport}`,
  'progress-and-deadlines': (transport) => `C:transport=${transport}`,
};

/** The probe Compare puts beside the model: the one the replay stands in, when the lab models it, else the first that it models. */
export function comparableProbe(
  transcript: RecordingTranscript,
  step: number,
): { probe: string; model: string } | null {
  const at = Math.max(0, step - 1);
  const modelled = transcript.outcome.probes.filter((entry) => MODEL_OF[entry.probe] !== undefined);
  // The modelled probe the replay stands in; past it (a probe the lab has no model of, e.g. tasks), the last one before; else the first.
  const here =
    modelled.find((entry) => entry.first <= at && at <= entry.last) ??
    modelled.filter((entry) => entry.last < at).at(-1) ??
    modelled[0];
  const model = here === undefined ? undefined : MODEL_OF[here.probe];
  return here === undefined || model === undefined ? null : { probe: here.probe, model: model(transcript.transport) };
}

/** Opens Compare with one probe of the recording beside the lab's model of the same ordering. */
export function compareBesideModel(transcript: RecordingTranscript, step: number): void {
  const pick = comparableProbe(transcript, step);
  if (pick === null) return;
  const { server } = transcript.outcome;
  const spec = recordedRunSpec(pick.probe, server);
  const panels = usePanelsStore.getState();
  panels.compareRecording({ spec, probe: pick.probe, transcript }, pick.model);
  panels.setTab('compare');
}

/** A run of Compare that names a recorded transcript the page does not hold (the panels store's `compareRecordingMissing`). */
export type MissingRecording = NonNullable<PanelsState['compareRecordingMissing']>;

/**
 * Opens a recorded transcript for a Compare whose link named one (a link carries only the name): the
 * file opens as any recording does (a refused one says why and changes nothing), then goes where the
 * link named it (`placeRecordingInCompare`).
 */
export async function openRecordingToCompare(file: Blob, missing: MissingRecording): Promise<void> {
  await useRecordingStore.getState().open(file);
  if (useRecordingStore.getState().refusal !== null) return;
  const transcript = useRunStore.getState().transcript;
  if (transcript?.kind !== 'recording') return;
  placeRecordingInCompare(usePanelsStore, transcript as RecordingTranscript, missing, nameOf(file));
}

/**
 * Puts the probe the link named, of an opened recording, in the run the link named it for; the other
 * runs stay as the link wrote them. A file without that probe, or with none Compare can put beside the
 * model, changes no run: Compare says what the file holds instead, and still offers to open one.
 */
export function placeRecordingInCompare(
  panels: PanelsStore,
  recording: RecordingTranscript,
  missing: MissingRecording,
  file: string,
): void {
  const state = panels.getState();
  // Runs written while the file opened win: the recording goes where the link named it only while that run still names it.
  const still = state.compareRecordingMissing;
  if (still === null || still.run !== missing.run || still.spec !== missing.spec) return;
  const probes = [...new Set(recording.outcome.probes.map((entry) => entry.probe))];
  const comparable = probes.filter((probe) => MODEL_OF[probe] !== undefined);
  if (comparable.includes(missing.probe)) {
    state.compareRecordingIn(missing.run, {
      spec: recordedRunSpec(missing.probe, recording.outcome.server),
      probe: missing.probe,
      transcript: recording,
    });
    return;
  }
  const holds =
    comparable.length > 0
      ? `its probes Compare can put beside the model are ${comparable.join(', ')}`
      : `it has none Compare can put beside the model (${Object.keys(MODEL_OF).join(', ')})`;
  const lacks = probes.includes(missing.probe)
    ? `the lab has no model of its ${missing.probe} probe, the one Run ${missing.run} names`
    : `it has no ${missing.probe} probe, the one Run ${missing.run} names`;
  state.refuseCompareRecording(
    `${file.charAt(0).toUpperCase()}${file.slice(1)} opened, but ${lacks}; ${holds}. The runs are as the link wrote them: open the recording the link was made from, or write Run ${missing.run} as scenario[:key=value,…]`,
  );
}
