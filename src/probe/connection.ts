import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import { JSON_DEPTH_MAX, jsonRpcEnvelopeProblem, LabError } from '../engine';
import type { Recorder } from './record';

/** How one message left the probe: the channel it travels on and, for HTTP, a way to close its response stream. */
export interface Exchange {
  /** `stdio`, or `POST #n` on Streamable HTTP (one response stream per request). */
  channel: string;
  /** HTTP: closes this request's response stream (the 2026-07-28 cancellation signal). stdio: there is no such stream. */
  closeStream(reason: string): void;
}

export interface Connection {
  readonly transport: 'stdio' | 'http';
  /** Sends one JSON-RPC request or notification; what comes back is recorded as it arrives. */
  send(message: Record<string, unknown>, headers: Record<string, string>): Exchange;
  /** Ends the connection and, for stdio, the child process; always safe to call again. */
  close(): Promise<void>;
  /** The server's stderr (stdio), its last bytes only. */
  stderrText(): string;
}

const STDERR_KEPT_CHARS = 16 * 1024;
const EXIT_GRACE_MS = 1_000;
const QUOTE_CHARS = 160;

const quote = (text: string): string =>
  JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);

/**
 * Reads `stream` as UTF-8 text, chunk by chunk (a character split across chunks is kept whole), giving
 * each chunk's text and its byte count. Bytes that are not UTF-8 become U+FFFD, as a decoder makes them,
 * but not silently: the first time, the transcript says so.
 */
function readUtf8(
  stream: Readable,
  recorder: Recorder,
  where: string,
  onText: (text: string, bytes: number) => void,
): void {
  const decoder = new StringDecoder('utf8');
  let validator: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  stream.on('data', (chunk: Buffer) => {
    if (validator !== null) {
      try {
        validator.decode(chunk, { stream: true });
      } catch {
        validator = null;
        if (recorder.failed === null)
          recorder.record({
            kind: 'note',
            text: `${where} held bytes that are not UTF-8 (in the ${offset + chunk.length} bytes so far): each is shown as U+FFFD, the replacement character, in what the probe recorded`,
          });
      }
    }
    offset += chunk.length;
    onText(decoder.write(chunk), chunk.length);
  });
}

const SECRET_PARAM = /token|key|secret|pass|auth|sig|session|credential/i;

