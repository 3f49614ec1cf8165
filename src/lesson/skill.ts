import { BACKOFF_POLICIES, classify, TRANSPORTS } from '../engine';
import { failureCards, type FailureCard } from './failureCards';
import safeCharge from './examples/safe-charge.json' with { type: 'json' };
import unsafeCharge from './examples/unsafe-charge.json' with { type: 'json' };
import {
  CANCELLATIONS,
  LEDGER_STORES,
  QUEUE_POLICIES,
  reviewInputSchema,
  type Cancellation,
} from './reviewInputSchema';
import { formatReview, review } from './reviewer';
import {
  boundaryCases,
  flowChecks,
  raceRows,
  retryContract,
  reviewRuleSections,
  reviewRules,
  type Condition,
  type FieldValue,
  type Text,
} from './reviewRules';

/**
 * The reliability reviewer as a skill folder: SKILL.md, the input schema and two worked
 * examples, for a coding agent or a person reviewing their own server without the lab. Everything
 * the document says about the checks is printed from reviewRules.ts, the failure cards and the
 * schema that `review` itself uses, and the examples' outputs are `review`'s own; so the document
 * cannot drift from `lab review`. Pure: the same lab gives the same bytes, in Node and in the worker.
 */

export const SKILL_NAME = 'mcp-reliability-reviewer';
export const SKILL_ZIP_NAME = `${SKILL_NAME}.zip`;

/** One file of the skill folder (the same shape as an evidence file, which the export nests it as). */
export interface SkillFile {
  path: string;
  description: string;
  contents: string;
}

