import { resolveSettings, type SettingsSpec } from './core/settings';
import { checkSeed, checkTransport, DEFAULT_SEED, type Model, type ResolvedRun, type RunOptions } from './core/model';
import type { Settings, Transport } from './core/transcript';
import { PROTOCOL_VERSION } from './mcp/protocol';
import { requestRaceModel } from './models/request-race/requestRace';
import type { RequestRaceScenario } from './models/request-race/types';
import { ledgerModel } from './models/ledger/ledgerLab';
import type { LedgerScenario } from './models/ledger/events';
import { taskModel } from './models/tasks/taskLab';
import type { TaskScenario } from './models/tasks/events';
import { bufferModel } from './models/buffer/bufferOverload';
import type { BufferScenario } from './models/buffer/types';
import { proxyModel } from './models/proxy/proxyBuffering';
import type { ProxyScenario } from './models/proxy/types';
import { reconnectModel } from './models/reconnect/reconnectListen';
import type { ReconnectScenario } from './models/reconnect/types';
import { herdModel } from './models/herd/herd';
import { listenModel } from './models/listen/listenServerCancel';
import type { ListenScenario } from './models/listen/types';
import type { HerdScenario } from './models/herd/types';
import { replaySchedule } from './explore/driver';
import { formatSchedule } from './core/schedule';
import { formatFaults, type MessageFault } from './core/faults';
import { InvariantError } from './core/assert';
import { LabError } from './core/errors';
import type { LabEvent, ModelKind, OutcomeByKind, Transcript } from './transcript';

export {
  checkSeed,
  checkTransport,
  DEFAULT_SEED,
  type RunOptions,
  type ResolvedRun,
  type ScenarioMeta,
} from './core/model';
export type { RequestRaceScenario, ScriptStep, ExpectedOutcome } from './models/request-race/types';
export type { LedgerScenario } from './models/ledger/events';
export type { TaskScenario } from './models/tasks/events';
export type { BufferScenario } from './models/buffer/types';
export type { ProxyScenario } from './models/proxy/types';
export type { ReconnectScenario } from './models/reconnect/types';
export type { HerdScenario } from './models/herd/types';
export type { ListenScenario } from './models/listen/types';

/**
 * The registry: one model per scenario kind (docs/architecture.md#one-scenario-is-one-data-file). A model turns a
 * scenario plus resolved settings into events and an outcome; `runScenario` wraps that in the
 * transcript every consumer reads.
 */
export type Scenario =
  | RequestRaceScenario
  | LedgerScenario
  | TaskScenario
  | BufferScenario
  | ProxyScenario
  | ReconnectScenario
  | HerdScenario
  | ListenScenario;
export type ScenarioKind = Scenario['kind'];
export type FlowScenario = BufferScenario | ProxyScenario | ReconnectScenario | HerdScenario;

const models: { readonly [K in ScenarioKind]: Model<Extract<Scenario, { kind: K }>, OutcomeByKind[K], LabEvent> } = {
  'request-race': requestRaceModel,
  ledger: ledgerModel,
  task: taskModel,
  buffer: bufferModel,
  proxy: proxyModel,
  reconnect: reconnectModel,
  herd: herdModel,
  listen: listenModel,
};

/** Whether a scenario's model keeps state in SQLite (the host must pass `ledger` with sql.js). */
export function usesSqlite(scenario: Scenario): boolean {
  return scenario.kind === 'ledger' || scenario.kind === 'task';
}

export function settingsSpecFor(scenario: Scenario): SettingsSpec {
  return models[scenario.kind].settingsSpec;
}

/** The settings spec of the model that made a transcript of `kind`, or null for a kind no model runs (a probe's recording). */
export function settingsSpecOfKind(kind: ModelKind): SettingsSpec | null {
  return kind in models ? models[kind as ScenarioKind].settingsSpec : null;
}

export type TranscriptOf<S extends Scenario> = Transcript<S['kind']>;

/**
 * A fault can take a run where its model does not go (a proxy asked to lose a message it holds, a
 * stdio pipe dropped under a request, a crash while the other connection is mid-transaction): the
 * model's own assertions stop it there. With faults injected that is a refusal of the fault (LAB023,
 * naming what the model met), not a crash; without faults it stays the defect it is.
 */
function executeWithFaults<T>(faults: readonly MessageFault[], execute: () => T): T {
  if (faults.length === 0) return execute();
  try {
    return execute();
  } catch (error) {
    if (!(error instanceof InvariantError)) throw error;
    throw new LabError(
      'LAB023',
      `${formatFaults(faults)}: this model does not follow a run with this fault (it stops at: ${error.message}); try another message or fault`,
    );
  }
}

/**
 * The run a model executes, made by `new` rather than written as an object literal: it lives as long
 * as the run and holds its chooser (an explorer's driver, and through it the run), and V8 came to
 * allocate such literals in its old generation, where a dead one kept its run alive through the
 * young-generation collections after it. Its fields are the literal's, in its order.
 */
class OneRun implements ResolvedRun {
  constructor(
    readonly transport: Transport,
    readonly seed: number,
    readonly settings: Settings,
    readonly chooser: ResolvedRun['chooser'],
    readonly trace: ResolvedRun['trace'],
    readonly ledger: ResolvedRun['ledger'],
    readonly record: ResolvedRun['record'],
    readonly faults: readonly MessageFault[],
    readonly components: ResolvedRun['components'],
  ) {}
}

export function runScenario<S extends Scenario>(scenario: S, options: RunOptions = {}): TranscriptOf<S> {
  return scenarioRunner(scenario, options)(options);
}

/** What a run of `scenarioRunner` brings of its own: its ordering and a student's parts. */
export type OwnRun = Pick<RunOptions, 'chooser' | 'schedule' | 'components'>;

/**
 * Runs of one scenario that differ only in their ordering and a student's parts (an exploration's
 * orderings, a shrink's): the transport, seed and settings of `options` are checked and resolved once,
 * and each run is the transcript `runScenario` gives with the run's own chooser, schedule and parts in
 * place of those of `options` (each run is given its own copy of the settings). A bad dimension throws
 * here, as `runScenario` throws before it runs anything.
 */
export function scenarioRunner<S extends Scenario>(scenario: S, options: RunOptions): (run: OwnRun) => TranscriptOf<S> {
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const model = models[scenario.kind] as Model<S, OutcomeByKind[S['kind']], LabEvent>;
  const resolved = resolveSettings(model.settingsSpec, { ...scenario.settings }, options.settings ?? {});
  const faults = options.faults ?? [];
  return (run) => {
    const settings = { ...resolved };
    const replay = run.schedule === undefined ? null : replaySchedule(run.schedule);
    const { events, outcome } = executeWithFaults(faults, () =>
      model.execute(
        scenario,
        new OneRun(
          transport,
          seed,
          settings,
          replay?.chooser ?? run.chooser,
          options.trace,
          options.ledger,
          options.record,
          faults,
          run.components,
        ),
      ),
    );
    replay?.finish();
    const transcript: TranscriptOf<S> = {
      scenario: scenario.id,
      transport,
      seed,
      settings,
      kind: scenario.kind,
      title: scenario.title,
      requirements: [...scenario.requirements],
      protocolVersion: PROTOCOL_VERSION,
      ...(run.schedule === undefined ? {} : { schedule: formatSchedule(run.schedule) }),
      ...(faults.length === 0 ? {} : { faults: formatFaults(faults) }),
      events,
      outcome,
    };
    return transcript;
  };
}
