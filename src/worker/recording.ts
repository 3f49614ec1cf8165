import {
  describeMessage,
  LabError,
  messageLabel,
  wordEvent,
  type EventWording,
  type LabEvent,
  type RecordedProbe,
  type RequestId,
  type Transcript,
} from '../engine';
import { findingOf } from '../probe/probes';
import type { ProbeTranscript } from '../probe/run';
import * as v from 'valibot';
import { check, explainIssues, ProbeEventSchema, ProbeTranscriptSchema, type CheckedProbeTranscript } from './schemas';
import { RECORDING_BYTES_MAX, RECORDING_EVENTS_MAX } from '../engine/core/recordingLimits';
import { checkJsonRpcMessage } from '../engine';

/**
 * A `lab probe --json` transcript opened in the page: checked, then drawn with the lab's own events,
 * so the same geometry lays it out and the same replay steps it. The probe sees one end of each
 * message (it sends the client's, it receives the server's), so a message is drawn level at the
 * instant the probe saw it: a recording has no latency to slope a wire with. Each verdict becomes an
 * event of its own right after the last event of its probe, the moment the probe could decide it.
 */

export type RecordingTranscript = Transcript<'recording'>;

const ISO_SECONDS = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/;

/** "2026-12-02 15:45:21 UTC": the same words in every locale and time zone (the probe writes UTC). */
export function recordedAtText(startedAt: string): string {
  const match = ISO_SECONDS.exec(new Date(startedAt).toISOString());
  return match === null ? startedAt : `${match[1] ?? ''} ${match[2] ?? ''} UTC`;
}

/** The label a recording carries everywhere it is shown. */
export function recordingLabel(server: { name: string; version: string }, startedAt: string): string {
  return `recorded from ${server.name} ${server.version} at ${recordedAtText(startedAt)}`;
}

/** How often the loops over a recording's events tell `onProgress` how far they got (a cheap call: the host paces what it sends). */
const PROGRESS_EVERY_EVENTS = 1024;

/** Hears how many of a recording's `total` events a stage has done. */
export type RecordingProgressListener = (done: number, total: number) => void;

/**
 * Reads and checks the bytes of a probe transcript; LAB049 names the check that failed. Nothing is kept
 * from a refused file. Bounded like the ledger import: by its bytes before it is read, by its events
 * before any is checked; the events are checked one by one, telling `onProgress` how far it got.
 */
export function readRecording(bytes: Uint8Array, onProgress?: RecordingProgressListener): ProbeTranscript {
  if (bytes.length > RECORDING_BYTES_MAX)
    throw new LabError(
      'LAB049',
      `the file is ${bytes.length} bytes, more than a probe transcript's ${RECORDING_BYTES_MAX}; nothing was opened`,
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LabError('LAB049', 'the file is not UTF-8 text; nothing was opened');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new LabError('LAB049', `the file is not JSON (${(error as Error).message}); nothing was opened`);
  }
  const listed =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { events?: unknown }).events
      : undefined;
  if (!Array.isArray(listed)) {
    // Not a transcript at all: the whole check says which field is wrong.
    const whole = check(ProbeTranscriptSchema, parsed);
    throw new LabError(
      'LAB049',
      `the file is not a lab probe transcript (${whole.ok ? 'no events' : whole.problem}); nothing was opened`,
    );
  }
  if (listed.length > RECORDING_EVENTS_MAX) throw new LabError('LAB049', recordingTooManyEvents(listed.length));
  // Everything but the events first (a few fields), then each event on its own, so the check can say how far it got.
  const checked = check(ProbeTranscriptSchema, { ...(parsed as object), events: [] });
  if (!checked.ok)
    throw new LabError('LAB049', `the file is not a lab probe transcript (${checked.problem}); nothing was opened`);
  for (let i = 0; i < listed.length; i++) {
    if (i % PROGRESS_EVERY_EVENTS === 0) onProgress?.(i, listed.length);
    const result = v.safeParse(ProbeEventSchema, listed[i], { abortEarly: true });
    if (!result.success)
      throw new LabError(
        'LAB049',
        `the file is not a lab probe transcript (${explainIssues(result.issues, `events.${i}`)}); nothing was opened`,
      );
  }
  onProgress?.(listed.length, listed.length);
  checked.value.events = listed as CheckedProbeTranscript['events'];
  const events = checked.value.events;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event === undefined) continue;
    if (event.seq !== i)
      throw new LabError(
        'LAB049',
        `events.${i}.seq is ${event.seq}, not its place in the list (${i}); nothing was opened`,
      );
    const before = events[i - 1];
    if (before !== undefined && event.atMs < before.atMs)
      throw new LabError(
        'LAB049',
        `events.${i}.atMs (${event.atMs} ms) is earlier than the event before it (${before.atMs} ms); a probe records in time order; nothing was opened`,
      );
  }
  return probeTranscriptOf(checked.value);
}

