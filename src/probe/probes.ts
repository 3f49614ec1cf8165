import { REVISION_2026, isResponseTo, type JsonObject, type ProbeClient, type SentRequest } from './client';
import type { ProbeEvent, Recorder } from './record';
import { SENTENCES, isMustLevel, sentenceFor, type Sentence } from './sentences';
import { describeValue, numberOf } from './text';

/** Whether the server did what the sentence says: `broken` means it did not, whatever the sentence's level. */
export type VerdictResult = 'holds' | 'broken' | 'not observable';

/**
 * The result read with the sentence's level: a MUST, MUST NOT or REQUIRED not met is `broken`; a
 * SHOULD, SHOULD NOT or an encouragement not met is `not followed`. Only `broken` sets the exit status.
 */
export type VerdictFinding = 'holds' | 'broken' | 'not followed' | 'not observable';

export interface Verdict {
  probe: string;
  check: string;
  sentence: Sentence;
  result: VerdictResult;
  /** `result` with the level taken into account (added beside `result`, which keeps its meaning). */
  finding: VerdictFinding;
  /** What the probe saw (or why it could not see it), with times in ms from the probe's start. */
  detail: string;
}

export function findingOf(result: VerdictResult, sentence: Sentence): VerdictFinding {
  if (result !== 'broken') return result;
  return isMustLevel(sentence.level) ? 'broken' : 'not followed';
}

/** One verdict, its finding derived from the result and the sentence's level. */
export function makeVerdict(
  probe: string,
  check: string,
  sentence: Sentence,
  result: VerdictResult,
  detail: string,
): Verdict {
  return { probe, check, sentence, result, finding: findingOf(result, sentence), detail };
}

/** How a finding reads in the timeline, the evidence and the verdict table: the level beside the word. */
export function findingLabel(v: Pick<Verdict, 'finding' | 'sentence'>): string {
  const source = v.sentence.revision === 'lesson' ? `lesson ${v.sentence.level}` : v.sentence.level;
  if (v.finding === 'broken') return `BROKEN (${source})`;
  if (v.finding === 'not followed') return `not followed (${source})`;
  return v.finding;
}

export interface ProbeTimes {
  /** When, after the call is sent, the cancel-during-work probe cancels it. */
  cancelAfterMs: number;
  /** How long the probe keeps listening after a cancellation or a final response. */
  observeMs: number;
  /** The probe's own idle deadline: time allowed without progress. */
  idleTimeoutMs: number;
  /** The probe's own maximum deadline: the whole call's budget. */
  maxTimeoutMs: number;
}

export const PROBE_TIMES_DEFAULT: ProbeTimes = {
  cancelAfterMs: 1_000,
  observeMs: 2_500,
  idleTimeoutMs: 5_000,
  maxTimeoutMs: 30_000,
};

