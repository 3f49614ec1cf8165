// The backoff exercise (docs/requirements.md RV-4, RV-5): the starter (no jitter) breaks the herd's spread and only
// that; the reference holds every statement; each planted wrong solution breaks exactly its statement;
// a breach found in a run carries an ordering that replays to the same breach.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { ComponentProbe, parseSchedule, runScenario } from '../engine';
import { findScenario } from '../scenarios';
import { Caller } from './caller';
import { backoffExercise as def, busiestWindow } from './exercises/backoff';
import { grade, RUNS_TO_END } from './grade';
import type { ComponentSource } from './runtime';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { CheckReport, FailingRun } from './types';

const solution = (name: string) => readFileSync(new URL(`./solutions/${name}.js`, import.meta.url), 'utf8');

let qjs: QuickJSWASMModule;
const opened: ComponentSource[] = [];

beforeAll(async () => {
  qjs = await loadQuickJs();
});

afterAll(() => {
  for (const source of opened) source.close();
});

function open(code: string): ComponentSource {
  const source = sandboxSource(qjs, code, def.exports);
  opened.push(source);
  return source;
}

function check(code: string): CheckReport {
  return grade(def, open(code));
}

const broken = (report: CheckReport) =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

/** Replays one failing ordering with a fresh instance of the same code: the breaches it reports. */
function replay(code: string, failing: FailingRun) {
  const source = open(code);
  const instance = source.open();
  try {
    const probe = new ComponentProbe();
    const caller = new Caller(instance, null, probe);
    runScenario(findScenario(failing.scenario), {
      transport: failing.transport,
      settings: failing.settings,
      schedule: parseSchedule(failing.schedule),
      components: { probe, ...def.components(caller, probe) },
    });
    return probe.breaches;
  } finally {
    instance.dispose();
  }
}

/** A full-jitter body with the given expression for the wait (h: a hash in [0, 2³²), ceiling: the capped ceiling). */
const jitter = (wait: string) => `
function mix(v) { let h = v >>> 0; h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16; return h >>> 0; }
export function backoffDelayMs(clientId, attempt) {
  const ceiling = Math.min(250 * 2 ** attempt, 8000);
  const h = mix(mix(Math.imul(clientId + 1, 0x27d4eb2f)) ^ Math.imul(attempt + 1, 0x165667b1));
  return ${wait};
}`;

