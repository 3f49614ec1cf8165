/**
 * The engine's one front door (after @xyflow/system's index.ts): the worker, the command
 * line, the lab tools, the scenarios and the tests outside src/engine import from here only (lint
 * enforces it). Inside, three rooms: core/ (the simulation kit), mcp/ (the protocol's rules) and
 * models/ (one folder per model); scenario.ts is the registry that joins them.
 */
export * from './transcript';
export { assert, InvariantError, unreachable } from './core/assert';
export { LabError, errorCatalog, type LabErrorCode } from './core/errors';
export { BinaryHeap } from './core/heap';
export { SeededRandom } from './core/prng';
export {
  Scheduler,
  insertionOrder,
  pinnedChooser,
  seededChooser,
  type Chooser,
  type DueEvent,
  type ExploringChooser,
} from './core/scheduler';
export { replaySchedule } from './explore/driver';
export {
  explore,
  Exploration,
  endingOf,
  DEFAULT_EXPLORE_BOUND,
  REDUCIBLE_MODELS,
  type ExploreOptions,
  type ExploreResult,
  type ExploreProgress,
  type Ending,
  type Violation,
  type ComponentViolation,
} from './explorer';
export { shortestOrderings, shrinkBreak, replayBreaks, type ShortestOrdering, type Break } from './shrink';
export { ddmin, smallestFaultSets } from './faultShrink';
export { EXPLORE_JITTER_PRESETS_MS, reductionSignature } from './exploreSoundness';
export {
  ComponentProbe,
  type ComponentBreach,
  type ComponentClock,
  type Components,
  type BufferComponent,
  type BufferItem,
  type OfferResult,
  type CoordinatorComponent,
  type CancelAnswer,
  type ProgressAnswer,
  type CompleteAnswer,
  type LedgerCall,
  type LedgerProgramComponent,
  type LedgerProgramEnd,
  type LedgerStepAnswer,
  type LedgerStepRequest,
  type LedgerValue,
  type TaskStoreComponent,
  type TaskStoreStatus,
  type DeadlinesComponent,
  type DeadlinesDue,
  type DeadlinesStart,
} from './core/components';
export { INVARIANTS, checkTranscript, type InvariantName } from './explore/invariants';
export { formatSchedule, parseSchedule, EMPTY_SCHEDULE, type Choice } from './explore/schedule';
export {
  checkSetting,
  parseSetting,
  resolveSettings,
  type SettingSpec,
  type SettingsSpec,
  type SettingsOf,
} from './core/settings';
export {
  LedgerFile,
  LEDGER_FORMAT,
  ledgerSnapshot,
  SCHEMA,
  type Row,
  type SqlModule,
  type SqliteHost,
  type StatementParams,
  type StatementResult,
} from './core/sqlite';
export { LEDGER_INTEGER_MAX } from './core/schemaCheck';
export { Sim } from './core/sim';
export { postHeadersOf, MCP_NAME_BY_TASK_METHODS } from './core/postHeaders';
export { EventLog, RECORDED_EVENTS_MAX, parseFaults, formatFault, type LogClock, type MessageFault } from './core/wire';
export * from './mcp/protocol';
export { summarizeMessage } from './mcp/summary';
export * from './mcp/wording';
export * from './scenario';
export {
  JSON_DEPTH_MAX,
  isJsonValue,
  isJsonObject,
  jsonRpcEnvelopeProblem,
  jsonRpcProblem,
  checkJsonRpcMessage,
  isJsonRpcMessage,
} from './core/jsonrpc';
export { eventLanes, withLanes, type EventWithLane, type TranscriptWithLanes } from './lanes';
export {
  locateRace,
  fillRaceText,
  checkRaceQuestion,
  RACE_ANSWERS_MIN,
  RACE_ANSWERS_MAX,
  type RaceLocation,
} from './predict';
export type { RaceQuestion, RaceAnswer, RaceContender, EventPattern, PatternValue } from './core/raceQuestion';
export {
  RequestRace,
  requestRaceDefaults,
  requestRaceSettingsSpec,
  type RequestRaceSettings,
} from './models/request-race/requestRace';
export {
  LedgerLab,
  ledgerDefaults,
  ledgerSettingsSpec,
  argumentsFor,
  PAYMENT_TOKEN,
  type LedgerHost,
  type LedgerSettings,
} from './models/ledger/ledgerLab';
export {
  KEY_PROFILES,
  atomicMutation,
  unsafeMutation,
  canonicalJson,
  fingerprint,
  type KeyProfile,
  type KeyProfileName,
  type Program,
  type Intent,
  type Operation,
  type ProgramResult,
} from './models/ledger/ledger';
export { classify, retryTable, type RetryClassification } from './models/ledger/retry';
export { ledgerScopeNotes, ledgerScopeNotesFor } from './models/ledger/scope';
export { TaskLab, taskDefaults, taskSettingsSpec, type TaskSettings } from './models/tasks/taskLab';
export { BoundedSseBuffer } from './models/buffer/buffer';
export {
  BufferOverload,
  bufferOverloadDefaults,
  bufferOverloadSettingsSpec,
  type BufferOverloadSettings,
} from './models/buffer/bufferOverload';
export {
  ProxyBuffering,
  proxyBufferingDefaults,
  proxyBufferingSettingsSpec,
  KEEP_ALIVE_LINE,
  type ProxyBufferingSettings,
} from './models/proxy/proxyBuffering';
export {
  ReconnectListen,
  reconnectListenDefaults,
  reconnectListenSettingsSpec,
  type ReconnectListenSettings,
} from './models/reconnect/reconnectListen';
export {
  ListenServerCancel,
  listenServerCancelDefaults,
  listenServerCancelSettingsSpec,
  type ListenServerCancelSettings,
} from './models/listen/listenServerCancel';
export { Herd, herdDefaults, herdSettingsSpec, type HerdSettings } from './models/herd/herd';
export {
  BACKOFF_POLICIES,
  backoffDelayMs,
  backoffCeilingMs,
  type BackoffPolicy,
  type BackoffConfig,
} from './models/herd/backoff';
export {
  describeEvent,
  describeMessage,
  formatTimeline,
  markerWording,
  messageLabel,
  wordEvent,
  wordEvents,
  type EventWording,
  type MarkerTone,
  type MarkerWording,
} from './describe';
export { raceInvariants } from './invariants';
export {
  TS_SDK_1X_EXPECTATIONS,
  type SdkExpectation,
  type RunExpectation,
  type ShownOutcome,
} from './models/request-race/tsSdkProfile';
export {
  compareRuns,
  runFacts,
  type FactRow,
  type Divergence,
  type RunComparison,
  type CompareOptions,
} from './compare';
export {
  TS_SDK_V2_TABLE,
  type V2Difference,
  type ThreeWayRun,
  type SourceLine,
  type DifferenceCause,
} from './models/request-race/tsSdkV2Table';
export {
  compareMany,
  compareManyWithFirst,
  COMPARED_RUNS_MAX,
  type ComparePair,
  type CompareManyOptions,
  type ManyComparison,
  type ManyFactRow,
  type ManyWithFirst,
  type PairDivergence,
} from './compareMany';
