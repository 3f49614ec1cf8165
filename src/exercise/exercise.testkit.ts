import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { ExerciseDef, GradeEnv } from './exercise';
import { grade, replayOrdering, type Replayed } from './grade';
import { sandboxSource } from './sandbox';
import type { CheckReport, FailingRun } from './types';

/** Grades one piece of JavaScript against an exercise, closing its sandbox after. */
export function gradeCode(qjs: QuickJSWASMModule, def: ExerciseDef, code: string, env: GradeEnv = {}): CheckReport {
  const source = sandboxSource(qjs, code, def.exports);
  try {
    return grade(def, source, env);
  } finally {
    source.close();
  }
}

/** Replays one ordering with a fresh sandbox of `code`, as the page and `--show` do. */
export function replayCode(
  qjs: QuickJSWASMModule,
  def: ExerciseDef,
  code: string,
  run: FailingRun,
  env: GradeEnv = {},
): Replayed {
  const source = sandboxSource(qjs, code, def.exports);
  try {
    return replayOrdering(def, source, run, env);
  } finally {
    source.close();
  }
}

/** The ids of the statements a report found broken, in the exercise's order. */
export const brokenStatements = (report: CheckReport): string[] =>
  report.statements.filter((statement) => !statement.holds).map((statement) => statement.id);
