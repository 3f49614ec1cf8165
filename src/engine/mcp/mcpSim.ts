import type { ResolvedRun } from '../core/model';
import { Sim } from '../core/sim';
import type { AnyEvent } from '../core/transcript';
import type { LatencySettings } from '../core/wire';
import { summarizeMessage } from './summary';

export interface McpSimOptions {
  readonly eventsMax: number;
  /** The wire's latency; none: messages arrive at once (a model whose hop is modelled elsewhere). */
  readonly latency?: LatencySettings;
  /** False: keep no events (an explorer's fast run); only models whose outcome needs no events pass it. */
  readonly record?: boolean;
}

/**
 * The kit's Sim for one run of an MCP model: transport, seed, chooser, trace and faults
 * come from the run, messages are named by the one `summarizeMessage`. Every MCP model builds its
 * simulation here, so none repeats the option plumbing.
 */
export function mcpSim<E extends AnyEvent>(run: ResolvedRun<unknown>, options: McpSimOptions): Sim<E> {
  return new Sim<E>(run, {
    eventsMax: options.eventsMax,
    latency: options.latency,
    summarize: summarizeMessage,
    record: options.record,
  });
}
