import { SSE_HEADERS, TRANSPORTS } from '../engine';
import { retryTable } from '../engine';
import { ledgerScopeNotes } from '../engine';
import { ledgerSnapshot, type SqlModule } from '../engine';
import type { Transcript } from '../engine';
import { buildSkill } from './skill';
import { verify, verifyRunsPlanned, type Runner, type VerifyProgress } from './verification';
import { withLanes } from '../diagram/lanes';

/**
 * SPEC §10: the capstone artifacts as files, JSON plus a Markdown index. Every file comes from a
 * deterministic run, so the same lab gives the same bytes.
 */
export interface EvidenceFile {
  path: string;
  description: string;
  contents: string;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
/** A run's transcript of the kind its scenario is, its outcome typed: a scenario that changed kind fails loudly here. */
function ofKind<K extends Transcript['kind']>(t: Transcript, kind: K): Transcript<K> {
  if (t.kind !== kind) throw new Error(`scenario ${t.scenario} is a ${t.kind} scenario, not ${kind}`);
  return t as Transcript<K>;
}

/** The runs the artifacts make before the checklist's: the progress total counts them before the first is made. */
export const EVIDENCE_ARTIFACT_RUNS = 11;

/**
 * `onProgress` hears how far the export got, as the checklist's progress does: runs made of runs it
 * will make (first the artifacts' runs, each named by its file, then the checklist's, named by the
 * statement), never falling, the total known from the first report and the last report at it.
 */
export function buildEvidence(plainRun: Runner, sql: SqlModule, onProgress?: (progress: VerifyProgress) => void): EvidenceFile[] {
  const files: EvidenceFile[] = [];
  const add = (path: string, description: string, value: unknown): void => void files.push({ path, description, contents: json(value) });
  const runsTotal = onProgress === undefined ? 0 : EVIDENCE_ARTIFACT_RUNS + verifyRunsPlanned();
  let artifactRuns = 0;
  let artifact = '';
  /** The artifact whose runs come next (the progress names it). */
  const building = (path: string): void => {
    artifact = path;
    onProgress?.({ runsDone: artifactRuns, runsTotal, statement: artifact });
  };
  const run: Runner = (id, options) => {
    const transcript = plainRun(id, options);
    artifactRuns += 1;
    onProgress?.({ runsDone: artifactRuns, runsTotal, statement: artifact });
    return transcript;
  };

  for (const transport of TRANSPORTS) {
    building(`cancellation-race-${transport}.json`);
    add(`cancellation-race-${transport}.json`, `Scenario A over ${transport}: cancel, then complete(); the full transcript.`, withLanes(run('A', { transport })));
  }
  add('retry-table.json', 'Retry classification of every exposed operation (RT), with hint warnings.', retryTable());

  building('idempotency-key-record.json');
  let saved: Uint8Array | null = null;
  const keyed = run('ledger-keyed-retry', { ledger: { sql, save: (bytes) => (saved = bytes) } });
  const rows = ledgerSnapshot(sql, saved).idempotencyKeys;
  add('idempotency-key-record.json', 'The stored idempotency record (key, fingerprint, result) after a keyed retry, and the scope of a local ledger.', { record: rows, outcome: keyed.outcome, scope: ledgerScopeNotes });

  building('key-mismatch-fixture.json');
  const mismatch = run('ledger-key-mismatch');
  const calls = mismatch.events.flatMap((e) => (e.kind === 'message' && e.from === 'client' ? [e.message] : []));
  const answers = mismatch.events.flatMap((e) => (e.kind === 'message' && e.from === 'server' ? [e.message] : []));
  add('key-mismatch-fixture.json', 'A key reused with other arguments: both requests and the 422-like refusal.', { requests: calls, responses: answers, outcome: mismatch.outcome });

  building('concurrent-same-key.json');
  add('concurrent-same-key.json', 'Two connections race on one key at a barrier: the transcript with SQLITE_BUSY and one execution.', withLanes(run('ledger-race-keyed')));
  building('reopen-check.json');
  const reopen = run('ledger-reopen');
  add('reopen-check.json', 'The committed record survives close and reopen; the retry replays it.', { outcome: reopen.outcome, events: withLanes(reopen).events.filter((e) => e.kind === 'ledger') });
  building('alias-check.json');
  const alias = run('ledger-alias');
  add('alias-check.json', 'A caller mutates its returned result; the stored result and the replay are unchanged.', { outcome: alias.outcome, events: withLanes(alias).events.filter((e) => e.kind === 'ledger') });
  building('buffer-overload.json');
  const buffer = run('buffer-overload');
  add('buffer-overload.json', 'The bounded progress buffer under overload: capacity, occupancy, drops, coalescing, the final response kept.', { settings: buffer.settings, outcome: buffer.outcome });
  building('sse-headers-and-idle-policy.json');
  const proxy = run('proxy-buffering');
  add('sse-headers-and-idle-policy.json', 'The SSE response headers and the idle/keep-alive policy.', {
    headers: SSE_HEADERS,
    idlePolicy: {
      idleTimeoutMs: proxy.settings.idleTimeoutMs,
      keepAlive: 'an SSE comment line (":") on quiet streams; clients ignore it, proxies see traffic; it never resets the semantic idle timeout',
      settings: proxy.settings,
    },
    outcome: proxy.outcome,
  });
  building('reconnect-plan.json');
  const reconnect = run('reconnect-listen');
  add('reconnect-plan.json', 'The reconnect plan after a subscriptions/listen drop: new id, restored filter, authoritative refetches, no Last-Event-ID.', ofKind(reconnect, 'reconnect').outcome.reconnectPlan);
  building('task-cancellation-trace.json');
  add('task-cancellation-trace.json', 'tasks/cancel acknowledged while the task keeps working, then cancelled at a checkpoint: the full transcript.', withLanes(run('task-cancel-ack')));
  // The total counted these runs before they were made: a new artifact run counts in EVIDENCE_ARTIFACT_RUNS too.
  if (artifactRuns !== EVIDENCE_ARTIFACT_RUNS) throw new Error(`the artifacts made ${artifactRuns} runs, not the EVIDENCE_ARTIFACT_RUNS (${EVIDENCE_ARTIFACT_RUNS}) the progress counts`);
  // The checklist's runs on the plain runner: its own sweep counts them, after the artifacts'.
  const results = verify(plainRun, undefined, onProgress === undefined ? undefined : (progress) => onProgress({ runsDone: EVIDENCE_ARTIFACT_RUNS + progress.runsDone, runsTotal, statement: progress.statement }));
  add('verification.json', 'VF-1 … VF-12, each computed from the transcripts above.', results);
  // The reliability reviewer as a skill folder, to hand the review to a coding agent.
  files.push(...buildSkill());

  const index = [
    '# MCP Reliability Lab — evidence',
    '',
    'Every file comes from a deterministic run of the lab (seed 1, default settings): the same lab gives the same bytes.',
    '',
    '| file | what it shows |',
    '|---|---|',
    ...files.map((f) => `| \`${f.path}\` | ${f.description} |`),
    '',
    '## Verification (VF-1 … VF-12)',
    '',
    ...results.map((r) => `- ${r.holds ? '[x]' : '[ ]'} **${r.id}** ${r.statement}${r.holds ? '' : ` — FAILS: ${r.problems.join('; ')}`}`),
    '',
  ].join('\n');
  files.push({ path: 'README.md', description: 'This index.', contents: index });
  return files;
}
