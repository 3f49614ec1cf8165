import type { SqlModule } from '../engine';
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
