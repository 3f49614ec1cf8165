import type { Transcript } from '../../engine';
import { useRunStore } from '../../store/runStore';
import { compareBesideModel, comparableProbe } from '../../store/recording';
import './recording.css';

type Recording = Transcript<'recording'>;
type Verdict = Extract<Recording['events'][number], { kind: 'verdict' }>;

/** A verdict as the CLI prints it: a broken MUST in capitals, a SHOULD not followed with its level. */
const resultText = (verdict: Verdict): string =>
  verdict.result === 'broken'
    ? `BROKEN (${verdict.sentence.level})`
    : verdict.result === 'not followed'
      ? `not followed (${verdict.sentence.level})`
      : verdict.result;
const RESULT_CLASS = {
  holds: 'verdict-holds',
  broken: 'verdict-broken',
  'not followed': 'verdict-not-followed',
  'not observable': 'verdict-not-observable',
} as const;

/**
 * An opened recording's facts: what it was recorded from and when, and every verdict of the probe,
 * each filled in once the replay passes the moment the probe decided it (the verdict's own event),
 * as a run's facts fill in. The sentence each verdict checks is its title, quoted.
 */
export function RecordingFacts({ transcript }: { transcript: Recording }) {
  const step = useRunStore((state) => state.step);
  const verdicts = transcript.events.filter((event): event is Verdict => event.kind === 'verdict');
  const pick = comparableProbe(transcript, step);
  const { outcome } = transcript;
  return (
    <div className="recording-facts" data-testid="recording-facts">
      <p className="recording-label" data-testid="recording-label">
        {transcript.title}
      </p>
      <table className="recording-verdicts">
        <caption>
          Verdicts: {outcome.holds} hold, {outcome.broken} broken, {outcome.notFollowed} not followed,{' '}
          {outcome.notObservable} not observable
        </caption>
        <thead>
          <tr>
            <th scope="col">Check (probe)</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {verdicts.map((verdict) => {
            const reached = verdict.seq < step;
            const quote = `${verdict.sentence.revision === 'lesson' ? `The lesson (${verdict.sentence.page})` : `${verdict.sentence.revision}, ${verdict.sentence.page}`}, ${verdict.sentence.level}: ${verdict.sentence.text.replaceAll('**', '')}`;
            return (
              <tr
                key={verdict.seq}
                data-result={reached ? verdict.result : 'pending'}
                title={reached ? `${quote}\n\n${verdict.detail}` : quote}
              >
                <th scope="row">
                  {verdict.check} <span className="verdict-probe">({verdict.probe})</span>
                </th>
                <td className={reached ? RESULT_CLASS[verdict.result] : 'verdict-pending'}>
                  {reached ? resultText(verdict) : 'pending'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pick !== null && (
        <p className="recording-compare">
          <button
            type="button"
            className="lab-button"
            aria-describedby="recording-compare-what"
            onClick={() => compareBesideModel(transcript, step)}
          >
            Compare beside the model
          </button>
          <span id="recording-compare-what">
            the recorded {pick.probe} beside the lab's {pick.model.replace(':transport=', ' on ')}
          </span>
        </p>
      )}
    </div>
  );
}

/** Where the recording came from, in the side column where a scenario's description stands. */
export function RecordingAbout({ transcript }: { transcript: Recording }) {
  const { outcome } = transcript;
  return (
    <section className="recording-about" aria-label="Recording">
      <h2>Recorded with lab probe</h2>
      <p>
        A real server, not the lab's model: the probe saw one end of each message (it sent the client's and received the
        server's), so every message is drawn at the instant it saw it, level. Times are real milliseconds from the
        probe's start.
      </p>
      <dl>
        <dt>Server</dt>
        <dd>
          {outcome.server.name} {outcome.server.version}
        </dd>
        <dt>Probed</dt>
        <dd>
          {transcript.transport === 'stdio' ? 'stdio: ' : 'Streamable HTTP: '}
          <code>{outcome.target}</code>
        </dd>
        <dt>Protocol</dt>
        <dd>
          {transcript.protocolVersion} via {outcome.negotiatedVia}
          {outcome.fallbackReason === null ? '' : ` (${outcome.fallbackReason})`}
        </dd>
        <dt>Probes</dt>
        <dd>{outcome.probes.map((entry) => entry.probe).join(', ')}</dd>
      </dl>
    </section>
  );
}
