import { LabError } from './errors';
import type { Chooser, SchedulerOptions } from './scheduler';
import { pinnedChooser } from './scheduler';
import { resolveSettings } from './settings';
import { RequestRace, requestRaceSettingsSpec, type RequestRaceSettings } from './requestRace';
import type { CancellationSignal, TerminalState, Transcript, Transport } from './transcript';

/**
 * A scenario is one data file (STYLE: "one scenario is one data file"): id, title, the SPEC ids it
 * demonstrates, its default settings, its script, and what its outcome must be on each transport.
 * Vitest, Playwright, the command line and the page all read the same object.
 */
export interface ScriptStep {
  /** A virtual time, or the name of a setting that holds one (a null setting skips the step). */
  readonly at: number | 'cancelAtMs';
  readonly do: 'call' | 'cancel';
}

export interface ExpectedOutcome {
  readonly terminalState: TerminalState;
  readonly finalResponse: boolean;
  readonly cancellationSignal: CancellationSignal;
  /** How many messages the client must ignore, and what they are. */
  readonly clientIgnores: readonly string[];
}

export interface RequestRaceScenario {
  readonly id: string;
  readonly kind: 'request-race';
  readonly title: string;
  readonly topic: string;
  /** One paragraph for someone who has never seen MCP. */
  readonly summary: string;
  readonly requirements: readonly string[];
  readonly defaultTransport: Transport;
  readonly settings: RequestRaceSettings;
  readonly script: readonly ScriptStep[];
  /** Label prefixes that pin the order of same-instant events; empty: insertion order. */
  readonly pinnedOrder: readonly string[];
  readonly expected: Readonly<Record<Transport, ExpectedOutcome>>;
}

export type Scenario = RequestRaceScenario;

export interface RunOptions {
  readonly transport?: Transport;
  readonly seed?: number;
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Overrides the scenario's pinned order (property tests and explorers draw their own). */
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
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

export function runScenario(scenario: Scenario, options: RunOptions = {}): Transcript {
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const settings = resolveSettings(requestRaceSettingsSpec, { ...scenario.settings }, options.settings ?? {}) as unknown as RequestRaceSettings;
  const race = new RequestRace({
    scenario: scenario.id,
    title: scenario.title,
    requirements: scenario.requirements,
    transport,
    seed,
    settings,
    chooser: options.chooser ?? (scenario.pinnedOrder.length > 0 ? pinnedChooser(scenario.pinnedOrder) : undefined),
    trace: options.trace,
  });
  // Script steps are causal: each is scheduled when the one before it has run, so a same-instant
  // chooser can reorder the step against the simulation's events but never against its own script.
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
  return race.runToEnd().transcript();
}
