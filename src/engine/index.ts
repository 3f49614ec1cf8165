/**
 * The engine's one front door (after @xyflow/system's index.ts): the worker, the command line, the lab
 * tools, the SDK lanes, the probe, the scenarios, the scripts, the benchmarks and the tests outside
 * src/engine import from here only (lint enforces it). It exports what those layers import and nothing
 * else: a name the engine uses only inside itself stays inside. Inside, three rooms: core/ (the
 * simulation kit), mcp/ (the protocol's rules) and models/ (one folder per model); scenario.ts is the
 * registry that joins them.
 */
export {
  IMPLEMENTATIONS,
  TRANSPORTS,
  type BufferEvent,
  type CancellationSignal,
  type ClientOutcome,
  type DeliveredEvent,
  type HerdOutcome,
  type Implementation,
  type InvariantCheck,
  type LabEvent,
  type LabEventKind,
  type LedgerOutcome,
  type LedgerResponseRecord,
  type MessageEvent,
  type ModelKind,
  type Outcome,
  type OutcomeByKind,
  type ProxyOutcome,
  type ReconnectOutcome,
  type RecordedProbe,
  type RequestOutcome,
  type SdkRunInfo,
  type Settings,
  type SettingValue,
  type Side,
  type Stamped,
  type TaskEvent,
  type TaskOutcome,
  type TaskStatus,
  type TerminalState,
  type Transcript,
  type Transport,
  type Unstamped,
} from './transcript';
export { assert, unreachable } from './core/assert';
export { LabError, type LabErrorCode } from './core/errors';
export { BinaryHeap } from './core/heap';
export { SeededRandom } from './core/prng';
export { Scheduler, seededChooser } from './core/scheduler';
export {
  DEFAULT_EXPLORE_BOUND,
  endingOf,
  Exploration,
  explore,
  REDUCIBLE_MODELS,
  type ComponentViolation,
  type Ending,
  type ExploreProgress,
  type ExploreResult,
  type RunsByChoice,
  type Violation,
} from './explorer';
export { shrinkBreak, type ShortestOrdering } from './shrink';
export { smallestFaultSets } from './faultShrink';
export { countEventOrders, firstOrderOnly, EXPLORE_JITTER_PRESETS_MS, reductionSignature } from './exploreSoundness';
export {
  ComponentProbe,
  type BufferItem,
  type CancelAnswer,
  type CompleteAnswer,
  type ComponentBreach,
  type ComponentClock,
  type Components,
  type DeadlinesDue,
  type LedgerCall,
  type LedgerProgramComponent,
  type LedgerProgramEnd,
  type LedgerStepAnswer,
  type LedgerStepRequest,
  type LedgerValue,
  type OfferResult,
  type ProgressAnswer,
  type TaskStoreStatus,
} from './core/components';
export { checkTranscript, type InvariantName } from './explore/invariants';
export { parseSchedule, type Choice } from './core/schedule';
export { checkSetting, parseSetting, resolveSettings, type SettingSpec, type SettingsSpec } from './core/settings';
export {
  LEDGER_FORMAT,
  LedgerFile,
  ledgerSnapshot,
  SCHEMA,
  type Row,
  type SqliteHost,
  type SqlModule,
} from './core/sqlite';
export { LEDGER_INTEGER_MAX } from './core/schemaCheck';
export { postHeadersOf } from './core/postHeaders';
export { drawArrivalMs, EventLog, type LatencySettings } from './core/wire';
export { formatFaults, parseFaults, withFault, type MessageFault } from './core/faults';
export {
  callToolRequest,
  cancelledNotification,
  CLIENT_INFO,
  progressNotification,
  PROTOCOL_VERSION,
  SERVER_INFO,
  SSE_HEADERS,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
} from './mcp/protocol';
export { summarizeMessage } from './mcp/summary';
export {
  cancelAccepted,
  cancelHow,
  cancelIgnored,
  clientClosesStream,
  clientSettled,
  deadlineWording,
  disconnectObserved,
  KEY_IS_APPLICATION_CONTRACT,
  maxFoundOnProgress,
  responseEndsStream,
  responseSuppressed,
  serverCompleted,
  TERMINAL_COMPLETED,
  terminalCancelled,
  userCancelled,
  viewsDiverge,
  workerWording,
} from './mcp/wording';
export {
  checkSeed,
  checkTransport,
  DEFAULT_SEED,
  runScenario,
  settingsSpecFor,
  usesSqlite,
  type BufferScenario,
  type ExpectedOutcome,
  type HerdScenario,
  type LedgerScenario,
  type ListenScenario,
  type ProxyScenario,
  type ReconnectScenario,
  type RequestRaceScenario,
  type RunOptions,
  type Scenario,
  type TaskScenario,
} from './scenario';
export {
  checkJsonRpcMessage,
  isJsonRpcMessage,
  JSON_DEPTH_MAX,
  jsonRpcEnvelopeProblem,
  jsonRpcProblem,
} from './core/jsonrpc';
export { eventLanes, withLanes } from './lanes';
export { checkRaceQuestion, fillRaceText, locateRace, type RaceLocation } from './predict';
export type { EventPattern, RaceAnswer, RaceQuestion } from './core/raceQuestion';
export {
  requestRaceDefaults,
  requestRaceSettingsSpec,
  type RequestRaceSettings,
} from './models/request-race/requestRace';
export { ledgerDefaults, PAYMENT_TOKEN, type LedgerHost } from './models/ledger/ledgerLab';
export { atomicMutation, fingerprint, type Program } from './models/ledger/ledger';
export { classify, retryTable, type RetryClassification } from './models/ledger/retry';
export { ledgerScopeNotes, ledgerScopeNotesFor } from './models/ledger/scope';
export { taskDefaults, taskSettingsSpec, type TaskSettings } from './models/tasks/taskLab';
export { bufferOverloadDefaults, bufferOverloadSettingsSpec } from './models/buffer/bufferOverload';
export { proxyBufferingDefaults } from './models/proxy/proxyBuffering';
export { reconnectListenDefaults } from './models/reconnect/reconnectListen';
export { listenServerCancelDefaults } from './models/listen/listenServerCancel';
export { herdDefaults, herdSettingsSpec } from './models/herd/herd';
export { BACKOFF_POLICIES, type BackoffPolicy } from './models/herd/backoff';
export {
  describeMessage,
  formatTimeline,
  messageLabel,
  wordEvent,
  wordEvents,
  type EventWording,
  type MarkerTone,
  type MarkerWording,
} from './describe';
export { raceInvariants } from './invariants';
export { compareRuns, type CompareOptions, type Divergence, type FactRow, type RunComparison } from './compare';
export {
  COMPARED_RUNS_MAX,
  compareMany,
  compareManyWithFirst,
  type ComparePair,
  type ManyComparison,
} from './compareMany';
