import { describe, expect, it } from 'vitest';
import { runRaceById } from '../scenarios/index';
import type { Transcript } from '../store/labStore';
import { raceFactSteps } from '../worker/facts';
import { factsRowAt, PENDING, stepSentence } from './format';
import { racePoint } from './predict';
import { wordEvents } from '../engine';

// Predict mode stops the step before either side of the race shows: nothing on screen at that step
// (the step's sentence, the facts) tells who wins, for every race scenario on both transports.

const race = (id: string, transport: 'stdio' | 'http') => runRaceById(id, { transport }) as unknown as Transcript;

describe('predict: the race point', () => {
  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${id} on ${transport}: stops before either side shows, and gives nothing away`, () => {
        const transcript = race(id, transport);
        const point = racePoint(transcript);
        expect(point).not.toBeNull();
        const at = point as number;
        expect(at).toBeGreaterThan(0);
        const shown = transcript.events.slice(0, at);
        expect(shown.some((event) => event.kind === 'terminal' || event.kind === 'cancel-accepted' || event.kind === 'suppressed')).toBe(false);
        expect(shown.some((event) => event.kind === 'deadline' && event.action === 'fired')).toBe(false);
        expect(shown.some((event) => event.kind === 'worker' && event.step === 'finished')).toBe(false);
        expect(factsRowAt(transcript, raceFactSteps(transcript), at)).toEqual({ terminalState: PENDING, finalResponse: PENDING, cancellationSignal: PENDING, clientIgnores: PENDING });
        const sentence = stepSentence(transcript, at, wordEvents(transcript.events));
        for (const word of ['completed', 'cancelled', 'timeout', 'abandoned', 'maximum timeout of']) expect(sentence).not.toContain(word);
        // The next step shows one side.
        const next = transcript.events[at];
        expect(next).toBeDefined();
      });
    }
  }
});
