import type { JsonObject, SentRequest } from './client';
import { makeVerdict, type ProbeRun, type Verdict } from './probes';
import type { ProbeEvent } from './record';
import type { Sentence } from './sentences';
import { describeValue } from './text';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const PAGE = 'basic/patterns/subscriptions';
const ACK_FIRST: Sentence = {
  revision: '2026-07-28',
  level: 'MUST',
  page: PAGE,
  text: "The server **MUST** send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`, and **MUST NOT** send any notification on the subscription before it.",
};
const NO_LAST_EVENT_ID: Sentence = {
  revision: '2026-07-28',
  level: 'MUST',
  page: 'basic/transports/streamable-http',
  text: 'Resumable SSE streams via `Last-Event-ID` are not supported. — and the lesson (RV-3): after a `subscriptions/listen` stream drops, the client opens a new listen request with a **new** JSON-RPC id.',
};

/** The reconnect plan of RV-3, as the probe carried it out against this server. */
export interface ReconnectPlan {
  sendLastEventId: false;
  firstListenId: number;
  secondListenId: number;
  filter: JsonObject;
  /** The authoritative methods the probe refetched after listening again. */
  refetched: string[];
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function subscriptionIdOf(event: ProbeEvent): unknown {
  if (event.kind !== 'message' || event.from !== 'server' || typeof event.message.method !== 'string') return undefined;
  const params = event.message.params;
  return isObject(params) && isObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
}

/**
 * 2026-07-28 only: listen, drop the stream, listen again with a new id and refetch the tool list;
 * the acknowledgement must come first on each, and no `Last-Event-ID` is ever sent.
 */
export async function reconnectProbe(run: ProbeRun): Promise<ReconnectPlan | null> {
  const probe = 'reconnect';
  run.recorder.probe = probe;
  const filter = { toolsListChanged: true };
  const push = (check: string, sentence: Sentence, result: Verdict['result'], detail: string): void =>
    void run.verdicts.push(makeVerdict(probe, check, sentence, result, detail));
  const listen = async (which: string): Promise<{ sent: SentRequest; refused: string | null }> => {
    const fromSeq = run.recorder.events.length;
    const sent = run.client.request('subscriptions/listen', { notifications: filter });
    const first = await run.recorder.waitFor(
      (e) =>
        subscriptionIdOf(e) === sent.id || (e.kind === 'message' && e.from === 'server' && e.message.id === sent.id),
      run.recorder.bounds.answerTimeoutMs,
      fromSeq,
    );
    if (first === null || first.kind !== 'message') {
      push(
        `the ${which} listen is acknowledged first`,
        ACK_FIRST,
        'broken',
        `nothing carrying subscription ${sent.id} arrived within ${run.recorder.bounds.answerTimeoutMs} ms`,
      );
      return { sent, refused: 'no acknowledgement' };
    }
    if (first.message.id === sent.id && 'error' in first.message)
      return { sent, refused: JSON.stringify(first.message.error).slice(0, 160) };
    const ok = first.message.method === 'notifications/subscriptions/acknowledged';
    push(
      `the ${which} listen is acknowledged first`,
      ACK_FIRST,
      ok ? 'holds' : 'broken',
      ok
        ? `listen #${sent.id}: the acknowledgement came first, at ${first.atMs} ms`
        : `listen #${sent.id}: the first message for it was ${describeValue(first.message.method ?? 'a response')} at ${first.atMs} ms`,
    );
    return { sent, refused: null };
  };
  const drop = (sent: SentRequest, why: string): void => {
    if (run.transport === 'http') sent.exchange.closeStream(why);
    else run.client.notify('notifications/cancelled', { requestId: sent.id, reason: why });
  };

  const first = await listen('first');
  if (first.refused !== null && !run.verdicts.some((v) => v.probe === probe)) {
    push(
      'the first listen is acknowledged first',
      ACK_FIRST,
      'not observable',
      `the server refused subscriptions/listen (${first.refused})`,
    );
    return null;
  }
  await run.recorder.pause(Math.min(run.times.observeMs, 500));
  drop(first.sent, 'lab probe: drop the listen stream');
  await run.recorder.pause(200);
  const second = await listen('second');
  const refetch = run.client.request('tools/list', {});
  await run.client.response(refetch, 'tools/list');
  await run.recorder.pause(Math.min(run.times.observeMs, 500));
  drop(second.sent, 'lab probe: done');
  const lastEventId = run.recorder.events.filter((e) => e.kind === 'note' && /last-event-id/i.test(e.text));
  push(
    'a new id and no Last-Event-ID on reconnect',
    NO_LAST_EVENT_ID,
    second.sent.id !== first.sent.id && lastEventId.length === 0 ? 'holds' : 'broken',
    `a client obligation, reported: the second listen used id ${second.sent.id} (the first ${first.sent.id}); ${run.transport === 'http' ? 'no POST carried a Last-Event-ID header' : 'stdio has no Last-Event-ID'}; the tool list was refetched with tools/list`,
  );
  return {
    sendLastEventId: false,
    firstListenId: first.sent.id,
    secondListenId: second.sent.id,
    filter,
    refetched: ['tools/list'],
  };
}
