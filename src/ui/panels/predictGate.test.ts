import { beforeEach, describe, expect, it } from 'vitest';
import { createLabDriver, type LabDriver } from '../../store/driver';
import { usePanelsStore } from '../../store/panels';
import { usePredictStore } from '../../store/predictStore';
import { revealStep } from '../predict';
import { predictGate, reveal, runKey } from './predictGate';

// Predict's race point holds the replay until the room has guessed: every way forward the store offers
// (a step, →, End, the time slider, Play) stops there, and after a guess each goes where it
// is sent. Driven headless over the real worker host, with playback's ticker turned by hand.

/** Scenario A on stdio, Predict on, the gate installed as the page does, at step 0. */
async function openA(): Promise<{ driver: LabDriver; point: number; total: number; endMs: number }> {
  const driver = createLabDriver();
  await driver.open('A', 'stdio');
  driver.store.getState().setStepGate(predictGate);
  driver.store.getState().rewind();
  const { race, transcript } = driver.state;
  if (race === null || transcript === null) throw new Error('A on stdio has a race');
  return { driver, point: race.location.point, total: driver.total, endMs: transcript.events.at(-1)?.atMs ?? 0 };
}

const guess = (driver: LabDriver) => {
  const transcript = driver.state.transcript;
  if (transcript === null) throw new Error('no run');
  usePredictStore.getState().guess(runKey(transcript), 'cancelled');
};

beforeEach(() => {
  usePanelsStore.getState().setPredict(true);
  usePredictStore.setState({ guesses: {}, nudged: false });
});

describe('the race point holds every move forward until a guess', () => {
  it('Play stops on reaching the race point: the tick that reaches it pauses, and the ticks after it move nothing', async () => {
    const { driver, point } = await openA();
    driver.store.getState().setSpeed(32);
    driver.play().tick(point + 5);
    expect(driver.state.step).toBe(point);
    expect(driver.state.playing).toBe(false);
  });

  it('Play at the race point does not start; the card is asked to say why', async () => {
    const { driver, point } = await openA();
    driver.store.getState().setStep(point);
    driver.play().tick(3);
    expect(driver.state.step).toBe(point);
    expect(driver.state.playing).toBe(false);
    expect(usePredictStore.getState().nudged).toBe(true);
  });

  it('Step forward and → at the race point stay there and ask for the guess', async () => {
    const { driver, point } = await openA();
    driver.step(point);
    expect(driver.state.step).toBe(point);
    expect(usePredictStore.getState().nudged).toBe(false);
    driver.step();
    expect(driver.state.step).toBe(point);
    expect(usePredictStore.getState().nudged).toBe(true);
    driver.pressKey('ArrowRight');
    expect(driver.state.step).toBe(point);
  });

  it('End, from before the race point and at it, stops at the race point', async () => {
    const { driver, point } = await openA();
    driver.pressKey('End');
    expect(driver.state.step).toBe(point);
    expect(usePredictStore.getState().nudged).toBe(true);
    driver.pressKey('End');
    expect(driver.state.step).toBe(point);
  });

  it('the Virtual time slider (seekTime) past the race point stops at it, and drops the time it was sent to', async () => {
    const { driver, point, endMs } = await openA();
    driver.store.getState().seekTime(endMs);
    expect(driver.state.step).toBe(point);
    expect(driver.state.scrubMs).toBeNull();
    driver.store.getState().seekTime(endMs);
    expect(driver.state.step).toBe(point);
    // Short of the race point the slider goes where it is sent.
    driver.store.getState().seekTime(0);
    expect(driver.state.scrubMs).toBe(0);
  });

  it('a jump (setStep) past the race point stops at it', async () => {
    const { driver, point, total } = await openA();
    driver.store.getState().setStep(total);
    expect(driver.state.step).toBe(point);
  });

  it('moves back are never held', async () => {
    const { driver, point } = await openA();
    driver.store.getState().setStep(point);
    driver.back(2);
    expect(driver.state.step).toBe(point - 2);
    driver.pressKey('Home');
    expect(driver.state.step).toBe(0);
  });
});

describe('what passes the race point', () => {
  it('after a guess, End, the slider and Play go where they are sent (Play still stops at the race point first)', async () => {
    const { driver, point, total, endMs } = await openA();
    guess(driver);
    driver.pressKey('End');
    expect(driver.state.step).toBe(total);
    driver.pressKey('Home');
    driver.store.getState().seekTime(endMs);
    expect(driver.state.step).toBe(total);
    driver.pressKey('Home').play().tick(total);
    expect(driver.state.step).toBe(point);
    driver.play().tick(total);
    expect(driver.state.step).toBe(total);
  });

  it('Reveal passes without a guess: it skips the gate', async () => {
    const { driver, point } = await openA();
    driver.store.getState().setStep(point);
    const { race, transcript } = driver.state;
    if (race === null || transcript === null) throw new Error('A on stdio has a race');
    usePredictStore.getState().setNudged(true);
    reveal(race, transcript, driver.store);
    expect(driver.state.step).toBe(revealStep(race));
    expect(driver.state.step).toBeGreaterThan(point);
    expect(driver.state.playing).toBe(false);
    expect(driver.state.selectedSeq).toBe(transcript.events[race.location.decidingIndex]?.seq);
    expect(usePredictStore.getState().nudged).toBe(false);
  });

  it('with Predict off nothing is held', async () => {
    usePanelsStore.getState().setPredict(false);
    const { driver, total } = await openA();
    driver.play().tick(total);
    expect(driver.state.step).toBe(total);
    driver.pressKey('Home').pressKey('End');
    expect(driver.state.step).toBe(total);
  });
});
