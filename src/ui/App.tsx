import { useCallback, useRef } from 'react';
import { useLabStore, type Transcript } from '../store/labStore';
import { Controls } from './components/Controls';
import { Inspector } from './components/Inspector';
import { LedgerPanel } from './components/LedgerPanel';
import { Notices } from './components/Notices';
import { Outcome } from './components/Outcome';
import { Playback, StepAnnouncer } from './components/Playback';
import { ScenarioDescription } from './components/ScenarioDescription';
import { withoutCode } from './components/selectors';
import { ShortcutsDialog, type ShortcutsDialogHandle } from './components/ShortcutsDialog';
import { Timeline } from './components/Timeline';
import { UpdateNotice } from './components/UpdateNotice';
import { Diagram } from './diagram/Diagram';
import { LabTabs } from './panels/LabTabs';
import { formatMs, formatNumber, TRANSPORT_LABELS } from './format';
import { useKeyboardShortcuts } from './hooks/useKeyboardShortcuts';

/**
 * The lab: pick a scenario, transport, seed and settings; the worker runs it once; the page
 * replays the transcript step by step as a sequence diagram, the recorded facts, an inspector and
 * a timeline. Everything shown comes from the store; nothing here computes protocol behaviour.
 */
export function App() {
  const status = useLabStore((state) => state.status);
  const transcript = useLabStore((state) => state.transcript);
  const error = useLabStore((state) => state.error);
  const step = useLabStore((state) => state.step);
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
      data-step={transcript === null ? undefined : step}
      data-events={transcript?.events.length}
    >
      <header className="lab-header">
        <h1>MCP Reliability Lab</h1>
        <p className="lab-tagline">What an application still owns on top of MCP (cancellation, timeouts, retries, idempotency), run on a virtual clock.</p>
      </header>
      <UpdateNotice />
      <Notices />
      <Controls />
      {error !== null && (
        <div role="alert" className="lab-alert">
          <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
        </div>
      )}
      <ScenarioDescription />
      <RunProgress />
      {/* The tab bar: the run (diagram and facts) under Race and Ledger, the panels under the rest. */}
      <LabTabs race={transcript !== null && <Results transcript={transcript} stale={status === 'running'} onShowShortcuts={showShortcuts} />} />
      <LedgerPanel />
      <ShortcutsDialog ref={shortcuts} />
    </main>
  );
}

/** While the worker computes: a busy line with how far it got (the page stays responsive meanwhile). */
function RunProgress() {
  const status = useLabStore((state) => state.status);
  const progress = useLabStore((state) => state.progress);
  const stop = useLabStore((state) => state.stop);
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

function Results({ transcript, stale, onShowShortcuts }: { transcript: Transcript; stale: boolean; onShowShortcuts(): void }) {
  return (
    <section className={stale ? 'lab-results is-stale' : 'lab-results'} aria-busy={stale} aria-label="Replay">
      <p className="lab-run-info">
        Scenario {transcript.scenario} on {TRANSPORT_LABELS[transcript.transport]}, seed {transcript.seed} · {transcript.events.length} events · protocol{' '}
        {transcript.protocolVersion}
      </p>
      <div className="lab-sticky">
        <Playback transcript={transcript} onShowShortcuts={onShowShortcuts} />
        <StepAnnouncer transcript={transcript} />
      </div>
      <Outcome transcript={transcript} />
      <div className="lab-stage">
        <Diagram transcript={transcript} />
        <Inspector transcript={transcript} />
      </div>
      <Timeline transcript={transcript} />
    </section>
  );
}
