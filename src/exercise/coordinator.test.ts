import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { ComponentProbe, Exploration, parseSchedule, runScenario, type Transcript } from '../engine';
import { checkTranscript } from '../engine/explore/invariants';
import { findScenario } from '../scenarios';
import { validateTranscriptMessages } from '../testing/mcpSchema';
import { Caller } from './caller';
import { coordinatorExercise as def } from './exercises/coordinator';
import { grade } from './grade';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { CheckReport, FailingRun } from './types';

const solution = (name: string): string => readFileSync(new URL(`./solutions/${name}.js`, import.meta.url), 'utf8');

let qjs: QuickJSWASMModule;
beforeAll(async () => {
  qjs = await loadQuickJs();
});

const sources: Array<{ close(): void }> = [];
afterAll(() => {
  for (const source of sources) source.close();
});

let starterReport: CheckReport | null = null;
const starter = (): CheckReport => (starterReport ??= check(def.starter));

function check(code: string): CheckReport {
  const source = sandboxSource(qjs, code, def.exports);
  sources.push(source);
  return grade(def, source);
}

const failing = (report: CheckReport): string[] =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);

/** Replays one ordering with a fresh instance of `code` in place: the transcript and the breaches the adapter saw. */
function replay(code: string, run: FailingRun): { transcript: Transcript; breaches: ComponentProbe['breaches'] } {
  const source = sandboxSource(qjs, code, def.exports);
  sources.push(source);
  const instance = source.open();
  try {
    const probe = new ComponentProbe();
    const caller = new Caller(instance, null, probe);
    const transcript = runScenario(findScenario(run.scenario), {
      transport: run.transport,
      settings: run.settings,
      schedule: parseSchedule(run.schedule),
      components: { probe, ...def.components(caller, probe) },
    });
    return { transcript, breaches: probe.breaches };
  } finally {
    instance.dispose();
  }
}

const INVARIANT_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(def.invariantStatements).map(([invariant, statement]) => [statement, invariant]),
);

