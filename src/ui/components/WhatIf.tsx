import { currentTimeMs, formatFault, useRunStore } from '../../store/runStore';
import { formatMs } from '../format';
import { selectedKind } from './selectors';

/**
 * "What if…": at any step of a request race, Cancel here re-runs the scenario with the
 * user's cancel at the replay's virtual time; on the reconnect and herd scenarios, Drop connection here
 * drops the connection then (in the herd every client connected by then reconnects again). The facts and the diagram show the new ending; Back to the scenario returns to the run before.
 */
export function WhatIf() {
  const kind = useRunStore(selectedKind);
  const whatIf = useRunStore((state) => state.whatIf);
  const faults = useRunStore((state) => state.spec.faults ?? null);
  const status = useRunStore((state) => state.status);
  const nowMs = useRunStore(currentTimeMs);
  const { cancelHere, dropConnectionHere, backToScenario, clearFaults } = useRunStore.getState();
  // A recording of a real server cannot be run again with a cancel or a drop.
  const recording = useRunStore((state) => state.transcript?.kind === 'recording');
  if (recording) return null;
  if (kind !== 'request-race' && kind !== 'reconnect' && kind !== 'herd' && whatIf === null && faults === null)
    return null;
  const busy = status !== 'done';

  return (
    <div className="lab-whatif" role="group" aria-label="What if">
      {kind === 'request-race' && (
        <button
          type="button"
          className="lab-button"
          aria-disabled={busy}
          title={`Re-run with the user's cancel at ${formatMs(nowMs)}`}
          onClick={() => !busy && cancelHere()}
        >
          Cancel here
        </button>
      )}
      {(kind === 'reconnect' || kind === 'herd') && (
        <button
          type="button"
          className="lab-button"
          aria-disabled={busy}
          title={`Re-run with the connection dropping at ${formatMs(nowMs)}`}
          onClick={() => !busy && dropConnectionHere()}
        >
          Drop connection here
        </button>
      )}
      {faults !== null && (
        <>
          <span className="lab-whatif-text" role="status">
            Faults: {faults.map(formatFault).join(', ')}
          </span>
          <button type="button" className="lab-button" onClick={clearFaults}>
            Remove faults
          </button>
        </>
      )}
      {whatIf !== null && (
        <>
          <span className="lab-whatif-text" role="status">
            What if: {whatIf.kind === 'cancel' ? 'the user cancels' : 'the connection drops'} at {formatMs(whatIf.atMs)}
          </span>
          <button type="button" className="lab-button" onClick={backToScenario}>
            Back to the scenario
          </button>
        </>
      )}
    </div>
  );
}
