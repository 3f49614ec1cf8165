import { formatTimeline, ledgerScopeNotesFor, type Scenario, type Settings, type Transcript } from '../engine';

/**
 * What `lab run` prints for a transcript: the readable timeline, and for a ledger run the scope of its
 * ledger. The committed text goldens are this text, so a reviewer reads a wording change as a diff.
 */
export function runText(scenario: Scenario, transcript: Transcript): string {
  // The scenario's defaults, so the reproduce line names only the settings that differ.
  const defaults: Settings = Object.fromEntries(Object.entries(scenario.settings));
  const timeline = formatTimeline(transcript, defaults);
  if (transcript.kind !== 'ledger') return timeline;
  return `${timeline}\n\nscope of this ledger (LG-8):\n${ledgerScopeNotesFor(transcript.settings.sendKey === true)
    .map((note) => `  - ${note}`)
    .join('\n')}`;
}
