import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { layoutDiagram } from '../diagram/geometry/layout';
import { runProbe, type ProbeTranscript } from '../probe/run';
import { SERVER_EVERYTHING, LOOPBACK_ONLY } from '../probe/testing/servers';
import { bigRecordingBytes } from '../testing/bigRecording';
import { RECORDING_EVENTS_MAX } from '../engine/core/recordingLimits';
import { createLabHost } from './host';
import { memoryLedgerStorage } from './ledgerStorage';
import { readRecording, recordedSection, recordingLabel, recordingTranscript, wordRecording } from './recording';
import { check, RECORDING_BYTES_MAX, TranscriptSchema } from './schemas';
import { isLabResponse, type LabResponse } from './protocol';

/**
 * A `lab probe --json` transcript opened in the page: the committed fixtures (recorded from
 * server-everything with the CLI) are checked by the worker's schemas, drawn with the lab's events
 * and geometry, and still have the shape the probe writes today (a fresh probe of server-everything
 * is compared with them, key by key), so they cannot rot.
 */

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url))));
const STDIO = 'probe-everything-stdio.json';
const HTTP = 'probe-everything-http.json';

const host = () => createLabHost({ sql: loadSqlJs(), storage: memoryLedgerStorage() });

describe('opening a probe transcript', () => {
  it('the stdio fixture opens as a recording: its messages as the lab draws them, its verdicts after their probe, labelled with the server and the time', () => {
    const probe = readRecording(fixture(STDIO));
    const t = recordingTranscript(probe);
    expect(check(TranscriptSchema, t).ok).toBe(true);
    expect(t.kind).toBe('recording');
    expect(t.implementation).toBe('probe');
    expect(t.title).toBe(recordingLabel(probe.server, probe.startedAt));
    expect(t.title).toMatch(
      /^recorded from mcp-servers\/everything 2\.0\.0 at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/,
    );
    // Every message as sent and received, exactly.
    const messages = t.events.filter((e) => e.kind === 'message');
    expect(messages.map((e) => e.kind === 'message' && e.message)).toEqual(
      probe.events.filter((e) => e.kind === 'message').map((e) => e.kind === 'message' && e.message),
    );
    // Every verdict, each right after the last event of its probe, in time order, as its finding (the level read in).
    const verdicts = t.events.filter((e) => e.kind === 'verdict');
    expect(verdicts.map((e) => e.kind === 'verdict' && `${e.probe}: ${e.check} = ${e.result}`)).toEqual(
      probe.verdicts.map((v) => `${v.probe}: ${v.check} = ${v.finding}`),
    );
    for (const section of t.outcome.probes) {
      const last = t.events[section.last];
      if (probe.verdicts.some((v) => v.probe === section.probe)) expect(last?.kind).toBe('verdict');
    }
    t.events.forEach((event, i) => {
      expect(event.seq).toBe(i);
      if (i > 0) expect(event.atMs).toBeGreaterThanOrEqual(t.events[i - 1]?.atMs ?? 0);
    });
    // server-everything keeps working after a cancellation: a SHOULD not followed, no MUST broken.
    expect(t.outcome.broken).toBe(0);
    expect(t.outcome.notFollowed).toBe(1);
    const wording = wordRecording(t.events);
    const layout = layoutDiagram(t, wording);
    expect(layout.lanes.map((lane) => lane.id)).toEqual(['client', 'server']);
    expect(layout.wires.filter((wire) => wire.kind === 'message')).toHaveLength(messages.length);
    expect(
      layout.markers.some(
        (marker) => marker.text === 'not followed: work stops after the cancellation' && marker.tone === 'warn',
      ),
    ).toBe(true);
    // The probe sees one end of each message: the server's progress reads as received, not as arriving.
    const progress = t.events.findIndex((e) => e.kind === 'message' && e.from === 'server');
    expect(wording[progress]?.text).toMatch(/^server → client: .* on stdio, received at [\d.]+ ms$/);
  });

  it('the HTTP fixture names each response, close and comment by the request its POST carried', () => {
    const t = recordingTranscript(readRecording(fixture(HTTP)));
    expect(check(TranscriptSchema, t).ok).toBe(true);
    const responses = t.events.filter((e) => e.kind === 'http-response');
    expect(responses.length).toBeGreaterThan(0);
    expect(responses.some((e) => e.kind === 'http-response' && e.status === 202 && e.requestId === null)).toBe(true);
    const closes = t.events.filter((e) => e.kind === 'stream-closed');
    expect(closes.every((e) => e.kind === 'stream-closed' && typeof e.requestId === 'number')).toBe(true);
    expect(layoutDiagram(t, wordRecording(t.events), 'linear').wires.length).toBeGreaterThan(0);
  });

  it('a recording made before the probe wrote findings still opens: a broken MUST reads broken, a SHOULD not followed', () => {
    const older = JSON.parse(new TextDecoder().decode(fixture(STDIO))) as ProbeTranscript;
    const stops = older.verdicts.find((v) => v.check === 'work stops after the cancellation');
    if (stops === undefined) throw new Error('the fixture has no "work stops" verdict');
    const unfound = (level: 'MUST' | 'SHOULD') => {
      const verdicts = older.verdicts.map(({ finding: _finding, ...v }) =>
        v === stops ? v : v.check === stops.check ? { ...v, result: 'broken', sentence: { ...v.sentence, level } } : v,
      );
      const { tasksOffered: _offered, tasks: _tasks, ...rest } = older;
      return recordingTranscript(readRecording(new TextEncoder().encode(JSON.stringify({ ...rest, verdicts }))))
        .outcome;
    };
    expect(unfound('MUST')).toMatchObject({ broken: 1, notFollowed: 0 });
    expect(unfound('SHOULD')).toMatchObject({ broken: 0, notFollowed: 1 });
  });

  it('refuses a malformed file with LAB049 naming the failed check, and an oversized one by its size', () => {
    expect(() => readRecording(fixture('probe-malformed.json'))).toThrow(/LAB049 .*events\.12\.atMs/);
    expect(() => readRecording(new TextEncoder().encode('{"scenario":"probe"'))).toThrow(/LAB049 .*not JSON/);
    expect(() => readRecording(new Uint8Array([0xff, 0xfe, 0x00]))).toThrow(/LAB049 .*not UTF-8/);
    expect(() => readRecording(new Uint8Array(RECORDING_BYTES_MAX + 1))).toThrow(
      /LAB049 .*more than a probe transcript's/,
    );
    const outOfOrder = JSON.parse(new TextDecoder().decode(fixture(STDIO))) as ProbeTranscript;
    [outOfOrder.events[3], outOfOrder.events[4]] = [outOfOrder.events[4] as never, outOfOrder.events[3] as never];
    expect(() => readRecording(new TextEncoder().encode(JSON.stringify(outOfOrder)))).toThrow(
      /LAB049 .*events\.3\.seq/,
    );
  });

  it('the lab worker answers a recording like a run, and a malformed one with LAB049, not a run', async () => {
    const lab = host();
    const answer = (await lab.handleMessage({ type: 'recording', requestId: 7, bytes: fixture(STDIO) })) as LabResponse;
    expect(isLabResponse(answer)).toBe(true);
    expect(answer.type).toBe('transcript');
    if (answer.type !== 'transcript') return;
    expect(answer.transcript.kind).toBe('recording');
    expect(answer.layout.wires.length).toBeGreaterThan(0);
    // Linear time lays the kept recording out again, as for a run.
    const relaid = (await lab.handleMessage({ type: 'layout', requestId: 8, run: 7, scale: 'linear' })) as LabResponse;
    expect(relaid.type).toBe('layout');
    const refused = (await lab.handleMessage({
      type: 'recording',
      requestId: 9,
      bytes: fixture('probe-malformed.json'),
    })) as LabResponse;
    expect(refused).toMatchObject({ type: 'error', requestId: 9, code: 'LAB049' });
  });

  it('a transcript of more events than a recording may hold is refused with LAB049 saying how many, before any of them is checked', async () => {
    const over = bigRecordingBytes(RECORDING_EVENTS_MAX + 1);
    expect(() => readRecording(over)).toThrow(
      `LAB049 not a probe transcript: the file holds ${(RECORDING_EVENTS_MAX + 1).toLocaleString('en')} events, more than a recording's ${RECORDING_EVENTS_MAX.toLocaleString('en')}`,
    );
    const refused = (await host().handleMessage({ type: 'recording', requestId: 3, bytes: over })) as LabResponse;
    expect(refused).toMatchObject({ type: 'error', requestId: 3, code: 'LAB049' });
    // At the bound it opens.
    expect(readRecording(bigRecordingBytes(RECORDING_EVENTS_MAX)).events).toHaveLength(RECORDING_EVENTS_MAX);
  });

  it('the worker reports its progress while it opens a big recording: each stage, how many events of how many, then the answer', async () => {
    let clock = 0;
    // Each look at the clock moves it on: every paced report is due.
    const lab = createLabHost({ sql: loadSqlJs(), storage: memoryLedgerStorage(), now: () => (clock += 1_000) });
    const events = 20_000;
    const reports: LabResponse[] = [];
    const answer = (await lab.handleMessage(
      { type: 'recording', requestId: 4, bytes: bigRecordingBytes(events) },
      (report) => reports.push(report as LabResponse),
    )) as LabResponse;
    expect(answer.type).toBe('transcript');
    for (const report of reports) expect(isLabResponse(report), JSON.stringify(report)).toBe(true);
    const progress = reports.flatMap((r) => (r.type === 'recording-progress' ? [r] : []));
    expect(progress.length).toBe(reports.length);
    expect([...new Set(progress.map((r) => r.stage))]).toEqual(['checking', 'converting', 'wording', 'laying out']);
    expect(progress.every((r) => r.requestId === 4 && r.done <= r.total)).toBe(true);
    const checking = progress.filter((r) => r.stage === 'checking');
    expect(checking.at(0)?.total).toBe(events);
    expect(checking.length).toBeGreaterThan(5);
    // Within a stage, done only grows.
    expect(checking.map((r) => r.done)).toEqual([...checking.map((r) => r.done)].sort((a, b) => a - b));
  });

  it('one probe cut out for Compare starts at 0 ms and keeps its verdicts', () => {
    const t = recordingTranscript(readRecording(fixture(STDIO)));
    const cut = recordedSection(t, 'cancel-during-work');
    expect(cut.events[0]?.atMs).toBe(0);
    expect(cut.events[0]?.kind === 'message' && cut.events[0].message).toMatchObject({ method: 'tools/call' });
    expect(cut.events.filter((e) => e.kind === 'verdict')).toHaveLength(2);
    expect(check(TranscriptSchema, cut).ok).toBe(true);
  });
});

