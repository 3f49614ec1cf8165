import type { Settings, Transport } from '../engine';
import type { EvidenceBundle, FailureModeResult, PanelView, ReviewResult, VerificationResult } from './labTools';

/**
 * The lab tools' members of the worker protocol (protocol.ts joins them into its unions): the
 * VF checklist, the evidence zip, the reviewer and the panel views. Kept apart so the tools grow
 * without touching the run/ledger messages.
 */

export type { FailureModeResult } from './labTools';
export type { BufferPoint, BufferRefusal, BufferView, EvidenceBundle, HerdView, PanelKind, PanelView, ProxyView, ReconnectView, ReviewResult, TaskRow, TasksView, VerificationResult } from './labTools';

export interface VerifyRequest {
  type: 'verify';
  requestId: number;
}

export interface EvidenceRequest {
  type: 'evidence';
  requestId: number;
}

export interface ReviewRequest {
  type: 'review';
  requestId: number;
  /** Anything: the reviewer answers invalid input field by field. */
  input: unknown;
}

/** Runs one scenario with a panel (buffer, herd, tasks, proxy, reconnect) and answers its compact view. */
export interface PanelRequest {
  type: 'panel';
  requestId: number;
  scenario: string;
  transport: Transport;
  seed: number;
  settings: Settings;
}

export type ToolRequest = VerifyRequest | EvidenceRequest | ReviewRequest | PanelRequest;
export const TOOL_REQUEST_TYPES = ['verify', 'evidence', 'review', 'panel'] as const satisfies readonly ToolRequest['type'][];

export interface VerificationResponse {
  type: 'verification';
  requestId: number;
  results: VerificationResult[];
  /** SPEC §9: each failure mode's failure run and fix run, checked (issue #12). */
  failureModes: FailureModeResult[];
}

export interface EvidenceResponse extends EvidenceBundle {
  type: 'evidence-zip';
  requestId: number;
}

export interface ReviewResponse {
  type: 'review-result';
  requestId: number;
  result: ReviewResult;
}

export interface PanelResponse {
  type: 'panel-view';
  requestId: number;
  view: PanelView;
}

export type ToolResponse = VerificationResponse | EvidenceResponse | ReviewResponse | PanelResponse;

type Guarded = { [key: string]: unknown };
const isRecord = (value: unknown): value is Guarded => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSettingValue = (value: unknown): boolean => value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string';

/** Why a message typed as a tool request is not one, or null when it is (the envelope only). */
export function explainBadToolRequest(value: Guarded): string | null {
  switch (value.type) {
    case 'verify':
    case 'evidence':
      return null;
    case 'review':
      return 'input' in value ? null : 'input is required';
    case 'panel':
      if (typeof value.scenario !== 'string') return 'scenario must be a string';
      if (value.transport !== 'stdio' && value.transport !== 'http') return 'transport must be "stdio" or "http"';
      if (typeof value.seed !== 'number') return 'seed must be a number';
      if (!isRecord(value.settings) || !Object.values(value.settings).every(isSettingValue)) return 'settings must map names to numbers, booleans, strings or null';
      return null;
    default:
      return `not a tool request: ${JSON.stringify(value.type) ?? 'nothing'}`;
  }
}

export function isToolRequestType(type: unknown): type is ToolRequest['type'] {
  return (TOOL_REQUEST_TYPES as readonly unknown[]).includes(type);
}
