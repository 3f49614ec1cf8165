import type { LabErrorCode } from '../engine/errors';
import type { ScenarioKind } from '../engine/scenario';
import type { Settings, Transcript, Transport } from '../engine/transcript';

/**
 * The typed protocol between the page and the lab worker: one discriminated union per direction,
 * checked at the boundary by hand-written guards (structured clone carries any shape, the types do
 * not survive it). To grow it (stepping, ledger), add a member to the union and a case to its guard.
 */

export type { LabErrorCode } from '../engine/errors';
export type { LabEvent, LabEventKind, Outcome, SettingValue, Settings, Transcript, Transport } from '../engine/transcript';

/** What the page needs to show a scenario before running it (ScenarioMeta, kind and defaults). */
export interface ScenarioInfo {
  id: string;
  /** Which model runs it; the page may render kinds differently. */
  kind: ScenarioKind;
  title: string;
  topic: string;
  summary: string;
  requirements: string[];
  defaultTransport: Transport;
  settings: Settings;
}

// ── page → worker ────────────────────────────────────────────────────────────────────────────────

export interface RunRequest {
  type: 'run';
  requestId: number;
  scenario: string;
  transport: Transport;
  seed: number;
  /** Overrides over the scenario's defaults; the engine validates names and ranges (LAB004/LAB005). */
  settings: Settings;
}

export interface ListRequest {
  type: 'list';
  requestId: number;
}

export type LabRequest = RunRequest | ListRequest;
export type LabRequestType = LabRequest['type'];

// ── worker → page ────────────────────────────────────────────────────────────────────────────────

export interface TranscriptResponse {
  type: 'transcript';
  requestId: number;
  transcript: Transcript;
}

export interface ScenariosResponse {
  type: 'scenarios';
  requestId: number;
  scenarios: ScenarioInfo[];
}

/**
 * `code` is the LabError code when the engine threw one, LAB008 for a message the worker could not
 * read, and INTERNAL for anything else (an engine invariant, a bug). `requestId` is null only when the
 * malformed message carried no usable requestId.
 */
export type WorkerErrorCode = LabErrorCode | 'INTERNAL';

export interface ErrorResponse {
  type: 'error';
  requestId: number | null;
  code: WorkerErrorCode;
  message: string;
}

export type LabResponse = TranscriptResponse | ScenariosResponse | ErrorResponse;
export type LabResponseType = LabResponse['type'];

// ── guards ───────────────────────────────────────────────────────────────────────────────────────

type Guarded = { [key: string]: unknown };

function isRecord(value: unknown): value is Guarded {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function isTransport(value: unknown): value is Transport {
  return value === 'stdio' || value === 'http';
}

function isSettingValue(value: unknown): boolean {
  return value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string';
}

function isSettings(value: unknown): value is Settings {
  return isRecord(value) && Object.values(value).every(isSettingValue);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Why `value` is not a LabRequest, or null when it is one. Checks the envelope only: whether the
 * scenario exists, the seed is in range and the settings are known is the engine's call.
 */
export function explainBadRequest(value: unknown): string | null {
  if (!isRecord(value)) return `expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  if (!isRequestId(value.requestId)) return 'requestId must be an integer';
  switch (value.type) {
    case 'list':
      return null;
    case 'run':
      if (typeof value.scenario !== 'string') return 'scenario must be a string';
      if (!isTransport(value.transport)) return 'transport must be "stdio" or "http"';
      if (typeof value.seed !== 'number') return 'seed must be a number';
      if (!isSettings(value.settings)) return 'settings must map names to numbers, booleans, strings or null';
      return null;
    default:
      return `type must be "run" or "list", got ${JSON.stringify(value.type) ?? 'nothing'}`;
  }
}

export function isLabRequest(value: unknown): value is LabRequest {
  return explainBadRequest(value) === null;
}

function isTranscript(value: unknown): value is Transcript {
  return (
    isRecord(value) &&
    typeof value.scenario === 'string' &&
    isTransport(value.transport) &&
    typeof value.seed === 'number' &&
    Array.isArray(value.events) &&
    value.events.every((event) => isRecord(event) && typeof event.kind === 'string' && typeof event.atMs === 'number') &&
    isRecord(value.outcome) &&
    typeof value.outcome.terminalState === 'string' &&
    typeof value.outcome.finalResponse === 'boolean' &&
    Array.isArray(value.outcome.clientIgnores)
  );
}

function isScenarioInfo(value: unknown): value is ScenarioInfo {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.kind === 'string' &&
    typeof value.title === 'string' &&
    typeof value.topic === 'string' &&
    typeof value.summary === 'string' &&
    isStringArray(value.requirements) &&
    isTransport(value.defaultTransport) &&
    isSettings(value.settings)
  );
}

/** Checks what arrives from the worker; the page treats anything else as a broken worker. */
export function isLabResponse(value: unknown): value is LabResponse {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'transcript':
      return isRequestId(value.requestId) && isTranscript(value.transcript);
    case 'scenarios':
      return isRequestId(value.requestId) && Array.isArray(value.scenarios) && value.scenarios.every(isScenarioInfo);
    case 'error':
      return (value.requestId === null || isRequestId(value.requestId)) && typeof value.code === 'string' && typeof value.message === 'string';
    default:
      return false;
  }
}

/** The requestId of a message that failed its guard, when it has a usable one (to answer it). */
export function salvageRequestId(value: unknown): number | null {
  return isRecord(value) && isRequestId(value.requestId) ? value.requestId : null;
}
