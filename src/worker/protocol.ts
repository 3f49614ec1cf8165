import type { LabErrorCode } from '../engine';
import type { ScenarioKind } from '../engine';
import type { SettingsSpec } from '../engine';
import type { Settings, Transcript, Transport } from '../engine';

/**
 * The typed protocol between the page and the lab worker: one discriminated union per direction,
 * checked at the boundary by hand-written guards (structured clone carries any shape, the types do
 * not survive it). To grow it, add a member to the union and a case to its guard. Stepping needs no
 * request: the page replays the one transcript a run returns.
 */

export type { LabErrorCode } from '../engine';
export type { LabEvent, LabEventKind, Outcome, RequestOutcome, SettingValue, Settings, Transcript, Transport } from '../engine';
export type { LedgerOutcome, LedgerResponseRecord } from '../engine';
export type { SettingSpec, SettingsSpec } from '../engine';

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
  /** What each setting accepts (kind, range, unit, description), so the page can offer inputs; the engine still judges values. */
  settingsSpec: SettingsSpec;
}

// ── page → worker ────────────────────────────────────────────────────────────────────────────────

/**
 * Which ledger file a ledger scenario runs on. `fresh`: a new empty ledger, so the transcript depends
 * on the inputs alone. `kept`: the ledger stored in the browser (IndexedDB), saved back after a
 * completed run. Other kinds of scenario ignore it.
 */
export type LedgerChoice = 'fresh' | 'kept';

export interface RunRequest {
  type: 'run';
  requestId: number;
  scenario: string;
  transport: Transport;
  seed: number;
  /** Overrides over the scenario's defaults; the engine validates names and ranges (LAB004/LAB005). */
  settings: Settings;
  ledger: LedgerChoice;
}

export interface ListRequest {
  type: 'list';
  requestId: number;
}

/** Reads the stored ledger (answered with `ledger`). */
export interface LedgerSnapshotRequest {
  type: 'ledger-snapshot';
  requestId: number;
}

/** Replaces the stored ledger with these bytes if they are a lab ledger (LAB010 and no change if not). */
export interface LedgerImportRequest {
  type: 'ledger-import';
  requestId: number;
  bytes: Uint8Array;
}

/** The stored ledger as a SQLite file (answered with `ledger-file`); an empty ledger when none is stored. */
export interface LedgerExportRequest {
  type: 'ledger-export';
  requestId: number;
}

/** Forgets the stored ledger (answered with `ledger`, now empty). */
export interface LedgerResetRequest {
  type: 'ledger-reset';
  requestId: number;
}

/**
 * Turns the text of a shared link (`?scenario=C&seed=3&progressEveryMs=5`) into a view the engine
 * accepts: every value is parsed and checked by the engine's own rules, and each one it refuses is
 * reported with the engine's message and replaced by its default (answered with `resolved`).
 * `params` holds `scenario`, `transport`, `seed` and setting names; anything else is a setting
 * name the engine does not know (LAB004).
 */
export interface ResolveRequest {
  type: 'resolve';
  requestId: number;
  params: Record<string, string>;
}

export type LabRequest = RunRequest | ListRequest | ResolveRequest | LedgerSnapshotRequest | LedgerImportRequest | LedgerExportRequest | LedgerResetRequest;
export type LabRequestType = LabRequest['type'];

// ── worker → page ────────────────────────────────────────────────────────────────────────────────

/**
 * For a request race (A–D): the index in `events` of the event at which the run reaches each of the
 * four recorded facts (SPEC §7), so the page can fill the table as a replay passes them. A fact
 * that is an absence (no final response, no cancellation signal) is reached with the last event;
 * `clientIgnores` has one index per ignored message, where it reaches the client.
 */
export interface RaceFactSteps {
  terminalState: number;
  finalResponse: number;
  cancellationSignal: number;
  clientIgnores: number[];
}

export interface TranscriptResponse {
  type: 'transcript';
  requestId: number;
  transcript: Transcript;
  /** Null for scenarios that are not request races. */
  facts: RaceFactSteps | null;
}

/**
 * Sent while a long run computes (any number of times, before its `transcript` or `error`):
 * how many scheduler events have run and the virtual time reached. It never settles the request.
 */
