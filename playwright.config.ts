import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

// End-to-end tests against the production build (vite build + vite preview) in Chromium.

interface ResolvedBrowser {
  mode: string;
  source: string;
  executablePath: string | null;
  env: Record<string, string>;
  version: string;
}

// Which Chromium: scripts/check-chromium.mjs decides ($CHROMIUM_PATH, a system Chromium, else the
// npm-shipped one, unpacked on first use; LAB_BROWSER overrides) and prints its one line. The config is
// evaluated again in each worker process; the answer travels to them in the environment.
function resolveBrowser(): ResolvedBrowser {
  const cached = process.env.LAB_BROWSER_RESOLVED;
  if (cached !== undefined) return JSON.parse(cached) as ResolvedBrowser;
  let out: string;
  try {
    out = execFileSync(process.execPath, ['scripts/check-chromium.mjs', '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
  } catch {
    process.exit(1); // the script said why
  }
  process.env.LAB_BROWSER_RESOLVED = out.trim();
  return JSON.parse(out) as ResolvedBrowser;
}

const browser = resolveBrowser();

/**
 * The preview server's port: LAB_E2E_PORT when set, else one the system reports free now. A fixed
 * default would meet a server another checkout left running there; the suite starts its own server and
 * never reuses one (below), so a taken port fails loudly instead of testing someone else's build. The
 * workers read the port the main process chose from the environment.
 */
function resolvePort(): number {
  const chosen = process.env.LAB_E2E_PORT ?? process.env.LAB_E2E_PORT_RESOLVED;
  if (chosen !== undefined) {
    const port = Number(chosen);
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      throw new Error(`LAB_E2E_PORT must be a port number from 1 to 65535, got "${chosen}"`);
    return port;
  }
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});";
  const port = Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  process.env.LAB_E2E_PORT_RESOLVED = String(port);
  return port;
}

const PORT = resolvePort();

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  reporter: 'list',
  retries: 0,
  // One worker: on a 2-core runner two Chromium instances run the suite slower, not faster.
  workers: 1,
  forbidOnly: true,
  // A test's whole budget: long enough for a shared machine, still short of a hang. At 30 s, a clean
  // clone's suite run beside three other jobs (load 15–17, the suite 1 h instead of 23 min) failed four
  // tests, each only by running past its budget (axe over Compare with a real SDK run, the probe file
  // checks, Remove faults, the Predict round over every scenario); none of them stopped making progress.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          ...(browser.executablePath === null ? {} : { executablePath: browser.executablePath }),
          ...(Object.keys(browser.env).length === 0 ? {} : { env: { ...process.env, ...browser.env } }),
          // The network here is closed: without the background-networking flags Chromium keeps dialling out.
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite build && npx vite preview --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