describe('the backoff exercise', () => {
  it('the statements are the contract: delay-in-range, deterministic, spread-herd, runs-to-end', () => {
    expect(def.statements.map((statement) => statement.id)).toEqual([
      'delay-in-range',
      'deterministic',
      'spread-herd',
      RUNS_TO_END,
    ]);
  });

  it('the starter ("reconnect without jitter") breaks the spread, and only the spread: every client in the same instant', () => {
    const report = check(def.starter);
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(broken(report)).toEqual(['spread-herd']);
    const spread = report.statements.find((statement) => statement.id === 'spread-herd');
    expect(spread?.explanation).toContain('at attempt 0, 10,000 of the 10,000 clients wait between 250 and 350 ms');
    // Clients in lockstep meet the server together: the explorer tries who of them is admitted.
    expect(report.states).toBeGreaterThan(def.runs.length * 10);
  });

  it('the reference holds every statement, every ordering explored', () => {
    const report = check(solution('backoff'));
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.complete).toBe(true);
    expect(report.passed).toBe(true);
  });

  it('the lab’s own backoff (no components) is the hidden reference: the runs end, and its spread is what the statement asks', () => {
    for (const run of def.runs) {
      const transcript = runScenario(findScenario(run.scenario), { transport: run.transport, settings: run.settings });
      expect((transcript.outcome as { clients: number }).clients).toBe(run.settings?.clients);
    }
    const reference = open(solution('backoff')).open();
    try {
      const delays = Float64Array.from(
        { length: 10_000 },
        (_, id) => reference.call('backoffDelayMs', [id, 0]) as number,
      );
      expect(busiestWindow(delays).count).toBeLessThanOrEqual(5_000);
      expect(busiestWindow(delays).count).toBeGreaterThan(3_000);
    } finally {
      reference.dispose();
    }
    expect(busiestWindow(new Float64Array(10_000).fill(250))).toEqual({ count: 10_000, startMs: 250 });
  });

  it('uncapped breaks delay-in-range only, found in a run past the cap, and its ordering replays to the same breach', () => {
    const code = solution('backoff-uncapped');
    const report = check(code);
    expect(broken(report)).toEqual(['delay-in-range']);
    const statement = report.statements.find((entry) => entry.id === 'delay-in-range');
    expect(statement?.explanation).toMatch(/^backoffDelayMs\(\d+, [6-9]\) answered \d+ ms, outside \[0, 8000\]/);
    const failing = statement?.failing;
    expect(failing).toBeDefined();
    expect(statement?.calls?.at(-1)?.call).toMatch(/^backoffDelayMs\(\d+, [6-9]\)$/);
    const breaches = replay(code, failing!);
    expect(breaches.map((breach) => [breach.statement, breach.explanation, breach.step, breach.atMs])).toContainEqual([
      'delay-in-range',
      statement?.explanation,
      failing!.step,
      failing!.atMs,
    ]);
  });

  it('a generator kept between calls breaks deterministic only', () => {
    const report = check(solution('backoff-stateful'));
    expect(broken(report)).toEqual(['deterministic']);
    expect(report.statements.find((entry) => entry.id === 'deterministic')?.explanation).toContain('asked again');
  });

  it('jitter on the first attempt only breaks spread-herd, at the retry wave (attempt 3), not at attempt 0', () => {
    const report = check(solution('backoff-first-only'));
    expect(broken(report)).toEqual(['spread-herd']);
    const explanation = report.statements.find((entry) => entry.id === 'spread-herd')?.explanation ?? '';
    expect(explanation).toContain('at attempt 3');
    expect(explanation).not.toContain('at attempt 0');
  });

  it('answers that depend on the order of the calls (a memo filled by a counter) break deterministic', () => {
    const report = check(`const seen = new Map(); let next = 0;
export function backoffDelayMs(clientId, attempt) {
  const key = clientId + ':' + attempt;
  if (!seen.has(key)) { next = (next * 37 + 11) % 251; seen.set(key, next); }
  return Math.min(seen.get(key), Math.min(250 * 2 ** attempt, 8000));
}`);
    expect(broken(report)).toEqual(['deterministic']);
    expect(report.statements.find((entry) => entry.id === 'deterministic')?.explanation).toContain(
      'not on the order of calls',
    );
  });

  it('a fractional wait breaks delay-in-range in the first ordering of a run, which replays', () => {
    const code = jitter('(h / 0x100000000) * ceiling');
    const report = check(code);
    expect(broken(report)).toEqual(['delay-in-range']);
    const statement = report.statements.find((entry) => entry.id === 'delay-in-range');
    expect(statement?.explanation).toContain('not a whole number of milliseconds');
    expect(statement?.failing?.scenario).toBe('herd');
    expect(replay(code, statement!.failing!).map((breach) => breach.explanation)).toContain(statement?.explanation);
  });

  it('a wait past the ceiling that no run reaches is still found over the herd (attempt 3), with no ordering to show', () => {
    // ceiling + 1 for one client in a thousand, only at attempt 3: the runs' few clients never draw it.
    const report = check(
      jitter('attempt === 3 && clientId % 1000 === 999 ? ceiling + 1 : Math.floor((h / 0x100000000) * (ceiling + 1))'),
    );
    expect(broken(report)).toEqual(['delay-in-range']);
    const statement = report.statements.find((entry) => entry.id === 'delay-in-range');
    expect(statement?.explanation).toContain('backoffDelayMs(999, 3) answered 2001 ms, outside [0, 2000]');
    expect(statement?.failing).toBeUndefined();
  });

  it('a wait that is not a number is the student’s shape error, with the run where it happened', () => {
    const report = check(`export function backoffDelayMs(clientId, attempt) { return String(attempt); }`);
    expect(report.passed).toBe(false);
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toContain('backoffDelayMs(0, 0) returned "0"');
    expect(report.error?.where?.scenario).toBe('herd');
  });
});
