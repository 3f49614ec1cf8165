import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { JsonObject, SentRequest } from './client';
import { makeVerdict, type ProbeRun, type Verdict } from './probes';
import type { Sentence } from './sentences';
import { KEY_IS_APPLICATION_CONTRACT } from '../engine';

/** The mutation the user names: the probe calls it with a key, again, with changed arguments, without a key, and twice at once. */
export interface Mutation {
  name: string;
  arguments: JsonObject;
  keyField: string;
  /** The arguments of the mismatch call; by default the first number is raised by one (else a string gets a suffix). */
  changedArguments?: JsonObject;
}

export interface MutationCall {
  call: 'first' | 'replay' | 'changed-arguments' | 'no-key' | 'concurrent-1' | 'concurrent-2';
  requestId: number;
  arguments: JsonObject;
  /** `result`, a tool error (`isError: true`), or a JSON-RPC error. */
  outcome: 'result' | 'tool-error' | 'error' | 'no answer';
  answer: JsonObject | null;
  atMs: number;
}

export interface IdempotencyRecord {
  mutation: string;
  keyField: string;
  key: string;
  concurrentKey: string;
  calls: MutationCall[];
}

/** The lesson's idempotency requirements, each saying that the key is the tool's contract, not the protocol's. */
const lesson = (id: string, text: string): Sentence => ({
  revision: 'lesson',
  level: 'MUST',
  page: id,
  text: `${text} — ${KEY_IS_APPLICATION_CONTRACT}`,
});
const REPLAY = lesson('LG-3', 'Same key + same arguments → the stored result is returned and nothing executes again.');
const MISMATCH = lesson('LG-3', 'Same key + different arguments → rejected with a clear error; nothing executes.');
const NEW_ID = lesson(
  'LG-1',
  'A JSON-RPC id is not idempotency: … retried as id 42 executes **twice** when no business key is given.',
);
const CONCURRENT = lesson(
  'LG-5',
  'Two … racing on the same key (started together, e.g. at a barrier) observe one committed result and exactly one execution.',
);

/** Arguments that differ from `args` in one value: the first number raised by one, else the first string suffixed, else a marker field. */
export function changedArguments(args: JsonObject, keyField: string): JsonObject {
  for (const [name, value] of Object.entries(args)) {
    if (name === keyField) continue;
    if (typeof value === 'number') return { ...args, [name]: value + 1 };
  }
  for (const [name, value] of Object.entries(args)) {
    if (name === keyField) continue;
    if (typeof value === 'string') return { ...args, [name]: `${value}-changed` };
  }
  return { ...args, labProbeChanged: true };
}

/** What a result says, without its `_meta` (a server may stamp each response differently). */
function payload(answer: JsonObject | null): unknown {
  if (answer === null) return null;
  if ('error' in answer) return { error: answer.error };
  const result =
    typeof answer.result === 'object' && answer.result !== null ? { ...(answer.result as JsonObject) } : answer.result;
  if (typeof result === 'object' && result !== null) delete (result as JsonObject)._meta;
  return result;
}

