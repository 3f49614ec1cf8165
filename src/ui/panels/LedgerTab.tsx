import { useLabStore } from '../../store/labStore';

const LEDGER_RUNS = [
  { id: 'ledger-race-keyed', label: 'Run the same-key race (BUSY, one execution)' },
  { id: 'ledger-reopen', label: 'Reopen the ledger' },
  { id: 'ledger-alias', label: 'Mutate a returned result (alias check)' },
  { id: 'ledger-key-mismatch', label: 'Reuse a key with other arguments' },
  { id: 'inventory-retry', label: 'Look for the payment token (LG-P5)' },
] as const;

/**
 * SPEC §3: the ledger's moments one click away. Each button picks the scenario that shows it; the
 * diagram, the facts and the ledger panel below show its statements, rows and BUSY retries.
 */
export function LedgerTab() {
  const selectScenario = useLabStore((s) => s.selectScenario);
  const current = useLabStore((s) => s.scenarioId);
  return (
    <div className="panel-sliders" role="group" aria-label="Ledger scenarios">
      {LEDGER_RUNS.map((run) => (
        <button key={run.id} type="button" className="panel-toggle" aria-pressed={current === run.id} onClick={() => selectScenario(run.id)}>
          {run.label}
        </button>
      ))}
    </div>
  );
}
