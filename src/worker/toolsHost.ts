import {
  compareManyWithFirst,
  compareRuns as compareTranscripts,
  LabError,
  usesSqlite,
  wordEvents,
  type ComparePair,
  type SqlModule,
  type Transcript,
} from '../engine';
import { parseRunSpec, resolveRunSpec } from '../runs/runSpec';
import { runResolved } from '../runs/runs';
import { findScenario } from '../scenarios/index';
import type { Runner } from '../lesson/verification';
import { runScenarioById } from '../scenarios/index';
import { evidenceZip, failureModesLab, reviewLab, runPanel, skillZip, verifyLab } from './tools';
import {
  explainBadToolRequest,
  salvageRequestId,
  type ToolRequest,
  type ToolResponse,
  type VerifyProgressResponse,
} from './protocol';
import { errorResponse, malformed, type WorkerHost } from './serve';
import { recordedSection, wordRecording } from './recording';

/**
 * Answers the tool requests in the worker. Every run here uses a fresh ledger (never the one the
 * student keeps), so the checklist and the evidence depend on the lab alone.
 */
/** How often the checklist and the evidence export report progress, at most (wall-clock time in the worker), as the engine worker's runs do. */
export const VERIFY_PROGRESS_EVERY_MS = 100;

type ProgressReport = { runsDone: number; runsTotal: number; statement: string };

/**
 * The paced `verify-progress` reports of one request (the checklist or the evidence export): the first
 * report, every new statement (or artifact) and the last run always go; runs in between at most every
 * VERIFY_PROGRESS_EVERY_MS. Without `notify`, nothing hears them.
 */
function pacedProgress(
  requestId: number,
  notify: ((report: VerifyProgressResponse) => void) | undefined,
  now: () => number,
): ((progress: ProgressReport) => void) | undefined {
  if (notify === undefined) return undefined;
  let reportedAt = Number.NEGATIVE_INFINITY;
  let statement: string | null = null;
  return (progress) => {
    const time = now();
    if (
      progress.statement === statement &&
      progress.runsDone < progress.runsTotal &&
      time - reportedAt < VERIFY_PROGRESS_EVERY_MS
    )
      return;
    reportedAt = time;
    statement = progress.statement;
    notify({ type: 'verify-progress', requestId, ...progress });
  };
}

export async function answerToolRequest(
  request: ToolRequest,
  sqlModule: () => Promise<SqlModule>,
  notify?: (report: VerifyProgressResponse) => void,
  now: () => number = () => performance.now(),
): Promise<ToolResponse> {
  const { requestId } = request;
  if (request.type === 'review') return { type: 'review-result', requestId, result: reviewLab(request.input) };
  if (request.type === 'skill') return { type: 'skill-zip', requestId, ...skillZip() };
  if (request.type === 'compare') return compareRuns(request.requestId, request.runs, sqlModule, request.recorded);
  if (request.type === 'exercises' || request.type === 'exercise-check' || request.type === 'exercise-run')
    return answerExercise(request, sqlModule, notify);
  const sql = await sqlModule();
  const run: Runner = (id, options = {}) => runScenarioById(id, { ...options, ledger: options.ledger ?? { sql } });
  switch (request.type) {
    case 'verify':
      return {
        type: 'verification',
        requestId,
        results: verifyLab(run, pacedProgress(requestId, notify, now)),
        failureModes: failureModesLab(run),
      };
    case 'evidence':
      // The export's progress goes as the checklist's does (`verify-progress`): its statement names the artifact or the statement being built.
      return { type: 'evidence-zip', requestId, ...evidenceZip(run, sql, pacedProgress(requestId, notify, now)) };
    case 'panel': {
      const { scenario, transport, seed, settings } = request;
      return { type: 'panel-view', requestId, view: runPanel(run, scenario, { transport, seed, settings }) };
    }
  }
}

/** The tools worker's host: every message answered once, a malformed one with LAB008, a failure with its code. */
export function createToolsHost(sqlModule: () => Promise<SqlModule>): WorkerHost<ToolResponse> {
  return {
    async handleMessage(data, notify) {
      const problem = explainBadToolRequest(data);
      if (problem !== null) return malformed(salvageRequestId(data), problem);
      const request = data as ToolRequest;
      try {
        return await answerToolRequest(request, sqlModule, notify);
      } catch (error) {
        return errorResponse(request.requestId, error);
      }
    },
  };
}

type ExerciseRequest = Extract<ToolRequest, { type: 'exercises' | 'exercise-check' | 'exercise-run' }>;

/**
 * The Exercises tab's requests: their code (the grader, the explorer over the student's component,
 * QuickJS) loads the first time one is asked, so the other tools never carry it. A Check reports its
 * progress as the checklist does (`verify-progress`: runs explored of the exercise's runs).
 */