describe('the coordinator exercise', () => {
  it("explores the lab's own coordinator in every run without a broken statement (the hidden reference)", () => {
    for (const run of def.runs) {
      const exploration = new Exploration(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
      });
      while (!exploration.advance(500)) {
        // slices
      }
      const result = exploration.result();
      expect(result.complete, `${run.scenario} ${run.transport}`).toBe(true);
      expect(
        result.violations.filter((violation) => def.invariantStatements[violation.invariant] !== undefined),
        `${run.scenario} ${run.transport}`,
      ).toEqual([]);
      expect(result.endings.every((ending) => ending.error === undefined)).toBe(true);
    }
  });

  it("the reference's answers put exactly the lab's own messages on the wire, in every run's first ordering", () => {
    const code = solution('coordinator');
    for (const run of def.runs) {
      const wire = (transcript: Transcript) =>
        transcript.events.flatMap((event) =>
          event.kind === 'message' ? [{ atMs: event.atMs, from: event.from, message: event.message }] : [],
        );
      const lab = runScenario(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
        schedule: parseSchedule('-'),
      });
      const { transcript, breaches } = replay(code, {
        scenario: run.scenario,
        transport: run.transport,
        settings: run.settings ?? {},
        schedule: '-',
        step: 0,
        atMs: 0,
        events: 0,
      });
      expect(breaches).toEqual([]);
      expect(wire(transcript), `${run.scenario} ${run.transport}`).toEqual(wire(lab));
      // The same ending; only the seq of what the client ignored moves (the reference's dropped reports are recorded).
      const ending = (outcome: unknown) => {
        const { clientIgnores, ...rest } = outcome as { clientIgnores: Array<{ seq: number }> };
        return { ...rest, clientIgnores: clientIgnores.map(({ seq: _seq, ...ignore }) => ignore) };
      };
      expect(ending(transcript.outcome), `${run.scenario} ${run.transport}`).toEqual(ending(lab.outcome));
    }
  });

  it('B at its jitter explores both ways of its race', () => {
    const b = def.runs.find((run) => run.scenario === 'B' && run.transport === 'stdio');
    const exploration = new Exploration(findScenario('B'), { transport: 'stdio', settings: b?.settings });
    while (!exploration.advance(500)) {
      // slices
    }
    const states = new Set(
      exploration.result().endings.map((ending) => (ending.distinct as { terminalState?: string }).terminalState),
    );
    expect([...states].sort()).toEqual(['cancelled', 'completed']);
  });

  it('the starter fails what the failure mode "responds after cancel" predicts, and nothing else', () => {
    const report = starter();
    expect(report.error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(failing(report)).toEqual(['nothing-after-cancel', 'late-cancel-ignored', 'no-progress-after-final']);
  }, 60_000);

  it('the reference passes every statement', () => {
    const report = check(solution('coordinator'));
    expect(report.error).toBeUndefined();
    expect(failing(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.orderings).toBeGreaterThan(def.runs.length);
  }, 60_000);

  it.each([
    ['coordinator-responds-after-cancel', 'nothing-after-cancel'],
    ['coordinator-late-cancel', 'late-cancel-ignored'],
    ['coordinator-progress-after-final', 'no-progress-after-final'],
    ['coordinator-progress-repeats', 'progress-increasing'],
    ['coordinator-accepts-invalid', 'invalid-cancel-ignored'],
    ['coordinator-never-responds', 'response-when-completed'],
  ])(
    '%s fails exactly %s, with a failing ordering that replays',
    (name, statement) => {
      const code = solution(name);
      const report = check(code);
      expect(report.error).toBeUndefined();
      expect(failing(report)).toEqual([statement]);
      const result = report.statements.find((entry) => entry.id === statement);
      const run = result?.failing;
      expect(run).toBeDefined();
      if (run === undefined) return;
      const { transcript, breaches } = replay(code, run);
      const invariant = INVARIANT_OF[statement];
      const seen = [
        ...breaches
          .filter((breach) => breach.statement === statement)
          .map((breach) => ({ step: breach.step, explanation: breach.explanation })),
        ...checkTranscript(transcript)
          .filter((breach) => breach.invariant === invariant)
          .map((breach) => ({ step: breach.step, explanation: breach.explanation })),
      ];
      expect(seen).toContainEqual({ step: run.step, explanation: result?.explanation });
      // What the student's answers put on the wire is still MCP: every message validates against the schema.
      expect(validateTranscriptMessages(transcript).problems).toEqual([]);
    },
    60_000,
  );

  it("the run follows the student's answers: the starter's response after the cancel really crosses the wire (A)", () => {
    const report = starter();
    const run = report.statements.find((entry) => entry.id === 'nothing-after-cancel')?.failing;
    expect(run?.scenario).toBe('A');
    if (run === undefined) return;
    const { transcript } = replay(def.starter, run);
    const outcome = transcript.outcome as { terminalState: string; finalResponse: boolean };
    // The failure-mode row's own check (respondsAfterCancel): cancelled, yet a response went out.
    expect(outcome.terminalState).toBe('cancelled');
    expect(outcome.finalResponse).toBe(true);
    const accepted = transcript.events.findIndex((event) => event.kind === 'cancel-accepted');
    const response = transcript.events.findIndex(
      (event) => event.kind === 'message' && event.from === 'server' && 'result' in event.message,
    );
    expect(accepted).toBeGreaterThanOrEqual(0);
    expect(response).toBeGreaterThan(accepted);
    expect(validateTranscriptMessages(transcript).problems).toEqual([]);
  }, 60_000);

  it('a late cancellation accepted gives the request a second terminal state on the wire record (B)', () => {
    const report = check(solution('coordinator-late-cancel'));
    const run = report.statements.find((entry) => entry.id === 'late-cancel-ignored')?.failing;
    if (run === undefined) throw new Error('no failing ordering');
    const { transcript } = replay(solution('coordinator-late-cancel'), run);
    expect(
      transcript.events.filter((event) => event.kind === 'terminal').map((event) => (event as { state: string }).state),
    ).toEqual(['completed', 'cancelled']);
    expect(checkTranscript(transcript).map((breach) => breach.invariant)).toContain('one-terminal-state');
  }, 60_000);

  it('an answer outside the contract is a shape error, with the ordering where it happened', () => {
    const report = check(solution('coordinator').replace("return 'accept';", "return 'yes';"));
    expect(report.error?.kind).toBe('shape');
    expect(report.error?.message).toContain("onCancel() returned \"yes\"; it must return 'accept' or 'ignore'");
    expect(report.error?.where?.scenario).toBeDefined();
  }, 60_000);
});