/**
 * The URL as the transcript, the evidence and the messages show it: a user name and password, and
 * the values of query parameters that look like credentials (token, api_key, …), replaced by `***`.
 * Text that is not a URL is returned as it is.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '***';
    parsed.password = '';
  }
  for (const name of [...new Set(parsed.searchParams.keys())])
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '***');
  return parsed.href;
}

/** A word of a command line as typed, its quotes kept: runs of plain characters and quoted stretches. */
const RAW_WORD = /(?:[^\s"']+|"[^"]*"?|'[^']*'?)+/g;
const ASSIGNMENT = /^(-{0,2}[A-Za-z_][\w.-]*)=(.*)$/s;

/**
 * The `--stdio` command as the transcript, the evidence and the messages show it, by the URL rule's
 * names (token, key, secret, pass, auth, …): the value of `NAME=value` (an environment assignment or
 * `--api-key=…`) and the word after a flag so named (`--token abc`) become `***`, and URLs in it are
 * redacted as `--http` URLs are. The command that runs is the one typed; only what is shown changes.
 */
export function redactCommand(command: string): string {
  let redactNext = false;
  return command.replace(RAW_WORD, (word) => {
    const plain = word.replace(/["']/g, '');
    if (redactNext) {
      redactNext = false;
      if (!plain.startsWith('-')) return '***';
    }
    const assignment = ASSIGNMENT.exec(plain);
    if (assignment !== null) {
      const [, name = '', value = ''] = assignment;
      if (SECRET_PARAM.test(name)) return `${name}=***`;
      return value.includes('://') ? `${name}=${redactUrl(value)}` : word;
    }
    if (/^--?[A-Za-z]/.test(plain)) {
      redactNext = SECRET_PARAM.test(plain);
      return word;
    }
    return plain.includes('://') ? redactUrl(plain) : word;
  });
}

/** Splits a command line into words: plain spaces separate, single or double quotes group; no shell runs it. */
export function splitCommand(command: string, shown = redactCommand(command)): string[] {
  const words: string[] = [];
  let word = '';
  let quoteChar: string | null = null;
  let started = false;
  for (const char of command) {
    if (quoteChar !== null) {
      if (char === quoteChar) quoteChar = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quoteChar = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quoteChar !== null)
    throw new LabError('LAB047', `--stdio ${quote(shown)} has an unclosed ${quoteChar} quote; nothing was started`);
  if (started) words.push(word);
  if (words.length === 0)
    throw new LabError(
      'LAB047',
      '--stdio needs a command, e.g. --stdio "npx -y @modelcontextprotocol/server-everything stdio"; nothing was started',
    );
  return words;
}

/** Parses one received message body; anything but a JSON object fails the run (LAB044 / LAB043). */
function parseMessage(recorder: Recorder, text: string, where: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    recorder.fail(
      new LabError('LAB044', `${where} is not JSON: ${quote(text)}; the probe stopped and ended the connection`),
    );
    return null;
  }
  const envelope = jsonRpcEnvelopeProblem(value);
  if (envelope === 'not-json-rpc') {
    recorder.fail(
      new LabError(
        'LAB043',
        `${where} is JSON but not a JSON-RPC 2.0 message: ${quote(text)}; the probe stopped and ended the connection`,
      ),
    );
    return null;
  }
  if (envelope === 'too-deep') {
    // The page refuses a recorded message past this depth, and printing one this deep may overflow the stack.
    recorder.fail(
      new LabError(
        'LAB045',
        `${where} is nested deeper than ${JSON_DEPTH_MAX} levels, more than the probe (and the page) reads: ${quote(text)}; the probe stopped and ended the connection`,
      ),
    );
    return null;
  }
  return value as Record<string, unknown>;
}

/** A server started as a child process, speaking newline-delimited JSON-RPC on stdin and stdout. */
export class StdioConnection implements Connection {
  readonly transport = 'stdio' as const;
  private readonly child: ChildProcessWithoutNullStreams;
  private stderr = '';
  private pending = '';
  private exited: Promise<void>;
  /** The child's process id, for the tests that check it never outlives the probe. */
  get pid(): number | undefined {
    return this.child.pid;
  }
  private closing = false;
  /** The command with its secrets redacted: the only form any message shows. */
  readonly shownCommand: string;

  constructor(
    private readonly recorder: Recorder,
    readonly command: string,
  ) {
    const shown = redactCommand(command);
    this.shownCommand = shown;
    const words = splitCommand(command, shown);
    // Leading NAME=value words set the server's environment, as a shell reads them.
    const env: NodeJS.ProcessEnv = { ...process.env };
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string)) {
      const assignment = words.shift() as string;
      const eq = assignment.indexOf('=');
      env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
    }
    const [file, ...args] = words;
    if (file === undefined)
      throw new LabError(
        'LAB047',
        `--stdio ${quote(shown)} sets environment variables but names no command to run; nothing was started`,
      );
    // Its own process group (detached): whatever the server starts (a grandchild holding our pipes) ends with it.
    this.child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env, detached: true });
    if (this.child.pid !== undefined) watchGroup(this.child.pid);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        recorder.fail(
          new LabError(
            'LAB041',
            `the command ${quote(shown)} could not start (${error.code ?? error.message}); check that it is installed and on PATH`,
          ),
        );
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        if (!this.closing)
          recorder.fail(
            new LabError(
              'LAB041',
              `the server process exited (${signal === null ? `exit code ${code}` : `signal ${signal}`}) at ${recorder.nowMs()} ms before the probe was done${this.stderr.trim() === '' ? ' and wrote nothing to stderr' : `; its stderr ends: ${quote(this.stderr.trim().slice(-400))}`}`,
            ),
          );
        resolve();
      });
    });
    if (this.child.pid !== undefined)
      recorder.record({ kind: 'note', text: `started the server: ${shown} (pid ${this.child.pid})` });
    this.child.stdin.on('error', () => {
      // EPIPE when the server has gone: its exit is the error the run reports.
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT_CHARS);
    });
    readUtf8(this.child.stdout, recorder, "the server's stdout", (text, bytes) => this.onStdout(text, bytes));
  }

  private onStdout(chunk: string, bytes: number): void {
    if (this.recorder.failed !== null) return;
    // Every byte counts against the total as it arrives, line breaks and blank lines included.
    this.recorder.countBytes(bytes);
    if (this.recorder.failed !== null) return;
    this.pending += chunk;
    for (;;) {
      const newline = this.pending.indexOf('\n');
      if (newline < 0) break;
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      // A blank line carries no message but is a line received: a flood of them meets the message bound.
      if (line.trim() === '') this.recorder.countMessage('a blank stdout line');
      else this.receive(line);
      if (this.recorder.failed !== null) return;
    }
    if (this.pending.length > this.recorder.bounds.messageBytesMax)
      this.recorder.fail(
        new LabError(
          'LAB045',
          `the server wrote a line longer than ${this.recorder.bounds.messageBytesMax} bytes without a newline; the probe stopped and ended the connection`,
        ),
      );
  }

  private receive(line: string): void {
    const bytes = Buffer.byteLength(line);
    this.recorder.countMessage('a stdout line');
    if (bytes > this.recorder.bounds.messageBytesMax)
      this.recorder.fail(
        new LabError(
          'LAB045',
          `the server wrote a ${bytes}-byte line, more than the probe reads (${this.recorder.bounds.messageBytesMax})`,
        ),
      );
    if (this.recorder.failed !== null) return;
    const message = parseMessage(this.recorder, line, 'a line the server wrote on stdout');
    if (message !== null)
      this.recorder.record({ kind: 'message', from: 'server', to: 'client', channel: 'stdio', message, bytes });
  }

  send(message: Record<string, unknown>): Exchange {
    const line = JSON.stringify(message);
    this.recorder.record({
      kind: 'message',
      from: 'client',
      to: 'server',
      channel: 'stdio',
      message,
      bytes: Buffer.byteLength(line),
    });
    if (this.child.stdin.writable) this.child.stdin.write(`${line}\n`);
    return {
      channel: 'stdio',
      closeStream: () => {
        throw new Error('stdio has no per-request stream to close');
      },
    };
  }

  stderrText(): string {
    return this.stderr;
  }

  /**
   * Closes stdin, then SIGTERM, then SIGKILL to the server's whole process group, each after a short
   * grace; then ends whatever the server left in its group and closes the child's pipes: neither the
   * child nor anything it started outlives the probe, nor keeps it running.
   */
  async close(): Promise<void> {
    this.closing = true;
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      const graceful = await Promise.race([this.exited.then(() => true), sleep(EXIT_GRACE_MS).then(() => false)]);
      if (!graceful) {
        signalGroup(pid, 'SIGTERM');
        const terminated = await Promise.race([this.exited.then(() => true), sleep(EXIT_GRACE_MS).then(() => false)]);
        if (!terminated) {
          signalGroup(pid, 'SIGKILL');
          await this.exited;
        }
      }
    }
    if (liveGroups.has(pid)) {
      // What the server started and left behind: SIGTERM, a short grace, then SIGKILL (a zombie still counts, so the grace is bounded).
      if (signalGroup(pid, 'SIGTERM')) {
        const deadline = Date.now() + EXIT_GRACE_MS;
        // A held timer: with the child gone, nothing else may keep the process up for this wait.
        while (groupExists(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        signalGroup(pid, 'SIGKILL');
      }
      liveGroups.delete(pid);
    }
    this.child.stdin.destroy();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }
}