async function answerExercise(
  request: ExerciseRequest,
  sqlModule: () => Promise<SqlModule>,
  notify?: (report: VerifyProgressResponse) => void,
): Promise<ToolResponse> {
  const { listExercises, checkExercise, runExercise } = await import('./exerciseTools');
  const { requestId } = request;
  switch (request.type) {
    case 'exercises':
      return { type: 'exercise-list', requestId, exercises: listExercises() };
    case 'exercise-check': {
      const progress = (runsDone: number, runsTotal: number) =>
        notify?.({ type: 'verify-progress', requestId, runsDone, runsTotal, statement: request.exercise });
      progress(0, 1);
      return {
        type: 'exercise-report',
        requestId,
        report: await checkExercise(request.exercise, request.code, sqlModule, progress),
      };
    }
    case 'exercise-run':
      return {
        type: 'exercise-transcript',
        requestId,
        ...(await runExercise(request.exercise, request.code, request.run, sqlModule)),
      };
  }
}

type Recorded = Extract<ToolRequest, { type: 'compare' }>['recorded'];

/** How long the page's compare may compute (both runs and the comparison) before LAB016; Stop ends it sooner. */
export const COMPARE_BUDGET_MS = 60_000;

/**
 * Two runs side by side, each named by a run spec (the model or the real SDK, any transport, seed and
 * settings). Both are parsed and resolved before either runs (LAB024 names a malformed one, the other
 * codes a value the scenario refuses); sql.js is loaded only when a run needs SQLite; each runs on a
 * fresh ledger.
 */
async function compareRuns(
  requestId: number,
  texts: readonly [string, string] | readonly [string, string, string],
  sqlModule: () => Promise<SqlModule>,
  recorded?: Recorded,
): Promise<ToolResponse> {
  // A recorded run is no spec: it stands where its text is, cut to its one probe; every other text is a run spec.
  const recording =
    recorded === undefined || recorded.transcript.kind !== 'recording'
      ? null
      : {
          spec: recorded.spec,
          transcript: recordedSection(recorded.transcript as Transcript<'recording'>, recorded.probe),
        };
  const runs = texts.map((text) =>
    text === recording?.spec ? null : resolveRunSpec(parseRunSpec(text), findScenario),
  );
  const sql = runs.some((run) => run !== null && usesSqlite(run.scenario)) ? await sqlModule() : null;
  const startedAt = performance.now();
  const check = (what: string) => {
    if (performance.now() - startedAt > COMPARE_BUDGET_MS)
      throw new LabError(
        'LAB016',
        `the comparison used its wall-clock budget of ${COMPARE_BUDGET_MS / 1000} s ${what} and was stopped; the runs on screen are kept. Shorten the runs (workMs, eventsMax)`,
      );
  };
  const transcripts: Transcript[] = [];
  for (const run of runs) {
    if (run === null) {
      transcripts.push((recording as NonNullable<typeof recording>).transcript);
      continue;
    }
    let steps = 0;
    const onStep = (atMs: number) => {
      steps += 1;
      if ((steps & 1023) === 0) check(`after ${steps} events of a run (virtual time ${atMs} ms)`);
    };
    transcripts.push(await runResolved(run, { ledger: sql === null ? undefined : { sql }, onStep }));
  }
  const tick = (events: number) => check(`while comparing (${events} events compared)`);
  return comparisonOf(requestId, texts, transcripts, tick);
}

/**
 * The comparison's answer once the runs ran: A against B and, with a third run, every pair's parting
 * beside it. Each pair is compared once: three runs take three comparisons, A–B's serving as both the
 * comparison and the first of the pairs. `comparePair` is compareRuns (a test passes one that counts).
 */
export function comparisonOf(
  requestId: number,
  texts: readonly [string, string] | readonly [string, string, string],
  transcripts: readonly Transcript[],
  tick: (events: number) => void,
  comparePair: ComparePair = compareTranscripts,
): Extract<ToolResponse, { type: 'comparison' }> {
  const [a, b, c] = transcripts as [Transcript, Transcript, Transcript | undefined];
  const compared = (spec: string, transcript: Transcript) => ({
    spec,
    transcript,
    wording: transcript.kind === 'recording' ? wordRecording(transcript.events) : wordEvents(transcript.events),
  });
  const pair = [compared(texts[0], a), compared(texts[1], b)] as const;
  // A third run (the model, SDK 1.x and v2 side by side): A against B as ever, and every pair's parting beside it.
  if (c !== undefined && texts[2] !== undefined) {
    const { first, many } = compareManyWithFirst(transcripts, { tick, comparePair });
    return { type: 'comparison', requestId, runs: [...pair, compared(texts[2], c)], comparison: first, many };
  }
  return { type: 'comparison', requestId, runs: [...pair], comparison: comparePair(a, b, { tick }) };
}
