import { escapeLines, jsonForTerminal } from './safeOutput';
import { findingLabel, type Verdict } from '../probe/probes';
import type { ProbeTranscript } from '../probe/run';

/**
 * The capstone artifacts about the probed server, not about the lab's model: each file the
 * probe could produce from what it saw, and for each it could not, a line saying why. The names
 * are `lab evidence`'s, so a capstone folder reads the same whichever produced it.
 */
export interface ProbeEvidenceFile {
  path: string;
  description: string;
  contents: string;
}

/**
 * JSON that `cat` can show safely: C1 controls, DEL and the bidi marks as JSON escapes too; it parses back exactly.
 * Each event (each call, each verdict) is one compact line: a server's deep value is not multiplied by indentation.
 */
const json = (value: unknown): string => `${jsonForTerminal(value, 2, 2)}\n`;

interface Missing {
  path: string;
  artifact: string;
  why: string;
}

/** What every section of the evidence reads and adds to: the transcript, the files so far, and the artifacts not produced. */
interface Evidence {
  t: ProbeTranscript;
  /** What every file starts with: which server, over what, when. */
  header: Record<string, unknown>;
  files: ProbeEvidenceFile[];
  missing: Missing[];
  verdictsOf: (probe: string) => Verdict[];
}

export function buildProbeEvidence(t: ProbeTranscript): ProbeEvidenceFile[] {
  const e: Evidence = {
    t,
    header: {
      implementation: t.implementation,
      server: t.server,
      transport: t.transport,
      target: t.target,
      protocolVersion: t.protocolVersion,
      startedAt: t.startedAt,
      tool: t.tool === null ? null : { name: t.tool.name, arguments: t.tool.arguments },
    },
    files: [],
    missing: [],
    verdictsOf: (probe) => t.verdicts.filter((v) => v.probe === probe),
  };
  raceFiles(e);
  idempotencyFiles(e);
  reconnectFile(e);
  e.missing.push(
    {
      path: 'reopen-check.json',
      artifact: 'reopen check',
      why: 'needs the server restarted between two calls with its storage kept: only its author can do that',
    },
    {
      path: 'alias-check.json',
      artifact: 'mutation-alias check',
      why: "needs access to the server's stored result object: not observable from outside",
    },
    {
      path: 'buffer-overload.json',
      artifact: 'bounded-buffer overload result',
      why: 'needs a tool that can produce progress faster than a client reads; the probe reads at full speed and cannot overload the buffer from outside',
    },
  );
  taskFile(e);
  const { files, missing, header } = e;
  files.push({
    path: 'verdicts.json',
    description: 'Every verdict of the probe, with the spec sentence each checks.',
    contents: json({ ...header, verdicts: t.verdicts }),
  });
  files.push({
    path: 'not-produced.json',
    description: 'The capstone artifacts this probe could not produce, and why.',
    contents: json(missing),
  });

  // The server's words (name, version, messages quoted in details) cannot drive the terminal of whoever cats it.
  files.push({
    path: 'README.md',
    description: 'This index.',
    contents: escapeLines(evidenceIndex(t, files, missing)),
  });
  return files;
}

