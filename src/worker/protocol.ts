import type * as v from 'valibot';
import {
  check,
  LabRequestSchema,
  LabResponseSchema,
  ToolRequestSchema,
  ToolResponseSchema,
  labRequestSchemas,
  toolRequestSchemas,
  type ErrorResponseSchema,
  type ExploreProgressSchema,
  type RecordingProgressSchema,
  type ExploreRequestSchema,
  type ExploredRunSchema,
  type LedgerRowSchema,
  type LedgerRowsSchema,
  type LedgerTableSchema,
  type LedgerViewSchema,
  type ProgressResponseSchema,
  type RaceFactStepsSchema,
  type ResolvedViewSchema,
  type RunRequestSchema,
  type ScenarioInfoSchema,
  type ViewProblemSchema,
  type VerifyProgressSchema,
} from './schemas';

/**
 * The one protocol between the page and both workers (the lab engine and the lab tools). Every
 * message is defined once, as a runtime schema in schemas.ts; the types here are inferred from it,
 * and both sides check what they receive with the same schema (structured clone carries any shape;
 * the types do not survive it). Error codes travel end to end: a LabError's code from the engine, in
 * either worker, reaches the page unchanged. Stepping needs no request: the page replays the one
 * transcript a run returns, with the engine's wording of every event.
 */

