import { sdkRefusal } from './refusal';
import { SETTINGS_NOT_APPLIED_BY } from './version';
import {
  LabError,
  checkSeed,
  checkTransport,
  raceInvariants,
  requestRaceSettingsSpec,
  resolveSettings,
  DEFAULT_SEED,
  type LabEvent,
  type RequestOutcome,
  type RequestRaceScenario,
  type RequestRaceSettings,
  type RunOptions,
  type Transcript,
  type Transport,
} from '../engine';
import { FLUSH_TURNS, clockDriver, onSharedClock, realTurn, type InstalledClock } from './sdkClock';
import { SdkRace, TOOL_NAME, USER_CANCEL_REASON, type SdkLane, type SdkSession } from './sdkRace';

/**
 * A request race (scenarios A–D) driven by a real MCP TypeScript SDK on the virtual clock: its
 * `Client` is the client lane and its low-level `Server` the server lane, joined in memory (stdio)
 * or by an in-process `fetch` (Streamable HTTP). The SDK's own timers run on @sinonjs/fake-timers,
 * installed on the global for the run only and removed after it. Nothing of the SDK is patched or
 * reimplemented: the lab only taps each transport's `send` to record what a side put on the wire,
 * and delays delivery by the scenario's latency; the tool follows the scenario's script (work in
 * chunks, a checkpoint each, progress at each, completion). Which SDK runs is a lane (`SdkLane`):
 * SDK 1.x in tsSdkRace.ts, the v2 packages in tsSdkV2Race.ts; this harness imports neither.
 *
 * The parts, one concern a file: the clock (sdkClock.ts), the recorder of the wire (sdkRecorder.ts)
 * and of the race (sdkRace.ts), the transport tap (sdkTap.ts) and the in-process fetch (sdkFetch.ts);
 * this file runs the scenario's script on them.
 *
 * What the lab cannot see inside the SDK it does not invent: there are no `deadline` events (the
 * SDK's timers are private); the client's ending is what `callTool` resolved or rejected with, at
 * the moment it did, in the SDK's own words.
 */
/**
 * What an SDK lane runs: the engine's run options an SDK can honour (transport, seed, settings); an
 * ordering and faults are the model's alone (the lab's run description refuses them for an SDK: `sdkRefusal`).
 */
export interface TsSdkRunOptions extends Pick<RunOptions, 'transport' | 'seed' | 'settings'> {
  /** Called before each virtual step with the virtual time; may throw to stop the run (a wall-clock budget, the page's Stop). */
  readonly onStep?: (atMs: number) => void;
}

/**
 * Runs a request-race scenario (A–D) on the lane's SDK and returns its transcript, in the lab's
 * format, with the lane's `implementation`. Same seed and settings → byte-identical transcript.
 * The fake clock is installed on the global object for this call only and always removed.
 */
export async function runSdkRace(
  lane: SdkLane,
  scenario: RequestRaceScenario,
  options: TsSdkRunOptions = {},
): Promise<Transcript<'request-race'>> {
  const impl = lane.implementation;
  // The lab's run description decides what an SDK cannot run; a direct caller meets the same refusal.
  const refusal = sdkRefusal(
    scenario,
    options.settings ?? {},
    false,
    false,
    impl,
    options.transport ?? scenario.defaultTransport,
  );
  if (refusal !== null) throw refusal;
  const unsupported = scenario.script.find((step) => step.do !== 'call' && step.do !== 'cancel');
  if (unsupported !== undefined)
    throw new LabError(
      'LAB025',
      `scenario ${scenario.id} scripts "${unsupported.do}", which the SDK's Client cannot send. Nothing was run`,
    );
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const settings = resolveSettings(
    requestRaceSettingsSpec,
    { ...scenario.settings },
    options.settings ?? {},
  ) as RequestRaceSettings;
  return onSharedClock(
    () => Promise.resolve(),
    (clock) => runOnClock(lane, clock, scenario, transport, seed, settings, options.onStep),
  );
}