/** `"a", "b" (note) or "c"`: a field's allowed values printed from the very list its schema enum takes. */
function valuesText<V extends string>(values: readonly V[], notes: Partial<Record<V, string>> = {}): string {
  const quoted = values.map((value) => (notes[value] === undefined ? `"${value}"` : `"${value}" (${notes[value]})`));
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Every way of cancelling has a meaning: a new one in CANCELLATIONS fails to compile until it gets one. */
const CANCELLATION_MEANINGS: Record<Cancellation, string> = {
  'notifications/cancelled': 'sends the notification',
  'close-stream': 'closes the request’s response stream',
  'post-notification': 'POSTs notifications/cancelled over HTTP',
};

/** What each input field means and where to find it in a codebase; every schema field has one. */
export const inputGuide: readonly { path: string; meaning: string; where: string }[] = [
  {
    path: '/operation/name',
    meaning: 'The tool (or method) under review.',
    where: 'The name the server registers (registerTool / server.tool / the tools/list entry).',
  },
  {
    path: '/operation/mutates',
    meaning: 'A call changes state somewhere (a row, a file, money, a message sent).',
    where: 'The tool handler: does any path write, send, charge, deploy or delete?',
  },
  {
    path: '/operation/idempotencyKey',
    meaning: 'The arguments carry a business idempotency key the server de-duplicates on.',
    where:
      'The tool’s input schema (idempotencyKey, requestKey, Idempotency-Key header) and whether the handler reads it.',
  },
  {
    path: '/operation/remoteEffect',
    meaning: 'The effect happens in another service (payment API, deployment, email provider).',
    where: 'Outbound HTTP/SDK calls in the handler.',
  },
  {
    path: '/operation/annotations',
    meaning: 'The tool’s annotations as declared: readOnlyHint, idempotentHint, destructiveHint, openWorldHint.',
    where: 'The annotations object passed when the tool is registered.',
  },
  {
    path: '/operation/atomicKeyCheck',
    meaning: 'Key claim, effect record and stored result commit in one transaction.',
    where:
      'The ledger code: one transaction (BEGIN IMMEDIATE, SELECT … FOR UPDATE, insert-first on a unique key) or separate statements?',
  },
  {
    path: '/operation/fingerprint',
    meaning: 'The ledger stores a hash of the arguments with the key and refuses the key with other arguments.',
    where: 'The ledger table’s columns and the comparison on a repeated key.',
  },
  {
    path: '/operation/defensiveCopies',
    meaning: 'A replay returns a result rebuilt from stored JSON, not the cached object.',
    where: 'What the replay path returns: JSON.parse of the stored text / a deep copy, or the object from a cache?',
  },
  {
    path: '/transport',
    meaning: `${valuesText(TRANSPORTS, { http: 'Streamable HTTP' })}.`,
    where:
      'The transport the client constructs (StdioClientTransport, StreamableHTTPClientTransport) or the server listens on.',
  },
  {
    path: '/cancellation',
    meaning: `How the client cancels: ${valuesText(CANCELLATIONS, CANCELLATION_MEANINGS)}.`,
    where:
      'Where the client gives up on a call: AbortController / signal passed to the request, code that sends notifications/cancelled.',
  },
  {
    path: '/timeouts/idleMs',
    meaning: 'Time allowed with no progress, in ms.',
    where:
      'MCP TypeScript SDK request options: `timeout` when `resetTimeoutOnProgress: true` (default 60000). Without resetTimeoutOnProgress, `timeout` is an absolute budget: put it in both idleMs and maxMs.',
  },
  {
    path: '/timeouts/maxMs',
    meaning: 'Absolute budget from the request’s start, in ms; null when there is none.',
    where:
      'SDK option `maxTotalTimeout` (or a deadline / context timeout around the call). `resetTimeoutOnProgress: true` without `maxTotalTimeout` means null.',
  },
  {
    path: '/timeouts/progressResetsMax',
    meaning: 'Progress also pushes the absolute budget back.',
    where: 'The progress handler: does it restart every timer, or only the idle one?',
  },
  {
    path: '/retry/automatic',
    meaning: 'The client (or a library, gateway or agent loop) re-sends a failed call on its own.',
    where:
      'Retry loops, retry middleware (p-retry, axios-retry, fetch wrappers), agent frameworks that re-run failed tool calls.',
  },
  {
    path: '/retry/sameKey',
    meaning: 'A retry repeats the same idempotency key and identical arguments.',
    where: 'Where the key is minted: once per intent before the loop, or per attempt inside it?',
  },
  { path: '/retry/attemptsMax', meaning: 'Attempts after the first (0 … 100).', where: 'The retry loop’s limit.' },
  {
    path: '/retry/backoff',
    meaning: `Delay between attempts: ${valuesText(BACKOFF_POLICIES, { exponential: 'no jitter' })}.`,
    where: 'The sleep between attempts and between reconnects.',
  },
  {
    path: '/queue/policy',
    meaning: `What the progress buffer does when full: ${valuesText(QUEUE_POLICIES)}.`,
    where:
      'The buffer between the handler’s progress callback and the SSE writer (an array, a stream’s highWaterMark, a channel).',
  },
  {
    path: '/queue/capacityEvents',
    meaning: 'How many messages the buffer holds (0 … 1000000).',
    where: 'That buffer’s bound.',
  },
  {
    path: '/queue/reserveForFinal',
    meaning: 'A full buffer still keeps the final JSON-RPC response (progress is evicted instead).',
    where: 'The eviction code when the buffer is full.',
  },
  {
    path: '/ledger',
    meaning: `Where idempotency keys are recorded: ${valuesText(LEDGER_STORES)}.`,
    where: 'The store behind the key check: the shared database, a per-process SQLite file, a Map or cache, nothing.',
  },
  {
    path: '/proxy/bufferingDisabled',
    meaning:
      'Streamable HTTP only: the SSE response passes through proxies unbuffered. Leave `proxy` out when there is no proxy.',
    where:
      'Response headers (X-Accel-Buffering: no, Cache-Control: no-cache) and reverse-proxy config (nginx proxy_buffering, idle timeouts).',
  },
  {
    path: '/recovery/newRequestId',
    meaning: 'A reconnect re-issues the request with a new JSON-RPC id.',
    where: 'The reconnect handler: how it builds the new subscriptions/listen (or re-sent) request.',
  },
  {
    path: '/recovery/lastEventId',
    meaning: 'The client tries to resume a stream with Last-Event-ID.',
    where: 'Search for Last-Event-ID, lastEventId, resumptionToken.',
  },
  {
    path: '/recovery/refetch',
    meaning:
      'The authoritative methods the client re-reads after a drop (e.g. "tools/list", "resources/list", "tasks/get").',
    where: 'What the reconnect handler calls after the new stream opens.',
  },
  {
    path: '/recovery/replayUnsafeMutations',
    meaning: 'After a drop, the client re-sends mutations whose responses were lost, keyed or not.',
    where: 'What happens to calls that were in flight when the connection dropped.',
  },
  {
    path: '/recovery/pollTasksUntilTerminal',
    meaning:
      'After tasks/cancel, the client polls tasks/get until a terminal status. Leave out when the operation uses no tasks.',
    where: 'The code after tasks/cancel: does the UI say “stopped” on the acknowledgement?',
  },
];

/** One line per requirement the rules cite (docs/requirements.md), so a reader without the lab knows what each id asks. */
export const requirementSummaries: Record<string, string> = {
  'RC-1':
    'Every request has two deadlines: an idle timeout (no useful activity) and an absolute maximum from its start.',
  'RC-2': 'Progress resets the idle clock, never the maximum clock.',
  'RC-5':
    'Cancellation is `notifications/cancelled` on stdio; on Streamable HTTP the client closes that request’s response stream and POSTs nothing.',
  'RC-6': 'On accepted cancellation the server stops work and sends nothing more for the request.',
  'RC-7': 'Cancellations of unknown or finished requests are ignored without error or reply.',
  'RC-8':
    'Cancel and complete race; exactly one wins. Cancel first: the response is suppressed. Complete first: the late cancel is ignored, and the client ignores a response it abandoned.',
  'LG-1':
    'A new JSON-RPC id is not idempotency: a retried mutation without a business key runs twice. (The key is an application contract, not part of MCP.)',
  'LG-2':
    'An idempotency key names one business intent; the ledger stores the key, a fingerprint of the arguments and the committed result. (The key is an application contract, not part of MCP.)',
  'LG-3':
    'Same key and arguments: the stored result, nothing runs again. Same key, other arguments: refused, nothing runs. (The key is an application contract, not part of MCP.)',
  'LG-4':
    'Key check, effect, execution record and stored result commit in one transaction; separate steps can run twice. (The key is an application contract, not part of MCP.)',
  'LG-5':
    'Two connections racing on one key see one committed result and one execution. (The key is an application contract, not part of MCP.)',
  'LG-6':
    'Every returned value is rebuilt from stored JSON: mutating it never changes a later replay. (The key is an application contract, not part of MCP.)',
  'LG-8':
    'A local ledger makes the local record atomic, not a remote effect; an in-memory or per-replica ledger forgets on restart and does not span replicas. (The key is an application contract, not part of MCP.)',
  'RT-1':
    'Tool annotations (readOnlyHint, idempotentHint) are hints; the contract and the implementation decide whether a retry is safe.',
  'TK-1':
    'A tasks/cancel acknowledgement does not prove the worker stopped; the task may stay working, or even complete.',
  'TK-2': 'The client polls the task until a terminal status.',
  'BF-1': 'Adjacent progress for the same token coalesces.',
  'BF-2': 'At capacity the oldest progress is dropped.',
  'BF-3': 'Dropped progress marks the stream as needing an authoritative refetch.',
  'BF-4': 'A final response is never dropped.',
  'BF-5': 'Keeping a final response never requires dropping another; the producer is held back instead.',
  'BF-6': 'The buffer never holds more than its capacity.',
  'RV-1': 'SSE responses carry Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: no.',
  'RV-2': 'Quiet streams send an SSE comment line as keep-alive; it never resets the operation’s idle timeout.',
  'RV-3':
    'No Last-Event-ID resumption: after a drop, a new request with a new id, the filter restored, state refetched from authoritative methods, no unsafe mutation repeated.',
  'RV-4': 'Reconnects use capped exponential backoff with jitter.',
  'RV-5': 'Without backoff and jitter, many clients reconnecting at once knock a recovering server over again.',
  'VF-1': 'stdio cancellation sends notifications/cancelled and receives no response.',
  'VF-2': 'Streamable HTTP cancellation closes the request’s stream and POSTs no cancellation.',
  'VF-3': 'Cancel before complete suppresses the final response.',
  'VF-4': 'Complete before cancel keeps the response and ignores the late cancellation.',
  'VF-5': 'Progress may reset the idle timeout but never the maximum timeout.',
  'VF-6': 'A new JSON-RPC id alone runs the mutation again.',
  'VF-7': 'An idempotency key with identical arguments runs once in a concurrent two-connection race.',
  'VF-9': 'Mutating a returned result cannot alter the stored result.',
  'VF-10': 'The bounded buffer stays within capacity and keeps the final response.',
  'VF-11': 'Reconnect uses a new request, sends no Last-Event-ID, and refetches affected state.',
  'VF-12': 'A tasks/cancel acknowledgement leaves the task non-terminal until the worker observes it.',
};

const examples = [
  { name: 'safe-charge', title: 'A safe design', input: safeCharge as unknown },
  { name: 'unsafe-charge', title: 'An unsafe design', input: unsafeCharge as unknown },
] as const;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const code = (value: FieldValue): string => `\`${JSON.stringify(value)}\``;

/** A condition in words, with its threshold. */
export function describeCondition(c: Condition): string {
  if ('hintWarnings' in c)
    return 'the retry classification finds an annotation that contradicts the contract (the warnings are listed under “Retry classification”)';
  const field = `\`${c.path}\``;
  if ('is' in c) return `${field} is ${code(c.is)}`;
  if ('isNot' in c) return `${field} is not ${code(c.isNot)}`;
  if ('oneOf' in c) return `${field} is ${c.oneOf.map(code).join(' or ')}`;
  if ('below' in c) return `${field} < ${c.below}`;
  if ('above' in c) return `${field} > ${c.above}`;
  if ('atLeast' in c) return `${field} ≥ ${c.atLeast}`;
  if ('notBelowField' in c) return `${field} ≥ \`${c.notBelowField}\``;
  return `${field} is an empty list`;
}

const describeAll = (conditions: readonly Condition[]): string =>
  conditions.length === 0 ? 'otherwise' : conditions.map(describeCondition).join(' and ');

function describeText(text: Text): string {
  if (typeof text === 'string') return `“${text}”`;
  if (text.length === 1 && text[0]?.when.length === 0) return `“${text[0].text}”`;
  return text
    .map((v) => (v.when.length === 0 ? `otherwise “${v.text}”` : `“${v.text}” when ${describeAll(v.when)}`))
    .join('; ');
}

/** The text a reader sees in most cases: the last variant (the one without a condition). */
const defaultText = (text: Text): string => (typeof text === 'string' ? text : (text[text.length - 1]?.text ?? ''));

const cardsById = new Map<string, FailureCard>(Object.values(failureCards).map((card) => [card.id, card]));

const unsafeContract = { mutates: true, durableKey: false, deterministicRead: false };

/** The retry classification's rule and the hint warnings, taken from the classifier itself. */
function retryClassText(): string[] {
  const base = { name: 'op', description: '', annotations: {} };
  const safe = classify({ ...base, contract: { mutates: false, durableKey: false, deterministicRead: true } });
  const conditional = classify({ ...base, contract: { mutates: true, durableKey: true, deterministicRead: false } });
  const unsafe = classify({ ...base, contract: { mutates: true, durableKey: false, deterministicRead: false } });
  const warnings = [
    ...classify({ ...base, annotations: { idempotentHint: true }, contract: unsafeContract }).hintWarnings,
    ...classify({
      ...base,
      annotations: { readOnlyHint: true },
      contract: { mutates: true, durableKey: true, deterministicRead: false },
    }).hintWarnings,
    ...classify({
      ...base,
      annotations: { readOnlyHint: false },
      contract: { mutates: false, durableKey: false, deterministicRead: true },
    }).hintWarnings,
  ];
  return [
    'The class comes from the operation’s contract, never from its annotations (RT-1). A mutation has a *durable key* when ' +
      `${describeAll(retryContract.durableKey)}.`,
    '',
    '| class | when | rule |',
    '|---|---|---|',
    `| \`${safe.retryClass}\` | \`/operation/mutates\` is \`false\` (a read with no side effect) | ${safe.rule} |`,
    `| \`${conditional.retryClass}\` | a mutation with a durable key | ${conditional.rule} |`,
    `| \`${unsafe.retryClass}\` | a mutation without a durable key | ${unsafe.rule} |`,
    '',
    'Annotations are then compared with the contract; each disagreement is a warning on `/operation/annotations` (rule `annotation-contradicts-contract`):',
    '',
    '- when `idempotentHint` is `true` and the class is `unsafe`: “' + (warnings[0] ?? '') + '”',
    '- when `readOnlyHint` is `true` and the operation mutates: “' + (warnings[1] ?? '') + '”',
    '- when `readOnlyHint` is `false` and the operation only reads: “' + (warnings[2] ?? '') + '”',
  ];
}

function checksText(): string[] {
  const lines: string[] = [];
  for (const { section, rules } of reviewRuleSections) {
    lines.push(`### ${section}`, '');
    for (const rule of rules) {
      const card = rule.card === null ? '' : ` Failure card: *${rule.card.failure}*.`;
      lines.push(
        `- **\`${rule.id}\`** (${rule.requirements.join(', ')}) — ${rule.severity.toUpperCase()} on \`${rule.field}\` when ${describeAll(rule.when)}.`,
        `  Says: ${rule.reason === null ? 'the classifier’s warning, one flag per warning.' : `“${rule.reason}”.`}${card}`,
        `  By hand: ${rule.byHand}`,
      );
    }
    lines.push('');
  }
  return lines;
}

function flowText(): string[] {
  return [
    'Always reported, each as ok (`[ok]`) or not (`[!!]`), with a detail:',
    '',
    ...flowChecks.map(
      (c) =>
        `- **\`${c.id}\`** (${c.requirements.join(', ')}) — “${c.check}”: ok when ${describeAll(c.ok)}. Detail: ${describeText(c.detail)}.`,
    ),
  ];
}

function raceText(): string[] {
  const lines = [
    'Three rows, worded for the input: what the server, the client and the wire do in each ordering (the wire carries the RC-5 signal).',
    '',
  ];
  for (const row of raceRows) {
    lines.push(`- **${defaultText(row.ordering)}** (${row.requirements.join(', ')})`);
    if (typeof row.ordering !== 'string') lines.push(`  - ordering: ${describeText(row.ordering)}`);
    lines.push(
      `  - server: ${describeText(row.server)}`,
      `  - client: ${describeText(row.client)}`,
      `  - wire: ${describeText(row.wire)}`,
    );
  }
  return lines;
}

function boundaryText(): string[] {
  const lines = ['The first case that holds gives the lines (LG-2, LG-3, LG-4, LG-8):', ''];
  for (const b of boundaryCases) {
    lines.push(`- ${b.when.length === 0 ? 'Otherwise (a mutation without a key)' : `When ${describeAll(b.when)}`}:`);
    for (const line of b.lines) lines.push(`  - ${describeText(line)}`);
  }
  return lines;
}

function cardsText(): string[] {
  const raisedBy = (card: FailureCard) => reviewRules.filter((r) => r.card?.id === card.id).map((r) => `\`${r.id}\``);
  return [
    '| failure | symptom | correct response | raised by |',
    '|---|---|---|---|',
    ...[...cardsById.values()].map((card) => {
      const by = raisedBy(card);
      return `| ${card.failure} | ${card.symptom} | ${card.correctResponse} | ${by.length === 0 ? 'no field: the race table’s “cancellation wins” row (RC-6)' : by.join(', ')} |`;
    }),
  ];
}

function fieldsText(): string[] {
  return [
    '| field | meaning | where to look |',
    '|---|---|---|',
    ...inputGuide.map(
      (g) => `| \`${g.path}\`${requiredPaths.has(g.path) ? '' : ' (optional)'} | ${g.meaning} | ${g.where} |`,
    ),
  ];
}

/** Every field path of the schema, and the required ones (for the field table and its test). */
export function schemaPaths(): { all: string[]; required: Set<string> } {
  const all: string[] = [];
  const required = new Set<string>();
  const walk = (
    schema: { properties?: Record<string, unknown>; required?: readonly string[] },
    prefix: string,
    parentRequired: boolean,
  ) => {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const path = `${prefix}/${key}`;
      const isRequired = parentRequired && (schema.required ?? []).includes(key);
      const c = child as { properties?: Record<string, unknown>; required?: readonly string[] };
      if (c.properties !== undefined && path !== '/operation/annotations') walk(c, path, isRequired);
      else {
        all.push(path);
        if (isRequired) required.add(path);
      }
    }
  };
  walk(reviewInputSchema, '', true);
  // `proxy` is optional as a whole; its one field is required inside it.
  return { all, required };
}
const requiredPaths = schemaPaths().required;

