import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { buildProbeEvidence } from '../cli/probeEvidence';
import { redactCommand, redactUrl } from './connection';
import { ProbeFailure, runProbe, type ProbeOptions, type ProbeTranscript } from './run';
import { readRecording, recordingTranscript } from '../worker/recording';
import { RECORDING_BYTES_MAX, RECORDING_EVENTS_MAX } from '../engine/core/recordingLimits';
import { PROBE_BOUNDS_DEFAULT, Recorder } from './record';
import { plainAnswer, startHostileHttp, writeMany, type HostileServer } from './testing/hostile';

/**
 * The probe against servers that attack it (issue 37): each started here on 127.0.0.1 or as a tiny
 * stdio script, bounded in time and always stopped. Each case must end in a catalogued LAB error
 * or a correct verdict, within the probe's budget, with no stack trace and no process left.
 */
const quick = {
  times: { cancelAfterMs: 100, observeMs: 100, idleTimeoutMs: 500, maxTimeoutMs: 2_000 },
  bounds: { budgetMs: 20_000, answerTimeoutMs: 10_000, startupTimeoutMs: 10_000 },
};

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function hostile(handler: Parameters<typeof startHostileHttp>[0]): Promise<string> {
  const server = await startHostileHttp(handler);
  servers.push(server);
  return server.url;
}

const LAB = fileURLToPath(new URL('../cli/lab.ts', import.meta.url));
const GRANDCHILD_SERVER = fileURLToPath(new URL('./testing/grandchildServer.mjs', import.meta.url));
const HOSTILE_STDIO = fileURLToPath(new URL('./testing/hostileStdio.mjs', import.meta.url));
const node = (file: string, ...args: string[]): string =>
  [process.execPath, file, ...args].map((w) => JSON.stringify(w)).join(' ');

