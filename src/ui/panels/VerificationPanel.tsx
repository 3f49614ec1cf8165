import { usePanelsStore } from '../../store/panels';
import type { VerificationResult } from '../../store/panelsStore';
import { downloadFile } from '../download';
import { LoadState } from './LoadState';

/** The seed the checklist's runs use (the engine's default), so a link reopens the same run. */
const CHECKLIST_SEED = 1;

/** The link that opens the diagram on the run and step that shows a statement (step k shows events 0 … k−1). */
export function evidenceLink(evidence: VerificationResult['evidence'][number]): string {
  const query = new URLSearchParams({ scenario: evidence.scenario, transport: evidence.transport, seed: String(CHECKLIST_SEED) });
  for (const [key, value] of Object.entries(evidence.settings ?? {})) query.set(key, value === null ? 'none' : String(value));
  if (evidence.seq !== null) query.set('step', String(evidence.seq + 1));
  return `?${query.toString()}`;
}

/** SPEC §8 and §10: VF-1 … VF-12 (and the lesson's RC-7, RC-8, RC-9, BF-5, LG-P5) from the transcripts that show them, and the evidence export. */
export function VerificationPanel() {
  const load = usePanelsStore((s) => s.verification);
  const evidence = usePanelsStore((s) => s.evidence);
  const exportEvidence = usePanelsStore((s) => s.exportEvidence);
  const results = 'value' in load ? load.value : null;
  const files = 'value' in evidence ? evidence.value : null;
  const passing = results?.filter((r) => r.holds).length ?? 0;

  return (
    <section className="panel" aria-labelledby="verification-title">
      <h2 id="verification-title">Verification</h2>
      <p className="panel-lede">Each statement is computed from the transcripts of the scenarios that demonstrate it. Follow a link to see the moment in the diagram.</p>
      <LoadState load={load} />
      {results !== null && (
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
                  <strong>{result.id}</strong> {result.statement}
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
                  {result.problems.map((problem) => (
                    <p key={problem} className="panel-error">{problem}</p>
                  ))}
                </div>
              </li>
            ))}
          </ol>
        </>
      )}
      <h3>Evidence export</h3>
      <p>The capstone artifacts (SPEC §10) as one zip. Same lab, same bytes.</p>
      <button type="button" className="panel-button" onClick={() => void exportEvidence((bytes) => downloadFile(bytes, 'mcp-lab-evidence.zip', 'application/zip'))} disabled={evidence.status === 'loading'}>
        Export evidence
      </button>
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
    </section>
  );
}
