/**
 * What `clientProfile=ts-sdk-1.x` models, one row per behaviour, each with where the official MCP
 * TypeScript SDK 1.32.2 does it (`dist/esm/shared/protocol.js` of `@modelcontextprotocol/sdk@1.32.2`,
 * read from the npm tarball; the lab does not depend on the SDK). A reader can compare each row with
 * that file; tsSdkProfile.test.ts runs the model and checks the rows that show on the wire.
 *
 * The profile maps the scenario's two deadlines onto the SDK's request options: `timeout` =
 * idleTimeoutMs, `resetTimeoutOnProgress: true`, `maxTotalTimeout` = maxTimeoutMs — the closest the
 * SDK comes to the spec's idle and maximum deadlines. (Its own defaults are looser still: rows 1–3.)
 */
export interface SdkExpectation {
  readonly behaviour: string;
  /** What the lab's `spec` profile does instead. */
  readonly spec: string;
  /** Where SDK 1.32.2 does it. */
  readonly source: string;
}

export const TS_SDK_1X_EXPECTATIONS: readonly SdkExpectation[] = [
  {
    behaviour: '`timeout` defaults to 60,000 ms',
    spec: 'the scenario sets idleTimeoutMs (the profile passes it as `timeout`)',
    source: 'protocol.js:8 DEFAULT_REQUEST_TIMEOUT_MSEC = 60000; :740 options?.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC',
  },
  {
    behaviour: '`resetTimeoutOnProgress` defaults to false: without it progress resets nothing and `timeout` is absolute',
    spec: 'progress MAY reset the idle deadline (RC-2); the profile passes resetTimeoutOnProgress: true',
    source: 'protocol.js:742 options?.resetTimeoutOnProgress ?? false',
  },
  {
    behaviour: '`maxTotalTimeout` has no default and no timer of its own: it is checked only when a progress notification arrives',
    spec: 'the maximum deadline is a timer that fires at start + maxTimeoutMs whatever arrives (RC-1, RC-2)',
    source: 'protocol.js:191-205 _resetTimeout (the only check), called from :462 _onprogress',
  },
  {
    behaviour: 'when progress finds `maxTotalTimeout` exceeded, the request is rejected locally and nothing is sent',
    spec: 'the client sends its cancellation the moment the maximum fires (SHOULD cancel on timeout)',
    source: 'protocol.js:196-201 throws RequestTimeout; :466-472 rejects, no transport.send',
  },
  {
    behaviour: 'the idle timer stays armed after that rejection and later sends notifications/cancelled, after the client gave up',
    spec: 'both deadlines are disarmed when the client ends; the cancellation is sent once, when it gives up',
    source: 'protocol.js:197 _timeoutInfo.delete before the throw, so :470 _cleanupTimeout finds nothing to clear; the timer calls cancel() :698-712',
  },
  {
    behaviour: 'a response that arrives after the client gave up leaves the timer armed too',
    spec: 'a late response is ignored; nothing more is sent',
    source: 'protocol.js:492-495 returns on an unknown id before :498 _cleanupTimeout',
  },
  {
    behaviour: 'on Streamable HTTP the client also sends notifications/cancelled (POSTed) instead of closing the request’s stream',
    spec: 'on Streamable HTTP closing the response stream is the cancellation (RC-5)',
    source: 'protocol.js:701-712 cancel() calls transport.send({ method: "notifications/cancelled" }) on every transport',
  },
];
