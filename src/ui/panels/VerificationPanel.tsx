import { useEffect, useRef, useState } from 'react';
import { usePanelsStore } from '../../store/panels';
import type { FailureModeResult, VerificationResult, VerifyProgress } from '../../store/panelsStore';
import { downloadFile } from '../download';
import { LoadState } from './LoadState';
import { requirementPageLink, REQUIREMENTS_PAGE } from '../../lesson/requirements';

/** The seed the checklist's runs use (the engine's default), so a link reopens the same run. */
const CHECKLIST_SEED = 1;

/** The link that opens the diagram on the run and step that shows a statement (step k shows events 0 … k−1). */
export function evidenceLink(evidence: VerificationResult['evidence'][number]): string {
  const query = new URLSearchParams({
    scenario: evidence.scenario,
    transport: evidence.transport,
    seed: String(CHECKLIST_SEED),
  });
  for (const [key, value] of Object.entries(evidence.settings ?? {}))
    query.set(key, value === null ? 'none' : String(value));
  if (evidence.seq !== null) query.set('step', String(evidence.seq + 1));
  return `?${query.toString()}`;
}

/** The link that opens one run of a failure-mode card (its settings over the scenario's defaults; docs/requirements.md#failure-modes-each-runnable-next-to-its-fix). */
export function runLink(run: FailureModeResult['failureRun']): string {
  const query = new URLSearchParams({ scenario: run.scenario });
  if (run.transport !== undefined) query.set('transport', run.transport);
  query.set('seed', String(CHECKLIST_SEED));
  for (const [key, value] of Object.entries(run.settings ?? {}))
    query.set(key, value === null ? 'none' : String(value));
  return `?${query.toString()}`;
}

/** How often, at most, a screen reader hears how far the checklist (or the export) got (the bar itself moves with every report). */
export const PROGRESS_ANNOUNCE_EVERY_MS = 3_000;

const count = (n: number): string => n.toLocaleString('en-US');
const runsText = (progress: VerifyProgress): string =>
  `${count(progress.runsDone)} of ${count(progress.runsTotal)} runs`;
const checklistText = (progress: VerifyProgress | null): string =>
  progress === null
    ? 'Starting the checklist in the worker…'
    : `Checking ${progress.statement} … ${runsText(progress)}`;
/** The export names the artifact file it builds, then the statement it checks. */
const exportText = (progress: VerifyProgress | null): string =>
  progress === null
    ? 'Starting the export in the worker…'
    : `Exporting: ${progress.statement.endsWith('.json') ? 'building' : 'checking'} ${progress.statement} … ${runsText(progress)}`;

/** A long computation's progress in the tools worker (the checklist, the evidence export): a bar, where it is and runs so far, and Stop. */
function WorkerProgress({
  progress,
  stop,
  text,
  label,
  stopLabel,
  testId,
  reveal = false,
}: {
  progress: VerifyProgress | null;
  stop: () => void;
  text: string;
  label: string;
  stopLabel: string;
  testId: string;
  /** Scrolls the bar, its text and Stop into view when it appears: one started at the foot of the page opens below the fold. */
  reveal?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal) box.current?.scrollIntoView({ block: 'nearest' });
  }, [reveal]);
  // The live region speaks at most every PROGRESS_ANNOUNCE_EVERY_MS, never once per report.
  const [announced, setAnnounced] = useState(text);
  const announcedAt = useRef(0);
  useEffect(() => {
    const wait = announcedAt.current + PROGRESS_ANNOUNCE_EVERY_MS - Date.now();
    if (wait <= 0) {
      announcedAt.current = Date.now();
      setAnnounced(text);
      return undefined;
    }
    const timer = setTimeout(() => {
      announcedAt.current = Date.now();
      setAnnounced(text);
    }, wait);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="panel-progress" data-testid={testId} ref={box}>
      <progress aria-label={label} max={progress?.runsTotal || 1} value={progress?.runsDone ?? 0} />
      <p aria-hidden="true">{text}</p>
      <p className="visually-hidden" aria-live="polite">
        {announced}
      </p>
      <button type="button" className="panel-button" onClick={stop}>
        {stopLabel}
      </button>
    </div>
  );
}