/** The schema as the skill ships it: the reviewer's own, with each field's meaning as its description. */
function schemaFile(): unknown {
  const meaning = new Map(inputGuide.map((g) => [g.path, g.meaning]));
  const annotate = (schema: unknown, path: string): unknown => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
    const copy: Record<string, unknown> = {};
    const description = meaning.get(path);
    if (description !== undefined) copy.description = description;
    for (const [key, value] of Object.entries(schema)) {
      copy[key] =
        key === 'properties'
          ? Object.fromEntries(
              Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, annotate(v, `${path}/${k}`)]),
            )
          : value;
    }
    return copy;
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'MCP reliability review input',
    ...(annotate(reviewInputSchema, '') as object),
  };
}

function requirementsText(): string[] {
  const cited = new Set([
    ...reviewRules.flatMap((r) => r.requirements),
    ...flowChecks.flatMap((c) => c.requirements),
    ...raceRows.flatMap((r) => r.requirements),
    'RT-1',
  ]);
  const order = (id: string) =>
    ['RC', 'LG', 'RT', 'TK', 'BF', 'RV', 'VF'].indexOf(id.split('-')[0] ?? '') * 1000 + Number(id.split('-')[1]);
  return [...cited].sort((a, b) => order(a) - order(b)).map((id) => `- **${id}** ${requirementSummaries[id] ?? ''}`);
}

