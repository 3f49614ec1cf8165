import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { Exploration } from '../engine';
import { findScenario } from '../scenarios';
import { bufferExercise } from './exercises/buffer';
import { grade, replayOrdering } from './grade';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { CheckReport } from './types';

let qjs: QuickJSWASMModule;
beforeAll(async () => {
  qjs = await loadQuickJs();
});

const solution = (name: string) => readFileSync(new URL(`./solutions/${name}`, import.meta.url), 'utf8');

function check(code: string): CheckReport {
  const source = sandboxSource(qjs, code, bufferExercise.exports);
  try {
    return grade(bufferExercise, source);
  } finally {
    source.close();
  }
}

const broken = (report: CheckReport) =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

describe('the buffer exercise', () => {
  it('the starter (an unbounded buffer) breaks the capacity and, keeping every progress, coalescing', () => {
    const report = check(bufferExercise.starter);
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual(['within-capacity', 'coalesce-adjacent']);
    expect(report.passed).toBe(false);
  }, 120_000);

  it("the lab's own buffer (no component) breaks no invariant the exercise reads, in every ordering of its runs", () => {
    for (const run of bufferExercise.runs) {
      const exploration = new Exploration(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
      });
      while (!exploration.advance(500)) {
        // to the end
      }
      const result = exploration.result();
      expect(result.complete).toBe(true);
      expect(
        result.violations.filter((violation) => violation.invariant in bufferExercise.invariantStatements),
      ).toEqual([]);
      expect(result.endings.every((ending) => ending.error === undefined)).toBe(true);
    }
  });

  it('the reference solution holds every statement, in every ordering explored to the end', () => {
    const report = check(solution('buffer.js'));
    expect(report.error).toBeUndefined();
    expect(broken(report)).toEqual([]);
    expect(report.complete).toBe(true);
    expect(report.orderings).toBeGreaterThan(100);
    expect(report.passed).toBe(true);
  }, 120_000);

  it('a buffer that evicts a final response breaks "final never dropped", and only that; its failing ordering replays the drop', () => {
    const code = solution('buffer-evicts-final.js');
    const report = check(code);
    expect(broken(report)).toEqual(['final-never-dropped']);
    const failed = report.statements.find((statement) => statement.id === 'final-never-dropped');
    const failing = failed?.failing;
    expect(failing?.scenario).toBe('buffer-overload');
    expect(failed?.calls?.some((call) => call.call.startsWith('offer({"kind":"final"'))).toBe(true);
    // The ordering replays: the same run with the student's buffer drops a final response at the step named.
    const source = sandboxSource(qjs, code, bufferExercise.exports);
    try {
      const replayed = replayOrdering(bufferExercise, source, failing as NonNullable<typeof failing>);
      const events = replayed.transcript?.events ?? [];
      const drop = events.find(
        (event) => event.kind === 'buffer' && event.action === 'dropped' && event.what === 'final',
      );
      expect(drop?.seq).toBe(failing?.step);
    } finally {
      source.close();
    }
  }, 120_000);

  it('a buffer that forgets the refetch mark breaks "drop marked", and only that', () => {
    const code = solution('buffer.js').replace('return { ...next, needsRefetch: true };', 'return next;');
    expect(broken(check(code))).toEqual(['drop-marked']);
  }, 120_000);

  it('a wrong answer from offer is a shape error naming what it must return, with the ordering where it happened', () => {
    const report = check(
      'export function createBuffer() { return { offer() { return "ok"; }, take() { return null; } }; }',
    );
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toContain("'queued', 'coalesced', 'dropped-oldest' or 'refused'");
    expect(report.error?.where?.scenario).toBe('buffer-overload');
    expect(report.passed).toBe(false);
  }, 60_000);

  it('an exception in the student code names its message and line', () => {
    const report = check(
      'export function createBuffer() {\n  return { offer(item) {\n    throw new Error("full");\n  }, take() { return null; } };\n}',
    );
    expect(report.error?.kind).toBe('exception');
    expect(report.error?.message).toBe('Error: full');
    expect(report.error?.line).toBe(3);
  }, 60_000);

  it('grades the same code to the same report every time (but for the time it took)', () => {
    const strip = (report: CheckReport) => ({ ...report, elapsedMs: 0 });
    const code = solution('buffer-evicts-final.js');
    expect(strip(check(code))).toEqual(strip(check(code)));
  }, 120_000);
});
