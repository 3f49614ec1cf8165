import type { Transcript } from '../engine';
import { useCallback, useRef } from 'react';
import { formatFault, useRunStore } from '../store/runStore';
import { usePanelsStore } from '../store/panels';
import { Controls } from './components/Controls';
import { Inspector } from './components/Inspector';
import {
  ExplorePanel,
  LedgerPanel,
  LedgerTab,
  SdkRun,
  ShortcutsDialog,
  type ShortcutsDialogHandle,
} from './components/lazyParts';
import { Notices } from './components/Notices';
import { RecordingAbout } from './recording/RecordingFacts';
import { RecordingNotice, RecordingOpener, RecordingProgressLine } from './recording/RecordingOpener';
import { Outcome } from './components/Outcome';
import { Playback, StepAnnouncer } from './components/Playback';
import { WhatIf } from './components/WhatIf';
import { ScenarioDescription } from './components/ScenarioDescription';
import { exploreHasResults, withoutCode } from './components/selectors';
import { TimelineDock } from './components/Timeline';
import { UpdateNotice } from './components/UpdateNotice';
import { Diagram } from './diagram/LazyDiagram';
import { InstructorBar, PredictPrompt } from './panels/Instructor';
import { IntroCard } from './panels/IntroCard';
import { usePredictRace } from './panels/predictPhase';
import { TabBar, TabPanel } from './panels/LabTabs';
import { formatMs, formatNumber, TRANSPORT_LABELS } from './format';
import { useKeyboardShortcuts } from './hooks/useKeyboardShortcuts';

/**
 * The lab as a workbench: one full-viewport shell. A top bar (what to run, the tabs, the instructor
 * modes); under it the run itself, with the sequence diagram in the middle, the facts, the scenario
 * and the inspector in the side column beside it and the timeline docked below it. The page never
 * scrolls at 1280×720 and above: each part scrolls inside itself. Everything shown comes from the
 * store; nothing here computes protocol behaviour.
 */
export function App() {
  const status = useRunStore((state) => state.status);
  const transcript = useRunStore((state) => state.transcript);
  const error = useRunStore((state) => state.error);
  const step = useRunStore((state) => state.step);
  const presentation = usePanelsStore((state) => state.presentation);
  const predict = usePanelsStore((state) => state.predict);
  const { phase: predictPhase } = usePredictRace();
  const asking = predictPhase === 'asking';
  const shortcuts = useRef<ShortcutsDialogHandle>(null);
  const showShortcuts = useCallback(() => shortcuts.current?.open(), []);
  useKeyboardShortcuts(showShortcuts);

  return (
    <main
      className="lab"
      data-status={status}
      data-scenario={transcript?.scenario}
      data-transport={transcript?.transport}
      data-seed={transcript?.seed}
      data-impl={transcript === null ? undefined : (transcript.implementation ?? 'model')}
      data-step={transcript === null ? undefined : step}
      data-events={transcript?.events.length}
      data-mode={presentation ? 'presentation' : predict ? 'predict' : 'normal'}
      data-predicting={asking ? 'true' : undefined}
      data-predict-phase={predictPhase === 'off' ? undefined : predictPhase}
    >
      <header className="lab-top">
        <div className="lab-top-row">
          <h1 title="What an application still owns on top of MCP (cancellation, timeouts, retries, idempotency), run on a virtual clock.">
            MCP Reliability Lab
          </h1>
          <Controls />
          <RecordingOpener />
        </div>
        <div className="lab-top-row lab-tabs-row">
          <TabBar />
          <InstructorBar />
        </div>
      </header>
      <div className="lab-messages">
        <UpdateNotice />
        <Notices />
        <RecordingProgressLine />
        <RecordingNotice />
        {error !== null && (
          <div role="alert" className="lab-alert">
            <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
            <FaultsInError />
          </div>
        )}
        <RunProgress />
      </div>
      {/* The stored ledger stays at hand on the other tabs too (a ledger scenario picked from there). */}
      <TabPanel
        race={<Workbench transcript={transcript} stale={status === 'running'} onShowShortcuts={showShortcuts} />}
        besidePanels={<LedgerPanel />}
      />
      <ShortcutsDialog ref={shortcuts} />
    </main>
  );
}

/**
 * A run with faults that failed (a lost request its client never retries: LAB021) or whose fault was
 * refused (LAB023) leaves no diagram, and with it no What if row: the way back is offered here.
 */
function FaultsInError() {
  const faults = useRunStore((state) => state.spec.faults ?? null);
  const clearFaults = useRunStore((state) => state.clearFaults);
  if (faults === null) return null;
  return (
    <p className="lab-alert-action">
      The run had faults {faults.map(formatFault).join(', ')}.{' '}
      <button type="button" className="lab-button" onClick={clearFaults}>
        Remove faults
      </button>
    </p>
  );
}