export interface ToolCall {
  name: string;
  arguments: JsonObject;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const progressTokenOf = (event: ProbeEvent): unknown =>
  event.kind === 'message' && event.message.method === 'notifications/progress' && isObject(event.message.params)
    ? event.message.params.progressToken
    : undefined;

/** Everything the server sent for one request (its response, its progress, anything naming its id) from `fromSeq` on. */
function relatedFrom(recorder: Recorder, sent: SentRequest, token: string, fromSeq: number): ProbeEvent[] {
  return recorder.events.filter((e) => {
    if (e.seq < fromSeq || e.kind !== 'message' || e.from !== 'server') return false;
    if (e.message.id === sent.id) return true;
    if (progressTokenOf(e) === token) return true;
    const params = e.message.params;
    return isObject(params) && params.requestId === sent.id;
  });
}

const describe = (event: ProbeEvent): string => {
  if (event.kind !== 'message') return event.kind;
  const m = event.message;
  if (typeof m.method === 'string') {
    const p = isObject(m.params) ? m.params : {};
    return m.method === 'notifications/progress'
      ? `progress ${describeValue(p.progress)}${p.total === undefined ? '' : `/${describeValue(p.total)}`}`
      : m.method;
  }
  return 'error' in m ? `error response (id ${describeValue(m.id)})` : `result response (id ${describeValue(m.id)})`;
};

const listAt = (events: ProbeEvent[]): string => events.map((e) => `${describe(e)} at ${e.atMs} ms`).join(', ');

/** Shortest in-flight window: below it, timer and scheduling noise alone could reorder a send and a read. */
const IN_FLIGHT_MS_MIN = 100;

/**
 * How long after a cancellation a message may still be one the server sent before reading it: twice
 * the slowest round trip of the negotiation and tool listing (the server's start excluded), at least 100 ms.
 */
export function inFlightWindowMs(recorder: Recorder): number {
  let slowestMs = 0;
  for (const request of recorder.events) {
    if (request.kind !== 'message' || request.from !== 'client' || request.message.method !== 'tools/list') continue;
    const answer = recorder.events.find((e) => e.seq > request.seq && isResponseTo(e, request.message.id as number));
    if (answer !== undefined) slowestMs = Math.max(slowestMs, answer.atMs - request.atMs);
  }
  return Math.max(IN_FLIGHT_MS_MIN, Math.round(2 * slowestMs));
}

/** The context every probe runs in. */
export interface ProbeRun {
  client: ProbeClient;
  recorder: Recorder;
  revision: string;
  transport: 'stdio' | 'http';
  tool: ToolCall;
  times: ProbeTimes;
  verdicts: Verdict[];
}

function verdict(
  run: ProbeRun,
  probe: string,
  check: string,
  sentence: Sentence,
  result: VerdictResult,
  detail: string,
): void {
  const older =
    sentence.revision === '2025-11-25' && run.revision !== '2025-11-25' && run.revision !== REVISION_2026
      ? ` (the server negotiated ${run.revision}; checked against the 2025-11-25 sentence)`
      : '';
  run.verdicts.push(makeVerdict(probe, check, sentence, result, `${detail}${older}`));
}

function callTool(run: ProbeRun, token: string | undefined): SentRequest {
  return run.client.request(
    'tools/call',
    { name: run.tool.name, arguments: run.tool.arguments },
    token === undefined ? {} : { progressToken: token },
  );
}

/** The transport's own cancellation signal (RC-5): `notifications/cancelled` on stdio (and 2025-11-25 HTTP), closing the stream on 2026-07-28 HTTP. */
function cancel(run: ProbeRun, sent: SentRequest, reason: string): 'notifications/cancelled' | 'stream-close' {
  if (run.transport === 'http' && run.revision === REVISION_2026) {
    sent.exchange.closeStream(reason);
    return 'stream-close';
  }
  run.client.notify('notifications/cancelled', { requestId: sent.id, reason });
  return 'notifications/cancelled';
}

/** A, and D on HTTP: cancel while the tool works; record everything that still arrives for that request. */
export async function cancelDuringWork(run: ProbeRun): Promise<void> {
  const probe = 'cancel-during-work';
  run.recorder.probe = probe;
  const token = `lab-probe-${probe}`;
  const sent = callTool(run, token);
  const early = await run.recorder.waitFor((e) => isResponseTo(e, sent.id), run.times.cancelAfterMs);
  if (early !== null) return answeredBeforeCancel(run, probe, early);
  const cancelSeq = run.recorder.events.length;
  const signal = cancel(run, sent, 'lab probe: cancel during work');
  const cancelAtMs = run.recorder.nowMs();
  run.recorder.record({
    kind: 'note',
    text: `cancelled request ${sent.id} at ${cancelAtMs} ms with ${signal === 'stream-close' ? 'the close of its response stream' : 'notifications/cancelled'}; listening ${run.times.observeMs} ms for anything more about it`,
  });
  await run.recorder.pause(run.times.observeMs);
  const after = relatedFrom(run.recorder, sent, token, cancelSeq);
  const responses = after.filter((e) => e.kind === 'message' && e.message.id === sent.id);
  const progress = after.filter((e) => progressTokenOf(e) === token);
  const others = after.filter((e) => !responses.includes(e) && !progress.includes(e));
  if (others.length > 0)
    run.recorder.record({ kind: 'note', text: `after the cancellation the server also sent: ${listAt(others)}` });
  if (signal === 'stream-close') {
    const closeSentence = SENTENCES['2026-07-28'].closeIsCancel;
    verdict(
      run,
      probe,
      'nothing more for the request after its stream closed',
      closeSentence,
      'not observable',
      `the probe closed the response stream at ${cancelAtMs} ms; on 2026-07-28 that stream was the only path for the request, so whatever the server still sends for it cannot reach the probe, and whether the work stopped needs the server's own log`,
    );
    return;
  }
  judgeAfterCancellation(run, probe, cancelAtMs, responses, progress);
  if (run.transport === 'http') {
    checkNotificationAccepted(run, probe);
    // The stream of a request the server never answers would stay open for the rest of the run.
    if (!run.client.streamEnded(sent.exchange.channel))
      sent.exchange.closeStream('lab probe: done listening after the cancellation');
  }
}

/** The call answered before the cancel was due: nothing was cancelled, so neither check can be judged. */
function answeredBeforeCancel(run: ProbeRun, probe: string, early: ProbeEvent): void {
  run.recorder.record({
    kind: 'note',
    text: `the call answered at ${early.atMs} ms, before the cancel due at ${run.times.cancelAfterMs} ms: nothing was cancelled`,
  });
  const why = `the tool finished (${early.atMs} ms) before the cancel was due (${run.times.cancelAfterMs} ms after the call); give it longer work with --args or cancel earlier with --cancel-after-ms`;
  verdict(
    run,
    probe,
    'no response after an accepted cancellation',
    sentenceFor(run.revision, 'noResponse'),
    'not observable',
    why,
  );
  verdict(
    run,
    probe,
    'work stops after the cancellation',
    sentenceFor(run.revision, 'stopProcessing'),
    'not observable',
    why,
  );
}

/**
 * The verdicts on what arrived for a request after `notifications/cancelled`. A message sent before the
 * server read the cancellation is in flight, not a defect (RC-8's completion-wins order): only what
 * arrives later than a round trip after it is held against the server.
 */
function judgeAfterCancellation(
  run: ProbeRun,
  probe: string,
  cancelAtMs: number,
  responses: ProbeEvent[],
  progress: ProbeEvent[],
): void {
  const inFlightMs = inFlightWindowMs(run.recorder);
  const lateFromMs = cancelAtMs + inFlightMs;
  const late = (events: ProbeEvent[]) => events.filter((e) => e.atMs > lateFromMs);
  const inFlightOf = (events: ProbeEvent[]) => events.filter((e) => e.atMs <= lateFromMs);
  const window = `in the ${run.times.observeMs} ms after the cancellation at ${cancelAtMs} ms`;
  const inFlightNote = (events: ProbeEvent[]) =>
    events.length === 0
      ? ''
      : `; ${listAt(events)} came within ${inFlightMs} ms of the cancellation (twice the slowest round trip seen), so may have been sent before the server read it, and is not held against it`;
  const lateResponses = late(responses);
  verdict(
    run,
    probe,
    'no response after an accepted cancellation',
    sentenceFor(run.revision, 'noResponse'),
    lateResponses.length > 0 ? 'broken' : responses.length > 0 ? 'not observable' : 'holds',
    lateResponses.length > 0
      ? `the server answered the cancelled request anyway: ${listAt(lateResponses)}`
      : responses.length > 0
        ? `the only response came in flight${inFlightNote(responses)}`
        : `no response arrived ${window}`,
  );
  const lateProgress = late(progress);
  if (lateProgress.length > 0)
    verdict(
      run,
      probe,
      'work stops after the cancellation',
      sentenceFor(run.revision, 'stopProcessing'),
      'broken',
      `the work went on: ${lateProgress.length} progress notification(s) for the cancelled request arrived ${window}, later than a round trip after it: ${listAt(lateProgress)}${inFlightNote(inFlightOf(progress))}`,
    );
  else
    verdict(
      run,
      probe,
      'work stops after the cancellation',
      sentenceFor(run.revision, 'stopProcessing'),
      'not observable',
      `nothing arrived later than a round trip after the cancellation (${window})${inFlightNote(inFlightOf(progress))}, but whether the work itself stopped and its resources were freed needs the server's cooperation (a log or a metric); silence is consistent with both`,
    );
}

/** The 202 the HTTP transport requires for a notification POST: any body answers a fire-and-forget message. */
function checkNotificationAccepted(run: ProbeRun, probe: string): boolean {
  const posts = run.recorder.events.filter(
    (e) =>
      e.kind === 'message' &&
      e.from === 'client' &&
      e.message.method === 'notifications/cancelled' &&
      e.probe === probe,
  );
  const last = posts.at(-1);
  if (last === undefined || last.kind !== 'message') return false;
  const response = run.recorder.events.find((e) => e.kind === 'http-response' && e.channel === last.channel);
  const body = run.recorder.events.filter(
    (e) =>
      (e.kind === 'message' || e.kind === 'note') &&
      e.seq > last.seq &&
      'channel' in e &&
      e.channel === last.channel &&
      e.kind === 'message',
  );
  if (response?.kind !== 'http-response') {
    verdict(
      run,
      probe,
      'the cancellation POST is accepted with 202 and no body',
      sentenceFor(run.revision, 'notification202'),
      'not observable',
      `${last.channel} got no HTTP response`,
    );
    return false;
  }
  const ok = response.status === 202 && body.length === 0;
  verdict(
    run,
    probe,
    'the cancellation POST is accepted with 202 and no body',
    sentenceFor(run.revision, 'notification202'),
    ok ? 'holds' : 'broken',
    ok
      ? `${last.channel} answered 202 with no body`
      : `${last.channel} answered ${response.status}${body.length > 0 ? ` with a body: ${listAt(body)}` : ''}`,
  );
  return ok;
}

/** B: let the call complete, then cancel it; nothing may answer the late cancellation. */
export async function completeThenCancel(run: ProbeRun): Promise<void> {
  const probe = 'complete-then-cancel';
  run.recorder.probe = probe;
  const token = `lab-probe-${probe}`;
  const sent = callTool(run, token);
  const response = await run.client.response(sent, 'tools/call', run.times.maxTimeoutMs);
  if (response === null) {
    verdict(
      run,
      probe,
      'a late cancellation is ignored, not answered',
      sentenceFor(run.revision, 'ignoreInvalid'),
      'not observable',
      'the call ended without a response, so there was nothing to cancel late',
    );
    return;
  }
  const respondedAtMs = run.recorder.nowMs();
  if (run.transport === 'http' && run.revision === REVISION_2026) {
    await run.recorder.waitFor(
      (e) => e.kind === 'stream-closed' && e.channel === sent.exchange.channel,
      Math.min(run.times.observeMs, 1_000),
    );
    const ended = run.client.streamEnded(sent.exchange.channel);
    verdict(
      run,
      probe,
      'the final response ends the stream',
      sentenceFor(run.revision, 'finalEndsStream'),
      ended ? 'holds' : 'broken',
      ended
        ? `${sent.exchange.channel} ended right after its response (${respondedAtMs} ms)`
        : `${sent.exchange.channel} stayed open after its response; the probe closes it now, which is the late cancellation`,
    );
    if (!ended) sent.exchange.closeStream('lab probe: cancel after completion');
    verdict(
      run,
      probe,
      'a late cancellation is ignored, not answered',
      sentenceFor(run.revision, 'ignoreInvalid'),
      'not observable',
      'on 2026-07-28 HTTP the cancellation is closing the response stream, which the final response already ended: there is no late signal to send and no stream an answer could come on',
    );
    return;
  }
  const cancelSeq = run.recorder.events.length;
  run.client.notify('notifications/cancelled', { requestId: sent.id, reason: 'lab probe: cancel after completion' });
  const cancelAtMs = run.recorder.nowMs();
  await run.recorder.pause(run.times.observeMs);
  const answers = run.recorder.events.filter(
    (e) =>
      e.seq >= cancelSeq &&
      e.kind === 'message' &&
      e.from === 'server' &&
      ('result' in e.message || 'error' in e.message),
  );
  const related = relatedFrom(run.recorder, sent, token, cancelSeq).filter((e) => !answers.includes(e));
  const window = `in the ${run.times.observeMs} ms after the late cancellation at ${cancelAtMs} ms (the response came at ${respondedAtMs} ms)`;
  let answered = answers.length > 0;
  if (run.transport === 'http') answered = !checkNotificationAccepted(run, probe) || answered;
  verdict(
    run,
    probe,
    'a late cancellation is ignored, not answered',
    sentenceFor(run.revision, 'ignoreInvalid'),
    answered ? 'broken' : 'holds',
    answers.length > 0
      ? `the server answered the notification: ${listAt(answers)}`
      : answered
        ? 'the HTTP answer to the notification was not a bare 202'
        : `nothing answered it ${window}`,
  );
  verdict(
    run,
    probe,
    'nobody answers a cancellation notification',
    sentenceFor(run.revision, 'notificationNoResponse'),
    answers.length > 0 ? 'broken' : 'holds',
    answers.length > 0
      ? `a JSON-RPC response followed the notification: ${listAt(answers)}`
      : `no JSON-RPC response followed it ${window}`,
  );
  if (related.length > 0)
    verdict(
      run,
      probe,
      'nothing more about the completed request',
      sentenceFor(run.revision, 'progressStops'),
      'broken',
      `after the response and the late cancellation the server still sent: ${listAt(related)}`,
    );
}

/** How a call watched against the probe's deadlines ended. */
type CallEnding = 'response' | 'stream-ended' | 'idle' | 'max';

/** C: progress strictly increasing, at most `total`, none after the final response; the probe's idle and maximum deadlines drawn. */
export async function progressAndDeadlines(run: ProbeRun): Promise<void> {
  const probe = 'progress-and-deadlines';
  run.recorder.probe = probe;
  const token = `lab-probe-${probe}`;
  const sent = callTool(run, token);
  const ending = await watchAgainstDeadlines(run, sent, token);
  const endSeq = run.recorder.events.length;
  await run.recorder.pause(run.times.observeMs);
  const progress = run.recorder.events.filter((e) => progressTokenOf(e) === token);
  const before = progress.filter((e) => e.seq < endSeq);
  const after = progress.filter((e) => e.seq >= endSeq);
  const endedHow =
    ending === 'response'
      ? 'the final response'
      : ending === 'stream-ended'
        ? 'the end of the stream'
        : `the ${ending} deadline`;
  run.recorder.record({
    kind: 'note',
    text: `the call ended with ${endedHow} at ${run.recorder.events[endSeq - 1]?.atMs ?? run.recorder.nowMs()} ms after ${before.length} progress notification(s)`,
  });
  judgeProgressValues(run, probe, before);
  if (ending !== 'response')
    verdict(
      run,
      probe,
      'no progress after the final response',
      sentenceFor(run.revision, 'progressStops'),
      'not observable',
      `the call ended with ${endedHow}, not a response${ending === 'idle' || ending === 'max' ? ' (the probe cancelled it)' : ''}`,
    );
  else if (run.transport === 'http' && run.client.streamEnded(sent.exchange.channel) && after.length === 0)
    verdict(
      run,
      probe,
      'no progress after the final response',
      sentenceFor(run.revision, 'progressStops'),
      'holds',
      `the response stream ended after the response; nothing followed it`,
    );
  else
    verdict(
      run,
      probe,
      'no progress after the final response',
      sentenceFor(run.revision, 'progressStops'),
      after.length > 0 ? 'broken' : 'holds',
      after.length > 0
        ? `${after.length} progress notification(s) after the final response: ${listAt(after)}`
        : `none in the ${run.times.observeMs} ms after it`,
    );
}

/**
 * Waits for the call's response, its stream's end or a deadline, drawing the idle and maximum deadlines
 * on the recording (armed, reset by progress, then fired or disarmed); a fired one cancels the call.
 */
async function watchAgainstDeadlines(run: ProbeRun, sent: SentRequest, token: string): Promise<CallEnding> {
  const startMs = run.recorder.nowMs();
  const maxDueMs = startMs + run.times.maxTimeoutMs;
  let idleDueMs = startMs + run.times.idleTimeoutMs;
  run.recorder.record({ kind: 'deadline', requestId: sent.id, deadline: 'idle', action: 'armed', dueAtMs: idleDueMs });
  run.recorder.record({ kind: 'deadline', requestId: sent.id, deadline: 'max', action: 'armed', dueAtMs: maxDueMs });
  let ending: CallEnding | null = null;
  let nextSeq = run.recorder.events.length;
  while (ending === null) {
    const nowMs = run.recorder.nowMs();
    const waitMs = Math.max(0, Math.min(idleDueMs, maxDueMs) - nowMs);
    const event = await run.recorder.waitFor(
      (e) =>
        isResponseTo(e, sent.id) ||
        progressTokenOf(e) === token ||
        (e.kind === 'stream-closed' && e.channel === sent.exchange.channel && e.channel !== 'stdio'),
      waitMs,
      nextSeq,
    );
    if (event !== null) nextSeq = event.seq + 1;
    if (event === null) ending = run.recorder.nowMs() >= maxDueMs || maxDueMs <= idleDueMs ? 'max' : 'idle';
    else if (event.kind === 'stream-closed') ending = 'stream-ended';
    else if (isResponseTo(event, sent.id)) ending = 'response';
    else {
      // RC-2: progress resets the idle clock, never the maximum one.
      idleDueMs = run.recorder.nowMs() + run.times.idleTimeoutMs;
      run.recorder.record({
        kind: 'deadline',
        requestId: sent.id,
        deadline: 'idle',
        action: 'reset',
        dueAtMs: idleDueMs,
      });
    }
  }
  if (ending === 'idle' || ending === 'max') {
    run.recorder.record({
      kind: 'deadline',
      requestId: sent.id,
      deadline: ending,
      action: 'fired',
      dueAtMs: ending === 'idle' ? idleDueMs : maxDueMs,
    });
    cancel(run, sent, `lab probe: ${ending} deadline`);
  } else {
    run.recorder.record({
      kind: 'deadline',
      requestId: sent.id,
      deadline: 'idle',
      action: 'disarmed',
      dueAtMs: idleDueMs,
    });
    run.recorder.record({
      kind: 'deadline',
      requestId: sent.id,
      deadline: 'max',
      action: 'disarmed',
      dueAtMs: maxDueMs,
    });
  }
  return ending;
}

/** The verdicts on the progress values that came before the call ended: strictly increasing, never past total. */
function judgeProgressValues(run: ProbeRun, probe: string, before: ProbeEvent[]): void {
  const values = before.map((e) => (e.kind === 'message' && isObject(e.message.params) ? e.message.params : {}));
  const bad = values.findIndex((p, i) => i > 0 && !(numberOf(p.progress) > numberOf(values[i - 1]?.progress)));
  if (values.length < 2)
    verdict(
      run,
      probe,
      'progress strictly increases',
      sentenceFor(run.revision, 'progressIncreases'),
      'not observable',
      `${values.length} progress notification(s) arrived; two are needed to compare`,
    );
  else
    verdict(
      run,
      probe,
      'progress strictly increases',
      sentenceFor(run.revision, 'progressIncreases'),
      bad < 0 ? 'holds' : 'broken',
      bad < 0
        ? `${values.length} values, each above the last: ${values.map((p) => describeValue(p.progress)).join(', ')}`
        : `value ${describeValue(values[bad]?.progress)} at ${before[bad]?.atMs} ms does not exceed the one before it (${describeValue(values[bad - 1]?.progress)}): ${values.map((p) => describeValue(p.progress)).join(', ')}`,
    );
  const withTotal = values.filter((p) => typeof p.total === 'number');
  const over = withTotal.find((p) => numberOf(p.progress) > numberOf(p.total));
  if (withTotal.length === 0)
    verdict(
      run,
      probe,
      'progress never passes total',
      SENTENCES.lesson.progressAtMostTotal,
      'not observable',
      'no progress notification carried a total',
    );
  else
    verdict(
      run,
      probe,
      'progress never passes total',
      SENTENCES.lesson.progressAtMostTotal,
      over === undefined ? 'holds' : 'broken',
      over === undefined
        ? `every value is at most its total (${describeValue(withTotal.at(-1)?.total)})`
        : `progress ${describeValue(over.progress)} passes its total ${describeValue(over.total)}`,
    );
}

type HttpResponseEvent = Extract<ProbeEvent, { kind: 'http-response' }>;

/** HTTP only: the SSE response headers, the `Mcp-*` request headers sent, and keep-alive comments on a quiet stream. */
export async function headersAndQuietStream(run: ProbeRun): Promise<void> {
  const probe = 'headers-and-quiet-stream';
  run.recorder.probe = probe;
  // No progress token: the stream stays quiet while the tool works, so only keep-alive comments can cross it.
  const sent = callTool(run, undefined);
  await run.client.response(sent, 'tools/call', run.times.maxTimeoutMs);
  await run.recorder.waitFor((e) => e.kind === 'stream-closed' && e.channel === sent.exchange.channel, 500);
  if (!run.client.streamEnded(sent.exchange.channel)) sent.exchange.closeStream('lab probe: done reading');

  const responses = run.recorder.events.filter((e): e is HttpResponseEvent => e.kind === 'http-response');
  const sseResponses = responses.filter((r) =>
    (r.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream'),
  );
  judgeContentTypes(run, probe, responses, sseResponses);
  judgeSseHeaders(run, probe, sseResponses);
  const sentHeaders = run.client.headersFor('tools/call', { name: run.tool.name });
  const negotiatedAt = run.recorder.events.find((e) => e.kind === 'note' && e.text.startsWith('negotiated '))?.seq ?? 0;
  const refused = responses.filter((r) => r.seq > negotiatedAt && r.status >= 400);
  verdict(
    run,
    probe,
    'the Mcp-* request headers of the revision',
    sentenceFor(run.revision, 'headers'),
    'holds',
    `a client obligation, so the probe reports what it sent: ${Object.entries(sentHeaders)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} (tools/call) on every POST after negotiation; ${
      refused.length === 0
        ? 'the server refused none of them'
        : `the server refused ${refused.length}: ${refused
            .slice(0, 3)
            .map((r) => `${r.channel} ${r.status}`)
            .join(', ')}`
    }`,
  );
  judgeKeepAlive(run, probe, sent);
}

/** Every request answered (2xx) as JSON or as an SSE stream. */
function judgeContentTypes(
  run: ProbeRun,
  probe: string,
  responses: HttpResponseEvent[],
  sseResponses: HttpResponseEvent[],
): void {
  const requestChannels = new Set(
    run.recorder.events
      .filter((e) => e.kind === 'message' && e.from === 'client' && 'id' in e.message)
      .map((e) => (e.kind === 'message' ? e.channel : '')),
  );
  const badType = responses.filter(
    (r) =>
      requestChannels.has(r.channel) &&
      r.status < 300 &&
      !/^(application\/json|text\/event-stream)/i.test(r.headers['content-type'] ?? ''),
  );
  verdict(
    run,
    probe,
    'a request is answered as JSON or as an SSE stream',
    sentenceFor(run.revision, 'requestContentType'),
    badType.length > 0 ? 'broken' : 'holds',
    badType.length > 0
      ? `${badType.map((r) => `${r.channel}: ${r.headers['content-type'] ?? 'no Content-Type'}`).join('; ')}`
      : `${responses.filter((r) => requestChannels.has(r.channel)).length} request responses, ${sseResponses.length} of them SSE`,
  );
}

/** X-Accel-Buffering: no and Cache-Control: no-cache on every SSE response. */
function judgeSseHeaders(run: ProbeRun, probe: string, sseResponses: HttpResponseEvent[]): void {
  if (sseResponses.length === 0) {
    for (const [check, sentence] of [
      ['X-Accel-Buffering: no on SSE responses', sentenceFor(run.revision, 'xAccel')],
      ['Cache-Control: no-cache on SSE responses', SENTENCES.lesson.cacheControl],
    ] as const)
      verdict(
        run,
        probe,
        check,
        sentence,
        'not observable',
        'the server answered every request with JSON, never an SSE stream',
      );
    return;
  }
  const noAccel = sseResponses.filter((r) => (r.headers['x-accel-buffering'] ?? '').toLowerCase() !== 'no');
  verdict(
    run,
    probe,
    'X-Accel-Buffering: no on SSE responses',
    sentenceFor(run.revision, 'xAccel'),
    noAccel.length > 0 ? 'broken' : 'holds',
    noAccel.length > 0
      ? `${noAccel.length} of ${sseResponses.length} SSE responses lack it (${noAccel
          .slice(0, 3)
          .map(
            (r) =>
              `${r.channel}: ${r.headers['x-accel-buffering'] === undefined ? 'absent' : JSON.stringify(r.headers['x-accel-buffering'])}`,
          )
          .join('; ')})`
      : `all ${sseResponses.length} SSE responses carry it`,
  );
  const noCache = sseResponses.filter((r) => !/(^|,)\s*no-cache\s*(,|$)/i.test(r.headers['cache-control'] ?? ''));
  verdict(
    run,
    probe,
    'Cache-Control: no-cache on SSE responses',
    SENTENCES.lesson.cacheControl,
    noCache.length > 0 ? 'broken' : 'holds',
    noCache.length > 0
      ? `${noCache.length} of ${sseResponses.length} SSE responses lack it (e.g. ${noCache[0]?.channel}: ${noCache[0]?.headers['cache-control'] ?? 'absent'})`
      : `all ${sseResponses.length} SSE responses carry it`,
  );
}

/** Keep-alive: the longest stretch of the quiet stream with neither an event nor a comment, against the idle window. */
function judgeKeepAlive(run: ProbeRun, probe: string, sent: SentRequest): void {
  const onStream = run.recorder.events.filter(
    (e) =>
      (e.kind === 'message' || e.kind === 'sse-comment' || e.kind === 'http-response' || e.kind === 'stream-closed') &&
      e.channel === sent.exchange.channel,
  );
  const comments = onStream.filter((e) => e.kind === 'sse-comment');
  // From the POST, not from the headers: a server that holds its headers back is just as quiet to a proxy.
  const openedAt = sent.sentAtMs;
  const closedAt = onStream.find((e) => e.kind === 'stream-closed')?.atMs ?? run.recorder.nowMs();
  let longestGapMs = 0;
  let lastMs = openedAt;
  for (const e of onStream) {
    longestGapMs = Math.max(longestGapMs, e.atMs - lastMs);
    lastMs = e.atMs;
  }
  const quietMs = closedAt - openedAt;
  const idle = run.times.idleTimeoutMs;
  const quietResponse = onStream.find((e) => e.kind === 'http-response');
  const quietIsSse =
    quietResponse?.kind === 'http-response' &&
    (quietResponse.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
  if (!quietIsSse)
    verdict(
      run,
      probe,
      'keep-alive comments on a quiet stream within the idle window',
      sentenceFor(run.revision, 'keepAlive'),
      'not observable',
      `the call without a progress token was answered ${quietResponse?.kind === 'http-response' ? `${quietResponse.status} ${quietResponse.headers['content-type'] ?? 'without a Content-Type'}` : 'with no HTTP response'}, not an SSE stream, after ${Math.round(closedAt - openedAt)} ms: a JSON body carries no comment lines, so there was no quiet stream to watch`,
    );
  else if (quietMs < idle)
    verdict(
      run,
      probe,
      'keep-alive comments on a quiet stream within the idle window',
      sentenceFor(run.revision, 'keepAlive'),
      'not observable',
      `the stream lasted ${Math.round(quietMs)} ms, shorter than the idle window (${idle} ms); give the tool longer work with --args${comments.length > 0 ? ` (${comments.length} comment(s) arrived anyway)` : ''}`,
    );
  else
    verdict(
      run,
      probe,
      'keep-alive comments on a quiet stream within the idle window',
      sentenceFor(run.revision, 'keepAlive'),
      longestGapMs <= idle ? 'holds' : 'broken',
      `${comments.length} comment(s) on a ${Math.round(quietMs)} ms stream; the longest silence was ${Math.round(longestGapMs)} ms against an idle window of ${idle} ms${longestGapMs > idle ? ': a proxy or client with that idle timeout would cut it' : ''}`,
    );
}

/** D on 2025-11-25 HTTP: closing the response stream is the 2026-07-28 signal; the older revision says it is not a cancellation. */
export async function cancelByClose(run: ProbeRun): Promise<void> {
  const probe = 'cancel-by-stream-close';
  run.recorder.probe = probe;
  const sent = callTool(run, `lab-probe-${probe}`);
  const early = await run.recorder.waitFor((e) => isResponseTo(e, sent.id), run.times.cancelAfterMs);
  if (early === null) sent.exchange.closeStream('lab probe: cancel by closing the stream');
  verdict(
    run,
    probe,
    'a closed stream is (not) a cancellation',
    sentenceFor(run.revision, 'closeIsCancel'),
    'not observable',
    early !== null
      ? `the call answered at ${early.atMs} ms, before the close was due`
      : `the probe closed ${sent.exchange.channel} at ${run.recorder.nowMs()} ms; whatever the server then does with the request (${run.revision === REVISION_2026 ? 'it must stop' : 'on this revision it should go on, for a resumed stream'}) cannot reach the probe on that stream`,
  );
}

/**
 * Over the whole run: every request the probe sent got at most one response. A second response for the
 * same id is a protocol violation whatever the race: the client would have two outcomes of one request.
 */
export function oneResponsePerRequest(run: ProbeRun): void {
  const sentIds = new Set(
    run.recorder.events.flatMap((e) =>
      e.kind === 'message' && e.from === 'client' && typeof e.message.method === 'string' && 'id' in e.message
        ? [JSON.stringify(e.message.id)]
        : [],
    ),
  );
  const responses = new Map<string, ProbeEvent[]>();
  for (const e of run.recorder.events) {
    if (
      e.kind !== 'message' ||
      e.from !== 'server' ||
      typeof e.message.method === 'string' ||
      !('result' in e.message || 'error' in e.message)
    )
      continue;
    const key = JSON.stringify(e.message.id ?? null);
    if (!sentIds.has(key)) continue;
    responses.set(key, [...(responses.get(key) ?? []), e]);
  }
  const twice = [...responses.entries()].filter(([, list]) => list.length > 1);
  verdict(
    run,
    'responses',
    'each request gets at most one response',
    SENTENCES.lesson.oneResponse,
    twice.length === 0 ? 'holds' : 'broken',
    twice.length === 0
      ? `${responses.size} of ${sentIds.size} requests answered, each once`
      : twice
          .slice(0, 10)
          .map(
            ([id, list]) =>
              `request ${id} answered ${list.length} times, at ${list.map((e) => `${e.atMs} ms`).join(', ')}`,
          )
          .join('; '),
  );
}
