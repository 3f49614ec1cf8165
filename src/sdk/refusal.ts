import { LabError, type Implementation, type Scenario, type Transport } from '../engine';
import { IMPLEMENTATION_RUNS, SETTINGS_NOT_APPLIED_BY } from './version';

/**
 * `requestId=0` with ts-sdk on Streamable HTTP: SDK 1.x reaches request id 0 for its tool call when its
 * client resumes a session (the transport's `sessionId` option), where it sends no initialize and numbers
 * from 0 again. The one value of a setting the SDK otherwise decides that a run may ask of it (the
 * known-bugs gallery's `bug-cancel-request-id-0`); the 1.x lane (tsSdkRace.ts) runs it so.
 */
export function resumesSession(
  impl: Implementation,
  settings: Readonly<Record<string, unknown>>,
  transport: Transport | undefined,
): boolean {
  return impl === 'ts-sdk' && transport === 'http' && settings.requestId === 0;
}

/**
 * The herd's settings an SDK decides on `herd:impl=ts-sdk` (and ts-sdk-v2): each client's wait is the
 * SDK's own reconnection delay (sdk/sdkBackoff.ts), so the policy and its base and cap are the SDK's
 * (the nearest the herd's words have); a run may name them only with these values.
 */
export const SDK_HERD_SETTINGS = { policy: 'exponential', baseMs: 1_000, capMs: 30_000 } as const;

/**
 * Why the real SDK cannot run this: another kind of scenario, an ordering or faults, or a setting it
 * decides itself. The run spec (src/runs/runSpec.ts) and each SDK lane ask it, so it lives in the SDK
 * folder, which imports nothing of src/runs or src/lesson; apart from version.ts, which the page reads engine-free.
 */
export function sdkRefusal(
  scenario: Scenario,
  settings: Readonly<Record<string, unknown>>,
  replayed: boolean,
  keepSdkDecidedSettings: boolean,
  impl: Exclude<Implementation, 'model'> = 'ts-sdk',
  transport?: Transport,
): LabError | null {
  if (scenario.kind === 'herd' && impl !== 'ext-tasks') {
    if (replayed)
      return new LabError(
        'LAB025',
        `an explored ordering and faults apply to the lab's model; ${impl} orders its own work. Nothing was run`,
      );
    const own = (Object.keys(SDK_HERD_SETTINGS) as Array<keyof typeof SDK_HERD_SETTINGS>).find(
      (key) => Object.hasOwn(settings, key) && settings[key] !== SDK_HERD_SETTINGS[key],
    );
    return own === undefined || keepSdkDecidedSettings
      ? null
      : new LabError(
          'LAB025',
          `${own} cannot be set with ${impl} on the herd (it is ${String(SDK_HERD_SETTINGS[own])} there): every client waits the SDK's own reconnection delay, min(1000 × 1.5ⁿ, 30000) ms. Nothing was run`,
        );
  }
  const runs = IMPLEMENTATION_RUNS[impl];
  if (scenario.kind !== runs)
    return new LabError(
      'LAB025',
      `${impl} runs ${runs === 'task' ? 'the durable-task scenarios (task-…)' : 'the request races (A–D)'}; ${scenario.id} is a ${scenario.kind} scenario. Nothing was run`,
    );
  if (replayed)
    return new LabError(
      'LAB025',
      `an explored ordering and faults apply to the lab's model; ${impl} orders its own work. Nothing was run`,
    );
  if (keepSdkDecidedSettings) return null;
  const notApplied = SETTINGS_NOT_APPLIED_BY[impl];
  const decided = Object.keys(settings).find(
    (key) => Object.hasOwn(notApplied, key) && !(key === 'requestId' && resumesSession(impl, settings, transport)),
  );
  return decided === undefined
    ? null
    : new LabError('LAB025', `${decided} cannot be set with ${impl}: ${notApplied[decided]}. Nothing was run`);
}