/** Process groups of servers still running: ended if the probe itself is ended first. */
const liveGroups = new Set<number>();

/** Sends `signal` to the process group `pgid`; false when no process of it is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const groupExists = (pgid: number): boolean => signalGroup(pgid, 0);

let watching = false;

/**
 * Keeps `pgid` among the live groups. A detached group does not get the terminal's Ctrl-C: from the
 * first server on, if the probe is interrupted or exits, its servers' groups end with it.
 */
function watchGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (watching) return;
  watching = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
      liveGroups.clear();
      process.removeListener(signal, onSignal);
      // Then the signal's own action (the process ends by it), unless someone else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Response headers the probe keeps (lower-case names), each value bounded. */
function keptHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers).slice(0, 64)) {
    if (value === undefined) continue;
    headers[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, 512);
  }
  return headers;
}

/**
 * Streamable HTTP with real HTTP: every message is its own POST on its own socket (no keep-alive
 * agent), so each request has exactly one response stream the probe can close on its own.
 */
export class HttpConnection implements Connection {
  readonly transport = 'http' as const;
  private posts = 0;
  private readonly open = new Set<ClientRequest>();
  /** The `Mcp-Session-Id` a 2025-11-25 server assigned at initialize; sent back on every later POST. */
  sessionId: string | null = null;
  private readonly url: URL;
  /** The URL with its credentials redacted: the only form any message shows. */
  private readonly shownUrl: string;