/** While the worker computes: a busy line with how far it got (the page stays responsive meanwhile). */
function RunProgress() {
  const status = useRunStore((state) => state.status);
  const progress = useRunStore((state) => state.progress);
  const stop = useRunStore((state) => state.stop);
  return (
    <div className="lab-busy-row">
      <p className="lab-busy" role="status" data-busy={status === 'running' ? 'true' : 'false'}>
        {status !== 'running'
          ? ''
          : progress === null
            ? 'Running in the worker…'
            : `Running in the worker… ${formatNumber(progress.eventsRun)} engine events so far, virtual time ${formatMs(progress.atMs)}`}
      </p>
      {/* A run can always be ended: Stop replaces the worker; the stored ledger is saved only by completed runs. */}
      {status === 'running' && (
        <button type="button" className="lab-stop" onClick={stop}>
          Stop
        </button>
      )}
    </div>
  );
}

/**
 * The race and ledger tabs: playback over the diagram, the side column beside it, the timeline
 * below. In presentation mode only the playback, the facts (as a strip) and the diagram remain.
 */
function Workbench({
  transcript,
  stale,
  onShowShortcuts,
}: {
  transcript: Transcript | null;
  stale: boolean;
  onShowShortcuts(): void;
}) {
  const tab = usePanelsStore((state) => state.tab);
  const phase = usePredictRace().phase;
  // Predict's card (where the replay will stop, the question, then its answer; or which scenarios it
  // works on) takes a row of its own under the diagram, in view of the room: the side column beside it
  // is a few lines tall at 1280×720.
  const inRow = phase !== 'off';
  // An exploration's results take the row under the diagram, beside the timeline, unless Predict holds it.
  const exploreInRow = useRunStore(exploreHasResults) && !inRow && transcript?.kind !== 'recording';
  // The keyboard focus the Explore panel had when it moved between the two, for the one that takes it.
  const exploreFocus = useRef<string | null>(null);
  return (
    <div className="lab-workbench" data-tab={tab}>
      {transcript === null ? (
        <div className="lab-work-empty">
          <ScenarioDescription />
        </div>
      ) : (
        <section
          className={stale ? 'lab-results is-stale' : 'lab-results'}
          aria-busy={stale}
          aria-label="Replay"
          data-explore={exploreInRow ? 'row' : undefined}
        >
          <div className="lab-playbar">
            <Playback transcript={transcript} onShowShortcuts={onShowShortcuts} />
            {/* What if… shares the step sentence's line: the row the diagram would otherwise give up. */}
            <div className="lab-now-row">
              <StepAnnouncer transcript={transcript} />
              <WhatIf />
            </div>
          </div>
          {/* One element, placed by the grid: atop the side column, or a strip over the diagram when presenting. */}
          {/* Focusable, since a long outcome (a ledger run's) scrolls inside it. */}
          <div className="lab-facts-cell" role="group" aria-label="Run outcome" tabIndex={0}>
            <Outcome transcript={transcript} />
          </div>
          <Diagram transcript={transcript} />
          {/* A first visit's card stands over the diagram's empty foot (nothing is drawn at step 0), where there is room to read it. */}
          {transcript.kind !== 'recording' && <IntroCard />}
          {/* Before the race point, where the replay will stop and the score; while Predict asks, the question, every answer in view of the room; past it the answer, the verdict, the why and the score: a row of its own under the diagram. */}
          {inRow && (
            <div className="lab-predict-row">
              <PredictPrompt />
            </div>
          )}
          {exploreInRow && (
            <div className="lab-explore-row">
              <ExplorePanel focusOnMove={exploreFocus} />
            </div>
          )}
          <aside className="lab-side" aria-label="Scenario and inspector">
            <div className="lab-side-scroll">
              {tab === 'ledger' && <LedgerTab />}
              {transcript.kind === 'recording' ? (
                <>
                  <p className="lab-run-info">
                    {transcript.title.charAt(0).toUpperCase() + transcript.title.slice(1)} on{' '}
                    {TRANSPORT_LABELS[transcript.transport]} · {formatNumber(transcript.events.length)} events ·
                    protocol {transcript.protocolVersion}
                  </p>
                  <RecordingAbout transcript={transcript} />
                </>
              ) : (
                <>
                  {/* The description's line first: at 1280×720 the column shows a few lines beside long facts, and
                      what the scenario is reads before which seed and protocol ran it. */}
                  <ScenarioDescription folded />
                  <ScenarioRunInfo transcript={transcript} />
                  <SdkRun transcript={transcript} />
                  {!exploreInRow && <ExplorePanel focusOnMove={exploreFocus} />}
                </>
              )}
              <LedgerPanel />
              <Inspector transcript={transcript} />
            </div>
          </aside>
          <TimelineDock transcript={transcript} />
        </section>
      )}
    </div>
  );
}

/** Which run the side column describes: scenario, transport, seed, events, implementation, protocol. */
function ScenarioRunInfo({ transcript }: { transcript: Transcript }) {
  return (
    <p className="lab-run-info">
      Scenario {transcript.scenario} on {TRANSPORT_LABELS[transcript.transport]}, seed {transcript.seed} ·{' '}
      {formatNumber(transcript.events.length)} events ·{' '}
      {transcript.sdk === undefined ? 'the spec model' : `${transcript.sdk.package} ${transcript.sdk.version}`} ·
      protocol {transcript.protocolVersion}
      {transcript.schedule === undefined
        ? ''
        : ' · an explored ordering (Back to the seeded run, under Every ordering, returns)'}
    </p>
  );
}
