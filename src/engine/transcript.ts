import type { Settings, Transport } from './core/transcript';
import type { McpEvent } from './mcp/events';
import type { RequestOutcome } from './models/request-race/types';
import type { LedgerEvent, LedgerOutcome } from './models/ledger/events';
import type { SqlEvent } from './core/sqlite';
import type { TaskEvent, TaskOutcome } from './models/tasks/events';
import type { BufferEvent, BufferOutcome } from './models/buffer/types';
import type { ProxyEvent, ProxyOutcome, SseCommentEvent } from './models/proxy/types';
import type {
  HttpRequestEvent,
  ReconnectOutcome,
  ReconnectPlanEvent,
  RecoveryEvent,
  StreamDroppedEvent,
} from './models/reconnect/types';
import type { HerdOutcome, HerdWindowEvent } from './models/herd/types';
import type { ListenOutcome } from './models/listen/types';
import type { RecordingEvent, RecordingOutcome } from './recording/types';

export type * from './core/transcript';
export type * from './mcp/events';
export type { ClientIgnore, RequestOutcome } from './models/request-race/types';
export type { LedgerEvent, LedgerOutcome, LedgerResponseRecord } from './models/ledger/events';
export type { SqlEvent } from './core/sqlite';
export type { TaskEvent, TaskOutcome, TaskStatus } from './models/tasks/events';
export type { BufferEvent, BufferOutcome } from './models/buffer/types';
export type { ProxyEvent, ProxyOutcome, SseCommentEvent } from './models/proxy/types';
export type {
  HttpRequestEvent,
  ReconnectOutcome,
  ReconnectPlan,
  ReconnectPlanEvent,
  RecoveryEvent,
  StreamDroppedEvent,
} from './models/reconnect/types';
export type { HerdOutcome, HerdWindowEvent } from './models/herd/types';
export type { ListenOutcome } from './models/listen/types';
export type {
  HttpResponseEvent,
  ProbeNoteEvent,
  RecordedProbe,
  RecordingEvent,
  RecordingOutcome,
  VerdictEvent,
} from './recording/types';

/**
 * The transcript is the one record of a run: the command line prints it, the UI renders it and the
 * tests assert it. Its events are one discriminated union by `kind`, and the transcript itself is
 * one by model `kind`, so a consumer narrows the outcome with `if (t.kind === 'ledger')`, never a
 * cast. Field names are a contract: extend, never rename.
 */
export type LabEvent =
  | McpEvent
  | SqlEvent
  | LedgerEvent
  | TaskEvent
  | BufferEvent
  | ProxyEvent
  | SseCommentEvent
  | HttpRequestEvent
  | StreamDroppedEvent
  | ReconnectPlanEvent
  | RecoveryEvent
  | HerdWindowEvent
  | RecordingEvent;

export type LabEventKind = LabEvent['kind'];

/** Which outcome each kind of model produces. */
export interface OutcomeByKind {
  'request-race': RequestOutcome;
  ledger: LedgerOutcome;
  task: TaskOutcome;
  buffer: BufferOutcome;
  proxy: ProxyOutcome;
  reconnect: ReconnectOutcome;
  herd: HerdOutcome;
  listen: ListenOutcome;
  /** A `lab probe` transcript of a real server, opened in the page: no model produces it. */
  recording: RecordingOutcome;
}

export type ModelKind = keyof OutcomeByKind;
export type Outcome = OutcomeByKind[ModelKind];
export type FlowOutcome = BufferOutcome | ProxyOutcome | ReconnectOutcome | HerdOutcome;

interface TranscriptOfKind<K extends ModelKind> {
  scenario: string;
  transport: Transport;
  seed: number;
  settings: Settings;
  /** Which model produced it: `request-race` for A–D. */
  kind: K;
  title: string;
  requirements: string[];
  protocolVersion: string;
  /**
   * Who produced the run. Absent on the lab's own model, the default, so a model transcript carries no field
   * it does not need; `ts-sdk` or `ts-sdk-v2` when the official MCP TypeScript SDK ran on the virtual clock;
   * `probe` for a recording of a real server.
   */
  implementation?: Implementation | 'probe';
  /** SDK runs only: the SDK package and version that ran, and what it negotiated. */
  sdk?: SdkRunInfo;
  /** The ordering this run replays (`run --schedule`, the page's `schedule=`); absent for a seeded run. */
  schedule?: string;
  /** The faults injected on this run's messages (`run --fault`, the page's Drop/Delay/Duplicate); absent: none. */
  faults?: string;
  events: LabEvent[];
  outcome: OutcomeByKind[K];
}

/**
 * Who drives a run: the lab's spec model (default); for a request race the real TypeScript SDK 1.x or
 * its v2 packages (the 2026-07-28 reference); for a durable-task scenario the tasks extension's own
 * requester package, `@modelcontextprotocol/ext-tasks` (`ext-tasks`). The one list the command line,
 * the run spec, the page and the worker offer and check.
 */
export const IMPLEMENTATIONS = ['model', 'ts-sdk', 'ts-sdk-v2', 'ext-tasks'] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];

/** Every transport a run can use, in the order the page offers them; the reviewer's input takes the same list. */
export const TRANSPORTS = ['stdio', 'http'] as const satisfies readonly Transport[];
/** A transport added to the type and not to TRANSPORTS fails to compile here. */
const _everyTransportListed: [Exclude<Transport, (typeof TRANSPORTS)[number]>] extends [never] ? true : never = true;

export interface SdkRunInfo {
  /** `@modelcontextprotocol/sdk`. */
  package: string;
  /** Exactly the version pinned in package.json. */
  version: string;
  /** The revision the SDK negotiated in its initialize handshake (older than the lab's `PROTOCOL_VERSION`). */
  negotiatedProtocolVersion: string;
  /** Settings of the scenario the SDK run cannot honour (the SDK decides them itself), with why. */
  settingsNotApplied: Record<string, string>;
  /** The lab's invariants checked on this run's transcript. */
  invariants: InvariantCheck[];
  /** Streamable HTTP: the headers of each POST the SDK's client sent, in order, by channel (`POST #0`), as the server's end received them. */
  postHeaders?: Array<{ channel: string; headers: Record<string, string> }>;
}

/** One invariant of the request lifecycle (RC-*, docs/requirements.md#request-lifecycle-rc), checked on a transcript: whether it holds and, if not, where. */
export interface InvariantCheck {
  id: string;
  statement: string;
  holds: boolean;
  detail: string;
}

/** A transcript of any model: narrow it on `kind`. `Transcript<'ledger'>` is a ledger transcript. */
export type Transcript<K extends ModelKind = ModelKind> = { [P in K]: TranscriptOfKind<P> }[K];
