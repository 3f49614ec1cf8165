import { formatTimeline, type HerdOutcome, type RequestOutcome, type Transcript } from '../engine';
import { parseRunSpec, resolveRunSpec } from '../runs/runSpec';
import { runText } from '../cli/runText';
import { findScenario } from '../scenarios/index';
import { runResolved } from '../runs/runs';
import { readRecording, recordedSection, recordingTranscript, type RecordingTranscript } from '../worker/recording';
import type { KnownBug } from './knownBugs';

/**
 * Runs a known-bugs entry on its real package and says whether the run still shows the bug: each
 * check reads the transcripts the real package produced (or, for a server, the probe's recording of
 * it) and names what it found. `shown` false means the package no longer behaves as the entry says:
 * the gallery must say "fixed in" that version instead (knownBugs.test.ts fails then).
 */
export interface BugRun {
  /** `model`, `buggy` (the real package showing the bug) or `fixed` (a release that no longer does). */
  readonly role: 'model' | 'buggy' | 'fixed';
  readonly spec: string;
  readonly transcript: Transcript;
}

export interface BugFinding {
  readonly shown: boolean;
  /** One line per check, each saying what the run did. */
  readonly evidence: readonly string[];
}

export interface KnownBugResult {
  readonly bug: KnownBug;
  readonly runs: readonly BugRun[];
  readonly finding: BugFinding;
  /** bug-reconnect-without-jitter: the SDK's waits before attempts 0…7, as each SDK line computes them. */
  readonly delays?: Readonly<Record<string, readonly number[]>>;
}

export interface KnownBugOptions {
  /** Called with the virtual time as each run goes; may throw to stop it. */
  readonly onStep?: (atMs: number) => void;
  /** Reads a committed fixture (a probe recording), by its path from the project's root. */
  readonly readFixture: (path: string) => Uint8Array;
}

async function runSpec(text: string, onStep?: (atMs: number) => void): Promise<Transcript> {
  return runResolved(resolveRunSpec(parseRunSpec(text), findScenario), { onStep });
}

const race = (t: Transcript): RequestOutcome => {
  if (t.kind !== 'request-race') throw new Error(`${t.scenario} is a ${t.kind} run, not a request race`);
  return t.outcome;
};
const herd = (t: Transcript): HerdOutcome => {
  if (t.kind !== 'herd') throw new Error(`${t.scenario} is a ${t.kind} run, not the herd`);
  return t.outcome;
};
const who = (t: Transcript): string =>
  t.sdk !== undefined ? `${t.sdk.package} ${t.sdk.version}` : (t.implementation ?? "the lab's model");
const setting = (t: Transcript, name: string): number => Number(t.settings[name]);

/** The checks of each entry, on the runs of its real package (`role: 'buggy'`) and the model beside it. */
export function findBug(
  bug: KnownBug,
  runs: readonly BugRun[],
  delays?: Readonly<Record<string, readonly number[]>>,
): BugFinding {
  const buggy = runs.filter((r) => r.role === 'buggy').map((r) => r.transcript);
  const model = runs.find((r) => r.role === 'model')?.transcript;
  const fixed = runs.find((r) => r.role === 'fixed')?.transcript;
  const evidence: string[] = [];
  let shown = buggy.length > 0 || bug.run.kind === 'probe';
  const check = (ok: boolean, line: string) => {
    shown &&= ok;
    evidence.push(`${ok ? 'shows' : 'NOT SHOWN'}  ${line}`);
  };
  switch (bug.id) {
    case 'bug-max-timeout-without-progress':
      for (const t of buggy) {
        const o = race(t);
        const maxMs = setting(t, 'maxTimeoutMs');
        check(
          o.clientOutcome === 'timeout-idle' && o.clientOutcomeAtMs > maxMs,
          `${who(t)}: no progress came; the client ended ${o.clientOutcome} at ${o.clientOutcomeAtMs} ms, past its ${maxMs} ms maximum (maxTotalTimeout)`,
        );
      }
      if (model !== undefined)
        evidence.push(
          `model    the lab's model ends ${race(model).clientOutcome} at ${race(model).clientOutcomeAtMs} ms`,
        );
      break;
    case 'bug-reset-without-onprogress':
      resetWithoutOnprogress(buggy, model, check, evidence);
      break;
    case 'bug-cancel-request-id-0':
      for (const t of buggy) {
        const o = race(t);
        const ignored = t.events.some((e) => e.kind === 'cancel-ignored' && e.requestId === 0);
        check(
          o.requestId === 0 && ignored && o.finalResponse && o.terminalState === 'completed',
          `${who(t)}: the tool call was request ${String(o.requestId)}; its cancellation was ${ignored ? 'ignored while the handler ran' : 'not ignored'}, and the request ended ${o.terminalState}${o.finalResponse ? ' with a response the client discards' : ''}`,
        );
      }
      if (fixed !== undefined) {
        const o = race(fixed);
        evidence.push(
          `fixed    ${who(fixed)}: the tool call was request ${String(o.requestId)}; the request ended ${o.terminalState}, ${o.finalResponse ? 'with' : 'with no'} response`,
        );
      }
      if (model !== undefined)
        evidence.push(`model    the lab's model with request id 0 ends ${race(model).terminalState}`);
      break;
    case 'bug-reconnect-without-jitter':
      reconnectWithoutJitter(buggy, model, delays, check, evidence);
      break;
    case 'bug-work-after-cancel': {
      const recording = runs.find((r) => r.role === 'buggy')?.transcript;
      const verdict = recording?.events.find(
        (e) => e.kind === 'verdict' && e.check === 'work stops after the cancellation',
      );
      check(
        verdict?.kind === 'verdict' && verdict.result === 'not followed',
        `the recording: ${verdict?.kind === 'verdict' ? `${verdict.result}: ${verdict.detail}` : 'no verdict on the work after the cancellation'}`,
      );
      if (model !== undefined) {
        const o = race(model);
        evidence.push(
          `model    the lab's model (${model.scenario}) ends ${o.terminalState}: the worker stops at its next checkpoint and sends nothing more`,
        );
      }
      break;
    }
    default:
      check(false, `no checks are written for ${bug.id}`);
  }
  return { shown, evidence };
}

