import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { LabError } from '../engine';
import { checkOutputFolder, escapeControl, jsonForTerminal, writeOutputFolder } from './safeOutput';
import { buildProbeEvidence } from './probeEvidence';
import { PROBE_TIMES_DEFAULT, findingLabel, type Verdict } from '../probe/probes';
import { PROBE_BOUNDS_DEFAULT, type ProbeEvent } from '../probe/record';
import { ProbeFailure, runProbe, type ProbeOptions, type ProbeTranscript } from '../probe/run';
import { shownTranscript } from '../probe/shown';
import { describeValue, shortText } from '../probe/text';

export const PROBE_USAGE = `  npm run lab -- probe (--stdio "<command>" | --http <url>) --tool NAME [--args JSON] [--json] [--evidence DIR [--force]]
                    [--mutation NAME [--mutation-args JSON] [--key-field F] [--changed-args JSON]] [--task-tool NAME [--task-args JSON]]
                    [--cancel-after-ms N] [--observe-ms N] [--idle-ms N] [--max-ms N] [--budget-ms N]`;

export const PROBE_HELP = `  probe      the lesson's races against a real MCP server, in real time: cancel during work, complete then cancel,
             progress and deadlines, on HTTP the SSE headers and keep-alive, on 2026-07-28 servers a subscriptions/listen
             reconnect; each verdict quotes the spec sentence
             it checks (holds / BROKEN for a MUST / not followed for a SHOULD / not observable; exit 3 when a MUST is broken). It negotiates 2026-07-28 (server/discover), else 2025-11-25
             (initialize), and calls --tool NAME with --args JSON (an object) three or four times
             --stdio "<command>": start the server as a child process (no shell); --http <url>: Streamable HTTP
             --cancel-after-ms N (default ${PROBE_TIMES_DEFAULT.cancelAfterMs}), --observe-ms N: how long to listen after a cancel or a response (default ${PROBE_TIMES_DEFAULT.observeMs})
             --idle-ms N / --max-ms N: the probe's own deadlines (default ${PROBE_TIMES_DEFAULT.idleTimeoutMs} / ${PROBE_TIMES_DEFAULT.maxTimeoutMs}); --budget-ms N: the whole run (default ${PROBE_BOUNDS_DEFAULT.budgetMs})
             --mutation NAME: the idempotency probe calls that tool six times (it changes state!): with a fresh key in
               --key-field (default idempotencyKey), the same again, the same key with changed arguments, without a key,
               and twice at once with another key; its arguments are --mutation-args (or --args when there is no --tool)
             --task-tool NAME [--task-args JSON]: when the server offers tasks (the 2026-07-28 extension or 2025-11-25 tasks),
               the tasks probe runs that tool as a task, cancels it with tasks/cancel after --cancel-after-ms and polls
               tasks/get past the acknowledgement to a terminal status (at most --max-ms)
             --json: the transcript (implementation "probe"); --evidence DIR: the capstone artifacts about that server`;

const MS_PATTERN = /^[1-9]\d{0,8}$/;

function ms(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!MS_PATTERN.test(text))
    throw new LabError(
      'LAB047',
      `--${name} takes a whole number of milliseconds from 1 to 999999999, got ${JSON.stringify(text)}; nothing was started`,
    );
  return Number(text);
}