/** The race transcripts (the transport probed), the progress record, the SSE headers, and the retry table no probe can write. */
function raceFiles({ t, header, files, missing, verdictsOf }: Evidence): void {
  const races = t.tool !== null;
  for (const transport of ['stdio', 'http'] as const) {
    const path = `cancellation-race-${transport}.json`;
    if (!races)
      missing.push({
        path,
        artifact: `cancellation-race transcript over ${transport}`,
        why: 'no --tool was named, so no race ran',
      });
    else if (t.transport === transport) {
      const probes = [
        'cancel-during-work',
        'complete-then-cancel',
        ...(transport === 'http' ? ['cancel-by-stream-close'] : []),
      ];
      files.push({
        path,
        description: `The probe's cancellation races against ${t.server.name} over ${transport}: every message sent and received, and the verdicts.`,
        contents: json({
          ...header,
          events: t.events.filter((e) => probes.includes(e.probe)),
          verdicts: t.verdicts.filter((v) => probes.includes(v.probe)),
        }),
      });
    } else
      missing.push({
        path,
        artifact: `cancellation-race transcript over ${transport}`,
        why: `this probe ran over ${t.transport}; run it again with ${transport === 'http' ? '--http <url>' : '--stdio "<command>"'} against the same server`,
      });
  }
  const progress = verdictsOf('progress-and-deadlines');
  if (races)
    files.push({
      path: 'progress-and-deadlines.json',
      description: "Progress values, the probe's idle and maximum deadlines, and the progress verdicts.",
      contents: json({
        ...header,
        times: t.times,
        events: t.events.filter((e) => e.probe === 'progress-and-deadlines'),
        verdicts: progress,
      }),
    });
  const headers = verdictsOf('headers-and-quiet-stream');
  if (t.transport === 'http' && races) {
    const sse = t.events.filter(
      (e) => e.kind === 'http-response' && (e.headers['content-type'] ?? '').startsWith('text/event-stream'),
    );
    files.push({
      path: 'sse-headers-and-idle-policy.json',
      description:
        'The SSE response headers the server sent, keep-alive comments on a quiet stream, and their verdicts.',
      contents: json({ ...header, idleTimeoutMs: t.times.idleTimeoutMs, sseResponses: sse, verdicts: headers }),
    });
  } else
    missing.push({
      path: 'sse-headers-and-idle-policy.json',
      artifact: 'SSE proxy headers and idle policy',
      why:
        t.transport === 'stdio'
          ? 'stdio has no HTTP headers; probe the server with --http <url>'
          : 'no --tool was named, so no SSE response was read',
    });
  missing.push({
    path: 'retry-table.json',
    artifact: 'retry table for each exposed mutation',
    why: "the probe cannot classify a server's tools from outside (tool annotations are untrusted hints); write the table with `npm run lab -- review`",
  });
}

/** What the idempotency probe saw of a mutation (only with --mutation). */
function idempotencyFiles({ t, header, files, missing, verdictsOf }: Evidence): void {
  const idem = t.idempotency;
  if (idem === null) {
    for (const [path, artifact] of [
      ['idempotency-key-record.json', 'idempotency-key record'],
      ['key-mismatch-fixture.json', 'key mismatch fixture'],
      ['concurrent-same-key.json', 'concurrent same-key transcript'],
    ] as const)
      missing.push({
        path,
        artifact,
        why: 'no --mutation was named: the idempotency probe calls a state-changing tool only when asked',
      });
  } else {
    const calls = (...names: string[]) => idem.calls.filter((c) => names.includes(c.call));
    const ids = (...names: string[]) => new Set(calls(...names).map((c) => c.requestId));
    const messagesOf = (set: Set<number>) =>
      t.events.filter((e) => e.probe === 'idempotency' && e.kind === 'message' && set.has(e.message.id as number));
    files.push({
      path: 'idempotency-key-record.json',
      description: `What ${idem.mutation} returned for one key: the first call, its replay, and a call without a key (the server's stored record itself is not visible from outside).`,
      contents: json({
        ...header,
        keyField: idem.keyField,
        key: idem.key,
        calls: calls('first', 'replay', 'no-key'),
        verdicts: verdictsOf('idempotency'),
      }),
    });
    files.push({
      path: 'key-mismatch-fixture.json',
      description: 'The same key with changed arguments: both requests and both answers.',
      contents: json({
        ...header,
        key: idem.key,
        messages: messagesOf(ids('first', 'changed-arguments')),
        calls: calls('first', 'changed-arguments'),
      }),
    });
    files.push({
      path: 'concurrent-same-key.json',
      description: 'Two calls sent together with one key: the transcript and whether they saw one result.',
      contents: json({
        ...header,
        key: idem.concurrentKey,
        messages: messagesOf(ids('concurrent-1', 'concurrent-2')),
        calls: calls('concurrent-1', 'concurrent-2'),
      }),
    });
  }
}

