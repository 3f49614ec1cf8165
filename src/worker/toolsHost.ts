import { compareRuns as compareTranscripts, usesSqlite, wordEvents, type SqlModule, type Transcript } from '../engine';
import { parseRunSpec, resolveRunSpec } from '../lab/runSpec';
import { runResolved } from '../sdk/runs';
import { findScenario } from '../scenarios/index';
import type { Runner } from '../lab/verification';
import { runScenarioById } from '../scenarios/index';
import { evidenceZip, failureModesLab, reviewLab, runPanel, skillZip, verifyLab } from './labTools';
import type { ToolRequest, ToolResponse } from './protocol';

/**
 * Answers the tool requests in the worker. Every run here uses a fresh ledger (never the one the
 * student keeps), so the checklist and the evidence depend on the lab alone.
 */
export async function answerToolRequest(request: ToolRequest, sqlModule: () => Promise<SqlModule>): Promise<ToolResponse> {
  const { requestId } = request;
  if (request.type === 'review') return { type: 'review-result', requestId, result: reviewLab(request.input) };
  if (request.type === 'skill') return { type: 'skill-zip', requestId, ...skillZip() };
  if (request.type === 'compare') return compareRuns(request.requestId, request.runs, sqlModule);
  const sql = await sqlModule();
  const run: Runner = (id, options = {}) => runScenarioById(id, { ...options, ledger: options.ledger ?? { sql } });
  switch (request.type) {
    case 'verify':
      return { type: 'verification', requestId, results: verifyLab(run), failureModes: failureModesLab(run) };
    case 'evidence':
      return { type: 'evidence-zip', requestId, ...evidenceZip(run, sql) };
    case 'panel':
      return { type: 'panel-view', requestId, view: runPanel(run, request) };
  }
}

/**
 * Two runs side by side, each named by a run spec (the model or the real SDK, any transport, seed and
 * settings). Both are parsed and resolved before either runs (LAB024 names a malformed one, the other
 * codes a value the scenario refuses); sql.js is loaded only when a run needs SQLite; each runs on a
 * fresh ledger.
 */
async function compareRuns(requestId: number, texts: readonly [string, string], sqlModule: () => Promise<SqlModule>): Promise<ToolResponse> {
  const runs = texts.map((text) => resolveRunSpec(parseRunSpec(text), findScenario));
  const sql = runs.some((run) => usesSqlite(run.scenario)) ? await sqlModule() : null;
  const transcripts: Transcript[] = [];
  for (const run of runs) transcripts.push(await runResolved(run, { ledger: sql === null ? undefined : { sql } }));
  const [a, b] = transcripts as [Transcript, Transcript];
  return {
    type: 'comparison',
    requestId,
    runs: [
      { spec: texts[0], transcript: a, wording: wordEvents(a.events) },
      { spec: texts[1], transcript: b, wording: wordEvents(b.events) },
    ],
    comparison: compareTranscripts(a, b),
  };
}