/** Whether a process runs (a zombie waiting for its reaper does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `lab …` as its own process, as a user runs it: its exit code, output and how long it took; killed after `limitMs`. */
function lab(
  args: string[],
  limitMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', LAB, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** `lab …` in this process, as the terminal sees it: exit code and what it printed. */
async function labHere(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

async function failure(options: ProbeOptions): Promise<ProbeFailure> {
  try {
    await runProbe(options);
  } catch (error) {
    if (error instanceof ProbeFailure) return error;
    throw error;
  }
  throw new Error('the probe did not fail');
}

describe.concurrent('lab probe against hostile servers', () => {
  it('an SSE event that never ends counts against the per-message bound: LAB045, not a buffer without limit', async () => {
    // 4 MiB of one `data:` line and no blank line: the bound is 1 MiB.
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      writeMany(res, 4 << 20, () => res.end('\n\n'));
    });
    const started = performance.now();
    const f = await failure({ ...quick, transport: 'http', target: url, tool: 'work', arguments: {} });
    expect(f.error.code).toBe('LAB045');
    expect(f.error.message).toContain('without ending');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('the bytes of an unended SSE event count against the total bound as they arrive', async () => {
    // Many short data lines, one event that never ends: each line is small, the event and the total are not.
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = `data: ${'b'.repeat(1000)}\n`;
      let n = 4_000;
      const go = (): void => {
        while (n-- > 0 && !res.destroyed) if (!res.write(line)) return void res.once('drain', go);
      };
      go();
    });
    const f = await failure({
      ...quick,
      bounds: { ...quick.bounds, bytesMax: 512 * 1024 },
      transport: 'http',
      target: url,
      tool: 'work',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB045');
    expect(f.error.message).toContain('more than 524288 bytes');
  });

  it('a grandchild holding the server stdio does not keep the probe alive past its budget, and is ended with it', async () => {
    // What starting `lab probe` costs on this machine now (tsx, the probe's modules, an argument refused
    // before anything starts): on a loaded machine it grows from about 1.5 s to several, so the bound
    // below is that plus the probe's own time, not a fixed wall time.
    const start = await lab(['probe'], 30_000);
    expect(start.stderr).toContain('LAB047');
    const run = await lab(
      ['probe', '--stdio', node(GRANDCHILD_SERVER), '--tool', 'work', '--budget-ms', '3000'],
      30_000,
    );
    expect(run.stderr).toContain('LAB042');
    const pid = Number(/grandchild pid (\d+)/.exec(run.stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // The budget is 3 s; the child's grace (stdin closed, then SIGTERM, then SIGKILL) adds at most 2 s, and
    // starting lab what `start` took, with 4 s to spare. Held open by the grandchild (`sleep 40`), the
    // probe would run to the 30 s limit and be killed.
    expect(run.ms).toBeLessThan(start.ms + 3_000 + 2_000 + 4_000);
    expect(run.code).toBe(1);
    expect(running(pid)).toBe(false);
  }, 70_000);

  it('--json stays valid JSON when a server string holds C1 controls or DEL, and gives the exact string back', async () => {
    const r = await labHere(
      'probe',
      '--stdio',
      node(HOSTILE_STDIO, 'c1-name'),
      '--tool',
      'work',
      '--cancel-after-ms',
      '100',
      '--observe-ms',
      '100',
      '--idle-ms',
      '1000',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const transcript = JSON.parse(r.out) as { server: { name: string; version: string } };
    expect(transcript.server).toEqual({ name: 'a\u0085b\u007fc', version: '1\u009b2' });
    // Nothing raw reaches the terminal: each is a JSON escape.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.out).toContain('a\\u0085b\\u007fc');
  });

  it('values whose toString cannot be called ({ toString: 0 }) are described, not a TypeError: in the handshake, LAB046, the timeline', async () => {
    const r = await labHere(
      'probe',
      '--stdio',
      node(HOSTILE_STDIO, 'bad-tostring'),
      '--tool',
      'work',
      '--cancel-after-ms',
      '100',
      '--observe-ms',
      '100',
      '--idle-ms',
      '1000',
    );
    expect(r.err).not.toMatch(/TypeError|\n +at /);
    expect([0, 3]).toContain(r.code);
    expect(r.out).toContain('server/discover was refused: -32601 {"toString":0}');
    expect(r.out).toMatch(/notifications\/progress \{"toString":0\}\/\{"toString":0\}/);
    const missing = await failure({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'bad-tostring'),
      tool: 'nope',
      arguments: {},
    });
    expect(missing.error.code).toBe('LAB046');
    expect(missing.error.message).toContain('{"toString":0}, work');
  });

  it('a message nested deeper than the page reads (5,000 arrays in an inputSchema) is refused on receipt: LAB045, and --json does not overflow the stack', async () => {
    const r = await labHere(
      'probe',
      '--stdio',
      node(HOSTILE_STDIO, 'deep'),
      '--tool',
      'work',
      '--cancel-after-ms',
      '100',
      '--observe-ms',
      '100',
      '--idle-ms',
      '1000',
      '--json',
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('LAB045');
    expect(r.err).toContain('nested deeper than 64');
    expect(r.err).not.toMatch(/RangeError|\n +at /);
  });

  it('the server own requests are answered: ping with an empty result, sampling, elicitation and roots with -32601, each noted', async () => {
    const t = await runProbe({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'requests'),
      tool: 'work',
      arguments: {},
    });
    const answers = t.events.flatMap((e) =>
      e.kind === 'message' && e.from === 'client' && !('method' in e.message) ? [e.message] : [],
    );
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'p1', result: {} },
      {
        jsonrpc: '2.0',
        id: 's1',
        error: { code: -32601, message: 'Method not found: the probe declared no sampling capability' },
      },
      {
        jsonrpc: '2.0',
        id: 'e1',
        error: { code: -32601, message: 'Method not found: the probe declared no elicitation capability' },
      },
      {
        jsonrpc: '2.0',
        id: 'r1',
        error: { code: -32601, message: 'Method not found: the probe declared no roots capability' },
      },
    ]);
    expect(t.events.filter((e) => e.kind === 'note' && e.text.startsWith('the server sent '))).toHaveLength(4);
  });

  it('a response sent twice for one request is flagged; an honest run reads holds', async () => {
    const t = await runProbe({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'duplicate'),
      tool: 'work',
      arguments: {},
    });
    const v = t.verdicts.find((x) => x.check === 'each request gets at most one response');
    expect(v).toMatchObject({ probe: 'responses', result: 'broken', finding: 'broken' });
    expect(v?.detail).toMatch(/request \d+ answered 2 times/);
    const honest = await runProbe({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'c1-name'),
      tool: 'work',
      arguments: {},
    });
    expect(honest.verdicts.find((x) => x.check === 'each request gets at most one response')?.result).toBe('holds');
  });

  it('an endless stream of blank lines counts against the bounds: LAB045, not a busy loop until the budget', async () => {
    // No double quote or backslash in the code: it travels as one quoted word of the command line.
    const flood = `process.stdin.once('data', () => { const lines = String.fromCharCode(10).repeat(65536); const spam = () => { while (process.stdout.write(lines)); process.stdout.once('drain', spam); }; spam(); }); setTimeout(() => process.exit(0), 60000)`;
    const started = performance.now();
    const f = await failure({
      ...quick,
      transport: 'stdio',
      target: `${JSON.stringify(process.execPath)} -e ${JSON.stringify(flood)}`,
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB045');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('bytes that are not UTF-8 are replaced with U+FFFD, and the transcript says so', async () => {
    const t = await runProbe({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'bad-utf8'),
      tool: 'work',
      arguments: {},
    });
    expect(t.server.name).toBe('a\ufffdb');
    expect(t.events.filter((e) => e.kind === 'note' && e.text.includes('not UTF-8'))).toHaveLength(1);
  });

  it('the evidence README carries no raw ESC or OSC from the server name, version or messages; its JSON files parse back exactly', async () => {
    const t = await runProbe({
      ...quick,
      transport: 'stdio',
      target: node(HOSTILE_STDIO, 'c1-name'),
      tool: 'work',
      arguments: {},
    });
    const name = 'evil\u001b]0;PWNED\u0007\u001b[2J\u009b31m';
    const files = buildProbeEvidence({ ...t, server: { name, version: '\u001b[31m9' } });
    const readme = files.find((f) => f.path === 'README.md')?.contents ?? '';
    expect(readme).toContain('PWNED');
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(readme).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    for (const file of files.filter((f) => f.path.endsWith('.json'))) {
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      expect(file.contents, file.path).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      const parsed = JSON.parse(file.contents) as { server?: { name: string } } | unknown[];
      if (!Array.isArray(parsed) && parsed.server !== undefined) expect(parsed.server.name).toBe(name);
    }
  });

  it('a user name, password or token in an --http URL is redacted: in the error, and in the transcript target', async () => {
    expect(redactUrl('http://me:hunter2@127.0.0.1:3001/mcp?token=abc&x=1&api_key=z')).toBe(
      'http://***@127.0.0.1:3001/mcp?token=***&x=1&api_key=***',
    );
    expect(redactUrl('http://127.0.0.1:3001/mcp')).toBe('http://127.0.0.1:3001/mcp');
    // Nothing listens on port 9 of the loopback: LAB040, and its message names the URL without the secrets.
    const f = await failure({
      ...quick,
      transport: 'http',
      target: 'http://me:hunter2@127.0.0.1:9/mcp?access_token=abc',
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB040');
    expect(f.error.message).toContain('http://***@127.0.0.1:9/mcp?access_token=***');
    expect(JSON.stringify(f.events)).not.toMatch(/hunter2|abc/);
    // A run that succeeds keeps the redacted URL as its target.
    const url = await hostile((req, res, body) => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { _meta?: { progressToken?: string } };
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'server/discover'
          ? undefined
          : message.method === 'initialize'
            ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } }
            : message.method === 'tools/list'
              ? { tools: [{ name: 'work', inputSchema: { type: 'object' } }] }
              : { content: [] };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            result === undefined
              ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }
              : { jsonrpc: '2.0', id: message.id, result },
          ),
        );
    });
    const t = await runProbe({
      ...quick,
      transport: 'http',
      target: url.replace('http://', 'http://me:hunter2@') + '?token=abc',
      tool: 'work',
      arguments: {},
    });
    expect(t.target).toBe(url.replace('http://', 'http://***@') + '?token=***');
    expect(JSON.stringify(t)).not.toMatch(/hunter2|token=abc/);
  });

  it('--json FILE says that --json writes to standard output, not to quote the server command', async () => {
    const r = await labHere('probe', '--stdio', 'node x.js', '--tool', 't', '--json', 'out.json');
    expect(r.code).toBe(1);
    expect(r.err).toContain('LAB047');
    expect(r.err).toContain('--json writes the transcript to standard output');
    expect(r.err).toContain('--json > out.json');
    expect(r.err).not.toContain('quote the server command');
  });
  it('the probe never records more events than the page opens: past RECORDING_EVENTS_MAX the run fails with LAB045', () => {
    const recorder = new Recorder({ ...PROBE_BOUNDS_DEFAULT });
    for (let i = 0; i < RECORDING_EVENTS_MAX; i++) recorder.record({ kind: 'note', text: '' });
    expect(recorder.failed).toBeNull();
    recorder.record({ kind: 'note', text: '' });
    expect(recorder.failed?.message).toMatch(/^LAB045 .*more than 50000 events/);
  });

  it('an SSE field the format does not define (foo: bar, a bare word, retry: soon) is ignored and noted once per stream, not LAB043', async () => {
    // WHATWG HTML, server-sent events: a field of any other name, or a retry that is not digits, is ignored.
    const url = await hostile((_req, res, body) => {
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `foo: bar\nbare\nretry: soon\n: a comment\nfoo: again\ndata: ${JSON.stringify(plainAnswer({ id: message.id, method: message.method }))}\n\n`,
      );
    });
    const t = await runProbe({ ...quick, transport: 'http', target: url, tool: 'work', arguments: {} });
    const sseStreams = t.events.filter(
      (e) => e.kind === 'http-response' && e.headers['content-type'] === 'text/event-stream',
    ).length;
    const notes = t.events.filter((e) => e.kind === 'note' && e.text.includes('fields the SSE format does not define'));
    expect(sseStreams).toBeGreaterThan(3);
    expect(notes).toHaveLength(sseStreams);
    expect(notes[0]?.kind === 'note' && notes[0].text).toContain('"foo"');
    expect(t.server).toEqual({ name: 'h', version: '1' });
  });

  it('secrets in a --stdio command (flags and env assignments named like token, key, secret, password) are redacted in the target, the notes and the evidence; the env assignment still reaches the server', async () => {
    expect(redactCommand('node srv.js --api-key=abc123 --port 3 --token xyz --password "p w" stdio')).toBe(
      'node srv.js --api-key=*** --port 3 --token *** --password *** stdio',
    );
    expect(redactCommand('TOKEN=abc API_SECRET=s2 PORT=3 node srv.js')).toBe(
      'TOKEN=*** API_SECRET=*** PORT=3 node srv.js',
    );
    expect(redactCommand('node proxy.js --url=http://me:hunter2@127.0.0.1/mcp http://u:pw@127.0.0.1/x?token=t1')).toBe(
      'node proxy.js --url=http://***@127.0.0.1/mcp http://***@127.0.0.1/x?token=***',
    );
    expect(redactCommand('node srv.js --verbose --port 3')).toBe('node srv.js --verbose --port 3');
    const target = `MY_TOKEN=abc123 ${node(HOSTILE_STDIO, 'env-name')} --api-key=abc123 --secret abc123`;
    const t = await runProbe({ ...quick, transport: 'stdio', target, tool: 'work', arguments: {} });
    // The server names itself after the variable it was given, reversed: the assignment reached it.
    expect(t.server.name).toBe('token 321cba');
    expect(t.target).toContain('MY_TOKEN=***');
    expect(t.target).toContain('--api-key=***');
    expect(t.target).toContain('--secret ***');
    expect(JSON.stringify(t)).not.toContain('abc123');
    for (const file of buildProbeEvidence(t)) expect(file.contents, file.path).not.toContain('abc123');
    // A command that cannot start names itself redacted too.
    const f = await failure({
      ...quick,
      transport: 'stdio',
      target: 'SECRET=abc123 /nonexistent/srv --token abc123',
      tool: 'work',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB041');
    expect(f.error.message).toContain('SECRET=*** /nonexistent/srv --token ***');
    expect(f.error.message + JSON.stringify(f.events)).not.toContain('abc123');
  });
});