/** A JSON object option, or undefined when absent; anything else is LAB047 before the probe starts. */
function jsonObject(name: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new LabError('LAB047', `--${name} is not JSON (${(error as Error).message}); nothing was started`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new LabError(
      'LAB047',
      `--${name} must be a JSON object, e.g. --${name} '{"duration":4,"steps":8}'; nothing was started`,
    );
  return parsed as Record<string, unknown>;
}

export interface ProbeIo {
  out(text: string): void;
  err(text: string): void;
}

/** `lab probe …`: returns the exit code (0 the probe ran and no MUST is broken; 3 it ran and one is; 1 a LAB error). */
export async function probeCommand(args: string[], io: ProbeIo): Promise<number> {
  const values = probeArgs(args);
  let transcript: ProbeTranscript;
  try {
    transcript = await runProbe(probeOptions(values));
  } catch (error) {
    if (!(error instanceof ProbeFailure)) throw error;
    io.err(`lab: ${escapeControl(error.error.message)}\n`);
    if (error.events.length > 0)
      io.err(`\nwhat the probe saw before it stopped:\n${escapeLines(formatEvents(error.events.slice(-40)))}\n`);
    io.err(`\nserver stderr: ${error.stderr.trim() === '' ? '(empty)' : `\n${escapeLines(tail(error.stderr))}`}\n`);
    return 1;
  }
  // What is written is bounded by what was read: each server value cut to its share (shown.ts).
  const shown = shownTranscript(transcript);
  if (values.evidence !== undefined) {
    const files = buildProbeEvidence(shown);
    writeOutputFolder(values.evidence, files, values.force);
    // With --json, stdout is the transcript alone; the list of files goes to stderr.
    (values.json ? io.err : io.out)(
      `${files.map((f) => `${escapeControl(join(values.evidence as string, f.path))}  ${f.description}`).join('\n')}\n\n`,
    );
  }
  // Each event and verdict on a line of its own, compact: no server value multiplied by indentation.
  io.out(values.json ? `${jsonForTerminal(shown, 2, 2)}\n` : `${escapeLines(formatProbe(shown))}\n`);
  return mustBroken(transcript) > 0 ? PROBE_EXIT_MUST_BROKEN : 0;
}

/** The probe's flags, parsed; a command line that names no server or nothing to call is LAB047 before anything starts. */
function probeArgs(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      stdio: { type: 'string' },
      http: { type: 'string' },
      tool: { type: 'string' },
      args: { type: 'string' },
      json: { type: 'boolean', default: false },
      evidence: { type: 'string' },
      force: { type: 'boolean', default: false },
      'cancel-after-ms': { type: 'string' },
      'observe-ms': { type: 'string' },
      'idle-ms': { type: 'string' },
      'max-ms': { type: 'string' },
      'budget-ms': { type: 'string' },
      mutation: { type: 'string' },
      'mutation-args': { type: 'string' },
      'key-field': { type: 'string' },
      'changed-args': { type: 'string' },
      'task-tool': { type: 'string' },
      'task-args': { type: 'string' },
    },
  });
  if (positionals.length > 0 && values.json)
    throw new LabError(
      'LAB047',
      `--json takes no file name (got ${JSON.stringify(positionals[0])}): --json writes the transcript to standard output; redirect it, e.g. --json > ${/^[\w./-]+$/.test(positionals[0] ?? '') ? positionals[0] : 'probe.json'}; nothing was started`,
    );
  if (positionals.length > 0)
    throw new LabError(
      'LAB047',
      `probe takes no positional arguments, got ${JSON.stringify(positionals[0])}; quote the server command: --stdio "<command>"`,
    );
  if ((values.stdio === undefined) === (values.http === undefined))
    throw new LabError('LAB047', 'probe needs exactly one of --stdio "<command>" or --http <url>; nothing was started');
  if (!named(values.tool) && !named(values.mutation) && !named(values['task-tool']))
    throw new LabError(
      'LAB047',
      'probe needs --tool NAME (e.g. --tool trigger-long-running-operation), --mutation NAME or --task-tool NAME; nothing was started',
    );
  return values;
}

const named = (value: string | undefined): boolean => value !== undefined && value !== '';

/**
 * What to probe, from the parsed flags: the JSON arguments, the key field and the times are checked (LAB047),
 * and an --evidence folder before the probe runs, and again when written: a bad folder costs no probe.
 */
