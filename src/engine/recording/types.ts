import type { EventBase } from '../core/transcript';
import type { RequestId } from '../core/jsonrpc';

/**
 * A run the lab did not compute: a `lab probe` transcript of a real server, opened in the page and
 * drawn with the lab's own events (its messages, deadlines, stream ends and SSE comments are the
 * lab's kinds). These three kinds carry what only a recording has: the probe's own notes, the HTTP
 * responses it received, and its verdicts. No model records them. Field names are a contract.
 */

/** A line of the probe's own log: what it did or waits for. */
export interface ProbeNoteEvent extends EventBase {
  kind: 'probe-note';
  /** The probe of the run it belongs to: `negotiate`, `cancel-during-work`, … */
  probe: string;
  text: string;
}

/** An HTTP response the probe received (Streamable HTTP): its status and headers, on the POST's channel. */
export interface HttpResponseEvent extends EventBase {
  kind: 'http-response';
  probe: string;
  channel: string;
  /** The JSON-RPC request that POST carried, when it carried one. */
  requestId: RequestId | null;
  status: number;
  headers: Record<string, string>;
}

/** One verdict of the probe, placed at the last event of its probe: the moment it could decide. */
export interface VerdictEvent extends EventBase {
  kind: 'verdict';
  probe: string;
  check: string;
  /**
   * The finding, the level taken into account: `broken` a MUST, MUST NOT or REQUIRED not met; `not
   * followed` a SHOULD, SHOULD NOT or encouragement not met; `holds`; `not observable` from outside.
   */
  result: 'holds' | 'broken' | 'not followed' | 'not observable';
  /** The sentence it checks, quoted, with its level, revision (or `lesson`) and page. */
  sentence: { revision: string; level: string; page: string; text: string };
  detail: string;
}

export type RecordingEvent = ProbeNoteEvent | HttpResponseEvent | VerdictEvent;

/** One probe of the recording, by the indexes of its first and last event in `events`. */
export interface RecordedProbe {
  probe: string;
  first: number;
  last: number;
}

/** What a recording established: who was probed, when, how it negotiated, and its verdicts counted. */
export interface RecordingOutcome {
  server: { name: string; version: string };
  /** Wall-clock time the probe started (ISO 8601). */
  startedAt: string;
  /** The command line (stdio) or URL (HTTP) probed. */
  target: string;
  negotiatedVia: string;
  fallbackReason: string | null;
  probes: RecordedProbe[];
  holds: number;
  broken: number;
  notFollowed: number;
  notObservable: number;
}