export interface ProgressResponse {
  type: 'progress';
  requestId: number;
  eventsRun: number;
  atMs: number;
}

/** A link's view as the engine accepts it: every field valid, defaults where the link's value was not. */
export interface ResolvedView {
  scenario: string;
  transport: Transport;
  seed: number;
  /** Only the link's valid overrides; the scenario's defaults fill the rest when it runs. */
  settings: Settings;
}

/** One value of a link the engine refused, with its catalogued error; the view holds the default instead. */
export interface ViewProblem {
  param: string;
  value: string;
  code: LabErrorCode;
  message: string;
}

export interface ResolvedResponse {
  type: 'resolved';
  requestId: number;
  view: ResolvedView;
  problems: ViewProblem[];
}

export interface ScenariosResponse {
  type: 'scenarios';
  requestId: number;
  scenarios: ScenarioInfo[];
}

/** One row of a ledger table as SQLite returned it (the ledger has no BLOB columns). */
export type LedgerRow = Record<string, string | number | null>;

/** The stored ledger as the page shows it: its rows table by table, its size, and its scope (LG-8). */
export interface LedgerView {
  /** False when nothing is stored yet (the tables are those of a new empty ledger). */
  stored: boolean;
  /** Size of the stored SQLite file; 0 when nothing is stored. */
  bytes: number;
  idempotencyKeys: LedgerRow[];
  effects: LedgerRow[];
  executions: LedgerRow[];
  /** Each table's row count, when only its first rows are sent (see ledgerPage.ts). */
  totals?: { idempotencyKeys: number; effects: number; executions: number };
  /** LG-8: what a local SQLite ledger does and does not guarantee. */
  scopeNotes: string[];
}

export interface LedgerResponse {
  type: 'ledger';
  requestId: number;
  ledger: LedgerView;
}

export interface LedgerFileResponse {
  type: 'ledger-file';
  requestId: number;
  /** A standard SQLite database file (starts with "SQLite format 3\0"). */
  bytes: Uint8Array;
}

/**
 * `code` is the LabError code when the engine threw one, LAB008 for a message the worker could not
 * read, STORAGE when the browser's IndexedDB refused a read or write, and INTERNAL for anything else
 * (an engine invariant, a bug). `requestId` is null only when the malformed message carried no usable
 * requestId.
 */
export type WorkerErrorCode = LabErrorCode | 'STORAGE' | 'INTERNAL';

export interface ErrorResponse {
  type: 'error';
  requestId: number | null;
  code: WorkerErrorCode;
  message: string;
}

export type LabResponse = TranscriptResponse | ProgressResponse | ScenariosResponse | ResolvedResponse | LedgerResponse | LedgerFileResponse | ErrorResponse;
/** The responses that settle a request (every one but `progress`). */
export type LabAnswer = Exclude<LabResponse, ProgressResponse>;
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

function isLedgerChoice(value: unknown): value is LedgerChoice {
  return value === 'fresh' || value === 'kept';
}

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === 'string');
}

const REQUEST_TYPES: readonly LabRequestType[] = ['run', 'list', 'resolve', 'ledger-snapshot', 'ledger-import', 'ledger-export', 'ledger-reset'];

/**
 * Why `value` is not a LabRequest, or null when it is one. Checks the envelope only: whether the
 * scenario exists, the seed is in range and the settings are known is the engine's call.
 */