/** Each failure mode with the run that shows it and the run that shows the fix. */
function FailureModes({ modes }: { modes: FailureModeResult[] }) {
  if (modes.length === 0) return null;
  const shown = modes.filter((m) => m.failureShown && m.fixShown).length;
  return (
    <>
      <h3>
        Failure modes{' '}
        <a
          href={`${REQUIREMENTS_PAGE}#failure-modes-each-runnable-next-to-its-fix`}
          target="_blank"
          rel="noopener noreferrer"
          className="panel-requirement"
        >
          (the catalogue)
        </a>
      </h3>
      <p className="panel-summary" data-testid="fm-summary">
        {shown} of {modes.length} failure modes run, each next to its fix
      </p>
      <ol className="panel-checklist" aria-label="Failure modes">
        {modes.map((mode) => (
          <li key={mode.id} data-fm={mode.id} data-holds={mode.failureShown && mode.fixShown ? 'true' : 'false'}>
            <span
              className={mode.failureShown && mode.fixShown ? 'panel-ok' : 'panel-bad'}
              aria-label={mode.failureShown && mode.fixShown ? 'runs' : 'fails'}
            >
              {mode.failureShown && mode.fixShown ? '✓' : '✗'}
            </span>
            <div>
              <strong>{mode.failure}</strong> — {mode.symptom}
              <ul className="panel-evidence">
                <li>
                  <a href={runLink(mode.failureRun)}>See the failure</a>: {mode.failureDetail}
                </li>
                <li>
                  <a href={runLink(mode.fixRun)}>See the fix ({mode.correctResponse})</a>: {mode.fixDetail}
                </li>
              </ul>
              <Problems problems={mode.problems} />
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** docs/requirements.md#verification-statements-vf and #artifacts-ar: VF-1 … VF-12 (and the lesson's RC-7, RC-8, RC-9, BF-5, LG-P5) from the transcripts that show them, and the evidence export. */
export function VerificationPanel() {
  const load = usePanelsStore((s) => s.verification);
  const progress = usePanelsStore((s) => s.verificationProgress);
  const stopVerification = usePanelsStore((s) => s.stopVerification);
  const loadVerification = usePanelsStore((s) => s.loadVerification);
  const failureModes = usePanelsStore((s) => s.failureModes);
  const results = 'value' in load ? load.value : null;

  return (
    <section className="panel" aria-labelledby="verification-title">
      <h2 id="verification-title">Verification</h2>
      <p className="panel-lede">
        Each statement is computed from the transcripts of the scenarios that demonstrate it. Follow a link to see the
        moment in the diagram.
      </p>
      <LoadState load={load} />
      {load.status === 'loading' && (
        <WorkerProgress
          progress={progress}
          stop={stopVerification}
          text={checklistText(progress)}
          label="Verification progress"
          stopLabel="Stop checking"
          testId="vf-progress"
        />
      )}
      {load.status === 'error' && (
        <button type="button" className="panel-button" onClick={() => void loadVerification()}>
          Check again
        </button>
      )}
      {results !== null && <Checklist results={results} />}
      <FailureModes modes={failureModes} />
      <EvidenceExport />
    </section>
  );
}

/** How many statements hold, and each with its evidence links. */
function Checklist({ results }: { results: VerificationResult[] }) {
  const passing = results.filter((r) => r.holds).length;
  return (
    <>
      <p className="panel-summary" data-testid="vf-summary">
        {passing} of {results.length} statements hold
      </p>
      <ol className="panel-checklist" aria-label="Verification checklist">
        {results.map((result) => (
          <li key={result.id} data-vf={result.id} data-holds={result.holds ? 'true' : 'false'}>
            <span className={result.holds ? 'panel-ok' : 'panel-bad'} aria-label={result.holds ? 'holds' : 'fails'}>
              {result.holds ? '✓' : '✗'}
            </span>
            <div>
              <a
                href={requirementPageLink(result.id)}
                className="panel-requirement"
                target="_blank"
                rel="noopener noreferrer"
                title={`What ${result.id} asks (opens the requirement catalogue)`}
              >
                <strong>{result.id}</strong>
              </a>{' '}
              {result.statement}
              <ul className="panel-evidence">
                {result.evidence.map((e, i) => (
                  <li key={i}>
                    <a href={evidenceLink(e)}>
                      {e.scenario} on {e.transport}
                      {e.seq === null ? '' : `, event ${e.seq}`}
                    </a>
                    : {e.detail}
                  </li>
                ))}
              </ul>
              <Problems problems={result.problems} />
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The evidence files as one zip, with the export's progress, its Stop, and the files it held. */
function EvidenceExport() {
  const evidence = usePanelsStore((s) => s.evidence);
  const exportEvidence = usePanelsStore((s) => s.exportEvidence);
  const evidenceProgress = usePanelsStore((s) => s.evidenceProgress);
  const stopEvidence = usePanelsStore((s) => s.stopEvidence);
  const files = 'value' in evidence ? evidence.value : null;
  return (
    <>
      <h3>Evidence export</h3>
      <p>
        The lab’s{' '}
        <a href={`${REQUIREMENTS_PAGE}#artifacts-ar`} target="_blank" rel="noopener noreferrer">
          evidence files
        </a>{' '}
        as one zip. Same lab, same bytes.
      </p>
      <button
        type="button"
        className="panel-button"
        onClick={() => void exportEvidence((bytes) => downloadFile(bytes, 'mcp-lab-evidence.zip', 'application/zip'))}
        disabled={evidence.status === 'loading'}
      >
        Export evidence
      </button>
      {evidence.status === 'loading' && (
        <WorkerProgress
          progress={evidenceProgress}
          stop={stopEvidence}
          text={exportText(evidenceProgress)}
          label="Evidence export progress"
          stopLabel="Stop exporting"
          testId="evidence-progress"
          reveal
        />
      )}
      <LoadState load={evidence} />
      {files !== null && (
        <ul className="panel-list" aria-label="Exported files">
          {files.map((f) => (
            <li key={f.path}>
              <code>{f.path}</code> — {f.description}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Why a statement's (or a failure mode's) check could not be made as written. */
function Problems({ problems }: { problems: readonly string[] }) {
  return problems.map((problem) => (
    <p key={problem} className="panel-error">
      {problem}
    </p>
  ));
}
