/**
 * The UI benchmark (npm run bench:ui): a script, not a test. It builds the lab, serves the production
 * build with vite preview and drives it in Chromium, printing the page's budget figures:
 * - initial JS (gzip): index.html's scripts and their static imports, everything before the first paint; and whether the first load of scenario A fetched sql-wasm;
 * - a ~20,000-event run: wall time from asking for it to the diagram drawn, and the longest main-thread task,
 *   beside the same draw with wire-label placement off (a second build, VITE_LAB_LABEL_PLACEMENT=unplaced,
 *   served beside the first), the two drawn in turn three times and the medians printed;
 * - one step at ~100,000 events: the time from the click to the next painted frame (median of 10).
 * Figures vary with the machine; tests assert behaviour, this prints times.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { servedBuild } from './servedBuild';
import { budgetMark, budgetSummary } from './budget';
import { drawn, longTasks, watchLongTasks } from './longDraw';

const PORT = Number(process.env.LAB_BENCH_PORT ?? 4190);
const BASE = `http://127.0.0.1:${PORT}`;

/** A built module's static imports (`import … from "./x.js"`, `import "./x.js"`), not its dynamic ones (`import("./x.js")`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)].map(
    (match) => `assets/${match[1] as string}`,
  );
}

/**
 * Everything index.html loads before its first paint: its scripts and, transitively, their static
 * imports (the browser fetches those before it runs the entry). Lazy chunks are not counted.
 */
function initialJsGzip(dir = 'dist'): { files: string[]; bytes: number } {
  const html = readFileSync(`${dir}/index.html`, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((match) => match[1] as string);
  for (let i = 0; i < files.length; i += 1) {
    for (const imported of staticImports(readFileSync(`${dir}/${files[i] as string}`, 'utf8')))
      if (!files.includes(imported)) files.push(imported);
  }
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(`${dir}/${file}`), { level: 9 }).length, 0);
  return { files, bytes };
}

async function drawRun(
  page: Page,
  query: string,
  base = BASE,
): Promise<{ events: number; ms: number; longestTaskMs: number }> {
  await page.goto(`${base}/?scenario=A`);
  await page.waitForSelector('main[data-status="done"]');
  await page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks = []));
  const started = Date.now();
  await page.evaluate((search) => {
    history.replaceState(null, '', `/${search}`);
  }, query);
  await page.reload();
  await drawn(page);
  const ms = Date.now() - started;
  const events = Number(await page.locator('main').getAttribute('data-events'));
  const longestTaskMs = Math.max(0, ...(await longTasks(page)));
  return { events, ms, longestTaskMs };
}

async function stepTimes(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const back = [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Step back');
    const spent: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      back?.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      spent.push(performance.now() - started);
    }
    return spent;
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const served = await servedBuild({ port: PORT });
// The same lab built with its wire labels left unplaced: what the draw costs without placement, measured in this run.
const UNPLACED_PORT = PORT + 1;
const unplaced = await servedBuild({
  port: UNPLACED_PORT,
  outDir: 'dist-unplaced',
  env: { VITE_LAB_LABEL_PLACEMENT: 'unplaced' },
});
try {
  const page = await served.browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(page);
  const unplacedPage = await unplaced.browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(unplacedPage);

  const js = initialJsGzip();
  console.log(
    `initial JS: ${(js.bytes / 1000).toFixed(1)} kB gzip in ${js.files.length} file(s): the entry and its static imports (${js.files.map((file) => file.replace('assets/', '')).join(', ')}) (budget 150 kB)${budgetMark('initial JS', js.bytes <= 150_000)}`,
  );

  const wasm: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasm.push(request.url());
  });
  await page.goto(`${BASE}/?scenario=A`);
  await page.waitForSelector('main[data-status="done"]');
  await page.waitForTimeout(500);
  console.log(
    `first load of A: sql-wasm fetched by the page or its workers: ${wasm.filter((url) => !url.includes('sw')).length > 0 ? 'yes' : 'no'} (the service worker precaches it for offline use)`,
  );

  // The two builds draw the run in turn, three times each: both see the machine as it is during the run.
  const TWENTY = '?scenario=C&progressEveryMs=1&workMs=5000&maxTimeoutMs=100000&idleTimeoutMs=100000';
  const placedDraws: Array<Awaited<ReturnType<typeof drawRun>>> = [];
  const unplacedDraws: Array<Awaited<ReturnType<typeof drawRun>>> = [];
  for (let round = 0; round < 3; round++) {
    placedDraws.push(await drawRun(page, TWENTY));
    unplacedDraws.push(await drawRun(unplacedPage, TWENTY, `http://127.0.0.1:${UNPLACED_PORT}`));
  }
  const events = placedDraws[0]?.events ?? 0;
  const drawn = median(placedDraws.map((draw) => draw.ms));
  const longest = median(placedDraws.map((draw) => draw.longestTaskMs));
  const bare = median(unplacedDraws.map((draw) => draw.ms));
  const bareLongest = median(unplacedDraws.map((draw) => draw.longestTaskMs));
  const spread = (draws: typeof placedDraws) => draws.map((draw) => draw.ms).join(', ');
  console.log(
    `run of ${events.toLocaleString('en-US')} events: drawn in ${drawn} ms (median of ${spread(placedDraws)}); longest main-thread task ${Math.round(longest)} ms (budget: < 1000 ms, no task > 50 ms)${budgetMark(`draw of ${events} events`, drawn < 1000)}${budgetMark(`longest task drawing ${events} events`, longest <= 50)}`,
  );
  console.log(
    `  the same run with wire-label placement off: drawn in ${bare} ms (median of ${spread(unplacedDraws)}); longest main-thread task ${Math.round(bareLongest)} ms; placement adds ${drawn - bare} ms`,
  );

  const hundred = await drawRun(
    page,
    '?scenario=C&progressEveryMs=1&workMs=25000&maxTimeoutMs=100000&idleTimeoutMs=100000&eventsMax=10000000',
  );
  console.log(
    `run of ${hundred.events.toLocaleString('en-US')} events: drawn in ${hundred.ms} ms; longest main-thread task ${Math.round(hundred.longestTaskMs)} ms`,
  );
  const steps = await stepTimes(page);
  console.log(
    `one step at ${hundred.events.toLocaleString('en-US')} events: median ${median(steps).toFixed(1)} ms, worst ${Math.max(...steps).toFixed(1)} ms of 10 (budget < 50 ms)${budgetMark(`one step at ${hundred.events} events`, Math.max(...steps) < 50)}`,
  );
} finally {
  await unplaced.close();
  await served.close();
}
console.log(budgetSummary('bench:ui, page'));
