import { SSE_HEADERS, TRANSPORTS } from '../engine';
import { retryTable } from '../engine';
import { ledgerScopeNotes } from '../engine';
import { ledgerSnapshot, type SqlModule } from '../engine';
import type { Transcript, Transport } from '../engine';
import { buildSkill } from './skill';
import { verify, verifyRunsPlanned, type Runner, type VerifyProgress } from './verification';
import { withLanes } from '../engine';

/**
 * docs/requirements.md#artifacts-ar: the capstone artifacts as files, JSON plus a Markdown index. Every file comes from a
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

/** One run an artifact is made from. */
interface ArtifactRun {
  id: string;
  transport?: Transport;
  /** The run's ledger is saved, so the artifact can read what it stored. */
  savesLedger?: true;
}

/**
 * One artifact file: the runs it is made from, declared apart from what it makes of them, so the
 * export's progress counts every artifact's runs (a planning pass) before the first is made.
 */
interface Artifact {
  path: string;
  description: string;
  runs: readonly ArtifactRun[];
  /** The file's value, from its runs' transcripts in the order `runs` lists them; `ledger`: the saved ledger of the run that saves one. */
  make(transcripts: readonly Transcript[], ledger: { sql: SqlModule; saved: Uint8Array | null }): unknown;
}

/** A run's transcript from those an artifact's runs made (each artifact lists how many it takes). */
const nth = (transcripts: readonly Transcript[], index: number): Transcript => {
  const transcript = transcripts[index];
  if (transcript === undefined)
    throw new Error(`an artifact read run ${index + 1} of the ${transcripts.length} it declares`);
  return transcript;
};
const ledgerEvents = (t: Transcript) => withLanes(t).events.filter((e) => e.kind === 'ledger');

/** The artifact files, in the export's order. */
const ARTIFACTS: readonly Artifact[] = [
  ...TRANSPORTS.map((transport): Artifact => ({
    path: `cancellation-race-${transport}.json`,
    description: `Scenario A over ${transport}: cancel, then complete(); the full transcript.`,
    runs: [{ id: 'A', transport }],
    make: (made) => withLanes(nth(made, 0)),
  })),
  {
    path: 'retry-table.json',
    description: 'Retry classification of every exposed operation (RT), with hint warnings.',
    runs: [],
    make: () => retryTable(),
  },
  {
    path: 'idempotency-key-record.json',
    description:
      'The stored idempotency record (key, fingerprint, result) after a keyed retry, and the scope of a local ledger.',
    runs: [{ id: 'ledger-keyed-retry', savesLedger: true }],
    make: (made, { sql, saved }) => ({
      record: ledgerSnapshot(sql, saved).idempotencyKeys,
      outcome: nth(made, 0).outcome,
      scope: ledgerScopeNotes,
    }),
  },
  {
    path: 'key-mismatch-fixture.json',
    description: 'A key reused with other arguments: both requests and the 422-like refusal.',
    runs: [{ id: 'ledger-key-mismatch' }],
    make: (made) => {
      const mismatch = nth(made, 0);
      const calls = mismatch.events.flatMap((e) => (e.kind === 'message' && e.from === 'client' ? [e.message] : []));
      const answers = mismatch.events.flatMap((e) => (e.kind === 'message' && e.from === 'server' ? [e.message] : []));
      return { requests: calls, responses: answers, outcome: mismatch.outcome };
    },
  },
  {
    path: 'concurrent-same-key.json',
    description: 'Two connections race on one key at a barrier: the transcript with SQLITE_BUSY and one execution.',
    runs: [{ id: 'ledger-race-keyed' }],
    make: (made) => withLanes(nth(made, 0)),
  },
  {
    path: 'reopen-check.json',
    description: 'The committed record survives close and reopen; the retry replays it.',
    runs: [{ id: 'ledger-reopen' }],
    make: (made) => ({ outcome: nth(made, 0).outcome, events: ledgerEvents(nth(made, 0)) }),
  },
  {
    path: 'alias-check.json',
    description: 'A caller mutates its returned result; the stored result and the replay are unchanged.',
    runs: [{ id: 'ledger-alias' }],
    make: (made) => ({ outcome: nth(made, 0).outcome, events: ledgerEvents(nth(made, 0)) }),
  },
  {
    path: 'buffer-overload.json',
    description:
      'The bounded progress buffer under overload: capacity, occupancy, drops, coalescing, the final response kept.',
    runs: [{ id: 'buffer-overload' }],
    make: (made) => ({ settings: nth(made, 0).settings, outcome: nth(made, 0).outcome }),
  },
  {
    path: 'sse-headers-and-idle-policy.json',
    description: 'The SSE response headers and the idle/keep-alive policy.',
    runs: [{ id: 'proxy-buffering' }],
    make: (made) => {
      const proxy = nth(made, 0);
      return {
        headers: SSE_HEADERS,
        idlePolicy: {
          idleTimeoutMs: proxy.settings.idleTimeoutMs,
          keepAlive:
            'an SSE comment line (":") on quiet streams; clients ignore it, proxies see traffic; it never resets the semantic idle timeout',
          settings: proxy.settings,
        },
        outcome: proxy.outcome,
      };
    },
  },
  {
    path: 'reconnect-plan.json',
    description:
      'The reconnect plan after a subscriptions/listen drop: new id, restored filter, authoritative refetches, no Last-Event-ID.',
    runs: [{ id: 'reconnect-listen' }],
    make: (made) => ofKind(nth(made, 0), 'reconnect').outcome.reconnectPlan,
  },
  {
    path: 'task-cancellation-trace.json',
    description:
      'tasks/cancel acknowledged while the task keeps working, then cancelled at a checkpoint: the full transcript.',
    runs: [{ id: 'task-cancel-ack' }],
    make: (made) => withLanes(nth(made, 0)),
  },
];