/**
 * A checked recording as the probe's own type. What a recording made by an older probe lacks is what
 * that probe would have written: no tasks offered or probed (null), and each verdict's finding derived
 * from its result and the sentence's level.
 */
export function probeTranscriptOf(checked: CheckedProbeTranscript): ProbeTranscript {
  return {
    ...checked,
    tasksOffered: checked.tasksOffered ?? null,
    tasks: checked.tasks ?? null,
    verdicts: checked.verdicts.map((verdict) => ({
      ...verdict,
      finding: verdict.finding ?? findingOf(verdict.result, verdict.sentence),
    })),
  };
}

/** Why a recording of `events` events is refused (LAB049): more than the page opens. */
export function recordingTooManyEvents(events: number): string {
  return `the file holds ${events.toLocaleString('en')} events, more than a recording's ${RECORDING_EVENTS_MAX.toLocaleString('en')} (a probe run records fewer; the probe stops before it records more); nothing was opened`;
}

/** The JSON-RPC request each HTTP channel (`POST #n`) carried, so a response, a comment or a close names its request. */
function requestsByChannel(probe: ProbeTranscript): Map<string, RequestId> {
  const byChannel = new Map<string, RequestId>();
  for (const event of probe.events) {
    if (event.kind !== 'message' || event.from !== 'client' || byChannel.has(event.channel)) continue;
    const id = event.message.id;
    if (typeof event.message.method === 'string' && (typeof id === 'string' || typeof id === 'number'))
      byChannel.set(event.channel, id);
  }
  return byChannel;
}

/** The probe's transcript in the lab's own format: the lab's event kinds where they say the same thing, the recording's three kinds for the rest. */
export function recordingTranscript(
  probe: ProbeTranscript,
  onProgress?: RecordingProgressListener,
): RecordingTranscript {
  const { events, probes } = recordedEvents(probe, onProgress);
  const count = (finding: string) =>
    events.filter((event) => event.kind === 'verdict' && event.result === finding).length;
  return {
    scenario: 'probe',
    transport: probe.transport,
    seed: 0,
    settings: { ...probe.times },
    kind: 'recording',
    title: recordingLabel(probe.server, probe.startedAt),
    requirements: [],
    protocolVersion: probe.protocolVersion,
    implementation: 'probe',
    events,
    outcome: {
      server: { ...probe.server },
      startedAt: probe.startedAt,
      target: probe.target,
      negotiatedVia: probe.negotiatedVia,
      fallbackReason: probe.fallbackReason,
      probes,
      holds: count('holds'),
      broken: count('broken'),
      notFollowed: count('not followed'),
      notObservable: count('not observable'),
    },
  };
}

/**
 * The recording's events as the lab's, each probe's verdicts right after its last event, and where
 * each probe's events stand in the list.
 */
