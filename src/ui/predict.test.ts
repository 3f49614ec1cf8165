import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { checkRaceQuestion, locateRace, wordEvents, type RaceQuestion, type Transcript } from '../engine';
import { findScenario, runScenarioById, scenarios } from '../scenarios/index';
import type { RequestOutcome } from '../store/runStore';
import { raceFactSteps } from '../worker/facts';
import { factsRowAt, PENDING, stepSentence } from './format';

// Predict mode stops where both contenders of the race are on screen and reveals at the event that
// decides it: for every race scenario on both transports, located from the transcript alone.

const RACES: Record<string, { answer: string; giveAway: string[] }> = {
  A: { answer: 'cancelled', giveAway: ['suppressed', 'accepted', 'terminal'] },
  B: { answer: 'ignores', giveAway: ['ignore', 'diverge', 'discard'] },
  C: { answer: 'timeout-max', giveAway: ['maximum timeout of', 'fired', 'abandoned'] },
  D: { answer: 'cancelled', giveAway: ['accepted', 'stopped', 'terminal'] },
  'cancel-ignored': { answer: 'ignores', giveAway: ['already completed', 'cancel-ignored'] },
  'ledger-race-keyed': { answer: 'once', giveAway: ['replayed', 'stored result'] },
  'ledger-race-unsafe': { answer: 'twice', giveAway: ['CONSTRAINT', 'charges twice'] },
};

const sql = await loadSqlJs();
const run = (id: string, transport: 'stdio' | 'http') =>
  runScenarioById(id, {
    transport,
    ledger: findScenario(id).kind === 'ledger' ? { sql } : undefined,
  }) as unknown as Transcript;

describe('predict: the race point and the deciding event', () => {
  it('every race scenario declares a question with 2–4 answers, and only they do', () => {
    const declared = scenarios.filter((scenario) => scenario.race !== undefined).map((scenario) => scenario.id);
    expect(declared.sort()).toEqual(Object.keys(RACES).sort());
    for (const scenario of scenarios) if (scenario.race !== undefined) checkRaceQuestion(scenario.race);
  });

  for (const [id, { answer, giveAway }] of Object.entries(RACES)) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${id} on ${transport}: stops once both contenders show, and reveals at the deciding event`, () => {
        const transcript = run(id, transport);
        const question = findScenario(id).race as RaceQuestion;
        const race = locateRace(question, transcript.events);
        expect(race).not.toBeNull();
        if (race === null) return;
        expect(race.answer).toBe(answer);
        // Both contenders are shown at the race point (step k shows events 0…k-1); the deciding event is not.
        for (const index of race.contenderIndexes) expect(index).toBeLessThan(race.point);
        expect(race.point).toBe(Math.max(...race.contenderIndexes) + 1);
        expect(race.decidingIndex).toBeGreaterThanOrEqual(race.point);
        const sentence = stepSentence(transcript, race.point, wordEvents(transcript.events));
        for (const word of giveAway) expect(sentence.toLowerCase()).not.toContain(word.toLowerCase());
        if (transcript.kind === 'request-race') {
          const outcome = transcript.outcome as RequestOutcome;
          const steps = raceFactSteps(transcript);
          const atPoint = factsRowAt(transcript, steps, race.point);
          const atReveal = factsRowAt(transcript, steps, race.decidingIndex + 1);
          if (id === 'B' || id === 'cancel-ignored') {
            // The client's side decides: the response it drops is among the facts at the reveal, not before.
            expect(atPoint?.clientIgnores).toBe(PENDING);
            expect(atReveal?.clientIgnores).toContain('response #41');
          } else {
            expect(atPoint?.terminalState).toBe(PENDING);
            expect(atReveal?.terminalState).toBe(outcome.terminalState);
          }
        }
      });
    }
  }

  it('C stops after the last progress before the deadline, not the first', () => {
    const transcript = run('C', 'stdio');
    const race = locateRace(findScenario('C').race as RaceQuestion, transcript.events);
    const resets = transcript.events.filter(
      (event) => event.kind === 'deadline' && event.deadline === 'idle' && event.action === 'reset',
    );
    expect(resets.length).toBeGreaterThan(1);
    expect(race?.contenderIndexes[0]).toBe(transcript.events.indexOf(resets.at(-1) as (typeof resets)[number]));
  });

  it('ledger-race-unsafe is decided where the ledger records the duplicate (9 ms), not at the second INSERT (7 ms)', () => {
    for (const transport of ['stdio', 'http'] as const) {
      const transcript = run('ledger-race-unsafe', transport);
      const race = locateRace(findScenario('ledger-race-unsafe').race as RaceQuestion, transcript.events);
      const deciding = transcript.events[race?.decidingIndex ?? -1] as unknown as {
        kind: string;
        action?: string;
        detail?: string;
        atMs: number;
      };
      const effects = transcript.events.filter(
        (event) =>
          event.kind === 'sql' &&
          String((event as unknown as { sql: string }).sql).startsWith('INSERT INTO ledger.effects'),
      );
      expect(effects).toHaveLength(2);
      // The second charge's INSERT comes first; the verdict (the key failing after that charge committed) later.
      expect(race?.decidingIndex).toBeGreaterThan(transcript.events.indexOf(effects[1] as (typeof effects)[number]));
      expect(deciding.kind).toBe('ledger');
      expect(deciding.action).toBe('failed');
      expect(deciding.detail).toContain('a duplicate');
      expect(deciding.atMs).toBe(9);
    }
  });

  it('a run whose settings take the race away has none (no cancellation in A)', () => {
    const transcript = runScenarioById('A', { settings: { cancelAtMs: null } });
    expect(locateRace(findScenario('A').race as RaceQuestion, transcript.events)).toBeNull();
  });
});
