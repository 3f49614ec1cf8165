import { assert, fail } from '../core/assert';
import type { McpSim } from './deadlines';

/** How many uninterruptible chunks `workMs` of work takes at a checkpoint every `everyMs` (0: one chunk). */
export function chunksOf(workMs: number, everyMs: number): number {
  assert(Number.isInteger(workMs) && workMs > 0, () => `workMs must be a positive integer, got ${workMs}`);
  assert(Number.isInteger(everyMs) && everyMs >= 0, () => `everyMs must be a non-negative integer, got ${everyMs}`);
  return everyMs > 0 ? Math.max(1, Math.ceil(workMs / everyMs)) : 1;
}

const checkpointLabel = (chunk: number): string => `worker checkpoint ${chunk}`;

/**
 * The server's worker for one request (RC-3, RC-4): `workMs` of work in uninterruptible chunks, a
 * checkpoint after each chunk and completion at `workMs`. At each checkpoint the model decides whether
 * the work goes on (it reads the cancellation there, or sends progress); the last one is completion.
 * Shared by every model whose server works in chunks, so none keeps its own copy of the schedule.
 */
export class ServerWorker {
  readonly chunks: number;
  private readonly startedAtMs: number;
  private chunksRun = 0;

  constructor(
    private readonly sim: McpSim,
    private readonly workMs: number,
    private readonly everyMs: number,
    /** Called at the end of chunk `chunk`; `isLast` is completion. Return false to stop the worker. */
    private readonly step: (chunk: number, chunks: number, isLast: boolean) => boolean,
  ) {
    this.chunks = chunksOf(workMs, everyMs);
    this.startedAtMs = sim.nowMs;
  }

  /** Schedules the first chunk; each checkpoint that goes on schedules the next. */
  start(): void {
    assert(this.chunksRun === 0, 'a worker starts once');
    this.schedule(1);
  }

  private schedule(chunk: number): void {
    const isLast = chunk >= this.chunks;
    const atMs = this.startedAtMs + (isLast ? this.workMs : chunk * this.everyMs);
    if (!(atMs >= this.sim.nowMs)) fail(`chunk ${chunk} would end at ${atMs} ms, before now (${this.sim.nowMs} ms)`);
    // One function kept by the worker and the chunk as the event's argument: no closure per chunk.
    this.sim.at(atMs, 'worker', isLast ? 'worker completes' : checkpointLabel, this.runChunk, chunk);
  }

  private readonly runChunk = (chunk: number): void => {
    const isLast = chunk >= this.chunks;
    this.chunksRun = chunk;
    const goesOn = this.step(chunk, this.chunks, isLast);
    if (goesOn && !isLast) this.schedule(chunk + 1);
  };
}
