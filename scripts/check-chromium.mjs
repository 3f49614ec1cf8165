// Before the end-to-end tests: decide which Chromium Playwright drives, make sure it runs, and say which.
//
// Order: $CHROMIUM_PATH, then a system Chromium, then the headless Chromium that the npm package
// @sparticuz/chromium ships inside itself (Linux x64), unpacked on first use into
// node_modules/.cache/lab-chromium/ (npm may not run install scripts here, so nothing relies on a
// postinstall); on other platforms, Playwright's own download. LAB_BROWSER picks one source instead:
//   LAB_BROWSER=bundled     the npm-shipped Chromium, even where a system one exists (CI uses this)
//   LAB_BROWSER=system      $CHROMIUM_PATH or a system Chromium, never the bundled one
//   LAB_BROWSER=playwright  Playwright's own download (`npx playwright install chromium`: macOS, Windows)
//
// playwright.config.ts runs this script and reads the JSON it prints on stdout (`--json`); the one
// human line goes to stderr, so it is the first thing a test run shows. Run alone, it prints the line.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const MODES = ['auto', 'bundled', 'system', 'playwright'];
const SYSTEM_CANDIDATES = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [],
};

class BrowserError extends Error {}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the binary says about itself ("Chromium 153.0.8010.0"); Debian's wrapper prints noise on stderr, so stdout only. */
function versionOf(path, env) {
  try {
    const out = execFileSync(path, ['--version'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 20_000,
    });
    return out.toString().trim().split('\n').pop() || 'unknown version';
  } catch {
    return 'unknown version';
  }
}

function fromChromiumPath() {
  const path = process.env.CHROMIUM_PATH;
  if (path === undefined || path === '') return null;
  if (!executable(path)) throw new BrowserError(`CHROMIUM_PATH is set to ${path}, which is not an executable file.`);
  return { source: '$CHROMIUM_PATH', executablePath: path, env: {}, version: versionOf(path, {}) };
}

function fromSystem() {
  const path = (SYSTEM_CANDIDATES[process.platform] ?? []).find(executable);
  return path === undefined ? null : { source: 'system', executablePath: path, env: {}, version: versionOf(path, {}) };
}

/**
 * The npm-shipped Chromium (a headless shell with its own NSS/expat libraries, SwiftShader and fonts):
 * unpacked once per package version into the cache, into a scratch folder first and renamed into place,
 * so an interrupted unpack is never mistaken for a finished one.
 */
async function fromBundled() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new BrowserError(
      `The npm-shipped Chromium is built for Linux x64 only (this is ${process.platform} ${process.arch}).`,
    );
  }
  let entry;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    throw new BrowserError(
      'The devDependency @sparticuz/chromium is not installed: run npm ci (or npm install) first.',
    );
  }
  const packageDir = join(dirname(entry), '..');
  const { version: packageVersion } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const dir = join(root, 'node_modules', '.cache', 'lab-chromium', packageVersion);
  const executablePath = join(dir, 'chromium');
  let unpackedMs = null;
  if (!existsSync(join(dir, '.complete'))) {
    const startedMs = performance.now();
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    // The package's own inflate() writes into os.tmpdir(), which reads TMPDIR on each call.
    const savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const { inflate } = await import('@sparticuz/chromium');
      const bin = join(packageDir, 'bin');
      await Promise.all(
        ['chromium.br', 'al2023.tar.br', 'swiftshader.tar.br', 'fonts.tar.br'].map((file) => inflate(join(bin, file))),
      );
    } finally {
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
    }
    // The shipped fonts.conf points at /tmp/fonts; ours points at the unpacked fonts only, so text renders
    // the same on every machine whatever fonts it has installed.
    mkdirSync(join(scratch, 'fontconfig'));
    writeFileSync(
      join(scratch, 'fontconfig', 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fontconfig', 'cache')}</cachedir>\n</fontconfig>\n`,
    );
    writeFileSync(join(scratch, '.complete'), `${packageVersion}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
    unpackedMs = performance.now() - startedMs;
  }
  // Only libc comes from the machine: NSS, NSPR and expat come from the package (al2023/lib).
  const libraryPath = [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
  const env = { LD_LIBRARY_PATH: libraryPath, FONTCONFIG_PATH: join(dir, 'fontconfig') };
  return {
    source: `npm-shipped (@sparticuz/chromium ${packageVersion}${unpackedMs === null ? '' : `, unpacked in ${(unpackedMs / 1000).toFixed(1)} s`})`,
    executablePath,
    env,
    version: versionOf(executablePath, env),
  };
}

/** Playwright's own browser, downloaded by `npx playwright install chromium`; Playwright picks the binary. */
function fromPlaywright() {
  const { browsers } = JSON.parse(
    readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'browsers.json'), 'utf8'),
  );
  const shell =
    browsers.find((browser) => browser.name === 'chromium-headless-shell') ??
    browsers.find((browser) => browser.name === 'chromium');
  return {
    source: "Playwright's own download (npx playwright install chromium)",
    executablePath: null,
    env: {},
    version: `${shell.title} ${shell.browserVersion}`,
  };
}

async function resolveBrowser(mode) {
  if (mode === 'playwright') return fromPlaywright();
  if (mode === 'bundled') return fromBundled();
  const found = fromChromiumPath() ?? fromSystem();
  if (found !== null) return found;
  if (mode === 'system')
    throw new BrowserError('LAB_BROWSER=system, but CHROMIUM_PATH is not set and no system Chromium was found.');
  if (process.platform === 'linux' && process.arch === 'x64') return fromBundled();
  // Elsewhere the npm-shipped build does not run: Playwright's own download (if it is missing,
  // Playwright says to run `npx playwright install chromium`).
  return fromPlaywright();
}

const mode = process.env.LAB_BROWSER || 'auto';
const json = process.argv.includes('--json');
try {
  if (!MODES.includes(mode)) throw new BrowserError(`LAB_BROWSER=${mode} is not one of ${MODES.join(', ')}.`);
  const browser = await resolveBrowser(mode);
  const where =
    browser.executablePath === null
      ? ''
      : ` at ${relative(process.cwd(), browser.executablePath).startsWith('..') ? browser.executablePath : relative(process.cwd(), browser.executablePath)}`;
  console.error(`e2e: ${browser.version}, ${browser.source}${where}`);
  if (json) process.stdout.write(`${JSON.stringify({ mode, ...browser })}\n`);
} catch (error) {
  if (!(error instanceof BrowserError)) throw error;
  console.error(`e2e: ${error.message}
The end-to-end tests need a Chromium. Any of these works:
  npm ci                                         (Linux x64: the npm-shipped Chromium, used when nothing else is found)
  export CHROMIUM_PATH=/path/to/chromium-or-chrome
  npx playwright install chromium                (macOS, Windows, Linux arm64: Playwright's own download)
then run npm test again.`);
  process.exit(1);
}
