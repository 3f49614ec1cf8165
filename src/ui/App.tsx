import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useLabStore, type LabEvent, type Transcript, type Transport } from '../store/labStore';
import { describeEvent, factsRow, TRANSPORT_LABELS } from './format';

/** The first page: pick a scenario, transport and seed; the worker runs it; the page shows the transcript. */
export function App() {
  const status = useLabStore((state) => state.status);
  const transcript = useLabStore((state) => state.transcript);
  const error = useLabStore((state) => state.error);

  return (
    <main
      className="lab"
      data-status={status}
      data-scenario={transcript?.scenario}
      data-transport={transcript?.transport}
      data-seed={transcript?.seed}
    >
      <header className="lab-header">
        <h1>MCP Reliability Lab</h1>
        <p className="lab-tagline">An MCP client and server race cancellation against completion on a virtual clock.</p>
      </header>
      <Controls />
      {error !== null && (
        <div role="alert" className="lab-alert">
          <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
        </div>
      )}
      <ScenarioDescription />
      {transcript !== null && <Results transcript={transcript} stale={status === 'running'} />}
    </main>
  );
}

/** LabError messages already start with their code; the alert shows the code once, in bold. */
function withoutCode(code: string, message: string): string {
  return message.startsWith(`${code} `) ? message.slice(code.length + 1) : message;
}

function Controls() {
  const scenarios = useLabStore((state) => state.scenarios);
  const scenarioId = useLabStore((state) => state.scenarioId);
  const transport = useLabStore((state) => state.transport);
  const seed = useLabStore((state) => state.seed);
  const selectScenario = useLabStore((state) => state.selectScenario);
  const setTransport = useLabStore((state) => state.setTransport);
  const setSeed = useLabStore((state) => state.setSeed);
  const run = useLabStore((state) => state.run);

  // What is typed may be momentarily unusable ("", "-"); the store gets every number, the engine
  // judges whether it is a valid seed (LAB003 shows in the alert).
  const [seedText, setSeedText] = useState(String(seed));
  const onSeed = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setSeedText(text);
    if (text.trim() !== '' && Number.isFinite(Number(text))) setSeed(Number(text));
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run();
  };

  return (
    <form className="lab-controls" onSubmit={onSubmit}>
      <label className="lab-field">
        <span className="lab-label">Scenario</span>
        <select value={scenarioId} disabled={scenarios.length === 0} onChange={(event) => selectScenario(event.target.value)}>
          {scenarios.map((scenario) => (
            <option key={scenario.id} value={scenario.id}>
              {scenario.title}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="lab-field lab-transport">
        <legend className="lab-label">Transport</legend>
        {(Object.keys(TRANSPORT_LABELS) as Transport[]).map((value) => (
          <label key={value} className="lab-radio">
            <input type="radio" name="transport" value={value} checked={transport === value} onChange={() => setTransport(value)} />
            {TRANSPORT_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label className="lab-field lab-seed">
        <span className="lab-label">Seed</span>
        <input type="number" inputMode="numeric" min={0} step={1} value={seedText} onChange={onSeed} />
      </label>
      <button type="submit" className="lab-run" disabled={scenarios.length === 0}>
        Run
      </button>
    </form>
  );
}

function ScenarioDescription() {
  const scenarios = useLabStore((state) => state.scenarios);
  const scenarioId = useLabStore((state) => state.scenarioId);
  const scenario = scenarios.find((candidate) => candidate.id === scenarioId);
  if (scenario === undefined) return null;
  return (
    <section className="lab-scenario" aria-label="Scenario description">
      <p className="lab-topic">{scenario.topic}</p>
      <p className="lab-summary">{scenario.summary}</p>
      <div className="lab-requirements">
        <span className="lab-label" id="requirements-label">
          Requirements
        </span>
        <ul aria-labelledby="requirements-label">
          {scenario.requirements.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Results({ transcript, stale }: { transcript: Transcript; stale: boolean }) {
  const facts = factsRow(transcript.outcome);
  return (
    <section className={stale ? 'lab-results is-stale' : 'lab-results'} aria-busy={stale}>
      <p className="lab-run-info">
        Scenario {transcript.scenario} on {TRANSPORT_LABELS[transcript.transport]}, seed {transcript.seed} ·{' '}
        {transcript.events.length} events · protocol {transcript.protocolVersion}
      </p>
      <table className="lab-facts">
        <caption>Recorded facts</caption>
        <thead>
          <tr>
            <th scope="col">Terminal state</th>
            <th scope="col">Final response</th>
            <th scope="col">Cancellation signal</th>
            <th scope="col">Client ignores</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{facts.terminalState}</td>
            <td>{facts.finalResponse}</td>
            <td>{facts.cancellationSignal}</td>
            <td>{facts.clientIgnores}</td>
          </tr>
        </tbody>
      </table>
      <h2 id="timeline-heading">Timeline</h2>
      <ol className="lab-timeline" aria-label="Timeline">
        {transcript.events.map((event) => (
          <TimelineItem key={event.seq} event={event} />
        ))}
      </ol>
    </section>
  );
}

function TimelineItem({ event }: { event: LabEvent }) {
  const ignored = ('ignoredBy' in event && event.ignoredBy !== undefined) || ('lost' in event && event.lost === true);
  const className = ['lab-event', `kind-${event.kind}`, ignored ? 'is-ignored' : ''].filter(Boolean).join(' ');
  return (
    <li className={className}>
      <span className="lab-event-at">{event.atMs} ms</span>
      <span className="lab-event-sep"> · </span>
      <span className="lab-event-kind">{event.kind}</span>
      <span className="lab-event-sep"> · </span>
      <span className="lab-event-text">{describeEvent(event)}</span>
    </li>
  );
}
