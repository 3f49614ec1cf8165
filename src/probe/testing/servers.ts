import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Paths and commands of the servers the probe's tests start themselves, all on 127.0.0.1. */
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
export const BROKEN_SERVER = here('./brokenServer.mjs');
export const SDK_SERVER = here('./sdkServer.mjs');
export const SDK_V2_SERVER = here('./sdkV2Server.mjs');
export const TASK_SERVER = here('./taskServer.mjs');
/** A stdio task server built on @modelcontextprotocol/ext-tasks's V2 schemas; `--progress-on-task` makes it send progress and log notifications for a task. */
export const EXT_TASK_SERVER = here('./extTaskServer.mjs');
export const LOOPBACK_ONLY = here('./loopbackOnly.mjs');
export const SERVER_EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

/** A port free on 127.0.0.1 a moment ago (for a server that cannot be told to pick its own). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface StartedServer {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 15_000;

/** Starts an HTTP server process and waits until its stderr says it listens; rejects after 15 s. */
export function startHttpServer(
  args: string[],
  env: Record<string, string>,
  portOf: (stderr: string) => number | null,
  path: string,
): Promise<StartedServer> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const port = portOf(stderr);
      if (port === null) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${port}${path}`, child, stderr: () => stderr, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it listened: ${stderr}`));
    });
  });
}

export const listeningOn = (stderr: string): number | null => {
  const match = /listening on (?:port )?(\d+)/i.exec(stderr);
  return match === null ? null : Number(match[1]);
};

/** server-everything over Streamable HTTP, held to 127.0.0.1 by the loopback preload. */
export async function startServerEverythingHttp(): Promise<StartedServer> {
  const port = await freePort();
  return startHttpServer(
    ['--import', LOOPBACK_ONLY, SERVER_EVERYTHING, 'streamableHttp'],
    { PORT: String(port) },
    (stderr) => (listeningOn(stderr) === port ? port : null),
    '/mcp',
  );
}
