// Proves the store's side of Explore, faults and What if… headless, over the real worker host: Explore keeps the result of the
// selection it explored, an ending or a violation opens its ordering (at the violating event, selected),
// the link carries schedule= and faults=, Cancel here re-runs at the replay's virtual time and Back to the
// scenario restores the run and the step, and a fault re-runs from the same seed with the message picked.
import { describe, expect, it } from 'vitest';
import { createLabDriver } from './driver';
import { parseSchedule } from '../engine/core/schedule';
import { linkFor, readLink } from './url';

describe('explore, what if and faults in the store', () => {
  it('explores A with jitter, opens a violation-free ending, and the link carries its schedule', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    lab.state.setSetting('latencyJitterMs', 300);
    await lab.settled();
    await lab.state.explore();
    expect(lab.state.exploreStatus).toBe('done');
    const completed = lab.state.exploration?.endings.find((ending) => ending.distinct.terminalState === 'completed');
    expect(completed).toBeDefined();
    await lab.state.openOrdering(completed?.schedule ?? '', null);
    // The selection holds the ordering parsed; the transcript and the link write it as the exploration did.
    expect(lab.state.spec.schedule).toEqual(parseSchedule(completed?.schedule ?? ''));
    expect(lab.state.transcript?.schedule).toBe(completed?.schedule);
    expect(lab.state.transcript?.kind === 'request-race' && lab.state.transcript.outcome.terminalState).toBe(
      'completed',
    );
    expect(new URLSearchParams(linkFor(lab.state)).get('schedule')).toBe(completed?.schedule);
    expect(readLink(linkFor(lab.state))?.schedule).toEqual(lab.state.spec.schedule);
    // The exploration stays for the next click; another selection drops both.
    expect(lab.state.exploration).not.toBeNull();
    lab.state.select({ seed: 2 });
    await lab.settled();
    expect([lab.state.spec.schedule, lab.state.exploration]).toEqual([undefined, null]);
  });

  it('a violation opens at its event, selected', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    lab.state.setSetting('afterCancel', 'respond');
    await lab.settled();
    await lab.state.explore();
    const violation = lab.state.exploration?.violations[0];
    expect(violation?.invariant).toBe('nothing-after-accepted-cancel');
    await lab.state.openOrdering(violation?.schedule ?? '', violation?.step ?? 0);
    expect(lab.state.step).toBe((violation?.step ?? 0) + 1);
    expect(lab.state.selectedSeq).toBe(violation?.step);
  });

  it('Cancel here re-runs C with the cancel at the step’s time; Back to the scenario returns', async () => {
    const lab = createLabDriver();
    await lab.open('C');
    lab.state.setStep(10);
    const atMs = lab.state.transcript?.events[9]?.atMs;
    lab.state.cancelHere();
    await lab.settled();
    expect(lab.state.whatIf).toMatchObject({ kind: 'cancel', atMs });
    expect(lab.state.spec.settings.cancelAtMs).toBe(atMs);
    expect(lab.state.transcript?.kind === 'request-race' && lab.state.transcript.outcome.terminalState).toBe(
      'cancelled',
    );
    lab.state.backToScenario();
    await lab.settled();
    expect(lab.state.whatIf).toBeNull();
    expect(lab.state.spec.settings).toEqual({});
    expect(lab.state.step).toBe(10);
  });

  it('a fault re-runs from the same seed, opens at the message, and the link carries it', async () => {
    const lab = createLabDriver();
    await lab.open('C');
    lab.state.injectFault('drop', 7);
    await lab.settled();
    expect(lab.state.spec.faults).toEqual([{ kind: 'drop', seq: 7 }]);
    expect(lab.state.transcript?.faults).toBe('drop:7');
    expect(lab.state.step).toBe(8);
    expect(new URLSearchParams(linkFor(lab.state)).get('faults')).toBe('drop:7');
    expect(readLink(linkFor(lab.state))?.faults).toEqual([{ kind: 'drop', seq: 7 }]);
    // Another fault on the same message replaces it; one on another message joins it, ordered by seq.
    lab.state.injectFault('delay', 7);
    await lab.settled();
    expect(lab.state.spec.faults).toEqual([{ kind: 'delay', seq: 7, ms: 500 }]);
    lab.state.injectFault('duplicate', 5);
    await lab.settled();
    expect(new URLSearchParams(linkFor(lab.state)).get('faults')).toBe('duplicate:5,delay:7:500');
    lab.state.clearFaults();
    await lab.settled();
    expect([lab.state.spec.faults, lab.state.transcript?.faults]).toEqual([undefined, undefined]);
  });
});
