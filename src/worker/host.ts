import { LabError } from '../engine/errors';
import type { Settings } from '../engine/transcript';
import { runScenarioById, scenarios } from '../scenarios/index';
import { explainBadRequest, isLabRequest, salvageRequestId, type ErrorResponse, type LabRequest, type LabResponse, type ScenarioInfo } from './protocol';

/**
 * What the lab worker does with one incoming message, without the worker: every message, valid or
 * not, gets exactly one LabResponse and nothing throws. lab.worker.ts wires it to `self`; unit tests
 * call it directly.
 */

export function scenarioInfo(): ScenarioInfo[] {
  return scenarios.map((scenario) => ({
    id: scenario.id,
    kind: scenario.kind,
    title: scenario.title,
    topic: scenario.topic,
    summary: scenario.summary,
    requirements: [...scenario.requirements],
    defaultTransport: scenario.defaultTransport,
    settings: Object.fromEntries(Object.entries(scenario.settings)) as Settings,
  }));
}

function handle(request: LabRequest): LabResponse {
  switch (request.type) {
    case 'list':
      return { type: 'scenarios', requestId: request.requestId, scenarios: scenarioInfo() };
    case 'run': {
      const transcript = runScenarioById(request.scenario, {
        transport: request.transport,
        seed: request.seed,
        settings: request.settings,
      });
      return { type: 'transcript', requestId: request.requestId, transcript };
    }
  }
}

/** LabError keeps its code; anything else (an engine invariant, a bug) is INTERNAL. */
export function errorResponse(requestId: number | null, error: unknown): ErrorResponse {
  if (error instanceof LabError) return { type: 'error', requestId, code: error.code, message: error.message };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { type: 'error', requestId, code: 'INTERNAL', message: `the lab worker failed: ${message}` };
}

export function malformed(requestId: number | null, problem: string): ErrorResponse {
  return errorResponse(requestId, new LabError('LAB008', `${problem}; the message was dropped`));
}

export function handleMessage(data: unknown): LabResponse {
  if (!isLabRequest(data)) return malformed(salvageRequestId(data), explainBadRequest(data) ?? 'not a lab request');
  try {
    return handle(data);
  } catch (error) {
    return errorResponse(data.requestId, error);
  }
}
