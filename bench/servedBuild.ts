/**
 * What both page benchmarks need (bench/ui.bench.ts, bench/ledgerImport.bench.ts): the production
 * build served by `vite preview` on a port, and the Chromium the e2e tests use
 * (scripts/check-chromium.mjs). `close()` stops both.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';

export interface ServedBuild {
  readonly base: string;
  readonly browser: Browser;
  close(): Promise<void>;
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
  if (build)
    execFileSync('npx', ['vite', 'build', '--outDir', outDir], { stdio: 'ignore', env: { ...process.env, ...env } });
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