/** The reconnect the probe carried out (2026-07-28 servers). */
function reconnectFile({ t, header, files, missing, verdictsOf }: Evidence): void {
  if (t.reconnectPlan !== null)
    files.push({
      path: 'reconnect-plan.json',
      description:
        'The reconnect the probe carried out: listen, drop, listen again with a new id, refetch from the authoritative method, no Last-Event-ID.',
      contents: json({
        ...header,
        plan: t.reconnectPlan,
        events: t.events.filter((e) => e.probe === 'reconnect'),
        verdicts: verdictsOf('reconnect'),
      }),
    });
  else
    missing.push({
      path: 'reconnect-plan.json',
      artifact: 'reconnect plan',
      why:
        t.protocolVersion === '2026-07-28'
          ? 'the server refused subscriptions/listen'
          : `the server speaks ${t.protocolVersion}, which has no subscriptions/listen; the plan applies to 2026-07-28 servers`,
    });
}

/** The durable task-cancellation trace (only with --task-tool, when the server offers tasks). */
function taskFile({ t, header, files, missing, verdictsOf }: Evidence): void {
  if (t.tasks !== null && t.tasks.taskId !== null)
    files.push({
      path: 'task-cancellation-trace.json',
      description: `A task of ${t.tasks.tool} created, cancelled with tasks/cancel, its acknowledgement, and every tasks/get until a terminal status (${t.tasks.terminal === null ? 'none seen' : t.tasks.terminal.status}).`,
      contents: json({
        ...header,
        trace: t.tasks,
        events: t.events.filter((e) => e.probe === 'tasks'),
        verdicts: verdictsOf('tasks'),
      }),
    });
  else
    missing.push({
      path: 'task-cancellation-trace.json',
      artifact: 'durable task-cancellation trace',
      why:
        t.tasks !== null
          ? `the server created no task for ${t.tasks.tool}: ${
              t.events
                .filter((e) => e.probe === 'tasks' && e.kind === 'note' && e.text.startsWith('no task'))
                .map((e) => (e.kind === 'note' ? e.text : ''))
                .join('') || 'see the tasks verdicts'
            }`
          : t.tasksOffered !== null
            ? 'the server offers tasks, but no --task-tool was named: the probe runs a task only with a tool you name'
            : t.protocolVersion === '2026-07-28'
              ? 'the server does not offer the io.modelcontextprotocol/tasks extension'
              : `the server does not offer tasks on tools/call (no tasks.requests.tools.call capability on ${t.protocolVersion})`,
    });
}

/** README.md of the folder: every file, every artifact not produced and why, every verdict. */
function evidenceIndex(t: ProbeTranscript, files: ProbeEvidenceFile[], missing: Missing[]): string {
  return [
    `# Evidence about ${t.server.name} ${t.server.version}`,
    '',
    `Recorded by \`lab probe\` over ${t.transport} (${t.target}) at ${t.startedAt}, revision ${t.protocolVersion} (via ${t.negotiatedVia}), ${t.tool === null ? 'no race tool' : `tool \`${t.tool.name}\``}${t.idempotency === null ? '' : `, mutation \`${t.idempotency.mutation}\``}. Real times: a second probe gives other numbers.`,
    '',
    '| file | what it shows |',
    '|---|---|',
    ...files.map((f) => `| \`${f.path}\` | ${f.description} |`),
    '',
    '## Not produced',
    '',
    ...missing.map((m) => `- **${m.artifact}** (\`${m.path}\`): ${m.why}`),
    '',
    '## Verdicts',
    '',
    ...t.verdicts.map(
      (v) =>
        `- ${v.finding === 'holds' ? '[x]' : v.finding === 'not observable' ? '[-] not observable' : `[ ] ${findingLabel(v)}`} **${v.probe}: ${v.check}** — ${v.sentence.level}, ${v.sentence.revision} (${v.sentence.page}): "${v.sentence.text}" — ${v.detail}`,
    ),
    '',
  ].join('\n');
}
