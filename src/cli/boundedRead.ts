import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { LabError } from '../engine';

/**
 * Reads a file the user names with a limit on bytes and on time, whatever the file is. A device
 * (/dev/zero) or a pipe (`<(yes)`) reports size 0, so a size check alone passes them and an unbounded
 * read then fills the memory; a FIFO with no writer blocks a plain open forever. The file is opened
 * non-blocking, read in chunks until its end, one byte past the limit (LAB015) or the time limit (LAB027).
 */

/** How long a pipe or FIFO may take to deliver its bytes and end; a regular file never waits. */
export const INPUT_WAIT_MS_MAX = 10_000;
/** The pause between two reads of a pipe that has nothing yet: short enough to feel instant, long enough to cost no CPU. */
const EMPTY_PIPE_PAUSE_MS = 10;

const pause = new Int32Array(new SharedArrayBuffer(4));

export function readBounded(
  path: string,
  bytesMax: number,
  what: string,
  waitMsMax: number = INPUT_WAIT_MS_MAX,
): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.size > bytesMax)
      throw new LabError(
        'LAB015',
        `${path} is ${stats.size} bytes, more than the ${what} reads (${bytesMax}); nothing was read`,
      );
    const buffer = Buffer.alloc(bytesMax + 1);
    let length = 0;
    const deadline = Date.now() + waitMsMax;
    const late = (bytes: number) =>
      new LabError(
        'LAB027',
        `${path} delivered ${bytes} bytes and did not end within ${waitMsMax} ms (a pipe or FIFO without a writer, or whose writer stays open); nothing was read. Give the ${what} a file`,
      );
    for (;;) {
      let got: number;
      try {
        got = readSync(fd, buffer, length, buffer.length - length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        if (Date.now() >= deadline) throw late(length);
        Atomics.wait(pause, 0, 0, EMPTY_PIPE_PAUSE_MS);
        continue;
      }
      // A FIFO reads as ended until its first writer opens it: wait for that writer, within the time limit.
      if (got === 0 && length === 0 && stats.isFIFO() && Date.now() < deadline) {
        Atomics.wait(pause, 0, 0, EMPTY_PIPE_PAUSE_MS);
        continue;
      }
      if (got === 0 && length === 0 && stats.isFIFO()) throw late(length);
      if (got === 0) return buffer.subarray(0, length);
      length += got;
      if (length > bytesMax)
        throw new LabError(
          'LAB015',
          `${path} holds more than the ${what} reads (${bytesMax} bytes)${stats.isFile() ? '' : ' (it is not a regular file: a device or a pipe reports no size)'}; nothing was read`,
        );
    }
  } finally {
    closeSync(fd);
  }
}
