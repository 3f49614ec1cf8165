// Proves the store runs headless with playback on a hand-turned ticker: playing advances one step per
// tick at the chosen speed and stops at the end, the presenter's keys do what the page's keys do, and
// a hand step pauses playback — all without React and without waiting on the wall clock.
import { describe, expect, it } from 'vitest';
import { createLabDriver } from './driver';
import { PLAYBACK_KEYS } from './keys';

describe('the headless lab driver', () => {
  it('opens A at its end, then plays one step per tick from the start', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    expect(lab.state.step).toBe(lab.total);
    lab.pressKey('Home');
    expect(lab.state.step).toBe(0);
    lab.play();
    expect(lab.state.playing).toBe(true);
    expect(lab.ticker.intervalMs).toBe(1000 / lab.state.speed);
    lab.tick(3);
    expect(lab.state.step).toBe(3);
  });

  it('playing stops by itself at the last event', async () => {
    const lab = createLabDriver();
    await lab.open('B', 'http');
    lab.pressKey('Home').pressKey(' ');
    lab.tick(lab.total + 5);
    expect(lab.state.step).toBe(lab.total);
    expect(lab.state.playing).toBe(false);
    expect(lab.ticker.intervalMs).toBeNull();
  });

  it('arrows step, "." toggles, End jumps, and a hand step pauses playback', async () => {
    const lab = createLabDriver();
    await lab.open('C');
    lab.pressKey('Home').pressKey('ArrowRight').pressKey('ArrowRight').pressKey('ArrowLeft');
    expect(lab.state.step).toBe(1);
    lab.pressKey('.');
    expect(lab.state.playing).toBe(true);
    lab.tick(2);
    expect(lab.state.step).toBe(3);
    lab.pressKey('ArrowRight');
    expect(lab.state.playing).toBe(false);
    lab.tick(5);
    expect(lab.state.step).toBe(4);
    lab.pressKey('End');
    expect(lab.state.step).toBe(lab.total);
  });

  it('refuses a key that is not a playback key', async () => {
    const lab = createLabDriver();
    expect(Object.keys(PLAYBACK_KEYS).sort()).toEqual([' ', '.', 'ArrowLeft', 'ArrowRight', 'End', 'Home']);
    expect(() => lab.pressKey('x')).toThrow(/not a playback key/);
  });

  it('a faster speed asks the ticker for a shorter interval', async () => {
    const lab = createLabDriver();
    await lab.open('A');
    lab.state.setSpeed(8);
    lab.pressKey('Home').play();
    expect(lab.ticker.intervalMs).toBe(125);
  });
});
