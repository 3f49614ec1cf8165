import type { Implementation } from '../engine';

/**
 * Which SDKs the `ts-sdk` and `ts-sdk-v2` implementations run. Kept apart from the runners so the
 * page can name each SDK and its protocol revision without loading it; tsSdkRace.test.ts and
 * tsSdkV2Race.test.ts check them against the installed packages and package.json's exact pins.
 */
export const TS_SDK_PACKAGE = '@modelcontextprotocol/sdk';
export const TS_SDK_VERSION = '1.32.2';
/** The revision SDK 1.32.2 offers and negotiates (its `LATEST_PROTOCOL_VERSION`), older than the lab's 2026-07-28. */
export const TS_SDK_PROTOCOL_VERSION = '2025-11-25';
/** Settings of A–D the SDK decides for itself: passing any of them with ts-sdk is refused (LAB025); the page keeps them for the model. */
export const SETTINGS_NOT_APPLIED: Readonly<Record<string, string>> = {
  requestId: 'the SDK numbers its own requests from 0 (initialize is 0, the tool call 1)',
  httpCancel: 'the SDK POSTs notifications/cancelled on every transport',
  afterCancel: "the SDK's server sends no response for a request it aborted",
  clientProfile: 'this run is the SDK itself, not a profile of it',
  progressResetsMax: "the SDK's maxTotalTimeout never moves",
};

/**
 * The `ts-sdk-v2` implementation: the official v2 packages, the SDK of the revision the lab models.
 * Client and server are two packages over one core, all three pinned exactly at one version.
 */
export const TS_SDK_V2_PACKAGES = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
] as const;
export const TS_SDK_V2_PACKAGE = '@modelcontextprotocol/client + server';
export const TS_SDK_V2_VERSION = '2.4.0';
/** The revision the v2 lane negotiates: the first of v2's "modern era", the lab's own. */
export const TS_SDK_V2_PROTOCOL_VERSION = '2026-07-28';
/** Settings of A–D the v2 SDK decides for itself (as for 1.x, except that v2 itself picks the HTTP signal). */
export const SETTINGS_NOT_APPLIED_V2: Readonly<Record<string, string>> = {
  requestId:
    'the SDK numbers its own requests from 0 (the tool call is 0: the 2026-07-28 era has no initialize request)',
  httpCancel:
    "the SDK decides its cancellation signal: on Streamable HTTP it aborts the request's fetch, on stdio it sends notifications/cancelled",
  afterCancel: "the SDK's server sends no response for a request it aborted",
  clientProfile: 'this run is the SDK itself, not a profile of it',
  progressResetsMax: "the SDK's maxTotalTimeout never moves",
};

/**
 * The `ext-tasks` implementation: the tasks extension's own TypeScript package, a requester (client)
 * library over the v2 `Client`. It ships no 2026-07-28 task server, so its lane runs the package's
 * client against a task server the lane writes on the package's own V2 schemas (extTasksRun.ts).
 */
export const EXT_TASKS_PACKAGE = '@modelcontextprotocol/ext-tasks';
export const EXT_TASKS_VERSION = '0.2.2';
/** The extension revision the package's V2 generation speaks (its schemas are pinned to it). */
export const EXT_TASKS_PROTOCOL_VERSION = '2026-07-28';
/** Settings of a task scenario the package decides for itself. */
export const SETTINGS_NOT_APPLIED_EXT_TASKS: Readonly<Record<string, string>> = {
  ackIsFinal:
    'the package decides: once tasks/cancel is acknowledged it ends the execution as cancelled and stops polling (client/dist/execution.js, TaskExecution.cancel); the extension lets a client stop polling once it cancels',
};

/**
 * The settings each SDK decides for itself, by implementation: the one table that both the run
 * resolver (which refuses them, LAB025) and each SDK lane (whose transcript lists them) read.
 */
export const SETTINGS_NOT_APPLIED_BY: Readonly<
  Record<Exclude<Implementation, 'model'>, Readonly<Record<string, string>>>
> = {
  'ts-sdk': SETTINGS_NOT_APPLIED,
  'ts-sdk-v2': SETTINGS_NOT_APPLIED_V2,
  'ext-tasks': SETTINGS_NOT_APPLIED_EXT_TASKS,
};

/** Which kind of scenario each real implementation runs: the SDKs the request races, ext-tasks the durable tasks. */
export const IMPLEMENTATION_RUNS: Readonly<Record<Exclude<Implementation, 'model'>, 'request-race' | 'task'>> = {
  'ts-sdk': 'request-race',
  'ts-sdk-v2': 'request-race',
  'ext-tasks': 'task',
};

/**
 * Messages of the v2 lane that fail the official 2026-07-28 schema, each a finding about the SDK, shown
 * beside the run's facts; tsSdkV2Race.test.ts validates every message of A–D on both transports and
 * fails when a message fails that is not listed here, or a listed one no longer fails. v2 2.4.0 has none.
 */
export const V2_SCHEMA_FINDINGS: ReadonlyArray<{ readonly finding: string; readonly why: string }> = [];
