import { useState, type ChangeEvent, type FormEvent } from 'react';
import { TS_SDK_V2_VERSION, TS_SDK_VERSION, useLabStore, type Implementation, type ScenarioInfo, type Transport } from '../../store/labStore';
import { TRANSPORT_LABELS } from '../format';
import { usePanelsStore } from '../../store/panels';
import { selectedKind } from './selectors';
import { focusReplay } from '../panels/ownsKeys';
import { notApplyingReason, TAB_NOTE_ID } from '../panels/tabScenario';

/** Scenarios grouped by topic, topics in the order their first scenario is listed. */
function byTopic(scenarios: ScenarioInfo[]): Array<[string, ScenarioInfo[]]> {
  const groups = new Map<string, ScenarioInfo[]>();
  for (const scenario of scenarios) groups.set(scenario.topic, [...(groups.get(scenario.topic) ?? []), scenario]);
  return [...groups];
}

/** What to run: scenario, transport, seed (and for ledger scenarios, which ledger). */
export function Controls() {
  const scenarios = useLabStore((state) => state.scenarios);
  const scenarioId = useLabStore((state) => state.spec.scenario);
  const transport = useLabStore((state) => state.spec.transport);
  const seed = useLabStore((state) => state.spec.seed);
  const selectScenario = useLabStore((state) => state.selectScenario);
  const select = useLabStore((state) => state.select);
  const keepLedger = useLabStore((state) => state.keepLedger);
  const kind = useLabStore(selectedKind);
  const run = useLabStore((state) => state.run);
  const impl = useLabStore((state) => state.spec.impl);
  // While Predict is on, a race scenario goes by its neutral name: what races, never who wins.
  const predict = usePanelsStore((state) => state.predict);
  // On a tab that runs its own scenarios, the run controls say so instead of acting on a view not shown.
  const tab = usePanelsStore((state) => state.tab);
  const notHere = notApplyingReason(tab);
  const off = notHere === null ? {} : { disabled: true, title: notHere, 'aria-describedby': TAB_NOTE_ID };

  // What is typed may be momentarily unusable ("", "-"); the store gets every number, the engine
  // judges whether it is a valid seed (LAB003 shows in the alert). A seed set from elsewhere (a
  // link) replaces the text unless the text already says it.
  const [seedText, setSeedText] = useState(String(seed));
  const [shownSeed, setShownSeed] = useState(seed);
  if (shownSeed !== seed) {
    setShownSeed(seed);
    if (Number(seedText) !== seed) setSeedText(String(seed));
  }
  const onSeed = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setSeedText(text);
    if (text.trim() !== '' && Number.isFinite(Number(text))) select({ seed: Number(text) });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Run stays focusable on a tab it does not apply to (its reason is its description) but runs nothing there.
    if (notHere !== null) return;
    void run();
  };

  return (
    <form className="lab-controls" onSubmit={onSubmit}>
      <label className="lab-field lab-scenario-field">
        <span className="lab-label">Scenario</span>
        <select value={scenarioId} disabled={scenarios.length === 0} onChange={(event) => selectScenario(event.target.value)}>
          {byTopic(scenarios).map(([topic, members]) => (
            <optgroup key={topic} label={topic}>
              {members.map((scenario) => (
                <option key={scenario.id} value={scenario.id}>
                  {predict ? (scenario.neutralTitle ?? scenario.title) : scenario.title}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <fieldset className="lab-field lab-transport" {...off}>
        <legend className="lab-label">Transport</legend>
        {(Object.keys(TRANSPORT_LABELS) as Transport[]).map((value) => (
          <label key={value} className="lab-radio">
            <input type="radio" name="transport" value={value} checked={transport === value} onChange={() => {
                select({ transport: value });
                focusReplay();
              }}
            />
            {TRANSPORT_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label className="lab-field lab-seed">
        <span className="lab-label">Seed</span>
        <input type="number" inputMode="numeric" min={0} step={1} value={seedText} onChange={onSeed} {...off} />
      </label>
      {kind === 'request-race' && (
        // The lab's spec model, or a real SDK on the same virtual clock (each loaded in the worker when first chosen).
        <label className="lab-field lab-impl" title="model: the lab's spec model. ts-sdk: the real @modelcontextprotocol/sdk 1.x Client and Server (protocol 2025-11-25). ts-sdk-v2: the official v2 packages (protocol 2026-07-28). Both run on the virtual clock.">
          <span className="lab-label">Implementation</span>
          <select value={impl} onChange={(event) => select({ impl: event.target.value as Implementation })} {...off}>
            <option value="model">model</option>
            <option value="ts-sdk">ts-sdk {TS_SDK_VERSION}</option>
            <option value="ts-sdk-v2">ts-sdk-v2 {TS_SDK_V2_VERSION}</option>
          </select>
        </label>
      )}
      {kind === 'ledger' && (
        <label className="lab-check">
          <input type="checkbox" checked={keepLedger} onChange={(event) => select({ keepLedger: event.target.checked })} />
          Keep ledger between runs
        </label>
      )}
      <button
        type="submit"
        className="lab-run"
        disabled={scenarios.length === 0}
        aria-disabled={notHere !== null ? true : undefined}
        aria-describedby={notHere === null ? undefined : TAB_NOTE_ID}
        title={notHere ?? 'Run the scenario again in the worker with these settings; the same seed gives the same run (changing the transport, seed or implementation runs by itself)'}
      >
        Run
      </button>
      {notHere !== null && (
        <p className="lab-tab-note" id={TAB_NOTE_ID} role="note">
          {notHere}
        </p>
      )}
    </form>
  );
}