// Apart from the concurrent cases: it parses 30 MB of server output, and the cases above time their runs.
describe('lab probe output against a server that sends all its bounds allow', () => {
  it('what the probe writes follows what it read: 15 MB of `{}` 60 deep (or of U+0085) prints, as --json and as evidence, less than the bytes received, valid JSON the page opens', async () => {
    for (const kind of ['objects', 'c1']) {
      const args = [
        'probe',
        '--stdio',
        node(HOSTILE_STDIO, 'bulk', kind),
        '--tool',
        'work',
        '--cancel-after-ms',
        '100',
        '--observe-ms',
        '100',
        '--idle-ms',
        '1000',
      ];
      const dir = mkdtempSync(join(tmpdir(), 'probe-evidence-'));
      try {
        const out = join(dir, 'evidence');
        const json = await labHere(...args, '--json', '--evidence', out);
        expect(json.code, json.err).toBe(0);
        const transcript = JSON.parse(json.out) as ProbeTranscript;
        const received = transcript.received.bytes;
        expect(received, kind).toBeGreaterThan(14_000_000);
        expect(json.out.length, kind).toBeLessThanOrEqual(received);
        expect(json.out.length).toBeLessThanOrEqual(RECORDING_BYTES_MAX);
        // Each cut value says what was left out, and the page opens the file and draws its messages.
        expect(json.out).toContain('elided');
        const opened = recordingTranscript(readRecording(new TextEncoder().encode(json.out)));
        expect(
          opened.events.filter(
            (e) =>
              e.kind === 'message' &&
              e.from === 'server' &&
              'method' in e.message &&
              e.message.method === 'notifications/message',
          ),
        ).toHaveLength(15);
        const sizes = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8').length);
        expect(
          sizes.reduce((a, b) => a + b, 0),
          kind,
        ).toBeLessThanOrEqual(received);
        if (kind === 'objects') {
          const text = await labHere(...args);
          expect(text.code, text.err).toBe(0);
          expect(text.out.length).toBeLessThanOrEqual(received / 100);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
