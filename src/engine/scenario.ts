import { LabError } from './errors';
import type { Chooser, SchedulerOptions } from './scheduler';
import { pinnedChooser } from './scheduler';
import { resolveSettings, type SettingsSpec } from './settings';
import { PROTOCOL_VERSION } from './protocol';
import { RequestRace, requestRaceSettingsSpec, type RequestRaceSettings } from './requestRace';
import { LedgerLab, ledgerSettingsSpec, type LedgerHost, type LedgerSettings } from './ledger/ledgerLab';
import type { LedgerOutcome } from './ledger/events';
import { TaskLab, taskSettingsSpec, type TaskSettings } from './tasks/taskLab';
import type { TaskOutcome, TaskStatus } from './tasks/events';
import { bufferModel } from './bufferOverload';
import { proxyModel } from './proxyBuffering';
import { reconnectModel } from './reconnectListen';
import { herdModel } from './herd';
import type { BufferOutcome, BufferScenario, HerdOutcome, HerdScenario, ProxyOutcome, ProxyScenario, ReconnectOutcome, ReconnectScenario } from './flowTypes';
import type { CancellationSignal, LabEvent, Outcome, RequestOutcome, Settings, TerminalState, Transcript, Transport } from './transcript';

/**
 * A scenario is one data file (STYLE: "one scenario is one data file"): id, title, the SPEC ids it
 * demonstrates, its `kind` (which model runs it), its default settings, and what it must show.
 * Vitest, Playwright, the command line and the page all read the same object. A model turns a
 * scenario plus resolved settings into events and an outcome; `runScenario` wraps that in the
 * transcript every consumer reads.
 */
export interface ScenarioMeta {
  readonly id: string;
  readonly title: string;
  readonly topic: string;
  /** One paragraph for someone who has never seen MCP. */
  readonly summary: string;
  readonly requirements: readonly string[];
  readonly defaultTransport: Transport;
}

export interface ScriptStep {
  /** A virtual time, or the name of a setting that holds one (a null setting skips the step). */
  readonly at: number | 'cancelAtMs';
  readonly do: 'call' | 'cancel';
}

export interface ExpectedOutcome {
  readonly terminalState: TerminalState;
  readonly finalResponse: boolean;
  readonly cancellationSignal: CancellationSignal;
  /** The summaries of the messages the client must ignore, in order. */
  readonly clientIgnores: readonly string[];
}

export interface RequestRaceScenario extends ScenarioMeta {
  readonly kind: 'request-race';
  readonly settings: RequestRaceSettings;
  readonly script: readonly ScriptStep[];
  /** Label prefixes that pin the order of same-instant events; empty: insertion order. */
  readonly pinnedOrder: readonly string[];
  readonly expected: Readonly<Record<Transport, ExpectedOutcome>>;
}

/** What a ledger scenario must show (SPEC §2); the test and the CLI compare the outcome with it. */
export interface LedgerScenario extends ScenarioMeta {
  readonly kind: 'ledger';
  readonly settings: LedgerSettings;
  readonly expected: {
    readonly executions: number;
    readonly rejected: number;
    readonly replayed: number;
    readonly aliasIntact?: boolean | null;
  };
}

/** What a durable-task scenario must end with (SPEC §4). */
export interface TaskScenario extends ScenarioMeta {
  readonly kind: 'task';
  readonly settings: TaskSettings;
  readonly expected: { readonly taskStatus: TaskStatus; readonly statusAfterAck: TaskStatus | null; readonly resultRetrieved: boolean };
}

/** Every kind of scenario; each model adds its member. */
export type Scenario = RequestRaceScenario | LedgerScenario | TaskScenario | BufferScenario | ProxyScenario | ReconnectScenario | HerdScenario;
export type ScenarioKind = Scenario['kind'];

export interface RunOptions {
  readonly transport?: Transport;
  readonly seed?: number;
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Overrides the scenario's pinned order (property tests and explorers draw their own). */
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
  /** sql.js and the ledger file, for ledger scenarios (the host loads sql.js; the engine stays synchronous). */
  readonly ledger?: LedgerHost;
}

export interface ResolvedRun {
  readonly transport: Transport;
  readonly seed: number;
  readonly settings: Settings;
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
  readonly ledger?: LedgerHost;
}

export interface Model<S extends Scenario> {
  readonly settingsSpec: SettingsSpec;
  execute(scenario: S, run: ResolvedRun): { events: LabEvent[]; outcome: Outcome };
}

export const DEFAULT_SEED = 1;

export function checkTransport(value: unknown): Transport {
  if (value === 'stdio' || value === 'http') return value;
  throw new LabError('LAB002', `${JSON.stringify(value)} is not a transport; use "stdio" or "http" (Streamable HTTP)`);
}