function recordedEvents(
  probe: ProbeTranscript,
  onProgress?: RecordingProgressListener,
): { events: LabEvent[]; probes: RecordedProbe[] } {
  const requests = requestsByChannel(probe);
  const events: LabEvent[] = [];
  const probes: RecordedProbe[] = [];
  const placed = new Set<string>();
  const addVerdicts = (name: string, atMs: number) => {
    if (placed.has(name)) return;
    placed.add(name);
    for (const verdict of probe.verdicts)
      if (verdict.probe === name) events.push(verdictEvent(verdict, events.length, atMs));
  };
  probe.events.forEach((event, i) => {
    if (i % PROGRESS_EVERY_EVENTS === 0) onProgress?.(i, probe.events.length);
    const current = probes.at(-1);
    if (current === undefined || current.probe !== event.probe)
      probes.push({ probe: event.probe, first: events.length, last: events.length });
    events.push(labEventOf(event, requests, events.length));
    const next = probe.events[i + 1];
    if (next === undefined || next.probe !== event.probe) addVerdicts(event.probe, event.atMs);
    (probes.at(-1) as RecordedProbe).last = events.length - 1;
  });
  // A verdict of a probe that recorded no event of its own still shows, at the end.
  const endMs = probe.events.at(-1)?.atMs ?? 0;
  for (const verdict of probe.verdicts) {
    if (placed.has(verdict.probe)) continue;
    const first = events.length;
    addVerdicts(verdict.probe, endMs);
    probes.push({ probe: verdict.probe, first, last: events.length - 1 });
  }
  return { events, probes };
}

/** A probe's verdict as the event at place `seq`, at `atMs`. */
function verdictEvent(verdict: ProbeTranscript['verdicts'][number], seq: number, atMs: number): LabEvent {
  const { sentence } = verdict;
  return {
    seq,
    atMs,
    causeSeq: null,
    kind: 'verdict',
    probe: verdict.probe,
    check: verdict.check,
    result: verdict.finding,
    sentence: { revision: sentence.revision, level: sentence.level, page: sentence.page, text: sentence.text },
    detail: verdict.detail,
  };
}

/** One event the probe recorded, as the lab's event at place `seq`; `requests`: the request each HTTP channel carried. */
function labEventOf(
  event: ProbeTranscript['events'][number],
  requests: ReadonlyMap<string, RequestId>,
  seq: number,
): LabEvent {
  const base = { seq, atMs: event.atMs, causeSeq: null };
  switch (event.kind) {
    case 'message': {
      // A real server's message, checked as JSON-RPC 2.0 (json.ts): the recording draws what the server sent.
      const { message, problem } = checkJsonRpcMessage(event.message);
      if (message !== null)
        return {
          ...base,
          kind: 'message',
          from: event.from,
          to: event.to,
          channel: event.channel,
          message,
          arrivesAtMs: event.atMs,
        };
      // Kept, as a note: the lab draws JSON-RPC 2.0 messages only, and this one is not one it can draw.
      return {
        ...base,
        kind: 'probe-note',
        probe: event.probe,
        text: `the ${event.from} sent a message the lab cannot draw as JSON-RPC 2.0 (${problem}) on ${event.channel}: ${JSON.stringify(event.message).slice(0, 500)}`,
      };
    }
    case 'http-response':
      return {
        ...base,
        kind: 'http-response',
        probe: event.probe,
        channel: event.channel,
        requestId: requests.get(event.channel) ?? null,
        status: event.status,
        headers: event.headers,
      };
    case 'sse-comment':
      return {
        ...base,
        kind: 'sse-comment',
        action: 'received',
        requestId: requests.get(event.channel) ?? event.channel,
        channel: event.channel,
        line: event.text,
        arrivesAtMs: event.atMs,
        reason: 'a comment line on the SSE stream (a keep-alive)',
      };
    case 'stream-closed': {
      const id = requests.get(event.channel);
      // The end of a POST that carried no request (a notification's 202) closes no request's stream: the probe's words keep it.
      if (id === undefined)
        return {
          ...base,
          kind: 'probe-note',
          probe: event.probe,
          text: `the ${event.by} ended ${event.channel}, which carried no request: ${event.reason}`,
        };
      return { ...base, kind: 'stream-closed', by: event.by, requestId: id, reason: event.reason };
    }
    case 'deadline':
      return {
        ...base,
        kind: 'deadline',
        requestId: event.requestId,
        deadline: event.deadline,
        action: event.action,
        dueAtMs: event.dueAtMs,
        reason: `the probe's own ${event.deadline === 'idle' ? 'idle' : 'maximum'} deadline`,
      };
    case 'note':
      return { ...base, kind: 'probe-note', probe: event.probe, text: event.text };
  }
}

