import type { Transcript } from '../../engine';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  IMPLEMENTATIONS,
  TRANSPORTS,
  TS_SDK_V2_VERSION,
  TS_SDK_VERSION,
  useRunStore,
  type Implementation,
  type ScenarioInfo,
} from '../../store/runStore';
import { TRANSPORT_LABELS } from '../format';
import { usePanelsStore } from '../../store/panels';
import { selectedKind } from './selectors';
import { focusReplay } from '../panels/ownsKeys';
import { notApplyingReason, TAB_NOTE_ID, tabFamily } from '../panels/tabScenario';

/** Each implementation as the picker names it (with the SDK's pinned version); a new one fails to compile until named. */
const IMPLEMENTATION_LABELS: Record<Implementation, string> = {
  model: 'model',
  'ts-sdk': `ts-sdk ${TS_SDK_VERSION}`,
  'ts-sdk-v2': `ts-sdk-v2 ${TS_SDK_V2_VERSION}`,
  'ext-tasks': 'ext-tasks',
};
/** The implementations the picker offers on a request race: ext-tasks runs the task scenarios, from the command line. */
const RACE_IMPLEMENTATIONS = IMPLEMENTATIONS.filter((impl) => impl !== 'ext-tasks');

/** Scenarios grouped by topic, topics in the order their first scenario is listed. */
function byTopic(scenarios: ScenarioInfo[]): Array<[string, ScenarioInfo[]]> {
  const groups = new Map<string, ScenarioInfo[]>();
  for (const scenario of scenarios) groups.set(scenario.topic, [...(groups.get(scenario.topic) ?? []), scenario]);
  return [...groups];
}

/** Off, yet focusable: on a tab the run controls do not apply to, the reason shows on hover (title) and is read on focus (aria-describedby). */
type Off = { 'aria-disabled'?: true; title?: string; 'aria-describedby'?: string };

/** What to run: scenario, transport, seed (and for ledger scenarios, which ledger). */
export function Controls() {
  const scenarios = useRunStore((state) => state.scenarios);
  const kind = useRunStore(selectedKind);
  // On a tab that runs its own scenarios, the run controls say so instead of acting on a view not shown.
  const tab = usePanelsStore((state) => state.tab);
  const notHere = notApplyingReason(tab);
  const off: Off = notHere === null ? {} : { 'aria-disabled': true, title: notHere, 'aria-describedby': TAB_NOTE_ID };
  const { said, onSubmit } = useRunSaid(notHere);

  return (
    <form className="lab-controls" onSubmit={onSubmit}>
      <ScenarioPicker />
      <TransportPicker notHere={notHere} off={off} />
      <SeedField notHere={notHere} off={off} />
      {kind === 'request-race' && <ImplementationPicker notHere={notHere} off={off} />}
      {kind === 'ledger' && <KeepLedger />}
      <button
        type="submit"
        className="lab-run"
        disabled={scenarios.length === 0}
        aria-disabled={notHere !== null ? true : undefined}
        aria-describedby={notHere === null ? undefined : TAB_NOTE_ID}
        title={
          notHere ??
          'Run the scenario again in the worker with these settings; the same seed gives the same run (changing the transport, seed or implementation runs by itself)'
        }
      >
        Run
      </button>
      {said !== null && (
        <p className="lab-ran" role="status" data-testid="run-said">
          {said}
        </p>
      )}
      {notHere !== null && (
        <p className="lab-tab-note" id={TAB_NOTE_ID} role="note">
          {notHere}
        </p>
      )}
    </form>
  );
}

/**
 * Run re-runs the selection; the same seed gives the same run, so the page says what it did: a
 * passing note over the page (it moves nothing), gone after a while or when another run shows.
 */