type Check = (ok: boolean, line: string) => void;

/** bug-reset-without-onprogress: with no onprogress the SDK sends no progress token, so steady work times out. */
function resetWithoutOnprogress(
  buggy: Transcript[],
  model: Transcript | undefined,
  check: Check,
  evidence: string[],
): void {
  for (const t of buggy) {
    const o = race(t);
    const started = t.events.find((e) => e.kind === 'request-started');
    const token = started?.kind === 'request-started' ? started.progressToken : 'unknown';
    const progress = t.events.filter(
      (e) => e.kind === 'message' && 'method' in e.message && e.message.method === 'notifications/progress',
    ).length;
    check(
      token === null &&
        progress === 0 &&
        o.clientOutcome === 'timeout-idle' &&
        o.clientOutcomeAtMs < setting(t, 'workMs'),
      `${who(t)}: callTool had resetTimeoutOnProgress: true and no onprogress; the request carried progress token ${String(token)}, ${progress} progress arrived, and the client ended ${o.clientOutcome} at ${o.clientOutcomeAtMs} ms of ${setting(t, 'workMs')} ms of steady work`,
    );
  }
  if (model !== undefined)
    evidence.push(
      `model    with a progress token, progress keeps the lab's model alive until it ends ${race(model).clientOutcome} at ${race(model).clientOutcomeAtMs} ms`,
    );
}

/** bug-reconnect-without-jitter: the SDK's waits are the formula with no random term, and every client retries at once. */
function reconnectWithoutJitter(
  buggy: Transcript[],
  model: Transcript | undefined,
  delays: Readonly<Record<string, readonly number[]>> | undefined,
  check: Check,
  evidence: string[],
): void {
  for (const [line, waits] of Object.entries(delays ?? {})) {
    const formula = waits.map((_, n) => Math.min(1000 * 1.5 ** n, 30_000));
    check(
      JSON.stringify(waits) === JSON.stringify(formula),
      `${line}: waits ${waits.join(', ')} ms before attempts 0…${waits.length - 1}, exactly min(1000 × 1.5ⁿ, 30000) on every call: no random term`,
    );
  }
  for (const t of buggy) {
    const o = herd(t);
    check(
      o.peakAttemptsPerWindow === o.clients,
      `${who(t)}: all ${o.clients} clients retry in one ${o.windowMs} ms window (peak ${o.peakAttemptsPerWindow}); ${o.totalAttempts} attempts, the last admitted at ${o.allReconnectedAtMs} ms`,
    );
  }
  if (model !== undefined) {
    const o = herd(model);
    evidence.push(
      `model    full jitter over the same ceiling: peak ${o.peakAttemptsPerWindow} per window, ${o.totalAttempts} attempts, the last admitted at ${o.allReconnectedAtMs} ms`,
    );
  }
}

/** The probe recording of an entry, cut to the probe it shows, as the page and Compare draw it. */
export function bugRecording(bytes: Uint8Array, probe: string): RecordingTranscript {
  return recordedSection(recordingTranscript(readRecording(bytes)), probe);
}

