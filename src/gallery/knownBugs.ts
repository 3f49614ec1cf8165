/**
 * The known-bugs gallery: defects of the MCP packages people install today, each on record upstream,
 * each reproduced on the real package (pinned in package.json, nothing patched): a library on the lab's
 * virtual clock, a server through the probe (a committed recording). This file is data only, so the
 * page and `lab list` can show the gallery without loading any SDK; runKnownBug.ts runs an entry, and
 * knownBugs.test.ts holds each entry to the bug: it fails once the installed package stops showing it.
 *
 * Every `source` line was read in the installed package (file under node_modules/@modelcontextprotocol/,
 * line numbers of the pinned version); every `spec` sentence is quoted from the specification's pages.
 */

export type SpecLevel = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'none';

export interface SpecSentence {
  readonly revision: '2025-11-25' | '2026-07-28';
  readonly level: SpecLevel;
  /** The page under /specification/<revision>/. */
  readonly page: string;
  readonly text: string;
}

export interface UpstreamRef {
  /** `owner/repo#N` */
  readonly ref: string;
  readonly url: string;
  /** What it is and where it stood when the entry was written. */
  readonly what: string;
}

export interface SourceCite {
  /** Path under node_modules/. */
  readonly file: string;
  readonly lines: string;
  /** What those lines do, with the code quoted. */
  readonly says: string;
}

/** How the entry runs its real package. */
export type BugRun =
  /** Request races on the SDK lanes: run specs (`lab compare` syntax); the first is the lab's model. */
  | { readonly kind: 'sdk-race'; readonly model: string; readonly buggy: readonly string[]; readonly fixed?: string }
  /** The herd with the SDK's own reconnection delay function beside full jitter (the Backoff tab's herd). */
  | { readonly kind: 'herd'; readonly settings: Readonly<Record<string, number | boolean>> }
  /** A probe recording of a real server, committed as a fixture, beside the model of the same ordering. */
  | { readonly kind: 'probe'; readonly fixture: string; readonly probe: string; readonly model: string };

export interface KnownBug {
  readonly id: string;
  readonly title: string;
  /** What goes wrong, in two or three sentences. */
  readonly summary: string;
  /** The package(s) and the version the bug was seen in (the installed, pinned ones). */
  readonly packages: ReadonlyArray<{ readonly name: string; readonly version: string }>;
  readonly upstream: readonly UpstreamRef[];
  readonly spec: readonly SpecSentence[];
  readonly source: readonly SourceCite[];
  readonly workaround: string;
  readonly run: BugRun;
  /** The real package's run the page opens in the diagram, as a run spec; for a probe entry, its recording (`recorded <probe>`). */
  readonly diagram: string;
  /** What Compare shows, as run specs (`a` is the lab's model); for a probe entry `b` is the recording. */
  readonly compare: { readonly a: string; readonly b: string; readonly c?: string };
}

export const SDK_1X = { name: '@modelcontextprotocol/sdk', version: '1.32.2' } as const;
export const CLIENT_V2 = { name: '@modelcontextprotocol/client', version: '2.4.0' } as const;
export const SERVER_EVERYTHING = { name: '@modelcontextprotocol/server-everything', version: '2026.8.31' } as const;

const V1_PROTOCOL = '@modelcontextprotocol/sdk/dist/esm/shared/protocol.js';
const V2_CLIENT = '@modelcontextprotocol/client/dist/src-CeKsbNLO.mjs';