  constructor(
    private readonly recorder: Recorder,
    url: string,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new LabError('LAB047', `--http ${quote(url)} is not a URL; give e.g. --http http://127.0.0.1:3001/mcp`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new LabError('LAB047', `--http ${quote(url)} is not an http: or https: URL`);
    this.url = parsed;
    this.shownUrl = redactUrl(parsed.href);
  }

  send(message: Record<string, unknown>, headers: Record<string, string>): Exchange {
    this.posts += 1;
    const channel = `POST #${this.posts}`;
    const body = JSON.stringify(message);
    const allHeaders: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(this.sessionId === null ? {} : { 'Mcp-Session-Id': this.sessionId }),
      ...headers,
    };
    this.recorder.record({
      kind: 'message',
      from: 'client',
      to: 'server',
      channel,
      message,
      bytes: Buffer.byteLength(body),
    });
    this.recorder.record({
      kind: 'note',
      text: `${channel} request headers: ${Object.entries(allHeaders)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}`,
    });
    const send = this.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(this.url, { method: 'POST', headers: allHeaders, agent: false });
    this.open.add(req);
    let closedByClient = false;
    let ended = false;
    const end = (by: 'client' | 'server', reason: string): void => {
      if (ended) return;
      ended = true;
      this.open.delete(req);
      this.recorder.record({ kind: 'stream-closed', channel, by, reason });
    };
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (closedByClient) return;
      if (ended) return;
      const code = error.code ?? error.message;
      if (
        code === 'ECONNREFUSED' ||
        code === 'ENOTFOUND' ||
        code === 'EHOSTUNREACH' ||
        code === 'ECONNRESET' ||
        code === 'EAI_AGAIN'
      ) {
        this.recorder.fail(
          new LabError(
            'LAB040',
            `${channel} to ${this.shownUrl} failed (${code}); is the server running and listening there?`,
          ),
        );
      } else this.recorder.fail(new LabError('LAB040', `${channel} to ${this.shownUrl} failed (${code})`));
      end('server', `connection error ${code}`);
    });
    req.on('response', (response) => {
      const responseHeaders = keptHeaders(response);
      if (typeof responseHeaders['mcp-session-id'] === 'string' && this.sessionId === null)
        this.sessionId = responseHeaders['mcp-session-id'];
      this.recorder.record({
        kind: 'http-response',
        channel,
        status: response.statusCode ?? 0,
        headers: responseHeaders,
      });
      const type = (responseHeaders['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      response.on('error', () => {
        // A stream the probe closed, or the server reset: recorded by 'close' below.
      });
      response.on('close', () =>
        end(closedByClient ? 'client' : 'server', closedByClient ? 'the probe closed it' : 'the server ended it'),
      );
      if (type === 'text/event-stream') this.readSse(response, channel);
      else this.readBody(response, channel, type);
    });
    req.end(body);
    return {
      channel,
      closeStream: (reason: string) => {
        if (ended) return;
        closedByClient = true;
        end('client', reason);
        req.destroy();
      },
    };
  }

  private readSse(response: IncomingMessage, channel: string): void {
    const messageMax = this.recorder.bounds.messageBytesMax;
    let ignoredField = false;
    const parser = createParser({
      // An event that never ends (no blank line) is buffered by the parser: bounded like one message, in characters.
      maxBufferSize: messageMax,
      onEvent: (event) => {
        if (this.recorder.failed !== null) return;
        // Its bytes were counted against the total as they arrived; here it counts as one message.
        const bytes = Buffer.byteLength(event.data);
        this.recorder.countMessage(`an SSE event on ${channel}`);
        if (bytes > messageMax)
          this.recorder.fail(
            new LabError(
              'LAB045',
              `an SSE event of ${bytes} bytes on ${channel}, more than the probe reads (${messageMax})`,
            ),
          );
        // An event with empty data primes a 2025-11-25 client for resumption; it carries no message.
        if (this.recorder.failed !== null || event.data.trim() === '') return;
        const message = parseMessage(this.recorder, event.data, `an SSE event on ${channel}`);
        if (message !== null)
          this.recorder.record({ kind: 'message', from: 'server', to: 'client', channel, message, bytes });
      },
      onComment: (comment) => {
        if (this.recorder.failed !== null) return;
        this.recorder.countMessage(`an SSE comment on ${channel}`);
        if (this.recorder.failed === null)
          this.recorder.record({ kind: 'sse-comment', channel, text: comment.slice(0, 80) });
      },
      onError: (error) => {
        if (error.type === 'unknown-field' || error.type === 'invalid-retry') {
          // The SSE format (WHATWG HTML, server-sent events) ignores a field of any other name, and a retry that is not digits: so does the probe, saying so once per stream.
          if (ignoredField || this.recorder.failed !== null) return;
          ignoredField = true;
          this.recorder.record({
            kind: 'note',
            text: `the SSE stream of ${channel} holds fields the SSE format does not define or cannot read (first: ${quote((error.field ?? '').slice(0, 40))}${error.type === 'invalid-retry' ? ` with value ${quote((error.value ?? '').slice(0, 40))}` : ''}): ignored, as the format says`,
          });
          return;
        }
        if (error.type === 'max-buffer-size-exceeded')
          this.recorder.fail(
            new LabError(
              'LAB045',
              `an SSE event on ${channel} grew past ${messageMax} characters without ending (no blank line), more than the probe reads; the probe stopped and ended the connection`,
            ),
          );
        else
          this.recorder.fail(
            new LabError('LAB043', `the SSE stream of ${channel} is malformed (${error.message}); the probe stopped`),
          );
      },
    });
    readUtf8(response, this.recorder, `the SSE stream of ${channel}`, (chunk, bytes) => {
      if (this.recorder.failed !== null) return;
      this.recorder.countBytes(bytes);
      if (this.recorder.failed === null) parser.feed(chunk);
      // Past a bound nothing more is read from this stream: its bytes are not kept anywhere.
      if (this.recorder.failed !== null) response.destroy();
    });
  }

  private readBody(response: IncomingMessage, channel: string, type: string): void {
    let body = '';
    let tooBig = false;
    readUtf8(response, this.recorder, `the body of ${channel}'s response`, (chunk) => {
      if (tooBig) return;
      body += chunk;
      if (Buffer.byteLength(body) > this.recorder.bounds.messageBytesMax) {
        tooBig = true;
        this.recorder.fail(
          new LabError(
            'LAB045',
            `the body of ${channel}'s response is longer than ${this.recorder.bounds.messageBytesMax} bytes`,
          ),
        );
        response.destroy();
      }
    });
    response.on('end', () => {
      if (tooBig || this.recorder.failed !== null) return;
      if (body.trim() === '') return;
      this.recorder.countReceived(Buffer.byteLength(body), `the body of ${channel}'s response`);
      if (type !== 'application/json') {
        // Not JSON-RPC at all: recorded as a note; the client decides whether that ends the run.
        this.recorder.record({
          kind: 'note',
          text: `${channel} answered ${response.statusCode} with ${type === '' ? 'no Content-Type' : type}: ${quote(body.trim())}`,
        });
        return;
      }
      const message = parseMessage(this.recorder, body, `the JSON body of ${channel}'s response`);
      if (message !== null)
        this.recorder.record({
          kind: 'message',
          from: 'server',
          to: 'client',
          channel,
          message,
          bytes: Buffer.byteLength(body),
        });
    });
  }

  stderrText(): string {
    return '';
  }

  async close(): Promise<void> {
    for (const req of this.open) req.destroy();
    this.open.clear();
  }
}
