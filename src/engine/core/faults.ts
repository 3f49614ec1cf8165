import { LabError } from './errors';

/**
 * The one grammar of message faults, parsed and written: `drop:12,delay:14:300,duplicate:9,stream-drop:20`.
 * Text exists only at the edges (the CLI's --fault, a link's and a run spec's `faults=`, a transcript's
 * record); past them a run carries the parsed faults. A pure file (it imports only the error catalogue),
 * so the page's store edits faults with this grammar without loading the engine.
 */

/**
 * A fault injected on one message of a run, named by the `seq` its message event gets:
 * the run up to it is the same with or without the fault, so the seq names the same message.
 * drop: the network loses it; delay: it arrives `ms` later (its channel stays FIFO, so what follows
 * waits behind it); duplicate: it is delivered twice; stream-drop: the stream carrying it drops, so it
 * and everything later on its channel is lost; crash: the server crashes after COMMIT and before this
 * response leaves (it is lost), then restarts from its SQLite file (models that keep one: the ledger).
 */
export interface MessageFault {
  readonly kind: 'drop' | 'delay' | 'duplicate' | 'stream-drop' | 'crash';
  readonly seq: number;
  /** delay only: how much later it arrives. */
  readonly ms?: number;
}

/** The longest delay a fault may ask for: one day of virtual time. */
export const DELAY_MS_MAX = 86_400_000;

export function formatFault(fault: MessageFault): string {
  return fault.kind === 'delay' ? `delay:${fault.seq}:${fault.ms ?? 0}` : `${fault.kind}:${fault.seq}`;
}

/** Faults as text, in their order: `parseFaults(formatFaults(faults))` gives them back. */
export function formatFaults(faults: readonly MessageFault[]): string {
  return faults.map(formatFault).join(',');
}

/** Parses `drop:12,delay:14:300,duplicate:9,stream-drop:20` (the CLI's --fault, the page's `faults=`), ordered by seq. */
export function parseFaults(text: string): MessageFault[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const faults = trimmed.split(',').map((part) => {
    const match = /^(drop|delay|duplicate|stream-drop|crash):(\d{1,9})(?::(\d{1,9}))?$/.exec(part.trim());
    if (match === null || (match[1] === 'delay') !== (match[3] !== undefined)) {
      throw new LabError(
        'LAB023',
        `"${part}" is not a fault; use drop:SEQ, delay:SEQ:MS, duplicate:SEQ, stream-drop:SEQ or crash:SEQ, where SEQ is the seq of a message event`,
      );
    }
    const kind = match[1] as MessageFault['kind'];
    const seq = Number(match[2]);
    return kind === 'delay' ? { kind, seq, ms: Number(match[3]) } : { kind, seq };
  });
  const seqs = new Set<number>();
  for (const fault of faults) {
    if (seqs.has(fault.seq))
      throw new LabError('LAB023', `two faults name message ${fault.seq}; one fault per message`);
    seqs.add(fault.seq);
  }
  if (faults.some((fault) => fault.kind === 'delay' && (fault.ms ?? 0) > DELAY_MS_MAX))
    throw new LabError('LAB023', `a delay is at most ${DELAY_MS_MAX} ms`);
  return faults.sort((a, b) => a.seq - b.seq);
}

/** `faults` with `fault` on its message, in the place of any fault already there, ordered by seq (one fault per message). */
export function withFault(faults: readonly MessageFault[], fault: MessageFault): MessageFault[] {
  return [...faults.filter((kept) => kept.seq !== fault.seq), fault].sort((a, b) => a.seq - b.seq);
}
