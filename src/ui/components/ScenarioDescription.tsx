import { useRef, type KeyboardEvent } from 'react';
import { useRunStore } from '../../store/runStore';
import { selectedScenario } from './selectors';
import { SettingsPanel } from './SettingsPanel';
import { usePredictHides } from '../panels/predictPhase';

/**
 * The picked scenario for someone who has never seen MCP: its topic, one paragraph, the requirement ids, its
 * settings. `folded` (the side column beside a run): the paragraph is a disclosure that opens whole,
 * beside the column over the diagram's edge, where a line is long enough to read it at 1280×720; a
 * narrow column under the facts would cut it mid-sentence.
 */
export function ScenarioDescription({ folded = false }: { folded?: boolean }) {
  const scenario = useRunStore(selectedScenario);
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
      {folded ? <FoldedSummary text={scenario.summary} /> : <p className="lab-summary">{scenario.summary}</p>}
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

/** The paragraph behind "What happens": Enter or Space on it opens it whole, Escape or a second press closes it. */
function FoldedSummary({ text }: { text: string }) {
  const details = useRef<HTMLDetailsElement>(null);
  const close = (event: KeyboardEvent) => {
    const element = details.current;
    if (event.key !== 'Escape' || element === null || !element.open) return;
    // Escape closes the paragraph only (not Presentation, not a dialog).
    event.stopPropagation();
    element.open = false;
    element.querySelector('summary')?.focus();
  };
  return (
    <details className="lab-about" ref={details} onKeyDown={close}>
      <summary>What happens in this scenario</summary>
      <p className="lab-summary">{text}</p>
    </details>
  );
}
