import { useLabStore } from '../../store/labStore';
import { selectedScenario } from './selectors';
import { SettingsPanel } from './SettingsPanel';

/** The picked scenario for someone who has never seen MCP: its topic, one paragraph, the SPEC ids, its settings. */
export function ScenarioDescription() {
  const scenario = useLabStore(selectedScenario);
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
      <SettingsPanel scenario={scenario} />
    </section>
  );
}
