/**
 * The big-recording benchmark: a script, not a test. It builds `lab probe --json` transcripts of many
 * events (a real recording, e2e/fixtures/probe-everything-stdio.json, with short notes added before it
 * until the file holds N events) and opens each through the engine worker's own code
 * (createLabHost's `recording` request: read and check, convert, word, lay out), then clones the answer
 * as postMessage would. Each size runs in a process of its own, so its peak memory (maxRSS) is its own.
 * It prints, per size: the file's bytes, the worker's time and the clone's, the progress reports it sent, and
 * the peak resident memory. A file over RECORDING_EVENTS_MAX is refused (LAB049): its line says how fast.
 *
 *   npx tsx bench/recording.bench.ts            (the default sizes: the bound, and 400,000 events)
 *   npx tsx bench/recording.bench.ts 100000     (one size)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { budgetMark, budgetSummary } from './budget';
import { bigRecordingBytes } from '../src/testing/bigRecording';
import { RECORDING_BYTES_MAX, RECORDING_EVENTS_MAX } from '../src/engine/core/recordingLimits';

/** Opening a recording of the bound's size should take at most this long in the worker. */
const OPEN_BUDGET_MS = 2_000;

async function child(events: number): Promise<void> {
  const { createLabHost } = await import('../src/worker/host');
  const { memoryLedgerStorage } = await import('../src/worker/ledgerStorage');
  const bytes = bigRecordingBytes(events);
  const host = createLabHost({
    sql: () => Promise.reject(new Error('a recording needs no SQLite')),
    storage: memoryLedgerStorage(),
  });
  const before = process.memoryUsage().rss;
  const progress: string[] = [];
  const started = performance.now();
  const answer = await host.handleMessage({ type: 'recording', requestId: 1, bytes }, (report) => {
    if (report.type === 'recording-progress') progress.push(report.stage);
  });
  const handledMs = performance.now() - started;
  const cloneStarted = performance.now();
  if (answer.type === 'transcript') structuredClone(answer);
  const cloneMs = performance.now() - cloneStarted;
  const peak = process.resourceUsage().maxRSS * 1024;
  const outcome =
    answer.type === 'transcript'
      ? `opened, ${answer.transcript.events.length.toLocaleString('en')} lab events`
      : answer.type === 'error'
        ? `refused: ${answer.code} ${answer.message.slice(0, 110)}`
        : answer.type;
  console.log(
    JSON.stringify({
      events,
      bytes: bytes.length,
      handledMs: Math.round(handledMs),
      cloneMs: Math.round(cloneMs),
      progressReports: progress.length,
      stages: [...new Set(progress)].join(', '),
      peakRssMB: Math.round(peak / 1e6),
      startRssMB: Math.round(before / 1e6),
      outcome,
    }),
  );
}

async function main(): Promise<void> {
  const arg = process.argv[2];
  if (arg === '--child') return child(Number(process.argv[3]));
  const sizes = arg === undefined ? [RECORDING_EVENTS_MAX, 400_000] : [Number(arg)];
  console.log(
    `recording bench: a probe transcript opened through the lab worker's code (createLabHost, request "recording"); bounds ${RECORDING_BYTES_MAX.toLocaleString('en')} bytes, ${RECORDING_EVENTS_MAX.toLocaleString('en')} events`,
  );
  for (const events of sizes) {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(events)],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0 || !line.startsWith('{')) {
      console.log(`${events.toLocaleString('en')} events: the child failed (${run.status}): ${run.stderr.slice(-400)}`);
      continue;
    }
    const r = JSON.parse(line) as {
      events: number;
      bytes: number;
      handledMs: number;
      cloneMs: number;
      progressReports: number;
      stages: string;
      peakRssMB: number;
      startRssMB: number;
      outcome: string;
    };
    const within = events > RECORDING_EVENTS_MAX || r.handledMs + r.cloneMs <= OPEN_BUDGET_MS;
    console.log(
      `${r.events.toLocaleString('en').padStart(9)} events, ${(r.bytes / 1e6).toFixed(1)} MB: worker ${r.handledMs} ms + clone ${r.cloneMs} ms, peak RSS ${r.peakRssMB} MB (${r.startRssMB} MB before), ${r.progressReports} progress reports (${r.stages === '' ? 'none' : r.stages}) — ${r.outcome}${budgetMark(`${events} events in ${r.handledMs + r.cloneMs} ms (budget ${OPEN_BUDGET_MS} ms)`, within)}`,
    );
  }
  console.log(budgetSummary('recording bench'));
}

void main();