/** C without progress: the plain request timeout (4 s) is longer than the maximum (2 s). */
const NO_PROGRESS = 'serverSendsProgress=false,idleTimeoutMs=4000';

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'bug-max-timeout-without-progress',
    title: 'The maximum timeout is only checked when progress arrives',
    summary:
      "Both TypeScript SDK lines take maxTotalTimeout as the request's maximum, but check it only inside the progress handler. " +
      'A tool that sends no progress is never held to it: scenario C without progress, with a 2000 ms maximum and a 4000 ms request timeout, ' +
      'ends at 2000 ms in the lab\'s model and at 4000 ms ("Request timed out") on both SDKs.',
    packages: [SDK_1X, CLIENT_V2],
    upstream: [
      {
        ref: 'modelcontextprotocol/typescript-sdk#2695',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/issues/2695',
        what: 'issue, open (labels v1, v2): maxTotalTimeout is never enforced unless a progress notification arrives',
      },
      {
        ref: 'modelcontextprotocol/typescript-sdk#2763',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/pull/2763',
        what: 'fix, open: arm the timer with min(timeout, maxTotalTimeout)',
      },
    ],
    spec: [
      {
        revision: '2025-11-25',
        level: 'SHOULD',
        page: 'basic/lifecycle',
        text: 'Implementations **MAY** choose to reset the timeout clock when receiving a progress notification corresponding to the request, as this implies that work is actually happening. However, implementations **SHOULD** always enforce a maximum timeout, regardless of progress notifications, to limit the impact of a misbehaving client or server.',
      },
      {
        revision: '2026-07-28',
        level: 'SHOULD',
        page: 'basic/patterns/cancellation',
        text: 'However, implementations **SHOULD** always enforce a maximum timeout, regardless of progress notifications, to limit the impact of a misbehaving client or server.',
      },
    ],
    source: [
      {
        file: V1_PROTOCOL,
        lines: '181-190',
        says: '_setupTimeout arms one timer: `timeoutId: setTimeout(onTimeout, timeout)`; maxTotalTimeout is only stored',
      },
      {
        file: V1_PROTOCOL,
        lines: '191-205',
        says: '_resetTimeout is the one place that compares elapsed time with maxTotalTimeout (`if (info.maxTotalTimeout && totalElapsed >= info.maxTotalTimeout)`)',
      },
      {
        file: V1_PROTOCOL,
        lines: '462-472',
        says: '_onprogress is the only caller of _resetTimeout: without progress the maximum is never read',
      },
      { file: V2_CLIENT, lines: '5804-5828', says: 'v2 2.4.0: the same _setupTimeout and _resetTimeout' },
      { file: V2_CLIENT, lines: '6040-6047', says: 'v2 2.4.0: _onprogress, the only caller of _resetTimeout' },
    ],
    workaround:
      'Set `timeout` no longer than your maximum when the tool may send no progress (timeout = min(idle, maxTotalTimeout)), or pass your own AbortSignal and abort it with `AbortSignal.timeout(maxTotalTimeout)`: the SDK cancels the request when its signal aborts.',
    run: {
      kind: 'sdk-race',
      model: `C:${NO_PROGRESS}`,
      buggy: [`C:impl=ts-sdk,${NO_PROGRESS}`, `C:impl=ts-sdk-v2,${NO_PROGRESS}`],
    },
    diagram: `C:impl=ts-sdk,${NO_PROGRESS}`,
    compare: { a: `C:${NO_PROGRESS}`, b: `C:impl=ts-sdk,${NO_PROGRESS}`, c: `C:impl=ts-sdk-v2,${NO_PROGRESS}` },
  },
  {
    id: 'bug-reset-without-onprogress',
    title: 'Reset-on-progress that resets nothing',
    summary:
      '`resetTimeoutOnProgress: true` without an `onprogress` callback sends no progress token, so the server may send no progress and the idle timeout is never reset: ' +
      "under scenario C's steady 5 s of work the request times out at 500 ms on both SDKs, where a client that asks for progress is kept alive by it until its 2000 ms maximum.",
    packages: [SDK_1X, CLIENT_V2],
    upstream: [
      {
        ref: 'modelcontextprotocol/typescript-sdk#2076',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/issues/2076',
        what: 'issue, open (bug, fix proposed): resetTimeoutOnProgress only works when onprogress is provided',
      },
      {
        ref: 'modelcontextprotocol/typescript-sdk#2224',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/pull/2224',
        what: 'fix, open: advertise a progress token when resetTimeoutOnProgress is set',
      },
      {
        ref: 'anomalyco/opencode#32477',
        url: 'https://github.com/anomalyco/opencode/pull/32477',
        what: "a coding agent's downstream fix, merged: a no-op onprogress so the SDK sends the token",
      },
    ],
    spec: [
      {
        revision: '2025-11-25',
        level: 'MUST',
        page: 'basic/utilities/progress',
        text: 'When a party wants to _receive_ progress updates for a request, it includes a `progressToken` in the request metadata. … Progress notifications **MUST** only reference tokens that: Were provided in an active request; Are associated with an in-progress operation',
      },
    ],
    source: [
      {
        file: V1_PROTOCOL,
        lines: '671-680',
        says: 'the token is added only `if (options?.onprogress)`; resetTimeoutOnProgress is passed to _setupTimeout (line 742) and never looked at again without a token',
      },
      { file: V2_CLIENT, lines: '6188-6197', says: 'v2 2.4.0: the same `if (options?.onprogress)`' },
    ],
    workaround:
      'Always pass an `onprogress` callback (a no-op will do) wherever you pass `resetTimeoutOnProgress: true`.',
    run: {
      kind: 'sdk-race',
      model: 'C',
      buggy: ['C:impl=ts-sdk,progressToken=false', 'C:impl=ts-sdk-v2,progressToken=false'],
    },
    diagram: 'C:impl=ts-sdk,progressToken=false',
    compare: { a: 'C', b: 'C:impl=ts-sdk,progressToken=false', c: 'C:impl=ts-sdk-v2,progressToken=false' },
  },
  {
    id: 'bug-cancel-request-id-0',
    title: 'A cancellation for request id 0 is ignored',
    summary:
      "SDK 1.x's Protocol drops `notifications/cancelled` whose requestId is 0 (`if (!notification.params.requestId) return`): 0 is a valid JSON-RPC id, and the handler runs on and answers. " +
      "Scenario A with request id 0: the lab's model and v2 accept the cancellation and send nothing more; 1.x works on and sends a response the client discards. " +
      "The 1.x client reaches id 0 for a tool call when it resumes a session (the transport's sessionId option: no initialize, its ids start at 0 again), so that run is on Streamable HTTP; that resumption also reuses the initialize's id 0 within the session, which the run's \"one final response\" check counts.",
    packages: [SDK_1X],
    upstream: [
      {
        ref: 'modelcontextprotocol/typescript-sdk#2283',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/issues/2283',
        what: 'issue: a cancellation of request id 0 is dropped; fixed in the v2 packages (`=== undefined`)',
      },
      {
        ref: 'modelcontextprotocol/typescript-sdk#2502',
        url: 'https://github.com/modelcontextprotocol/typescript-sdk/pull/2502',
        what: 'one of the fix PRs for it',
      },
    ],
    spec: [
      {
        revision: '2025-11-25',
        level: 'SHOULD',
        page: 'basic/utilities/cancellation',
        text: 'Receivers of cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request',
      },
      {
        revision: '2025-11-25',
        level: 'MUST',
        page: 'basic/index',
        text: 'Requests **MUST** include a string or integer ID.',
      },
    ],
    source: [
      {
        file: V1_PROTOCOL,
        lines: '173-176',
        says: '`async _oncancel(notification) { if (!notification.params.requestId) { return; }`: 0 is falsy',
      },
      {
        file: '@modelcontextprotocol/sdk/dist/esm/client/index.js',
        lines: '276-280',
        says: 'Client.connect sends no initialize when the transport already has a session id (how the lab reaches id 0 for a tool call)',
      },
      {
        file: '@modelcontextprotocol/server/dist/src-DdvbAHrR.mjs',
        lines: '6348-6351',
        says: 'v2 2.4.0, fixed: `if (notification.params.requestId === void 0) return;`',
      },
    ],
    workaround:
      'Upgrade to the v2 packages. On 1.x, never let a request that may be cancelled carry id 0: a client can send a cheap first request (e.g. ping) after resuming a session so its tool calls start at 1; a server can stop work on its own when the client closes the request (HTTP) rather than rely on the notification.',
    run: {
      kind: 'sdk-race',
      model: 'A:requestId=0',
      buggy: ['A:impl=ts-sdk,transport=http,requestId=0'],
      fixed: 'A:impl=ts-sdk-v2',
    },
    diagram: 'A:impl=ts-sdk,transport=http,requestId=0',
    compare: { a: 'A:requestId=0', b: 'A:impl=ts-sdk,transport=http,requestId=0', c: 'A:impl=ts-sdk-v2' },
  },
  {
    id: 'bug-reconnect-without-jitter',
    title: 'Reconnect without jitter',
    summary:
      'Both SDK lines wait min(1000 × 1.5ⁿ, 30000) ms before reconnect attempt n of a Streamable HTTP stream, the same for every client: ' +
      "a fleet that lost its streams together retries together. The Backoff tab's herd (10,000 clients, 500 admitted per 100 ms) with every client using the SDK's own delay function, beside full jitter over the same ceiling.",
    packages: [SDK_1X, CLIENT_V2],
    upstream: [],
    spec: [
      {
        revision: '2026-07-28',
        level: 'none',
        page: 'basic/transports/streamable-http',
        text: 'The specification says nothing about how long a client waits before reconnecting a stream, nor about jitter. Its one sentence on jitter is about polling: "Implementations that do choose to poll **MUST** apply jitter and backoff." (server/utilities/caching). The jittered backoff is the lab\'s own requirement RV-4.',
      },
    ],
    source: [
      {
        file: '@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js',
        lines: '7-12',
        says: 'DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS: initialReconnectionDelay 1000, maxReconnectionDelay 30000, reconnectionDelayGrowFactor 1.5, maxRetries 2',
      },
      {
        file: '@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js',
        lines: '134-145',
        says: '_getNextReconnectionDelay: `Math.min(initialDelay * Math.pow(growFactor, attempt), maxDelay)`, no random term',
      },
      {
        file: '@modelcontextprotocol/client/dist/index.mjs',
        lines: '1269-1274, 1552-1558',
        says: 'v2 2.4.0: the same defaults and the same function',
      },
    ],
    workaround:
      'Your own `reconnectionOptions` are not enough (the function has no random term at any setting): add jitter yourself, e.g. close the transport on a dropped stream and reconnect after a random wait in [0, min(cap, base·2ⁿ)] (full jitter), or have the server send an SSE `retry` field that differs per client.',
    run: { kind: 'herd', settings: { baseMs: 1000, capMs: 30_000 } },
    diagram: 'herd:impl=ts-sdk',
    compare: { a: 'herd:baseMs=1000,capMs=30000', b: 'herd:impl=ts-sdk', c: 'herd:impl=ts-sdk-v2' },
  },
  {
    id: 'bug-work-after-cancel',
    title: 'Work goes on after the cancellation',
    summary:
      "server-everything's trigger-long-running-operation loops over its steps without looking at the request's abort signal: after the SDK accepted `notifications/cancelled` it sends no response, but the tool keeps sending progress for the cancelled request. " +
      "The probe's recording of the real server (committed) beside the lab's model of the same ordering, where the worker stops at its next checkpoint and nothing follows the cancellation.",
    packages: [SERVER_EVERYTHING],
    upstream: [
      {
        ref: 'modelcontextprotocol/servers#1124',
        url: 'https://github.com/modelcontextprotocol/servers/issues/1124',
        what: 'issue, open: add cancellation handling to the Everything server',
      },
    ],
    spec: [
      {
        revision: '2025-11-25',
        level: 'SHOULD',
        page: 'basic/utilities/cancellation',
        text: 'Receivers of cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request',
      },
      {
        revision: '2025-11-25',
        level: 'MUST',
        page: 'basic/utilities/progress',
        text: 'Progress notifications **MUST** only reference tokens that: Were provided in an active request; Are associated with an in-progress operation',
      },
    ],
    source: [
      {
        file: '@modelcontextprotocol/server-everything/dist/tools/trigger-long-running-operation.js',
        lines: '38-55',
        says: 'the handler\'s loop `for (let i = 1; i < steps + 1; i++)` sleeps and sends `method: "notifications/progress"` each step; nothing in the handler reads the request\'s abort signal (extra.signal)',
      },
    ],
    workaround:
      "In your own tools, check the handler's `extra.signal` (v2: `ctx.mcpReq.signal`) at every step and stop when it is aborted; as a client, ignore progress for a request you cancelled (the SDKs do).",
    run: {
      kind: 'probe',
      fixture: 'e2e/fixtures/probe-everything-stdio.json',
      probe: 'cancel-during-work',
      model: 'A:transport=stdio',
    },
    diagram: 'recorded cancel-during-work',
    compare: { a: 'A:transport=stdio', b: 'recorded cancel-during-work' },
  },
];

export function findKnownBug(id: string): KnownBug | undefined {
  return KNOWN_BUGS.find((bug) => bug.id === id);
}
