import { terminal } from './racePatterns';
import { requestRaceDefaults } from '../engine';
import type { RequestRaceScenario } from '../engine';

/** Scenario C (docs/requirements.md#the-race-and-its-four-recorded-facts): progress keeps resetting the idle deadline but the maximum deadline still fires (RC-2, RC-4, VF-5). */
export const scenarioC: RequestRaceScenario = {
  id: 'C',
  kind: 'request-race',
  title: 'C — steady progress, then the maximum deadline',
  topic: 'Cancellation and timeouts',
  summary:
    'The worker needs 5 s but sends progress every 400 ms, always before the 500 ms idle deadline, so the idle ' +
    'clock keeps restarting. The 2000 ms maximum deadline counts from the start and nothing moves it: at 2000 ms ' +
    'the client gives up and cancels. A progress message already in flight arrives after that and the client ' +
    'ignores it; the server stops at its next checkpoint.' +
    " Set clientProfile=ts-sdk-1.x for the official TypeScript SDK 1.x client: it has no maximum timer (maxTotalTimeout is checked only when progress arrives), so it gives up late, rejects the request locally and sends nothing; the idle timer it never cleared sends notifications/cancelled later still (with progress every 333 ms and no latency: gives up at 2331 ms, cancels at 2498 ms). The spec's way is safer: the budget holds even when no progress comes, and the server hears of the abandonment at once and stops working.",
  requirements: ['RC-1', 'RC-2', 'RC-3', 'RC-4', 'VF-5'],
  defaultTransport: 'stdio',
  settings: {
    ...requestRaceDefaults,
    idleTimeoutMs: 500,
    maxTimeoutMs: 2_000,
    workMs: 5_000,
    progressEveryMs: 400,
    cancelAtMs: null,
  },
  script: [
    { at: 0, do: 'call' },
    { at: 'cancelAtMs', do: 'cancel' },
  ],
  pinnedOrder: [],
  race: {
    neutralTitle: 'C — slow work with steady progress',
    contenders: [
      {
        label: 'the progress that restarts the idle deadline',
        on: [{ where: { kind: 'deadline', requestId: 41, deadline: 'idle', action: 'reset' } }],
      },
      {
        label: 'the maximum deadline',
        on: [{ where: { kind: 'deadline', requestId: 41, deadline: 'max', action: 'armed' } }],
      },
    ],
    question:
      'Progress keeps arriving before the {idleTimeoutMs} ms idle deadline, while the {maxTimeoutMs} ms maximum deadline counts down and the worker needs {workMs} ms. What ends the request?',
    answers: [
      {
        value: 'timeout-idle',
        label: 'The idle deadline ({idleTimeoutMs} ms without progress)',
        when: terminal('timeout-idle'),
        why: 'A gap between progress messages grew longer than the idle deadline.',
      },
      {
        value: 'timeout-max',
        label: 'The maximum deadline ({maxTimeoutMs} ms in all)',
        when: terminal('timeout-max'),
        winner: 1,
        why: 'Progress restarts only the idle deadline; the maximum deadline counts from the start and nothing moves it.',
      },
      {
        value: 'completed',
        label: 'The result: the worker finishes its {workMs} ms',
        when: terminal('completed'),
        winner: 0,
        why: 'The work finished inside both deadlines.',
      },
    ],
    pointAt: 'last',
  },
  expected: {
    stdio: {
      terminalState: 'timeout-max',
      finalResponse: false,
      cancellationSignal: 'notifications/cancelled',
      clientIgnores: ['progress 5/13'],
      clientOutcome: 'timeout-max',
    },
    http: {
      terminalState: 'timeout-max',
      finalResponse: false,
      cancellationSignal: 'stream-close',
      clientIgnores: ['progress 5/13'],
      clientOutcome: 'timeout-max',
    },
  },
};