function probeOptions(values: ReturnType<typeof probeArgs>): ProbeOptions {
  const taskArguments = jsonObject('task-args', values['task-args']) ?? {};
  const toolArguments = jsonObject('args', values.args) ?? {};
  const mutationArguments =
    jsonObject('mutation-args', values['mutation-args']) ?? (values.tool === undefined ? toolArguments : {});
  const changedArguments = jsonObject('changed-args', values['changed-args']);
  const keyField = values['key-field'] ?? 'idempotencyKey';
  if (keyField === '') throw new LabError('LAB047', '--key-field needs a field name; nothing was started');
  if (values.evidence !== undefined) checkOutputFolder(values.evidence, values.force);
  const times = {
    cancelAfterMs: ms('cancel-after-ms', values['cancel-after-ms']),
    observeMs: ms('observe-ms', values['observe-ms']),
    idleTimeoutMs: ms('idle-ms', values['idle-ms']),
    maxTimeoutMs: ms('max-ms', values['max-ms']),
  };
  const budgetMs = ms('budget-ms', values['budget-ms']);
  const transport = values.stdio !== undefined ? 'stdio' : 'http';
  const target = (values.stdio ?? values.http) as string;
  return {
    transport,
    target,
    tool: values.tool,
    arguments: toolArguments,
    mutation:
      values.mutation === undefined
        ? undefined
        : { name: values.mutation, arguments: mutationArguments, keyField, changedArguments },
    taskTool: named(values['task-tool'])
      ? { name: values['task-tool'] as string, arguments: taskArguments }
      : undefined,
    times: Object.fromEntries(Object.entries(times).filter(([, v]) => v !== undefined)),
    bounds: budgetMs === undefined ? {} : { budgetMs },
  };
}

/** The exit status of a probe that ran and found a MUST, MUST NOT or REQUIRED sentence broken (SHOULD items never set it). */
export const PROBE_EXIT_MUST_BROKEN = 3;

/** How many verdicts break a MUST: only these make the probe exit with a failure. */
export function mustBroken(t: Pick<ProbeTranscript, 'verdicts'>): number {
  return t.verdicts.filter((v) => v.finding === 'broken').length;
}

/** The server's words (names, messages, stderr) cannot drive the terminal; the line breaks stay. */
const escapeLines = (text: string): string => text.split('\n').map(escapeControl).join('\n');

const tail = (text: string): string => text.trim().split('\n').slice(-20).join('\n');

function summarize(message: Record<string, unknown>): string {
  const params =
    typeof message.params === 'object' && message.params !== null ? (message.params as Record<string, unknown>) : {};
  if (typeof message.method === 'string') {
    const id = 'id' in message ? ` #${describeValue(message.id)}` : '';
    const method = shortText(message.method, 120);
    if (message.method === 'notifications/progress')
      return `notifications/progress ${describeValue(params.progress)}${params.total === undefined ? '' : `/${describeValue(params.total)}`} (${describeValue(params.progressToken)})`;
    if (message.method === 'notifications/cancelled')
      return `notifications/cancelled of #${describeValue(params.requestId)}`;
    if (message.method === 'tools/call')
      return `tools/call${id} ${describeValue(params.name)}${params.task === undefined ? '' : ' as a task'}`;
    if (message.method.startsWith('tasks/')) return `${method}${id} ${describeValue(params.taskId)}`;
    return `${method}${id}`;
  }
  if ('error' in message) {
    const error = message.error as { code?: unknown; message?: unknown };
    return `error #${describeValue(message.id)}: ${describeValue(error?.code)} ${describeValue(error?.message).slice(0, 80)}`;
  }
  const result =
    typeof message.result === 'object' && message.result !== null ? (message.result as Record<string, unknown>) : {};
  const task =
    typeof result.task === 'object' && result.task !== null ? (result.task as Record<string, unknown>) : result;
  if (typeof task.taskId === 'string' && typeof task.status === 'string')
    return `result #${describeValue(message.id)}: task ${shortText(task.status, 80)}${result.resultType === 'task' || result.task !== undefined ? ' (created)' : ''}`;
  if (Object.keys(result).every((k) => k === 'resultType' || k === '_meta'))
    return `result #${describeValue(message.id)} (empty)`;
  return `result #${describeValue(message.id)}`;
}