async function runOnClock(
  lane: SdkLane,
  clock: InstalledClock,
  scenario: RequestRaceScenario,
  transport: Transport,
  seed: number,
  settings: RequestRaceSettings,
  onStep: TsSdkRunOptions['onStep'],
): Promise<Transcript<'request-race'>> {
  const race = new SdkRace(lane, clock, transport, seed, settings);
  const session = lane.join(race, transport, seed);
  const drive = clockDriver(clock, race, {
    eventsMax: settings.eventsMax,
    horizonMs: raceHorizonMs(settings),
    onStep,
    runName: 'the SDK run',
    timersOf: 'the SDK',
    afterTurns: () => race.settle(),
  });
  const negotiated = await handshake(race, session, drive);
  // The scenario's script, on the SDK's own clock.
  scheduleScript(race, session, scenario, settings);
  await drive();

  const events = race.log.events;
  const outcome = race.outcome();
  race.stopRecording();
  await session.close();
  for (let turn = 0; turn < FLUSH_TURNS; turn += 1) await realTurn();
  return raceTranscript(race, scenario, negotiated, events, outcome);
}

/** Past this virtual time the SDK's timers outlive any deadline the settings allow. */
function raceHorizonMs(settings: RequestRaceSettings): number {
  return (
    settings.workMs +
    settings.idleTimeoutMs +
    settings.maxTimeoutMs +
    (settings.cancelAtMs ?? 0) +
    100 * (settings.latencyMs + settings.latencyJitterMs) +
    60_000
  );
}

/**
 * The session first: the SDK's handshake (initialize, or v2's server/discover probe), instantly,
 * before the scenario's clock starts. Returns the revision the SDK negotiated.
 */
async function handshake(race: SdkRace, session: SdkSession, drive: () => Promise<void>): Promise<string> {
  let connected = false;
  const connecting = session.connect().then(() => (connected = true));
  connecting.catch(() => undefined);
  await drive();
  if (!connected) {
    await connecting;
    throw new LabError('LAB026', 'the SDK did not finish its handshake');
  }
  race.endHandshake();
  return session.negotiatedProtocolVersion(race.log.events);
}

/** Sets the scenario's script on the clock: the tool call through `callTool`, and the user's cancel as an abort of its signal. */
function scheduleScript(
  race: SdkRace,
  session: SdkSession,
  scenario: RequestRaceScenario,
  settings: RequestRaceSettings,
): void {
  const abort = new AbortController();
  let userCancelled = false;
  const stepsAt = scenario.script.flatMap((step) => {
    const atMs = step.at === 'cancelAtMs' ? settings.cancelAtMs : step.at;
    return atMs === null ? [] : [{ atMs, action: step.do }];
  });
  for (const step of stepsAt) {
    const act = (): void => {
      if (step.action === 'call') {
        session
          .callTool(
            TOOL_NAME,
            { quarter: '2026-Q3' },
            {
              timeout: settings.idleTimeoutMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: settings.maxTimeoutMs,
              signal: abort.signal,
              ...(settings.progressToken ? { onprogress: () => race.clientProgressAccepted() } : {}),
            },
          )
          .then(
            () => race.clientSettled(),
            (error: unknown) => race.clientRejected(error, userCancelled),
          );
      } else {
        userCancelled = true;
        abort.abort(USER_CANCEL_REASON);
      }
    };
    if (step.atMs <= race.nowMs) race.dueNow.push(act);
    else setTimeout(act, step.atMs - race.nowMs);
  }
}

/** The race's transcript in the lab's format, with what the lane's SDK is and did in `sdk`. */
function raceTranscript(
  race: SdkRace,
  scenario: RequestRaceScenario,
  negotiated: string,
  events: LabEvent[],
  outcome: RequestOutcome,
): Transcript<'request-race'> {
  const { lane, transport } = race;
  const transcript: Transcript<'request-race'> = {
    scenario: scenario.id,
    transport,
    seed: race.seed,
    settings: race.settings,
    kind: 'request-race',
    title: scenario.title,
    requirements: [...scenario.requirements],
    protocolVersion: negotiated,
    implementation: lane.implementation,
    events,
    outcome,
  };
  transcript.sdk = {
    package: lane.package,
    version: lane.version,
    negotiatedProtocolVersion: negotiated,
    settingsNotApplied: { ...SETTINGS_NOT_APPLIED_BY[lane.implementation] },
    invariants: raceInvariants(transcript),
    ...(transport === 'http' ? { postHeaders: race.postHeaders } : {}),
  };
  return transcript;
}

/** The protocol revision in the server's initialize result, as it went on the wire. */
export function negotiatedInInitialize(events: readonly LabEvent[]): string {
  for (const event of events) {
    if (
      event.kind === 'message' &&
      event.from === 'server' &&
      'result' in event.message &&
      typeof event.message.result.protocolVersion === 'string'
    )
      return event.message.result.protocolVersion;
  }
  return 'unknown';
}
