import type { SettingsSpec } from '../core/settings';

/**
 * Settings of one MCP request that several models share, written once so the
 * models' words cannot drift apart. A model names the ones it uses, in its own spec's order (the order is
 * the transcript's), and keeps its own spec only where it means something else.
 */
export const requestSettingsSpec = {
  idleTimeoutMs: {
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    unit: 'ms',
    description: 'Time the client allows with no useful activity (progress resets it).',
  },
  maxTimeoutMs: {
    kind: 'integer',
    min: 1,
    max: 86_400_000,
    unit: 'ms',
    description: 'Absolute budget from the request start; nothing resets it.',
  },
  workMs: {
    kind: 'integer',
    min: 1,
    max: 86_400_000,
    unit: 'ms',
    description: "How long the server's worker needs to finish.",
  },
  progressEveryMs: {
    kind: 'integer',
    min: 0,
    max: 86_400_000,
    unit: 'ms',
    description: 'Worker checkpoint interval; progress is sent at each. 0: no checkpoints.',
  },
  requestId: { kind: 'integer', min: 0, max: 2_147_483_647, description: 'JSON-RPC id of the request.' },
} as const satisfies SettingsSpec;