export type { LabErrorCode } from '../engine';
/** Which SDK the ts-sdk implementation runs: plain constants, so naming it never loads it. */
export { SETTINGS_NOT_APPLIED, TS_SDK_PACKAGE, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from '../sdk/version';
export type {
  Implementation,
  InvariantCheck,
  LabEvent,
  LabEventKind,
  Outcome,
  RequestOutcome,
  SdkRunInfo,
  SettingValue,
  Settings,
  Transport,
} from '../engine';
export type { LedgerOutcome, LedgerResponseRecord } from '../engine';
export type { SettingSpec, SettingsSpec } from '../engine';
export type { EventWording, MarkerTone, MarkerWording } from '../engine';
export type { RaceView } from './race';
/** Which run: the lab's one run description, its settings typed (the page's selection, the run and explore requests). */
export type { RunSelection } from '../runs/runSpec';
export type { RunComparison, FactRow, Divergence, ManyComparison } from '../engine';
export type {
  BufferPoint,
  BufferRefusal,
  BufferView,
  EvidenceBundle,
  FailureModeResult,
  HerdView,
  PanelKind,
  PanelView,
  ProxyView,
  ReconnectView,
  ReviewResult,
  TaskRow,
  TasksView,
  VerificationResult,
} from './panelTypes';

/** What the page needs to show a scenario before running it (ScenarioMeta, kind, defaults and the settings' specs). */
export type ScenarioInfo = v.InferOutput<typeof ScenarioInfoSchema>;
/** `fresh`: a new empty ledger, so the transcript depends on the inputs alone; `kept`: the one in IndexedDB. */
export type LedgerChoice = RunRequest['ledger'];
export type RunRequest = v.InferOutput<typeof RunRequestSchema>;
export type ExploreRequest = v.InferOutput<typeof ExploreRequestSchema>;
/** The part of the run selection an exploration and a panel read: the model's seeded run. */
export type ExploredRun = v.InferOutput<typeof ExploredRunSchema>;
export type { ExploreResult, Ending, Violation, InvariantName } from '../engine';
/** For a request race: the index of the event at which the run reaches each of the four facts (docs/requirements.md#the-race-and-its-four-recorded-facts). */
export type RaceFactSteps = v.InferOutput<typeof RaceFactStepsSchema>;
export type ResolvedView = v.InferOutput<typeof ResolvedViewSchema>;
export type ViewProblem = v.InferOutput<typeof ViewProblemSchema>;
export type LedgerRow = v.InferOutput<typeof LedgerRowSchema>;
export type LedgerView = v.InferOutput<typeof LedgerViewSchema>;
/** A table of the stored ledger, as LedgerView names it. */
export type LedgerTable = v.InferOutput<typeof LedgerTableSchema>;
/** One page of a ledger table, read from the ledger the worker holds open. */
export type LedgerRows = v.InferOutput<typeof LedgerRowsSchema>;
export { LEDGER_ROWS_LIMIT_MAX } from './schemas';

// ── page → workers ───────────────────────────────────────────────────────────────────────────────

export type LabRequest = v.InferOutput<typeof LabRequestSchema>;
export type LabRequestType = LabRequest['type'];
export type ToolRequest = v.InferOutput<typeof ToolRequestSchema>;
export type ToolRequestType = ToolRequest['type'];
export const LAB_REQUEST_TYPES = labRequestSchemas.map((schema) => schema.entries.type.literal);
export const TOOL_REQUEST_TYPES = toolRequestSchemas.map((schema) => schema.entries.type.literal);

// ── workers → page ───────────────────────────────────────────────────────────────────────────────

export type LabResponse = v.InferOutput<typeof LabResponseSchema>;
export type ToolResponse = v.InferOutput<typeof ToolResponseSchema>;
/** One run of a comparison: its run spec as asked, its transcript and the engine's wording of its events. */
export type ComparedRun = Extract<ToolResponse, { type: 'comparison' }>['runs'][number];
export type LabResponseType = LabResponse['type'];
export type TranscriptResponse = Extract<LabResponse, { type: 'transcript' }>;
export type ProgressResponse = v.InferOutput<typeof ProgressResponseSchema>;
export type ExploreProgressResponse = v.InferOutput<typeof ExploreProgressSchema>;
export type RecordingProgressResponse = v.InferOutput<typeof RecordingProgressSchema>;
/** A report the tools worker sends before the checklist it computes. */
export type VerifyProgressResponse = v.InferOutput<typeof VerifyProgressSchema>;
/** The tool responses that settle a request (every one but `verify-progress`). */
export type ToolAnswer = Exclude<ToolResponse, VerifyProgressResponse>;
export type ExplorationResponse = Extract<LabResponse, { type: 'exploration' }>;
export type ResolvedResponse = Extract<LabResponse, { type: 'resolved' }>;
export type ScenariosResponse = Extract<LabResponse, { type: 'scenarios' }>;
export type OpenRequest = Extract<LabRequest, { type: 'open' }>;
export type OpenedResponse = Extract<LabResponse, { type: 'opened' }>;
export type LedgerResponse = Extract<LabResponse, { type: 'ledger' }>;
export type LedgerFileResponse = Extract<LabResponse, { type: 'ledger-file' }>;
export type LedgerRowsResponse = Extract<LabResponse, { type: 'ledger-rows' }>;
export type ErrorResponse = v.InferOutput<typeof ErrorResponseSchema>;
/** A LabError code (kept end to end), LAB008 for an unreadable message, STORAGE (IndexedDB), INTERNAL (a bug). */
export type WorkerErrorCode = ErrorResponse['code'];
/** The responses that settle a request (every one but `progress`). */
export type LabAnswer = Exclude<LabResponse, ProgressResponse | ExploreProgressResponse | RecordingProgressResponse>;

// ── checks, the same on both sides ───────────────────────────────────────────────────────────────

/** Why `value` is not a LabRequest, or null when it is one (envelope and fields; the engine judges values). */
export function explainBadRequest(value: unknown): string | null {
  const result = check(LabRequestSchema, value);
  return result.ok ? null : result.problem;
}

export function isLabRequest(value: unknown): value is LabRequest {
  return check(LabRequestSchema, value).ok;
}

/** Why `value` is not a tool request, or null when it is one. */
export function explainBadToolRequest(value: unknown): string | null {
  const result = check(ToolRequestSchema, value);
  return result.ok ? null : result.problem;
}

/** Why what arrived from the engine worker is not a response, or null when it is one. */
export function explainBadResponse(value: unknown): string | null {
  const result = check(LabResponseSchema, value);
  return result.ok ? null : result.problem;
}

export function isLabResponse(value: unknown): value is LabResponse {
  return check(LabResponseSchema, value).ok;
}

/** Why what arrived from the tools worker is not a response, or null when it is one. */
export function explainBadToolResponse(value: unknown): string | null {
  const result = check(ToolResponseSchema, value);
  return result.ok ? null : result.problem;
}

/** The requestId of a message that failed its check, when it has a usable one (to answer it). */
export function salvageRequestId(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { requestId?: unknown }).requestId;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}
