import { capErrors } from '../lesson/reviewLimits';
import { zipSync } from 'fflate';
import type { RunOptions, SqlModule } from '../engine';
import { unreachable, type BufferEvent, type TaskEvent } from '../engine';
import type { Transcript } from '../engine';
import { buildEvidence } from '../lesson/evidence';
import { review, type ReviewResult } from '../lesson/reviewer';
import { buildSkill } from '../lesson/skill';
import { verify, type Runner, type VerificationResult, type VerifyProgress } from '../lesson/verification';
import { checkFailureModes, type FailureModeResult } from '../lesson/failureModes';
import type { BufferPoint, EvidenceBundle, PanelView } from './panelTypes';

/**
 * The lab's tools as pure functions the worker host calls: verification, the evidence zip, the
 * reviewer, and the compact panel views (buffer, herd, tasks, proxy, reconnect). A panel view is
 * what the page draws, cut from one transcript in the worker, so a 10,000-client herd never crosses
 * to the main thread as a transcript and the page computes nothing itself.
 */

/** docs/requirements.md#verification-statements-vf: VF-1 … VF-12, each from the transcripts that demonstrate it. */
export function verifyLab(run: Runner, onProgress?: (progress: VerifyProgress) => void): VerificationResult[] {
  return verify(run, undefined, onProgress);
}

/** docs/requirements.md#failure-modes-each-runnable-next-to-its-fix: every failure mode's failure run and fix run, each checked against its transcript. */
export function failureModesLab(run: Runner): FailureModeResult[] {
  return checkFailureModes(run);
}

export const EVIDENCE_ZIP_NAME = 'mcp-lab-evidence.zip';

/**
 * Every file's modification time in the zip: fixed, so the same lab gives the same bytes. Built
 * from local components because the zip format stores local (DOS) time, which keeps the bytes the
 * same in every time zone.
 */
const EVIDENCE_MTIME = (): Date => new Date(2026, 6, 28, 0, 0, 0);

/** Files as one deterministic zip (paths with '/' become folders in it). */
function zipFiles(files: readonly { path: string; description: string; contents: string }[]): EvidenceBundle {
  const encoder = new TextEncoder();
  const entries: Record<string, [Uint8Array, { mtime: Date; level: 6 }]> = {};
  for (const file of files) entries[file.path] = [encoder.encode(file.contents), { mtime: EVIDENCE_MTIME(), level: 6 }];
  return { files: files.map(({ path, description }) => ({ path, description })), bytes: zipSync(entries) };
}

/** docs/requirements.md#artifacts-ar: the capstone artifacts as one zip (the reviewer skill folder among them); `onProgress` as buildEvidence's. */
export function evidenceZip(
  run: Runner,
  sql: SqlModule,
  onProgress?: (progress: VerifyProgress) => void,
): EvidenceBundle {
  return zipFiles(buildEvidence(run, sql, onProgress));
}

export { SKILL_ZIP_NAME } from '../lesson/skill';

/** The reliability reviewer as a skill folder: mcp-reliability-reviewer/ and its files, zipped. */
export function skillZip(): EvidenceBundle {
  return zipFiles(buildSkill());
}

/** The reliability reviewer (field-by-field errors on invalid input). */
export function reviewLab(input: unknown): ReviewResult {
  // The page renders every error it gets: only the first ones, and the count.
  return capErrors(review(input));
}

// ── panel views ──────────────────────────────────────────────────────────────────────────────────

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function bufferPoint(e: BufferEvent): BufferPoint {
  return {
    seq: e.seq,
    atMs: e.atMs,
    occupancyEvents: e.occupancyEvents,
    action: e.action,
    what: e.what,
    summary: e.summary,
  };
}

/** Cuts the view a panel draws from one transcript; LAB-free: a kind without a panel is a caller bug. */
export function panelView(t: Transcript): PanelView {
  switch (t.kind) {
    case 'buffer': {
      const o = t.outcome;
      const bufferEvents = t.events.filter((e): e is BufferEvent => e.kind === 'buffer');
      const points = bufferEvents.map(bufferPoint);
      const released = bufferEvents.filter((e) => e.action === 'released');
      const refusals = bufferEvents
        .filter((e) => e.action === 'refused')
        .map((e, index) => {
          const release = released[index];
          return {
            summary: e.summary,
            refusedAtMs: e.atMs,
            releasedAtMs: release?.atMs ?? e.atMs,
            heldMs: release?.heldMs ?? 0,
            seq: e.seq,
          };
        });
      return {
        kind: 'buffer',
        // The panel runs the bounded buffer only; an unbounded run (queue=unbounded) has no capacity line.
        capacityEvents: o.capacity ?? o.maxOccupancy,
        maxOccupancy: o.maxOccupancy,
        dropped: o.dropped,
        coalesced: o.coalesced,
        needsRefetch: o.needsRefetch,
        finalDelivered: o.finalDelivered,
        points,
        finals: points.filter((p) => p.what === 'final'),
        refetchMark: points.find((p) => p.action === 'needs-refetch') ?? null,
        refusedPushes: o.refusedPushes,
        producerHeldMs: o.producerHeldMs,
        refusals,
      };
    }
    case 'herd':
      return {
        kind: 'herd',
        ...t.outcome,
        policy: String(t.settings.policy),
        baseMs: num(t.settings.baseMs) ?? 0,
        capMs: num(t.settings.capMs) ?? 0,
      };
    case 'task':
      return {
        kind: 'task',
        scenario: t.scenario,
        outcome: t.outcome,
        rows: t.events
          .filter((e): e is TaskEvent => e.kind === 'task')
          .map((task) => ({
            seq: task.seq,
            atMs: task.atMs,
            action: task.action,
            status: task.status,
            detail: task.detail,
          })),
      };
    case 'proxy':
      return {
        kind: 'proxy',
        honourNoBuffering: t.settings.honourNoBuffering === true,
        keepAliveEveryMs: num(t.settings.keepAliveEveryMs),
        idleTimeoutMs: num(t.settings.idleTimeoutMs),
        outcome: t.outcome,
      };
    case 'reconnect':
      return { kind: 'reconnect', outcome: t.outcome };
    case 'request-race':
    case 'ledger':
    case 'listen':
    case 'recording':
      throw new Error(`scenario ${t.scenario} is of kind ${t.kind}, which has no panel`);
    default:
      return unreachable(t, 'a transcript kind the panels do not know');
  }
}

/** Runs a scenario as the engine's run options say (absent ones are the scenario's defaults) and returns its panel view. */
export function runPanel(run: Runner, scenario: string, options?: RunOptions): PanelView {
  return panelView(run(scenario, options));
}
