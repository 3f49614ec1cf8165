/**
 * What both page benchmarks need (bench/ui.bench.ts, bench/ledgerImport.bench.ts): the production
 * build served by `vite preview` on a port, and the Chromium the e2e tests use
 * (scripts/check-chromium.mjs). `close()` stops both.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium, type Browser } from '@playwright/test';

export interface ServedBuild {
  readonly base: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * Refuses a port another server already holds: `vite preview --strictPort` would exit, and the bench
 * would then time that other server's build (two benches at once on one default port did so, silently).
 */
async function ensurePortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(new Error(`port ${port} on 127.0.0.1 is in use (another bench?): set LAB_BENCH_PORT to a free port`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** `env`: variables the build reads (VITE_…), beside the process's own. */
export async function servedBuild({
  port,
  outDir = 'dist',
  build = true,
  env = {},
}: {
  port: number;
  outDir?: string;
  build?: boolean;
  env?: Record<string, string>;
}): Promise<ServedBuild> {
  const base = `http://127.0.0.1:${port}`;
  await ensurePortFree(port);
  // Emptied first even outside the project (vite empties only an outDir inside it): stale chunks left
  // there would be precached by the service worker beside the new ones.
  if (build)
    execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
      stdio: 'ignore',
      env: { ...process.env, ...env },
    });
  const server = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--port', String(port), '--strictPort'], {
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    if (server.pid !== undefined) process.kill(-server.pid);
  };
  try {
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(base);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const info = JSON.parse(
      execFileSync(process.execPath, ['scripts/check-chromium.mjs', '--json'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as { executablePath: string | null; env: Record<string, string> };
    const browser = await chromium.launch({
      executablePath: info.executablePath ?? undefined,
      env: { ...process.env, ...info.env },
      args: ['--no-sandbox', '--disable-gpu'],
    });
    return {
      base,
      browser,
      async close() {
        try {
          await browser.close();
        } finally {
          stop();
        }
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}
