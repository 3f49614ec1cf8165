import type { KnownBug } from '../gallery/knownBugs';
import { useRunStore } from './runStore';
import { usePanelsStore } from './panels';
import { compareBesideModel, useRecordingStore, type RecordingTranscript } from './recording';

/**
 * What the known-bugs list does with an entry: its real package's run in the diagram (a run spec the
 * worker judges and runs, or, for a server, the probe's committed recording opened as any recording
 * is), or Compare with the lab's model beside it. The recording is fetched from the page's own origin
 * only when an entry asks for it.
 */

/** `<scenario>[:key=value,…]` as the parameters a link carries (the worker judges them). */
export function runSpecParams(text: string): Record<string, string> {
  const colon = text.indexOf(':');
  const params: Record<string, string> = { scenario: colon < 0 ? text : text.slice(0, colon) };
  if (colon >= 0) {
    for (const pair of text.slice(colon + 1).split(',')) {
      const equals = pair.indexOf('=');
      if (equals > 0) params[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
  }
  return params;
}

async function openRecording(): Promise<RecordingTranscript | null> {
  const { default: url } = await import('../../e2e/fixtures/probe-everything-stdio.json?url');
  const response = await fetch(url);
  await useRecordingStore.getState().open(await response.blob());
  if (useRecordingStore.getState().refusal !== null) return null;
  const transcript = useRunStore.getState().transcript;
  return transcript?.kind === 'recording' ? (transcript as RecordingTranscript) : null;
}

/** Opens the entry's real-package run in the Race tab's diagram. */
export async function openBugInDiagram(bug: KnownBug): Promise<void> {
  usePanelsStore.getState().setTab('race');
  if (bug.run.kind === 'probe') {
    await openRecording();
    return;
  }
  await useRunStore.getState().openRun(runSpecParams(bug.diagram));
}

/** Opens Compare with the lab's model beside the entry's real-package run(s). */
export async function openBugInCompare(bug: KnownBug): Promise<void> {
  if (bug.run.kind === 'probe') {
    const probe = bug.run.probe;
    const recording = await openRecording();
    if (recording === null) return;
    const section = recording.outcome.probes.find((entry) => entry.probe === probe);
    // The step inside the entry's probe: Compare puts that probe beside the model of its ordering.
    compareBesideModel(recording, (section?.first ?? 0) + 1);
    return;
  }
  const panels = usePanelsStore.getState();
  panels.setCompareRuns(bug.compare.a, bug.compare.b, bug.compare.c);
  panels.setTab('compare');
}