export async function idempotencyProbe(run: ProbeRun, mutation: Mutation): Promise<IdempotencyRecord> {
  const probe = 'idempotency';
  run.recorder.probe = probe;
  const key = `lab-probe-${randomUUID()}`;
  const concurrentKey = `lab-probe-${randomUUID()}`;
  run.recorder.record({
    kind: 'note',
    text: `calling the mutation ${mutation.name} six times: with key ${key}, the same again, the same key with changed arguments, without a key, then twice at once with key ${concurrentKey}`,
  });
  const calls: MutationCall[] = [];
  const send = (args: JsonObject): SentRequest =>
    run.client.request('tools/call', { name: mutation.name, arguments: args });
  const settle = async (call: MutationCall['call'], args: JsonObject, sent: SentRequest): Promise<MutationCall> => {
    const answer = await run.client.response(sent, 'tools/call', run.times.maxTimeoutMs);
    const result = answer?.result as JsonObject | undefined;
    const outcome =
      answer === null ? 'no answer' : 'error' in answer ? 'error' : result?.isError === true ? 'tool-error' : 'result';
    const record: MutationCall = {
      call,
      requestId: sent.id,
      arguments: args,
      outcome,
      answer,
      atMs: run.recorder.nowMs(),
    };
    calls.push(record);
    return record;
  };
  const keyed = { ...mutation.arguments, [mutation.keyField]: key };
  const changed = {
    ...(mutation.changedArguments ?? changedArguments(mutation.arguments, mutation.keyField)),
    [mutation.keyField]: key,
  };
  const unkeyed = Object.fromEntries(Object.entries(mutation.arguments).filter(([name]) => name !== mutation.keyField));
  const first = await settle('first', keyed, send(keyed));
  const replay = await settle('replay', keyed, send(keyed));
  const mismatch = await settle('changed-arguments', changed, send(changed));
  const noKey = await settle('no-key', unkeyed, send(unkeyed));
  const racing = { ...mutation.arguments, [mutation.keyField]: concurrentKey };
  const [a, b] = [send(racing), send(racing)] as const;
  const c1 = await settle('concurrent-1', racing, a);
  const c2 = await settle('concurrent-2', racing, b);

  const verdicts: Verdict[] = run.verdicts;
  const push = (check: string, sentence: Sentence, result: Verdict['result'], detail: string): void =>
    void verdicts.push(makeVerdict(probe, check, sentence, result, detail));
  const firstOk = first.outcome === 'result';
  if (!firstOk)
    push(
      'same key, same arguments: the stored result',
      REPLAY,
      'not observable',
      `the first call did not succeed (${first.outcome}); there is nothing to replay`,
    );
  else {
    const same = isDeepStrictEqual(payload(first.answer), payload(replay.answer));
    push(
      'same key, same arguments: the stored result',
      REPLAY,
      same ? 'holds' : 'broken',
      same
        ? `the replay (#${replay.requestId}) returned exactly the first result (#${first.requestId}); whether nothing executed again needs the server's own count`
        : `the replay (#${replay.requestId}) returned ${JSON.stringify(payload(replay.answer)).slice(0, 200)}, not the first result ${JSON.stringify(payload(first.answer)).slice(0, 200)}: the server executed again or does not store results by key`,
    );
  }
  const refused = mismatch.outcome === 'error' || mismatch.outcome === 'tool-error';
  push(
    'same key, changed arguments: refused',
    MISMATCH,
    !firstOk ? 'not observable' : refused ? 'holds' : 'broken',
    !firstOk
      ? 'the first call did not succeed'
      : refused
        ? `refused (${mismatch.outcome}): ${JSON.stringify(payload(mismatch.answer)).slice(0, 200)}`
        : `accepted: ${JSON.stringify(payload(mismatch.answer)).slice(0, 200)} — the key did not bind the arguments`,
  );
  push(
    'no key, new id: a new intent',
    NEW_ID,
    'not observable',
    `without a key the call (#${noKey.requestId}) ${noKey.outcome === 'result' ? `returned ${isDeepStrictEqual(payload(noKey.answer), payload(first.answer)) ? 'the same result as the keyed call' : 'a result of its own'}` : `ended with ${noKey.outcome}`}; whether it executed a second time needs the server's state — the point is that only a key could have told it`,
  );
  const bothOk = c1.outcome === 'result' && c2.outcome === 'result';
  const oneResult = bothOk && isDeepStrictEqual(payload(c1.answer), payload(c2.answer));
  push(
    'two calls at once with one key: one result',
    CONCURRENT,
    bothOk ? (oneResult ? 'holds' : 'broken') : 'not observable',
    bothOk
      ? oneResult
        ? `#${c1.requestId} and #${c2.requestId}, sent together, returned the same result`
        : `#${c1.requestId} and #${c2.requestId}, sent together, returned different results: two executions`
      : `one of the two ended with ${c1.outcome === 'result' ? c2.outcome : c1.outcome} (a server may refuse a key already in flight)`,
  );
  return { mutation: mutation.name, keyField: mutation.keyField, key, concurrentKey, calls };
}