/** A message's sentence as the probe saw it: sent (the client's) or received (the server's), at one instant. */
function messageText(event: Extract<LabEvent, { kind: 'message' }>): { text: string; label: string } {
  let summary: string;
  let label: string;
  try {
    summary = describeMessage(event.message);
    label = messageLabel(event.message);
  } catch {
    // A real server's message has the JSON-RPC shape (json.ts) but need not carry the fields the lab's own messages do.
    const method = 'method' in event.message ? event.message.method : 'message';
    summary = method;
    label = method;
  }
  const seen = event.from === 'client' ? 'sent' : 'received';
  return { text: `${event.from} → ${event.to}: ${summary} on ${event.channel}, ${seen} at ${event.atMs} ms`, label };
}

/** The wording of a recording's events: the engine's, but a message says when the probe sent or received it (it saw no arrival). */
export function wordRecording(events: readonly LabEvent[], onProgress?: RecordingProgressListener): EventWording[] {
  return events.map((event, i) => {
    if (i % PROGRESS_EVERY_EVENTS === 0) onProgress?.(i, events.length);
    if (event.kind !== 'message') return wordEvent(event);
    const { text, label } = messageText(event);
    return { text, label, marker: null };
  });
}

/**
 * One probe of a recording as a run of its own, for Compare: its events (and its verdicts), with its
 * first event at 0 ms, as a model run starts its call at 0 ms, so both share one time axis.
 */
export function recordedSection(recording: RecordingTranscript, probe: string): RecordingTranscript {
  const section = recording.outcome.probes.find((entry) => entry.probe === probe);
  if (section === undefined)
    throw new LabError(
      'LAB049',
      `the recording has no probe ${JSON.stringify(probe)}; it has ${recording.outcome.probes.map((entry) => entry.probe).join(', ')}`,
    );
  const startMs = recording.events[section.first]?.atMs ?? 0;
  const shift = (ms: number) => Math.round((ms - startMs) * 10) / 10;
  const events = recording.events.slice(section.first, section.last + 1).map((event, seq): LabEvent => {
    const moved = { ...event, seq, atMs: shift(event.atMs), causeSeq: null };
    if (moved.kind === 'message') return { ...moved, arrivesAtMs: shift(moved.arrivesAtMs) };
    if (moved.kind === 'deadline') return { ...moved, dueAtMs: shift(moved.dueAtMs) };
    if (moved.kind === 'sse-comment')
      return { ...moved, arrivesAtMs: moved.arrivesAtMs === null ? null : shift(moved.arrivesAtMs) };
    return moved;
  });
  const verdicts = events.filter((event) => event.kind === 'verdict');
  const count = (result: string) =>
    verdicts.filter((event) => event.kind === 'verdict' && event.result === result).length;
  return {
    ...recording,
    scenario: `probe ${probe}`,
    events,
    outcome: {
      ...recording.outcome,
      probes: [{ probe, first: 0, last: events.length - 1 }],
      holds: count('holds'),
      broken: count('broken'),
      notFollowed: count('not followed'),
      notObservable: count('not observable'),
    },
  };
}