export function checkSeed(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 0xffff_ffff) return value;
  throw new LabError('LAB003', `${JSON.stringify(value)} is not a seed; use an integer from 0 to 4294967295`);
}

const requestRaceModel: Model<RequestRaceScenario> = {
  settingsSpec: requestRaceSettingsSpec,
  execute(scenario, run) {
    const settings = run.settings as unknown as RequestRaceSettings;
    const race = new RequestRace({
      transport: run.transport,
      seed: run.seed,
      settings,
      chooser: run.chooser ?? (scenario.pinnedOrder.length > 0 ? pinnedChooser(scenario.pinnedOrder) : undefined),
      trace: run.trace,
    });
    // Script steps are causal: each is scheduled when the one before it has run, so a same-instant
    // chooser can reorder a step against the simulation's events but never against its own script.
    const steps = scenario.script.flatMap((step) => {
      const atMs = step.at === 'cancelAtMs' ? settings.cancelAtMs : step.at;
      return atMs === null ? [] : [{ atMs, action: step.do }];
    });
    const scheduleStep = (index: number): void => {
      const step = steps[index];
      if (step === undefined) return;
      race.scheduleAt(Math.max(step.atMs, race.scheduler.nowMs), `script ${step.action}`, (r) => {
        if (step.action === 'call') r.call();
        else r.cancel();
        scheduleStep(index + 1);
      });
    };
    scheduleStep(0);
    race.runToEnd();
    return { events: race.events, outcome: race.outcome() };
  },
};

const ledgerModel: Model<LedgerScenario> = {
  settingsSpec: ledgerSettingsSpec,
  execute(_scenario, run) {
    const lab = new LedgerLab({ transport: run.transport, seed: run.seed, settings: run.settings as unknown as LedgerSettings, host: run.ledger, chooser: run.chooser, trace: run.trace });
    let completed = false;
    try {
      lab.run();
      const outcome = lab.outcome();
      completed = true;
      return { events: lab.events, outcome };
    } finally {
      // A run that failed part-way saves nothing: the host's file stays as it was.
      lab.close(completed);
    }
  },
};

const taskModel: Model<TaskScenario> = {
  settingsSpec: taskSettingsSpec,
  execute(_scenario, run) {
    const lab = new TaskLab({ transport: run.transport, seed: run.seed, settings: run.settings as unknown as TaskSettings, host: run.ledger, chooser: run.chooser, trace: run.trace });
    let completed = false;
    try {
      lab.run();
      const outcome = lab.outcome();
      completed = true;
      return { events: lab.events, outcome };
    } finally {
      // As for the ledger: only a completed run hands its file to the host (issue #14: `--ledger` keeps task files too).
      lab.close(completed);
    }
  },
};

/** One model per scenario kind. */
const models: { readonly [K in ScenarioKind]: Model<Extract<Scenario, { kind: K }>> } = {
  'request-race': requestRaceModel,
  ledger: ledgerModel,
  task: taskModel,
  buffer: bufferModel,
  proxy: proxyModel,
  reconnect: reconnectModel,
  herd: herdModel,
};

/** Whether a scenario's model keeps state in SQLite (the host must pass `ledger` with sql.js). */
export function usesSqlite(scenario: Scenario): boolean {
  return scenario.kind === 'ledger' || scenario.kind === 'task';
}

export function settingsSpecFor(scenario: Scenario): SettingsSpec {
  return models[scenario.kind].settingsSpec;
}

/** Which outcome each kind of scenario produces. */
export interface OutcomeByKind {
  'request-race': RequestOutcome;
  ledger: LedgerOutcome;
  task: TaskOutcome;
  buffer: BufferOutcome;
  proxy: ProxyOutcome;
  reconnect: ReconnectOutcome;
  herd: HerdOutcome;
}

export type TranscriptOf<S extends Scenario> = Transcript<OutcomeByKind[S['kind']]>;

export function runScenario<S extends Scenario>(scenario: S, options: RunOptions = {}): TranscriptOf<S> {
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const model = models[scenario.kind] as Model<Scenario>;
  const settings = resolveSettings(model.settingsSpec, { ...scenario.settings }, options.settings ?? {});
  const { events, outcome } = model.execute(scenario, { transport, seed, settings, chooser: options.chooser, trace: options.trace, ledger: options.ledger });
  return {
    scenario: scenario.id,
    transport,
    seed,
    settings,
    kind: scenario.kind,
    title: scenario.title,
    requirements: [...scenario.requirements],
    protocolVersion: PROTOCOL_VERSION,
    events,
    outcome: outcome as OutcomeByKind[S['kind']],
  };
}
