/** The facts' own names for a request race's ending fields; another field reads as words from its name. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  terminalState: 'Terminal state',
  clientOutcome: 'Client outcome',
  finalResponse: 'Final response',
  cancellationSignal: 'Cancellation signal',
  clientIgnores: 'Client ignores',
};

function fieldLabel(name: string): string {
  if (Object.hasOwn(FIELD_LABELS, name)) return FIELD_LABELS[name] ?? name;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'nothing' : value.map(valueText).join(', ');
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * An ending as the facts read: "Terminal state completed · Client outcome cancelled (views diverge) ·
 * Client ignores response #41 · …". The views' divergence reads beside the client's outcome, as the
 * facts show it, not as a field of its own.
 */
export function outcomeText(outcome: Record<string, unknown>): string {
  const diverge = outcome.viewsDiverge === true;
  return Object.entries(outcome)
    .filter(([name]) => name !== 'viewsDiverge')
    .map(
      ([name, value]) =>
        `${fieldLabel(name)} ${valueText(value)}${name === 'clientOutcome' && diverge ? ' (views diverge)' : ''}`,
    )
    .join(' · ');
}