export function formatEvents(events: readonly ProbeEvent[]): string {
  return events
    .map((e) => {
      const at = `${e.atMs.toFixed(1).padStart(9)} ms`;
      switch (e.kind) {
        case 'message':
          return `${at}  ${e.from === 'client' ? 'probe  → server' : 'server → probe '}  ${e.channel.padEnd(8)}  ${summarize(e.message)}`;
        case 'http-response':
          return `${at}  server → probe   ${e.channel.padEnd(8)}  HTTP ${e.status} ${e.headers['content-type'] ?? ''}${e.headers['x-accel-buffering'] === undefined ? '' : `, X-Accel-Buffering: ${e.headers['x-accel-buffering']}`}${e.headers['cache-control'] === undefined ? '' : `, Cache-Control: ${e.headers['cache-control']}`}`;
        case 'sse-comment':
          return `${at}  server → probe   ${e.channel.padEnd(8)}  SSE comment (keep-alive)`;
        case 'stream-closed':
          return `${at}  ${e.by === 'client' ? 'probe ' : 'server'}            ${e.channel.padEnd(8)}  stream closed: ${e.reason}`;
        case 'deadline':
          return `${at}  probe             deadline  ${e.deadline} ${e.action} for #${describeValue(e.requestId)} (due ${e.dueAtMs.toFixed(1)} ms)`;
        case 'note':
          return `${at}  · ${e.text}`;
      }
    })
    .join('\n');
}

function formatVerdicts(verdicts: readonly Verdict[]): string {
  return verdicts
    .map((v) => {
      const source =
        v.sentence.revision === 'lesson' ? `lesson, ${v.sentence.page}` : `${v.sentence.revision}, ${v.sentence.page}`;
      return `${findingLabel(v).padEnd(26)}  ${v.probe}: ${v.check}\n                            ${v.sentence.level} (${source}): "${v.sentence.text.replace(/\*\*/g, '')}"\n                            ${v.detail}`;
    })
    .join('\n');
}

export function formatProbe(t: ProbeTranscript): string {
  const lines = [
    `probe of ${shortText(t.server.name, 200)} ${shortText(t.server.version, 80)} over ${t.transport === 'stdio' ? `stdio (${t.target})` : `Streamable HTTP (${t.target})`}, started ${t.startedAt}`,
    `revision ${t.protocolVersion}, negotiated via ${t.negotiatedVia}${t.fallbackReason === null ? '' : ` (2026-07-28 not used: ${t.fallbackReason})`}`,
    `${t.tool === null ? 'no race tool' : `tool ${t.tool.name} ${JSON.stringify(t.tool.arguments)}`}${t.idempotency === null ? '' : `; mutation ${t.idempotency.mutation} (key field ${t.idempotency.keyField})`}; probes: ${t.probes.join(', ')}; received ${t.received.messages} messages, ${t.received.bytes} bytes`,
    '',
  ];
  let probe = '';
  for (const e of t.events) {
    if (e.probe !== probe) {
      probe = e.probe;
      lines.push(`— ${probe}`);
    }
    lines.push(formatEvents([e]));
  }
  const counts = { holds: 0, broken: 0, 'not followed': 0, 'not observable': 0 };
  for (const v of t.verdicts) counts[v.finding] += 1;
  lines.push(
    '',
    `verdicts: ${counts.holds} hold, ${counts.broken} broken (MUST), ${counts['not followed']} not followed (SHOULD), ${counts['not observable']} not observable`,
    formatVerdicts(t.verdicts),
  );
  if (t.stderr.trim() !== '') lines.push('', `server stderr (last lines):\n${tail(t.stderr)}`);
  return lines.join('\n');
}