function skillMarkdown(outputs: Record<string, string>): string {
  const safeOut = outputs['safe-charge'] ?? '';
  const unsafeOut = outputs['unsafe-charge'] ?? '';
  return [
    '---',
    `name: ${SKILL_NAME}`,
    'description: Reviews the reliability of one MCP tools/call path (cancellation, timeouts, retries and idempotency, progress back-pressure, reconnect) and returns a race table, the retry class, the idempotency boundary, flow-control checks and failure cards. Use it when writing or reviewing an MCP client or server operation that can time out, be cancelled, be retried or change state.',
    '---',
    '',
    '# MCP reliability reviewer',
    '',
    'Given one MCP operation and six facts about the code around it (the operation itself, its transport and cancellation, its timeout policy, its retry behaviour, its queue policy and its recovery plan, plus where idempotency keys are recorded), this review says what must happen when the call races a cancel, times out, is retried or loses its stream, and flags every choice that breaks one of those rules, with the reason and a failure card.',
    '',
    'It is the `lab review` command of the MCP Reliability Lab, written out: this file is generated from the reviewer’s own rule table, schema and failure cards, so applying it by hand gives what the command gives. Requirement ids (RC-5, LG-4, …) are the lab’s; each is summarised at the end. The protocol is MCP 2026-07-28 (Streamable HTTP is POST-only and keeps no stream state; Tasks are the `io.modelcontextprotocol/tasks` extension).',
    '',
    'Files here: `SKILL.md` (this), `review-input.schema.json` (the input, JSON Schema 2020-12), `examples/` (a safe and an unsafe design, each with the reviewer’s output).',
    '',
    '## 1. Gather the inputs',
    '',
    'Review one operation at a time, on the path a client’s `tools/call` takes: the client call site, the transport, the server’s handler and what sits between them. Read code, not documentation or annotations.',
    '',
    '1. Find the tool’s registration and handler: search for its name, `registerTool(`, `server.tool(`, `setRequestHandler(CallToolRequestSchema`.',
    '2. Find the client call sites: `callTool(`, `"tools/call"`, `client.request(`, and any wrapper, retry helper or agent loop around them.',
    '3. For each field in the table below, read the code where it says and note the value with the file and line it came from.',
    '4. Write the input (section 2), then run the reviewer (section 3) or apply the checks by hand (section 4), and report (section 5).',
    '',
    'Where each kind of fact usually lives:',
    '',
    '- **Timeouts**: the client’s call sites and their options. In the MCP TypeScript SDK, `client.callTool(params, schema, options)` / `client.request(…, options)` take `timeout` (ms, default 60000), `resetTimeoutOnProgress` and `maxTotalTimeout`; other SDKs have the same trio under similar names, or a deadline/context around the call.',
    '- **Retries and backoff**: loops around the call, retry middleware (p-retry, axios-retry, fetch wrappers), gateway or agent-framework settings that re-run a failed tool call; the sleep between attempts.',
    '- **Idempotency**: the tool’s input schema (a key argument or header), the handler’s first statements, and the table or store the key is written to; whether the check, the effect and the stored result share one transaction; outbound calls to other services.',
    '- **Queues**: what sits between the handler’s progress callback and the SSE writer or stdout (arrays, streams, channels), its bound and what it evicts; response headers and reverse-proxy config for SSE.',
    '- **Recovery**: the client’s stream `onclose`/`onerror` and reconnect handlers, what they re-send, what they re-read, and the code after `tasks/cancel`.',
    '',
    'When a fact cannot be found, say so in the review. An optional field left out is not judged; for a required one, pick the value the code actually gives (no retry loop: `"automatic": false`; no absolute budget: `"maxMs": null`).',
    '',
    ...fieldsText(),
    '',
    '## 2. Write the input',
    '',
    'One JSON object, validated by `review-input.schema.json`; an unknown field or a wrong type is refused field by field. The safe example:',
    '',
    '```json',
    json(safeCharge).trimEnd(),
    '```',
    '',
    '## 3. Run the reviewer (when the lab is at hand)',
    '',
    'In a checkout of the MCP Reliability Lab (Node 20.19 or newer, `npm install` once):',
    '',
    '```sh',
    'npm run lab -- review "$PWD/design.json"                      # from the lab folder',
    'npm --prefix /path/to/lab run lab -- review "$PWD/design.json"  # from your own project',
    '```',
    '',
    'It prints the review (section 5) and exits 0, or prints `The review input is invalid:` with one `/field: problem` line each and exits 1. The lab’s page has the same reviewer in its **Reviewer** tab.',
    '',
    '## 4. Or apply the checks by hand',
    '',
    'Work through the sections below in order; each rule fires when all its conditions hold, and names its field, severity, requirement ids (defined in the lab’s docs/requirements.md), message and failure card. `{/path}` in a message stands for the input’s value at that field.',
    '',
    '### Retry classification',
    '',
    ...retryClassText(),
    '',
    ...checksText(),
    '### Flow-control checks',
    '',
    ...flowText(),
    '',
    '### Race table',
    '',
    ...raceText(),
    '',
    '### Idempotency boundary',
    '',
    ...boundaryText(),
    '',
    '## 5. Output',
    '',
    '`lab review` prints, and a review by hand should give, these sections in this order:',
    '',
    '1. `race table`: the three rows above, each with server, client and wire.',
    '2. `retry classification: <class> — <rule>`.',
    '3. `idempotency boundary`: the lines of the first case that holds.',
    '4. `flow-control checks`: `[ok]` or `[!!]`, the check, its detail, `[check id; requirements]`.',
    '5. `flags` (or `flags: none`): `UNSAFE` or `WARNING`, the field, the reason, `[rule id; requirements]`, in the order of section 4.',
    '6. `failure cards`: each card a flag handed out, once, with its symptom and correct response.',
    '',
    'A design is ready when it has no `UNSAFE` flag; read each `WARNING` and decide. When reporting on real code, give the input JSON with the file and line each value came from, the facts you could not find, then the review; for each flag, the code to change.',
    '',
    '## 6. Failure cards',
    '',
    ...cardsText(),
    '',
    '## 7. Worked examples',
    '',
    `### ${examples[0].title}: \`examples/${examples[0].name}.json\``,
    '',
    'A keyed charge over Streamable HTTP with both deadlines, jittered retries under the same key, a shared durable ledger, a bounded queue and a clean reconnect plan (input in section 2). The review (`examples/safe-charge.review.txt`):',
    '',
    '```text',
    safeOut,
    '```',
    '',
    `### ${examples[1].title}: \`examples/${examples[1].name}.json\``,
    '',
    'The same charge with every choice wrong: no key, a POSTed cancel, no maximum timeout, retries without backoff, an unbounded queue, an in-memory ledger, a buffering proxy and Last-Event-ID recovery.',
    '',
    '```json',
    json(unsafeCharge).trimEnd(),
    '```',
    '',
    'The review (`examples/unsafe-charge.review.txt`):',
    '',
    '```text',
    unsafeOut,
    '```',
    '',
    '## Requirements cited',
    '',
    ...requirementsText(),
    '',
  ].join('\n');
}

/** The skill folder's files, paths relative to the folder that holds it (`mcp-reliability-reviewer/…`). */
export function buildSkill(): SkillFile[] {
  const outputs: Record<string, string> = {};
  for (const example of examples) outputs[example.name] = formatReview(review(example.input));
  const file = (path: string, description: string, contents: string): SkillFile => ({
    path: `${SKILL_NAME}/${path}`,
    description,
    contents,
  });
  return [
    file(
      'SKILL.md',
      'The reliability reviewer as a skill: inputs and where to find them, every check with its requirement ids, the output, failure cards, worked examples.',
      skillMarkdown(outputs),
    ),
    file(
      'review-input.schema.json',
      'The reviewer’s input as JSON Schema (2020-12), each field described.',
      json(schemaFile()),
    ),
    ...examples.flatMap((example) => [
      file(`examples/${example.name}.json`, `${example.title}: the reviewer’s input.`, json(example.input)),
      file(
        `examples/${example.name}.review.txt`,
        `${example.title}: what lab review prints for it.`,
        `${outputs[example.name]}\n`,
      ),
    ]),
  ];
}
