import { describe, expect, it, vi } from 'vitest';
import { RECORDING_BYTES_MAX } from '../engine/core/recordingLimits';
import { useRunStore } from './runStore';
import { useRecordingStore } from './recording';

// Open recorded transcript refuses a file over the recording bound by its size alone: the page never
// reads it (a file is read into memory whole, and a 2 GB one freezes the tab) and nothing else changes.

describe('opening a recorded transcript', () => {
  it('refuses a file over the bound by its size, before reading it, and changes nothing else', async () => {
    const lab = useRunStore.getState();
    const huge = new File([], 'huge.json', { type: 'application/json' });
    const gigabytes2 = 2 * 1024 ** 3;
    Object.defineProperty(huge, 'size', { value: gigabytes2 });
    const read = vi.fn(() => Promise.reject(new Error('the page read the file')));
    Object.defineProperty(huge, 'arrayBuffer', { value: read });
    const openings: boolean[] = [];
    const unsubscribe = useRecordingStore.subscribe((state) => openings.push(state.opening));

    await useRecordingStore.getState().open(huge);
    unsubscribe();
    expect(read).not.toHaveBeenCalled();
    expect(openings).not.toContain(true);
    expect(useRecordingStore.getState().refusal).toEqual({
      file: '“huge.json”',
      code: 'LAB049',
      message: `the file is 2,147,483,648 bytes, more than a probe transcript's ${RECORDING_BYTES_MAX.toLocaleString('en')}; nothing was opened`,
    });
    expect(useRunStore.getState()).toBe(lab);
  });
});