export function explainBadRequest(value: unknown): string | null {
  if (!isRecord(value)) return `expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  if (!isRequestId(value.requestId)) return 'requestId must be an integer';
  switch (value.type) {
    case 'list':
    case 'ledger-snapshot':
    case 'ledger-export':
    case 'ledger-reset':
      return null;
    case 'run':
      if (typeof value.scenario !== 'string') return 'scenario must be a string';
      if (!isTransport(value.transport)) return 'transport must be "stdio" or "http"';
      if (typeof value.seed !== 'number') return 'seed must be a number';
      if (!isSettings(value.settings)) return 'settings must map names to numbers, booleans, strings or null';
      if (!isLedgerChoice(value.ledger)) return 'ledger must be "fresh" or "kept"';
      return null;
    case 'resolve':
      if (!isStringRecord(value.params)) return 'params must map names to strings';
      return null;
    case 'ledger-import':
      if (!isBytes(value.bytes)) return 'bytes must be a Uint8Array';
      return null;
    default:
      return `type must be one of ${REQUEST_TYPES.map((type) => `"${type}"`).join(', ')}, got ${JSON.stringify(value.type) ?? 'nothing'}`;
  }
}

export function isLabRequest(value: unknown): value is LabRequest {
  return explainBadRequest(value) === null;
}

/** The outcome fields the page reads, for the kinds it has a view for; other kinds show as label/value. */
function isOutcomeOf(kind: unknown, outcome: Guarded): boolean {
  switch (kind) {
    case 'request-race':
      return typeof outcome.terminalState === 'string' && typeof outcome.finalResponse === 'boolean' && Array.isArray(outcome.clientIgnores);
    case 'ledger':
      return (
        ['executions', 'rejected', 'replayed', 'failed', 'requests', 'busyRetries', 'keyRecords'].every((field) => typeof outcome[field] === 'number') &&
        Array.isArray(outcome.responses) &&
        outcome.responses.every((response) => isRecord(response) && typeof response.status === 'string' && typeof response.connection === 'string' && isRecord(response.body))
      );
    default:
      return true;
  }
}

function isTranscript(value: unknown): value is Transcript {
  return (
    isRecord(value) &&
    typeof value.scenario === 'string' &&
    typeof value.kind === 'string' &&
    isTransport(value.transport) &&
    typeof value.seed === 'number' &&
    Array.isArray(value.events) &&
    value.events.every((event) => isRecord(event) && typeof event.kind === 'string' && typeof event.atMs === 'number') &&
    isRecord(value.outcome) &&
    isOutcomeOf(value.kind, value.outcome)
  );
}

function isLedgerRows(value: unknown): value is LedgerRow[] {
  return (
    Array.isArray(value) &&
    value.every((row) => isRecord(row) && Object.values(row).every((cell) => cell === null || typeof cell === 'string' || typeof cell === 'number'))
  );
}

function isLedgerView(value: unknown): value is LedgerView {
  return (
    isRecord(value) &&
    typeof value.stored === 'boolean' &&
    typeof value.bytes === 'number' &&
    isLedgerRows(value.idempotencyKeys) &&
    isLedgerRows(value.effects) &&
    isLedgerRows(value.executions) &&
    isStringArray(value.scopeNotes)
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
    isSettings(value.settings) &&
    isRecord(value.settingsSpec) &&
    Object.values(value.settingsSpec).every((spec) => isRecord(spec) && typeof spec.kind === 'string' && typeof spec.description === 'string')
  );
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= -1;
}

function isRaceFactSteps(value: unknown): value is RaceFactSteps | null {
  return (
    value === null ||
    (isRecord(value) &&
      isIndex(value.terminalState) &&
      isIndex(value.finalResponse) &&
      isIndex(value.cancellationSignal) &&
      Array.isArray(value.clientIgnores) &&
      value.clientIgnores.every(isIndex))
  );
}

function isResolvedView(value: unknown): value is ResolvedView {
  return isRecord(value) && typeof value.scenario === 'string' && isTransport(value.transport) && typeof value.seed === 'number' && isSettings(value.settings);
}

function isViewProblem(value: unknown): value is ViewProblem {
  return isRecord(value) && typeof value.param === 'string' && typeof value.value === 'string' && typeof value.code === 'string' && typeof value.message === 'string';
}

/** Checks what arrives from the worker; the page treats anything else as a broken worker. */
export function isLabResponse(value: unknown): value is LabResponse {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'transcript':
      return isRequestId(value.requestId) && isTranscript(value.transcript) && isRaceFactSteps(value.facts);
    case 'progress':
      return isRequestId(value.requestId) && typeof value.eventsRun === 'number' && typeof value.atMs === 'number';
    case 'resolved':
      return isRequestId(value.requestId) && isResolvedView(value.view) && Array.isArray(value.problems) && value.problems.every(isViewProblem);
    case 'scenarios':
      return isRequestId(value.requestId) && Array.isArray(value.scenarios) && value.scenarios.every(isScenarioInfo);
    case 'ledger':
      return isRequestId(value.requestId) && isLedgerView(value.ledger);
    case 'ledger-file':
      return isRequestId(value.requestId) && isBytes(value.bytes);
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