/** Runs an entry: its model, its real package (and, where there is one, the release that fixed it). */
export async function runKnownBug(bug: KnownBug, options: KnownBugOptions): Promise<KnownBugResult> {
  const runs: BugRun[] = [];
  const spec = bug.run;
  switch (spec.kind) {
    case 'sdk-race':
      runs.push({ role: 'model', spec: spec.model, transcript: await runSpec(spec.model, options.onStep) });
      for (const text of spec.buggy)
        runs.push({ role: 'buggy', spec: text, transcript: await runSpec(text, options.onStep) });
      if (spec.fixed !== undefined)
        runs.push({ role: 'fixed', spec: spec.fixed, transcript: await runSpec(spec.fixed, options.onStep) });
      return { bug, runs, finding: findBug(bug, runs) };
    case 'herd': {
      const { sdkReconnectionDelay } = await import('../sdk/sdkBackoff');
      const delays: Record<string, number[]> = {};
      for (const impl of ['ts-sdk', 'ts-sdk-v2'] as const) {
        // Two transports of each line: a wait with a random term would differ between them.
        const [one, two] = [sdkReconnectionDelay(impl), sdkReconnectionDelay(impl)];
        const waits = Array.from({ length: 8 }, (_, n) => one(n));
        const again = Array.from({ length: 8 }, (_, n) => two(n));
        delays[impl] = JSON.stringify(waits) === JSON.stringify(again) ? waits : [...waits, Number.NaN];
      }
      const settings = Object.entries(spec.settings)
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(',');
      const model = `herd:${settings}`;
      runs.push({ role: 'model', spec: model, transcript: await runSpec(model, options.onStep) });
      for (const text of ['herd:impl=ts-sdk', 'herd:impl=ts-sdk-v2'])
        runs.push({ role: 'buggy', spec: text, transcript: await runSpec(text, options.onStep) });
      return { bug, runs, finding: findBug(bug, runs, delays), delays };
    }
    case 'probe': {
      runs.push({ role: 'model', spec: spec.model, transcript: await runSpec(spec.model, options.onStep) });
      runs.push({
        role: 'buggy',
        spec: `recorded ${spec.probe} (${spec.fixture})`,
        transcript: bugRecording(options.readFixture(spec.fixture), spec.probe),
      });
      return { bug, runs, finding: findBug(bug, runs) };
    }
  }
}

/** What `lab run <bug id>` prints: the package, the upstream reference, the spec, the workaround, what the run showed and the timeline. */
export function formatKnownBug(result: KnownBugResult): string {
  const { bug, runs, finding } = result;
  const lines: string[] = [];
  lines.push(`known bug ${bug.id}: ${bug.title}`);
  lines.push(`package     ${bug.packages.map((p) => `${p.name} ${p.version}`).join(', ')} (installed, unpatched)`);
  for (const ref of bug.upstream) lines.push(`upstream    ${ref.ref} ${ref.url}: ${ref.what}`);
  if (bug.upstream.length === 0) lines.push('upstream    none found on record');
  for (const s of bug.spec)
    lines.push(
      `spec        ${s.revision} ${s.page}${s.level === 'none' ? '' : `, ${s.level}`}: ${s.text.replaceAll('**', '')}`,
    );
  for (const c of bug.source) lines.push(`source      node_modules/${c.file}:${c.lines}: ${c.says}`);
  lines.push(`workaround  ${bug.workaround}`);
  lines.push('');
  lines.push(bug.summary);
  lines.push('');
  lines.push(
    finding.shown
      ? 'the installed package still shows the bug:'
      : 'the installed package no longer shows the bug (fixed? update the gallery):',
  );
  for (const line of finding.evidence) lines.push(`  ${line}`);
  if (result.delays !== undefined)
    for (const [line, waits] of Object.entries(result.delays))
      lines.push(`  ${line} reconnection delays (ms): ${waits.join(', ')}`);
  lines.push('');
  lines.push(
    `compare     npm run lab -- compare ${[bug.compare.a, bug.compare.b, bug.compare.c].filter((r): r is string => r !== undefined && !r.startsWith('recorded ')).join(' ')}`,
  );
  for (const run of runs) {
    lines.push('');
    lines.push(
      `── ${run.role === 'model' ? "the lab's model" : run.role === 'buggy' ? 'the real package' : 'the fixed release'}: ${run.spec} ──`,
    );
    lines.push(timelineOf(run.transcript));
  }
  return lines.join('\n');
}

/** The timeline of one run; the herd's windows shortened to those that saw attempts, the first 40. */
function timelineOf(t: Transcript): string {
  if (t.kind === 'recording') return formatTimeline(t);
  if (t.kind !== 'herd') return runText(findScenario(t.scenario), t);
  const o = t.outcome;
  const busy = o.attemptsPerWindow.flatMap((attempts, window) =>
    attempts > 0 ? [`${window * o.windowMs} ms: ${attempts}`] : [],
  );
  return [
    `herd of ${o.clients} clients on ${t.transport}, ${who(t)}; settings ${Object.entries(t.settings)
      .map(([k, v]) => `${k}=${v === null ? 'none' : String(v)}`)
      .join(' ')}`,
    `attempts per ${o.windowMs} ms window (windows with any): ${busy.slice(0, 40).join(', ')}${busy.length > 40 ? `, … (${busy.length - 40} more)` : ''}`,
    `total ${o.totalAttempts} attempts; peak ${o.peakAttemptsPerWindow} in one window; first window ${o.firstWindowAttempts}; highest retry wave ${o.peakRetryAttemptsPerWindow}; the last client admitted at ${o.allReconnectedAtMs} ms`,
  ].join('\n');
}
