import { commonSettingsSpec, type SettingsOf, type SettingsSpec } from '../../core/settings';
import { requestSettingsSpec } from '../../mcp/settings';

/** The request race's settings: one spec gives the ranges, the wording and the type. */
export const requestRaceSettingsSpec = {
  latencyMs: commonSettingsSpec.latencyMs,
  latencyJitterMs: commonSettingsSpec.latencyJitterMs,
  idleTimeoutMs: requestSettingsSpec.idleTimeoutMs,
  maxTimeoutMs: requestSettingsSpec.maxTimeoutMs,
  workMs: requestSettingsSpec.workMs,
  progressEveryMs: requestSettingsSpec.progressEveryMs,
  progressToken: { kind: 'boolean', description: 'The client asks for progress (sends _meta.progressToken).' },
  serverSendsProgress: {
    kind: 'boolean',
    description: 'The server honours the progress token (RC-4: it may legally not).',
  },
  cancelAtMs: {
    kind: 'integer',
    min: 0,
    max: 86_400_000,
    nullable: true,
    unit: 'ms',
    description: 'When the user cancels; none: never.',
  },
  httpCancel: {
    kind: 'enum',
    values: ['close-stream', 'post-notification'],
    description: 'How the client cancels on Streamable HTTP. post-notification is the catalogued failure mode.',
    transport: 'http',
  },
  requestId: requestSettingsSpec.requestId,
  afterCancel: {
    kind: 'enum',
    values: ['suppress', 'respond'],
    description:
      'What the server does once it accepted a cancellation: suppress (RC-6: stop, send nothing more) or respond (the catalogued failure mode: it works on and sends a response the client cannot use).',
  },
  clientProfile: {
    kind: 'enum',
    values: ['spec', 'ts-sdk-1.x'],
    description:
      'spec: the two deadlines as the spec writes them (a maximum timer; cancel on timeout; close the stream on HTTP). ts-sdk-1.x: the official TypeScript SDK 1.x client (timeout = idleTimeoutMs with resetTimeoutOnProgress, maxTotalTimeout = maxTimeoutMs checked only when progress arrives, notifications/cancelled on every transport).',
  },
  progressResetsMax: {
    kind: 'boolean',
    description:
      'Progress also restarts the maximum deadline: the catalogued failure mode "progress resets every deadline" (RC-2 says it never may).',
  },
  eventsMax: commonSettingsSpec.eventsMax,
} as const satisfies SettingsSpec;

export type RequestRaceSettingKey = keyof typeof requestRaceSettingsSpec;

export type RequestRaceSettings = SettingsOf<typeof requestRaceSettingsSpec>;

export const requestRaceDefaults: RequestRaceSettings = {
  latencyMs: 5,
  latencyJitterMs: 0,
  idleTimeoutMs: 1_000,
  maxTimeoutMs: 5_000,
  workMs: 200,
  progressEveryMs: 100,
  progressToken: true,
  serverSendsProgress: true,
  cancelAtMs: null,
  httpCancel: 'close-stream',
  requestId: 41,
  afterCancel: 'suppress',
  clientProfile: 'spec',
  progressResetsMax: false,
  eventsMax: 100_000,
};
