import type { CancellationSignal, ClientOutcome, TerminalState } from '../engine';

/**
 * What the official MCP TypeScript SDK 1.32.2 does with a request's deadlines and cancellation, one row
 * per behaviour, each with where the SDK does it (`dist/esm/shared/protocol.js` of
 * `@modelcontextprotocol/sdk@1.32.2` unless named otherwise). A reader can compare each row with that
 * file. The one table serves twice: `clientProfile=ts-sdk-1.x` is the lab's *model* of these rows
 * (tsSdkProfile.test.ts), and the lab also runs the real SDK (`--impl ts-sdk`,
 * src/sdk/); each row's `runs` name the runs that show it, what the real SDK does there and what the
 * spec model does, and src/sdk/tsSdkRace.test.ts checks every one of them against the real SDK.
 * `profileAgrees: false` marks where the profile model and the real SDK disagree.
 *
 * The profile maps the scenario's two deadlines onto the SDK's request options: `timeout` =
 * idleTimeoutMs, `resetTimeoutOnProgress: true`, `maxTotalTimeout` = maxTimeoutMs — the closest the
 * SDK comes to the spec's idle and maximum deadlines. (Its own defaults are looser still: rows 1–3.)
 */
/** What one run shows, as the outcome and the invariants put it. */
export interface ShownOutcome {
  readonly terminalState: TerminalState;
  readonly clientOutcome: ClientOutcome;
  readonly clientOutcomeAtMs: number;
  readonly cancellationSignal: CancellationSignal;
  /** When the client's first cancellation went on the wire (null: never). */
  readonly cancelSentAtMs: number | null;
  readonly finalResponse: boolean;
  /** Ids of the invariants (src/engine/invariants.ts) the run breaks; [] when all hold. */
  readonly invariantsBroken: readonly string[];
}

/** One run that shows a row, in the run-spec syntax `lab compare` takes, with `impl=ts-sdk` left out. */
export interface RunExpectation {
  /** E.g. `C:latencyMs=0,progressEveryMs=333`: run with `impl=ts-sdk` (the real SDK) and with `impl=model`. */
  readonly run: string;
  /** What the real SDK 1.32.2 does in that run. */
  readonly sdk: ShownOutcome;
  /** What the lab's spec model does in the same run. */
  readonly model: ShownOutcome;
  /** Whether `clientProfile=ts-sdk-1.x` predicts the real SDK's outcome here (false: they disagree, and `why` says how). */
  readonly profileAgrees: boolean;
  readonly why?: string;
}

export interface SdkExpectation {
  readonly behaviour: string;
  /** What the lab's `spec` profile does instead. */
  readonly spec: string;
  /** Where SDK 1.32.2 does it. */
  readonly source: string;
  /** The runs that show it on the wire; [] when the lab's runs cannot (it always passes that option). */
  readonly runs: readonly RunExpectation[];
}

const MAX_BROKEN = ['RC-1/RC-2 maximum deadline', 'cancel on giving up'];
const HTTP_BROKEN = ['RC-5 HTTP signal'];

