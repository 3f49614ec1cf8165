import { useRunStore, type LedgerOutcome } from '../../store/runStore';

const LEDGER_RUNS = [
  { id: 'ledger-race-keyed', label: 'Run the same-key race (BUSY, one execution)' },
  { id: 'ledger-reopen', label: 'Reopen the ledger' },
  { id: 'ledger-alias', label: 'Mutate a returned result (alias check)' },
  { id: 'ledger-key-mismatch', label: 'Reuse a key with other arguments' },
  { id: 'inventory-retry', label: 'Look for the payment token (LG-P5)' },
] as const;

/** The keyProfile setting's values, as the ledger model's settings spec names them. */
const KEY_PROFILES = [
  { value: 'ietf', label: 'IETF draft' },
  { value: 'stripe', label: 'Stripe' },
  { value: 'wait', label: 'Block and replay' },
] as const;

/**
 * docs/requirements.md#idempotency-ledger-lg: the ledger's moments one click away. Each button picks the scenario that shows it; the
 * diagram, the facts and the ledger panel below show its statements, rows and BUSY retries. The key
 * profile switches how the run answers a repeated key; what it answers and its source come from the
 * run's outcome (the engine's table), not from the page.
 */
export function LedgerTab() {
  const selectScenario = useRunStore((s) => s.selectScenario);
  const setSetting = useRunStore((s) => s.setSetting);
  const current = useRunStore((s) => s.spec.scenario);
  const transcript = useRunStore((s) => s.transcript);
  const outcome = transcript?.kind === 'ledger' ? (transcript.outcome as LedgerOutcome) : null;
  const profile = outcome?.keyProfile ?? null;
  const status = (value: number | 'wait') => (value === 'wait' ? 'waits, then replays' : `${value}-like`);
  return (
    <>
      <div className="panel-sliders" role="group" aria-label="Ledger scenarios">
        {LEDGER_RUNS.map((run) => (
          <button
            key={run.id}
            type="button"
            className="panel-toggle"
            aria-pressed={current === run.id}
            onClick={() => selectScenario(run.id)}
          >
            {run.label}
          </button>
        ))}
      </div>
      {profile !== null && (
        <div className="panel-sliders" role="radiogroup" aria-label="Key profile">
          {KEY_PROFILES.map((p) => (
            <button
              key={p.value}
              type="button"
              role="radio"
              className="panel-toggle"
              aria-checked={profile.name === p.value}
              onClick={() => setSetting('keyProfile', p.value)}
            >
              {p.label}
            </button>
          ))}
          <p className="panel-key-profile" data-testid="key-profile">
            <strong>{profile.name}</strong>: same key in flight → {status(profile.inFlightStatus)}; same key, other
            arguments → {status(profile.reusedStatus)}; keys kept{' '}
            {profile.expiresAfterMs === null ? 'for ever' : `${profile.expiresAfterMs / 3_600_000} h`}.{' '}
            <cite data-testid="key-profile-source">Source: {profile.source}</cite>
          </p>
        </div>
      )}
    </>
  );
}
