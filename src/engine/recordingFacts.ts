import type { Transcript } from './transcript';

/**
 * A recording's facts for Compare, named as a request race's are where the probe can tell the same
 * thing from outside, and saying so where it cannot (the server's terminal state is its own). It
 * reads the whole transcript union (transcript.ts), which recording/types.ts is part of, so it sits
 * beside compare.ts, its reader, not in recording/.
 */
export function recordingFacts(t: Transcript<'recording'>): Array<[string, string]> {
  const { server } = t.outcome;
  const call = t.events.find(
    (e) => e.kind === 'message' && e.from === 'client' && (e.message as { method?: unknown }).method === 'tools/call',
  );
  const callId = call?.kind === 'message' ? (call.message as { id?: unknown }).id : undefined;
  const final = t.events.find(
    (e) =>
      e.kind === 'message' &&
      e.from === 'server' &&
      (e.message as { id?: unknown }).id === callId &&
      ('result' in e.message || 'error' in e.message),
  );
  const cancel = t.events.find(
    (e) =>
      (e.kind === 'message' &&
        e.from === 'client' &&
        (e.message as { method?: unknown }).method === 'notifications/cancelled') ||
      (e.kind === 'stream-closed' && e.by === 'client' && e.requestId === callId),
  );
  const signal =
    cancel === undefined ? 'none' : cancel.kind === 'stream-closed' ? 'stream-close' : 'notifications/cancelled';
  const after =
    cancel === undefined
      ? []
      : t.events.filter((e) => e.seq > cancel.seq && e.kind === 'message' && e.from === 'server');
  const methods = new Map<string, number>();
  for (const e of after) {
    const method = e.kind === 'message' ? (e.message as { method?: unknown }).method : undefined;
    const name = typeof method === 'string' ? method : 'a response';
    methods.set(name, (methods.get(name) ?? 0) + 1);
  }
  const verdicts = t.events.flatMap((e) =>
    e.kind === 'verdict' ? [`${e.result === 'broken' ? 'BROKEN' : e.result}: ${e.check}`] : [],
  );
  return [
    ['run', `${t.scenario} on ${t.transport}`],
    ['implementation', `${server.name} ${server.version}, recorded by lab probe`],
    ['protocol', t.protocolVersion],
    ['terminal state', 'not observable from outside (the server keeps it)'],
    ['final response', final === undefined ? 'none received' : `received at ${final.atMs} ms`],
    ['cancellation signal', cancel === undefined ? 'none' : `${signal} at ${cancel.atMs} ms`],
    [
      'after the cancellation',
      cancel === undefined
        ? '—'
        : after.length === 0
          ? 'nothing arrived'
          : [...methods].map(([name, n]) => `${n} × ${name}`).join(', '),
    ],
    ['verdicts', verdicts.length === 0 ? 'none' : verdicts.join('; ')],
  ];
}