export const TS_SDK_1X_EXPECTATIONS: readonly SdkExpectation[] = [
  {
    behaviour: '`timeout` defaults to 60,000 ms',
    spec: 'the scenario sets idleTimeoutMs (the profile passes it as `timeout`)',
    source: 'protocol.js:8 DEFAULT_REQUEST_TIMEOUT_MSEC = 60000; :740 options?.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC',
    runs: [],
  },
  {
    behaviour:
      '`resetTimeoutOnProgress` defaults to false: without it progress resets nothing and `timeout` is absolute',
    spec: 'progress MAY reset the idle deadline (RC-2); the profile passes resetTimeoutOnProgress: true',
    source: 'protocol.js:742 options?.resetTimeoutOnProgress ?? false',
    runs: [],
  },
  {
    behaviour:
      '`maxTotalTimeout` has no default and no timer of its own: it is checked only when a progress notification arrives',
    spec: 'the maximum deadline is a timer that fires at start + maxTimeoutMs whatever arrives (RC-1, RC-2)',
    source: 'protocol.js:191-205 _resetTimeout (the only check), called from :462 _onprogress',
    runs: [
      {
        run: 'C:latencyMs=0,progressEveryMs=333',
        sdk: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_331,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_498,
          finalResponse: false,
          invariantsBroken: MAX_BROKEN,
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
      {
        run: 'C:latencyMs=0,idleTimeoutMs=4000,workMs=10000,serverSendsProgress=false',
        sdk: {
          terminalState: 'timeout-idle',
          clientOutcome: 'timeout-idle',
          clientOutcomeAtMs: 4_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 4_000,
          finalResponse: false,
          invariantsBroken: ['RC-1/RC-2 maximum deadline'],
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
    ],
  },
  {
    behaviour: 'when progress finds `maxTotalTimeout` exceeded, the request is rejected locally and nothing is sent',
    spec: 'the client sends its cancellation the moment the maximum fires (SHOULD cancel on timeout)',
    source: 'protocol.js:196-201 throws RequestTimeout; :466-472 rejects, no transport.send',
    runs: [
      {
        run: 'C',
        sdk: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_010,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_110,
          finalResponse: false,
          invariantsBroken: MAX_BROKEN,
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
    ],
  },
  {
    behaviour:
      'the idle timer stays armed after that rejection and later sends notifications/cancelled, after the client gave up',
    spec: 'both deadlines are disarmed when the client ends; the cancellation is sent once, when it gives up',
    source:
      'protocol.js:197 _timeoutInfo.delete before the throw, so :470 _cleanupTimeout finds nothing to clear; the timer calls cancel() :698-712',
    runs: [
      {
        run: 'C:transport=http,latencyMs=0,progressEveryMs=333',
        sdk: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_331,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_498,
          finalResponse: false,
          invariantsBroken: [...MAX_BROKEN, ...HTTP_BROKEN],
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: false,
        why: "the profile pairs the SDK's client with the lab's spec server, which ignores a POSTed cancellation and completes at 5,005 ms; the SDK's own server aborts the tool when the late cancellation arrives, and sends no response",
      },
    ],
  },
  {
    behaviour: 'a response that arrives after the client gave up leaves the timer armed too',
    spec: 'a late response is ignored; nothing more is sent',
    source: 'protocol.js:492-495 returns on an unknown id before :498 _cleanupTimeout',
    runs: [
      {
        run: 'C:workMs=2050',
        sdk: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_010,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_110,
          finalResponse: true,
          invariantsBroken: MAX_BROKEN,
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
    ],
  },
  {
    behaviour:
      "on Streamable HTTP the client also sends notifications/cancelled (POSTed) instead of closing the request's stream",
    spec: 'on Streamable HTTP closing the response stream is the cancellation (RC-5)',
    source:
      'protocol.js:701-712 cancel() calls transport.send({ method: "notifications/cancelled" }) on every transport',
    runs: [
      {
        run: 'B:transport=http',
        sdk: {
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
          invariantsBroken: HTTP_BROKEN,
        },
        model: {
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 207,
          finalResponse: true,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
    ],
  },
  {
    behaviour:
      "the SDK's server treats a POSTed notifications/cancelled as the cancellation: it aborts the tool's extra.signal and sends no response",
    spec: "on Streamable HTTP the disconnect is the signal; a POSTed notification is not tied to the request (the lab's server, and the profile with it, works on)",
    source:
      'server/webStandardStreamableHttp.js:573-577 hands a POSTed notification to onmessage; protocol.js:27-29 → :173-179 _oncancel aborts the handler; :397-400 drops its result',
    runs: [
      {
        run: 'A:transport=http',
        sdk: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
          finalResponse: false,
          invariantsBroken: HTTP_BROKEN,
        },
        model: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 120,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: false,
        why: 'the profile predicts the server works on and completes at 205 ms; the real SDK server accepts the POSTed cancellation at 125 ms',
      },
      {
        run: 'D',
        sdk: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
          finalResponse: false,
          invariantsBroken: HTTP_BROKEN,
        },
        model: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 150,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: false,
        why: 'the profile predicts the server works on and completes at 405 ms; the real SDK server accepts the POSTed cancellation at 155 ms',
      },
      {
        run: 'C:transport=http',
        sdk: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_010,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 2_110,
          finalResponse: false,
          invariantsBroken: [...MAX_BROKEN, ...HTTP_BROKEN],
        },
        model: {
          terminalState: 'timeout-max',
          clientOutcome: 'timeout-max',
          clientOutcomeAtMs: 2_000,
          cancellationSignal: 'stream-close',
          cancelSentAtMs: 2_000,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: false,
        why: 'the profile predicts a final response at 5,005 ms; the real SDK server stops the tool once the late cancellation arrives',
      },
    ],
  },
  {
    behaviour: 'on stdio a user cancel is what the spec asks: notifications/cancelled at once, and the server stops',
    spec: 'the same (RC-5, RC-6)',
    source: "protocol.js:737-739 the AbortSignal's listener calls cancel() :698-712",
    runs: [
      {
        run: 'A',
        sdk: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
          finalResponse: false,
          invariantsBroken: [],
        },
        model: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 120,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 120,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
      {
        run: 'B',
        sdk: {
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
          invariantsBroken: [],
        },
        model: {
          terminalState: 'completed',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 207,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 207,
          finalResponse: true,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
      {
        run: 'D:transport=stdio',
        sdk: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
          finalResponse: false,
          invariantsBroken: [],
        },
        model: {
          terminalState: 'cancelled',
          clientOutcome: 'cancelled',
          clientOutcomeAtMs: 150,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 150,
          finalResponse: false,
          invariantsBroken: [],
        },
        profileAgrees: true,
      },
    ],
  },
  {
    behaviour:
      "the AbortSignal's listener is never removed: a cancel after the result still sends notifications/cancelled",
    spec: 'a request that already ended has nothing left to cancel; the client sends nothing',
    source:
      'protocol.js:737-739 addEventListener("abort") with no removal when the response settles the request (:514-516)',
    runs: [
      {
        run: 'B:cancelAtMs=300',
        sdk: {
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          cancellationSignal: 'notifications/cancelled',
          cancelSentAtMs: 300,
          finalResponse: true,
          invariantsBroken: ['no cancel after the result'],
        },
        model: {
          terminalState: 'completed',
          clientOutcome: 'completed',
          clientOutcomeAtMs: 210,
          cancellationSignal: null,
          cancelSentAtMs: null,
          finalResponse: true,
          invariantsBroken: [],
        },
        profileAgrees: false,
        why: 'the profile models only the deadlines; like the spec client it sends nothing once the request settled',
      },
    ],
  },
];
