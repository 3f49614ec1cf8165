/**
 * Which SDK the `ts-sdk` implementation runs (issue #13). Kept apart from the runner so the page
 * can name the SDK and its protocol revision without loading it; sdkVersion.test.ts checks both
 * against the installed package and package.json's exact pin.
 */
export const TS_SDK_PACKAGE = '@modelcontextprotocol/sdk';
export const TS_SDK_VERSION = '1.32.2';
/** The revision SDK 1.32.2 offers and negotiates (its `LATEST_PROTOCOL_VERSION`), older than the lab's 2026-07-28. */
export const TS_SDK_PROTOCOL_VERSION = '2025-11-25';
/** Settings of A–D the SDK decides for itself: passing any of them with ts-sdk is refused (LAB022); the page keeps them for the model. */
export const SETTINGS_NOT_APPLIED: Readonly<Record<string, string>> = {
  requestId: 'the SDK numbers its own requests from 0 (initialize is 0, the tool call 1)',
  httpCancel: 'the SDK POSTs notifications/cancelled on every transport',
  afterCancel: 'the SDK’s server sends no response for a request it aborted',
  clientProfile: 'this run is the SDK itself, not a profile of it',
  progressResetsMax: 'the SDK’s maxTotalTimeout never moves',
};