/** The path of every artifact file: what the export's progress names while it makes their runs. */
export const EVIDENCE_ARTIFACT_PATHS: readonly string[] = ARTIFACTS.map((artifact) => artifact.path);

/** How many runs the artifacts make before the checklist's: a planning pass over what each declares (no run made). */
export const evidenceArtifactRunsPlanned = (): number =>
  ARTIFACTS.reduce((runs, artifact) => runs + artifact.runs.length, 0);

/**
 * `onProgress` hears how far the export got, as the checklist's progress does: runs made of runs it
 * will make (first the artifacts' runs, each named by its file, then the checklist's, named by the
 * statement), never falling, the total known from the first report and the last report at it. Both
 * parts count their runs in a planning pass first, so no count is kept by hand.
 */
export function buildEvidence(
  plainRun: Runner,
  sql: SqlModule,
  onProgress?: (progress: VerifyProgress) => void,
): EvidenceFile[] {
  const files: EvidenceFile[] = [];
  const add = (path: string, description: string, value: unknown): void =>
    void files.push({ path, description, contents: json(value) });
  const artifactRunsTotal = evidenceArtifactRunsPlanned();
  const runsTotal = onProgress === undefined ? 0 : artifactRunsTotal + verifyRunsPlanned();
  let artifactRuns = 0;
  const ledger: { sql: SqlModule; saved: Uint8Array | null } = { sql, saved: null };
  for (const artifact of ARTIFACTS) {
    // The artifact whose runs come next is named before its first run (one made of no run is not reported).
    if (artifact.runs.length > 0) onProgress?.({ runsDone: artifactRuns, runsTotal, statement: artifact.path });
    const made = artifact.runs.map(({ id, transport, savesLedger }) => {
      const options = {
        ...(transport === undefined ? {} : { transport }),
        ...(savesLedger === true ? { ledger: { sql, save: (bytes: Uint8Array) => void (ledger.saved = bytes) } } : {}),
      };
      const transcript = plainRun(id, Object.keys(options).length === 0 ? undefined : options);
      artifactRuns += 1;
      onProgress?.({ runsDone: artifactRuns, runsTotal, statement: artifact.path });
      return transcript;
    });
    add(artifact.path, artifact.description, artifact.make(made, ledger));
  }
  // The checklist's runs on the plain runner: its own sweep counts them, after the artifacts'.
  const results = verify(
    plainRun,
    undefined,
    onProgress === undefined
      ? undefined
      : (progress) =>
          onProgress({ runsDone: artifactRunsTotal + progress.runsDone, runsTotal, statement: progress.statement }),
  );
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
    ...results.map(
      (r) =>
        `- ${r.holds ? '[x]' : '[ ]'} **${r.id}** ${r.statement}${r.holds ? '' : ` — FAILS: ${r.problems.join('; ')}`}`,
    ),
    '',
  ].join('\n');
  files.push({ path: 'README.md', description: 'This index.', contents: index });
  return files;
}
