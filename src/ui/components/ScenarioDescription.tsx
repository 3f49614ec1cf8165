import { useLabStore } from '../../store/labStore';
import { selectedScenario } from './selectors';
import { SettingsPanel } from './SettingsPanel';
import { usePredictHides } from '../panels/predictPhase';

/** The picked scenario for someone who has never seen MCP: its topic, one paragraph, the SPEC ids, its settings. */
export function ScenarioDescription() {
  const scenario = useLabStore(selectedScenario);
  const hidden = usePredictHides();
  if (scenario === undefined) return null;
  if (hidden) {
    // Predict: the paragraph narrates the ending, so it waits for the reveal.
    return (
      <section className="lab-scenario" aria-label="Scenario description" data-hidden-by="predict">
        <p className="lab-topic">{scenario.topic}</p>
        <p className="lab-summary is-hidden">The description is hidden while you predict: it shows after the reveal.</p>
      </section>
    );
  }
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
      <SettingsPanel scenario={scenario} />
    </section>
  );
}