function useRunSaid(notHere: string | null): {
  said: string | null;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
} {
  const run = useRunStore((state) => state.run);
  const transcript = useRunStore((state) => state.transcript);
  const [ran, setRan] = useState<{ transcript: Transcript; text: string } | null>(null);
  useEffect(() => {
    if (ran === null) return;
    const timer = setTimeout(() => setRan(null), RAN_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [ran]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Run stays focusable on a tab it does not apply to (its reason is its description) but runs nothing there.
    if (notHere !== null) return;
    const before = useRunStore.getState().transcript;
    void run().then(() => {
      const after = useRunStore.getState().transcript;
      if (after === null) return;
      setRan({ transcript: after, text: ranText(before, after) });
    });
  };
  return { said: ran !== null && ran.transcript === transcript ? ran.text : null, onSubmit };
}

/** The Scenario menu, by topic; a tab whose view belongs to some scenarios offers only those (ids unchanged). */
function ScenarioPicker() {
  const scenarios = useRunStore((state) => state.scenarios);
  const scenarioId = useRunStore((state) => state.spec.scenario);
  const selectScenario = useRunStore((state) => state.selectScenario);
  const transcript = useRunStore((state) => state.transcript);
  const schedule = useRunStore((state) => state.spec.schedule ?? null);
  // While Predict is on, a race scenario goes by its neutral name: what races, never who wins.
  const predict = usePanelsStore((state) => state.predict);
  const family = tabFamily(
    usePanelsStore((state) => state.tab),
    scenarios,
  );
  const offered = family === null ? scenarios : scenarios.filter((scenario) => family.includes(scenario.id));
  return (
    <label className="lab-field lab-scenario-field">
      <span className="lab-label">Scenario</span>
      <select
        value={scenarioId}
        disabled={scenarios.length === 0}
        onChange={(event) => selectScenario(event.target.value)}
      >
        {byTopic(offered).map(([topic, members]) => (
          <optgroup key={topic} label={topic}>
            {members.map((scenario) => (
              <option key={scenario.id} value={scenario.id}>
                {optionTitle(scenario, predict, scenario.id === scenarioId && schedule !== null ? transcript : null)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

interface RunControl {
  notHere: string | null;
  off: Off;
}

function TransportPicker({ notHere, off }: RunControl) {
  const transport = useRunStore((state) => state.spec.transport);
  const select = useRunStore((state) => state.select);
  return (
    <fieldset className="lab-field lab-transport" {...off}>
      <legend className="lab-label">Transport</legend>
      {TRANSPORTS.map((value) => (
        <label key={value} className="lab-radio">
          <input
            type="radio"
            name="transport"
            value={value}
            checked={transport === value}
            {...off}
            onClick={(event) => {
              if (notHere !== null) event.preventDefault();
            }}
            onChange={() => {
              if (notHere !== null) return;
              select({ transport: value });
              focusReplay();
            }}
          />
          {TRANSPORT_LABELS[value]}
        </label>
      ))}
    </fieldset>
  );
}

function SeedField({ notHere, off }: RunControl) {
  const seed = useRunStore((state) => state.spec.seed);
  const select = useRunStore((state) => state.select);
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
  return (
    <label className="lab-field lab-seed">
      <span className="lab-label">Seed</span>
      <input
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={seedText}
        onChange={onSeed}
        readOnly={notHere !== null}
        {...off}
      />
    </label>
  );
}

/** The lab's spec model, or a real SDK on the same virtual clock (each loaded in the worker when first chosen). */
function ImplementationPicker({ notHere, off }: RunControl) {
  const impl = useRunStore((state) => state.spec.impl);
  const select = useRunStore((state) => state.select);
  return (
    <label
      className="lab-field lab-impl"
      title="model: the lab's spec model. ts-sdk: the real @modelcontextprotocol/sdk 1.x Client and Server (protocol 2025-11-25). ts-sdk-v2: the official v2 packages (protocol 2026-07-28). Both run on the virtual clock."
    >
      <span className="lab-label">Implementation</span>
      <select
        value={impl}
        onChange={(event) => notHere === null && select({ impl: event.target.value as Implementation })}
        onMouseDown={(event) => notHere !== null && event.preventDefault()}
        {...off}
      >
        {RACE_IMPLEMENTATIONS.map((value) => (
          <option key={value} value={value}>
            {IMPLEMENTATION_LABELS[value]}
          </option>
        ))}
      </select>
    </label>
  );
}

function KeepLedger() {
  const keepLedger = useRunStore((state) => state.keepLedger);
  const select = useRunStore((state) => state.select);
  return (
    <label className="lab-check">
      <input type="checkbox" checked={keepLedger} onChange={(event) => select({ keepLedger: event.target.checked })} />
      Keep ledger between runs
    </label>
  );
}

/**
 * A scenario's name in the menu. While Predict is on, a race goes by its neutral name; while an
 * explored ordering is open, the name says so and how that ordering ends (the seeded run's title
 * may name the other ending), unless Predict still hides the ending.
 */
function optionTitle(scenario: ScenarioInfo, predict: boolean, explored: Transcript | null): string {
  const name = predict ? (scenario.neutralTitle ?? scenario.title) : scenario.title;
  if (explored === null) return name;
  if (predict && scenario.neutralTitle !== undefined) return `${name} (an explored ordering)`;
  const outcome = explored.outcome as { terminalState?: unknown; clientOutcome?: unknown; viewsDiverge?: unknown };
  if (typeof outcome.terminalState !== 'string') return `${scenario.id} — an explored ordering`;
  const client =
    outcome.viewsDiverge === true && typeof outcome.clientOutcome === 'string'
      ? `, the client ${outcome.clientOutcome}`
      : '';
  return `${scenario.id} — an explored ordering: ends ${outcome.terminalState}${client}`;
}

/** How long What Run did stays on screen. */
const RAN_SHOWN_MS = 8000;

/** What Run did, in words: the same seed replays the same run, which the page would otherwise show as nothing. */
function ranText(before: Transcript | null, after: Transcript): string {
  const what = `${after.scenario} on ${TRANSPORT_LABELS[after.transport]}, seed ${after.seed}`;
  const same =
    before !== null &&
    before.scenario === after.scenario &&
    before.transport === after.transport &&
    before.seed === after.seed &&
    JSON.stringify(before.events) === JSON.stringify(after.events);
  return same
    ? `Ran ${what} again: the same ${after.events.length} events, since a seed fixes the run. Change the seed or a setting, or Explore, for another.`
    : `Ran ${what}: ${after.events.length} events.`;
}