/** Every object's keys, path by path (arrays by their items' kinds), so two transcripts of one shape give the same set. */
function shape(value: unknown, path = '$', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value)
      shape(
        item,
        `${path}[${typeof item === 'object' && item !== null && 'kind' in item ? String((item as { kind: unknown }).kind) : ''}]`,
        into,
      );
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      into.add(`${path}.${key}`);
      // Messages, headers, capabilities and listed tools are the server's own: their keys are not the probe's shape.
      if (!['message', 'headers', 'capabilities', 'listed', 'arguments', 'times', 'bounds'].includes(key))
        shape(child, `${path}.${key}`, into);
    }
  }
  return into;
}

describe('the committed fixture still matches what the probe writes today', () => {
  it('a fresh probe of server-everything over stdio has the fixture’s fields, event kinds and checks', async () => {
    const fresh = await runProbe({
      transport: 'stdio',
      target: [process.execPath, '--import', LOOPBACK_ONLY, SERVER_EVERYTHING, 'stdio']
        .map((word) => JSON.stringify(word))
        .join(' '),
      tool: 'trigger-long-running-operation',
      arguments: { duration: 2, steps: 4 },
      times: { cancelAfterMs: 700, observeMs: 1_200, idleTimeoutMs: 1_500, maxTimeoutMs: 10_000 },
      bounds: { budgetMs: 40_000 },
    });
    // What the probe writes today passes the page's check…
    const written = new TextEncoder().encode(JSON.stringify(fresh, null, 2));
    expect(() => readRecording(written)).not.toThrow();
    // …and the fixture has exactly its shape: the same fields at every level, the same event kinds, the same checks.
    const committed = JSON.parse(new TextDecoder().decode(fixture(STDIO))) as ProbeTranscript;
    expect([...shape(committed)].sort()).toEqual([...shape(JSON.parse(new TextDecoder().decode(written)))].sort());
    const checks = (t: ProbeTranscript) =>
      t.verdicts.map((v) => `${v.probe}: ${v.check} (${v.sentence.revision} ${v.sentence.level})`);
    expect(checks(committed)).toEqual(checks(fresh));
  }, 60_000);
});
