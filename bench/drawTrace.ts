/**
 * Where the page's draw of a long run goes (a script, not a test): serves a build, draws the
 * ~20,000-event run as bench/ui.bench.ts does, and records a Chromium performance trace over the draw.
 * Prints the main thread's long tasks (> 50 ms) with what ran in them, its busy time by kind, the
 * page's performance marks, and the wall time; writes the raw trace to `--out` (default
 * /tmp/draw-trace.json) for DevTools.
 * The wall times of a loaded machine include the time its threads waited for a core: each long task
 * also says the CPU time its thread spent. `--profile` adds the CPU profile's self time by function
 * per thread (a build with `--minify false` names them); `--analyze file` reads a saved trace again.
 * Performance marks and measures whose names start with `p:` (page) or `w:` (worker) are listed in
 * order, to time the parts of the draw while investigating.
 * Usage: npx tsx bench/drawTrace.ts [--dir dist-unplaced] [--build] [--unplaced] [--runs 3] [--each] [--profile]
 *        [--out file] [--query '?scenario=…'] | --analyze file
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { servedBuild } from './servedBuild';
import { drawn, longTasks, watchLongTasks } from './longDraw';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const PORT = Number(process.env.LAB_BENCH_PORT ?? 4290);
const dir = arg('dir', 'dist-unplaced');
const runs = Number(arg('runs', '3'));
const out = arg('out', '/tmp/draw-trace.json');
const query = arg('query', '?scenario=C&progressEveryMs=1&workMs=5000&maxTimeoutMs=100000&idleTimeoutMs=100000');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event: less than `dur` when the machine's load kept the thread waiting. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; callTime?: number };
}

const analyze = arg('analyze', '');
if (analyze !== '') {
  const saved = JSON.parse(readFileSync(analyze, 'utf8')) as { traceEvents: TraceEvent[] };
  summarize(saved.traceEvents);
  profileByThread(saved.traceEvents);
  process.exit(0);
}
const served = await servedBuild({
  port: PORT,
  outDir: dir,
  build: flag('build'),
  env: flag('unplaced') ? { VITE_LAB_LABEL_PLACEMENT: 'unplaced' } : {},
});
try {
  const page = await served.browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(page);
  const cdp = await page.context().newCDPSession(page);
  for (let run = 0; run < runs; run++) {
    await page.goto(`${served.base}/?scenario=A`);
    await page.waitForSelector('main[data-status="done"]');
    const traced = flag('each') || run === runs - 1;
    const chunks: TraceEvent[] = [];
    const collect = (data: { value: unknown[] }) => chunks.push(...(data.value as TraceEvent[]));
    if (traced) {
      cdp.on('Tracing.dataCollected', collect);
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'blink.user_timing',
            'toplevel',
            ...(flag('profile') ? ['disabled-by-default-v8.cpu_profiler'] : []),
            'v8',
            'blink',
            'loading',
          ],
        },
      });
    }
    const started = Date.now();
    await page.evaluate((search) => history.replaceState(null, '', `/${search}`), query);
    await page.reload();
    await drawn(page);
    const ms = Date.now() - started;
    const tasks = await longTasks(page);
    const events = await page.locator('main').getAttribute('data-events');
    console.log(
      `draw ${run + 1}: ${events} events in ${ms} ms; long tasks ${tasks.map((t) => Math.round(t)).join(', ') || 'none'}`,
    );
    if (!traced) continue;
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    writeFileSync(out, JSON.stringify({ traceEvents: chunks }));
    summarize(chunks);
    profileByThread(chunks);
  }
} finally {
  await served.close();
}

function summarize(events: TraceEvent[]): void {
  const threadName = new Map<string, string>();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name')
      threadName.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  const threads = [...threadName.entries()];
  const mainKey =
    threads.find(
      ([key, name]) =>
        name === 'CrRendererMain' &&
        events.some((e) => `${e.pid}:${e.tid}` === key && e.name === 'RunTask' && (e.dur ?? 0) > 20_000),
    )?.[0] ?? threads.find(([, name]) => name === 'CrRendererMain')?.[0];
  const on = (key: string | undefined) => events.filter((event) => `${event.pid}:${event.tid}` === key);
  const mainEvents = on(mainKey);
  const tasks = mainEvents.filter((event) => event.name === 'RunTask' && event.ph === 'X');
  const t0 = Math.min(...tasks.map((task) => task.ts));
  const t1 = Math.max(...tasks.map((task) => task.ts + (task.dur ?? 0)));
  const busy = tasks.reduce((sum, task) => sum + (task.dur ?? 0), 0);
  const cpu = tasks.reduce((sum, task) => sum + (task.tdur ?? 0), 0);
  const longestCpu = Math.max(0, ...tasks.map((task) => task.tdur ?? 0));
  console.log(
    `main thread: ${tasks.length} tasks, busy ${(busy / 1000).toFixed(0)} ms (CPU ${(cpu / 1000).toFixed(0)} ms, longest task's CPU ${(longestCpu / 1000).toFixed(0)} ms) over ${((t1 - t0) / 1000).toFixed(0)} ms`,
  );
  // What ran inside the long tasks: the top-level children by name (and a function call's url/name).
  const inside = (task: TraceEvent) =>
    mainEvents.filter(
      (event) =>
        event !== task &&
        event.ph === 'X' &&
        event.ts >= task.ts &&
        event.ts + (event.dur ?? 0) <= task.ts + (task.dur ?? 0),
    );
  for (const task of tasks.filter((t) => (t.dur ?? 0) > 30_000)) {
    const children = inside(task)
      .filter((event) => (event.dur ?? 0) > 3_000)
      .slice(0, 8)
      .map((event) => {
        const data = event.args?.data ?? {};
        const what =
          (data.functionName as string) || (data.type as string) || (data.url as string)?.split('/').pop() || '';
        return `${event.name}${what ? `(${what})` : ''} ${((event.dur ?? 0) / 1000).toFixed(0)}`;
      });
    console.log(
      `  task at +${((task.ts - t0) / 1000).toFixed(0)} ms: ${((task.dur ?? 0) / 1000).toFixed(0)} ms (CPU ${((task.tdur ?? 0) / 1000).toFixed(0)} ms): ${children.join('; ')}`,
    );
  }
  const byName = new Map<string, number>();
  for (const event of mainEvents)
    if (
      event.ph === 'X' &&
      [
        'FunctionCall',
        'EvaluateScript',
        'v8.compile',
        'Layout',
        'UpdateLayoutTree',
        'Paint',
        'MinorGC',
        'MajorGC',
        'V8.GC_SCAVENGER',
        'ParseHTML',
        'EventDispatch',
        'TimerFire',
        'FireAnimationFrame',
        'v8.compileModule',
        'v8.evaluateModule',
        'HitTest',
        'PrePaint',
        'Layerize',
        'Commit',
      ].includes(event.name)
    )
      byName.set(event.name, (byName.get(event.name) ?? 0) + (event.dur ?? 0));
  console.log(
    `  by kind: ${[...byName.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => `${name} ${(us / 1000).toFixed(0)}`)
      .join(', ')}`,
  );
  const marks = events.filter(
    (event) => event.cat.includes('blink.user_timing') && /^[pw]:/.test(event.name) && event.ph !== 'e',
  );
  for (const mark of marks.sort((a, b) => a.ts - b.ts)) {
    const callTime = mark.args?.callTime;
    const dur = mark.dur ?? (mark.ph === 'b' && callTime !== undefined ? callTime - mark.ts : undefined);
    console.log(
      `  ${mark.name} at +${((mark.ts - t0) / 1000).toFixed(0)} ms${dur ? ` (${(dur / 1000).toFixed(1)} ms)` : ''}`,
    );
  }
  // The workers' busy time.
  for (const [key, name] of threads)
    if (name.includes('Worker') || name.includes('lab-engine')) {
      const work = on(key).filter((event) => event.name === 'RunTask' || event.name === 'FunctionCall');
      const runs = work.filter((e) => e.name === 'RunTask');
      const total = runs.reduce((sum, event) => sum + (event.dur ?? 0), 0);
      const workerCpu = runs.reduce((sum, event) => sum + (event.tdur ?? 0), 0);
      if (total > 0) {
        const first = Math.min(...work.map((e) => e.ts));
        const last = Math.max(...work.map((e) => e.ts + (e.dur ?? 0)));
        console.log(
          `  ${name}: busy ${(total / 1000).toFixed(0)} ms (CPU ${(workerCpu / 1000).toFixed(0)} ms) from +${((first - t0) / 1000).toFixed(0)} to +${((last - t0) / 1000).toFixed(0)} ms`,
        );
      }
    }
}

/** Self time by function per thread, from the trace's CPU profile samples (ProfileChunk events). */
export function profileByThread(events: TraceEvent[], top = 25): void {
  interface Node {
    id: number;
    parent?: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }
  const profiles = new Map<string, { nodes: Map<number, Node>; samples: number[]; deltas: number[]; tid: number }>();
  for (const event of events) {
    if (event.name !== 'ProfileChunk' && event.name !== 'Profile') continue;
    const key = `${event.pid}:${(event as unknown as { id: string }).id}`;
    const profile = profiles.get(key) ?? {
      nodes: new Map<number, Node>(),
      samples: [] as number[],
      deltas: [] as number[],
      tid: event.tid,
    };
    profiles.set(key, profile);
    const data = event.args?.data as
      { cpuProfile?: { nodes?: Node[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    for (const node of data?.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.samples.push(...(data?.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data?.timeDeltas ?? []));
  }
  const names = new Map<string, string>();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name')
      names.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  for (const [key, profile] of profiles) {
    const self = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const node = profile.nodes.get(profile.samples[i] as number);
      const dt = profile.deltas[i + 1] ?? 0;
      if (node === undefined) continue;
      const { functionName, url = '', lineNumber } = node.callFrame;
      if (functionName === '(idle)' || functionName === '(program)') continue;
      const label = `${functionName || '(anon)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
      self.set(label, (self.get(label) ?? 0) + dt);
      total += dt;
    }
    if (total < 20_000) continue;
    const thread = names.get(`${key.split(':')[0]}:${profile.tid}`) ?? String(profile.tid);
    console.log(`profile ${thread}: ${(total / 1000).toFixed(0)} ms sampled`);
    for (const [label, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`    ${(us / 1000).toFixed(1).padStart(7)} ms  ${label}`);
  }
}
