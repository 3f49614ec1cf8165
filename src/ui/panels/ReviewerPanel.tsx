import { usePanelsStore } from '../../store/panels';
import type { ReviewResult } from '../../store/panelsStore';
import { downloadFile } from '../download';
import { LoadState } from './LoadState';
import { runLink } from './VerificationPanel';

/** The zip's name: the skill folder's own name (src/lesson/skill.ts SKILL_ZIP_NAME; the UI may not import the lab). */
const SKILL_ZIP_NAME = 'mcp-reliability-reviewer.zip';

/** docs/requirements.md#artifacts-ar: the reliability reviewer, on a design written as JSON (prefilled with an unsafe example). */
export function ReviewerPanel() {
  const load = usePanelsStore((s) => s.review);
  const result = 'value' in load ? load.value : null;

  return (
    <section className="panel" aria-labelledby="reviewer-title">
      <h2 id="reviewer-title">Reliability reviewer</h2>
      <p className="panel-lede">
        Describe an MCP operation: whether it mutates, its key, transport, timeouts, retries, queue and recovery plan.
        The reviewer flags each unsafe choice with the reason.
      </p>
      <ReviewForm />
      <LoadState load={load} />
      <div id="review-errors">{result !== null && !result.ok && <InvalidInput result={result} />}</div>
      {result?.ok === true && <Review review={result.review} />}
      <SkillDownload />
    </section>
  );
}

type Refused = Extract<ReviewResult, { ok: false }>;
type Reviewed = Extract<ReviewResult, { ok: true }>['review'];

function ReviewForm() {
  const text = usePanelsStore((s) => s.reviewText);
  const setText = usePanelsStore((s) => s.setReviewText);
  const submit = usePanelsStore((s) => s.submitReview);
  return (
    <form
      className="panel-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor="review-input">Design to review (JSON)</label>
      <textarea
        id="review-input"
        rows={16}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-describedby="review-errors"
      />
      <button type="submit" className="panel-button">
        Review
      </button>
    </form>
  );
}

/** The fields the reviewer refused, the first ones listed and how many more. */
function InvalidInput({ result }: { result: Refused }) {
  return (
    <div role="alert">
      <h3>Invalid input</h3>
      <ul className="panel-list" aria-label="Field errors">
        {result.errors.map((error) => (
          <li key={`${error.field} ${error.message}`}>
            <code>{error.field}</code> {error.message}
          </li>
        ))}
      </ul>
      {(result.errorsTotal ?? result.errors.length) > result.errors.length && (
        <p data-testid="review-errors-more">
          … and {((result.errorsTotal ?? 0) - result.errors.length).toLocaleString('en')} more errors (the first{' '}
          {result.errors.length} are listed).
        </p>
      )}
    </div>
  );
}

/** The review: flags, retry classification, race table, idempotency boundary, flow control, failure cards. */
function Review({ review }: { review: Reviewed }) {
  return (
    <div className="review-result" data-testid="review-result">
      <h3>Flags</h3>
      <ul className="panel-list" aria-label="Flags">
        {review.flags.length === 0 && <li>No unsafe choices found.</li>}
        {review.flags.map((flag) => (
          <li key={`${flag.field} ${flag.reason}`} data-severity={flag.severity}>
            <span className={flag.severity === 'unsafe' ? 'panel-bad' : 'panel-warn'}>{flag.severity}</span>{' '}
            <code>{flag.field}</code> {flag.reason}
          </li>
        ))}
      </ul>
      <h3>Retry classification</h3>
      <p data-testid="retry-class">
        <strong>{review.retryClassification.retryClass}</strong> — {review.retryClassification.rule}
      </p>
      {review.retryClassification.hintWarnings.map((w) => (
        <p key={w} className="panel-warn-text">
          {w}
        </p>
      ))}
      <h3>Race table</h3>
      <table className="panel-table">
        <thead>
          <tr>
            <th scope="col">Ordering</th>
            <th scope="col">Server</th>
            <th scope="col">Client</th>
            <th scope="col">Wire</th>
          </tr>
        </thead>
        <tbody>
          {review.raceTable.map((row) => (
            <tr key={row.ordering}>
              <td>{row.ordering}</td>
              <td>{row.server}</td>
              <td>{row.client}</td>
              <td>{row.wire}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Idempotency boundary</h3>
      <ul className="panel-list">
        {review.idempotencyBoundary.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <h3>Flow-control checks</h3>
      <ul className="panel-list">
        {review.flowControl.map((c) => (
          <li key={c.check}>
            <span className={c.ok ? 'panel-ok' : 'panel-bad'}>{c.ok ? '✓' : '✗'}</span> <strong>{c.check}</strong>{' '}
            {c.detail}
          </li>
        ))}
      </ul>
      <h3>Failure cards</h3>
      <FailureCards cards={review.failureCards} />
    </div>
  );
}

function FailureCards({ cards }: { cards: Reviewed['failureCards'] }) {
  return (
    <div className="panel-cards">
      {cards.map((card) => (
        <article key={card.id} className="panel-card" aria-label={card.failure}>
          <h4>{card.failure}</h4>
          <p>
            <strong>Symptom:</strong> {card.symptom}
          </p>
          <p>
            <strong>Correct response:</strong> {card.correctResponse}
          </p>
          <p>
            <a href={runLink(card.failureRun)}>Run the failure</a> · <a href={runLink(card.fixRun)}>Run the fix</a>
          </p>
        </article>
      ))}
    </div>
  );
}

/** The same checks as a skill folder, downloaded as a zip. */
function SkillDownload() {
  const skill = usePanelsStore((s) => s.skill);
  const downloadSkill = usePanelsStore((s) => s.downloadSkill);
  return (
    <>
      <h3>Use the reviewer outside the lab</h3>
      <p>
        The same checks as a skill folder for a coding agent or a person: <code>SKILL.md</code> says which facts to
        gather from a server’s code and where they live, every check with its requirement ids and how to apply it by
        hand, and two worked examples with this reviewer’s output.
      </p>
      <button
        type="button"
        className="panel-button"
        onClick={() => void downloadSkill((bytes) => downloadFile(bytes, SKILL_ZIP_NAME, 'application/zip'))}
        disabled={skill.status === 'loading'}
      >
        Download skill
      </button>
      <LoadState load={skill} />
    </>
  );
}
