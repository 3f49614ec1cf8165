import { LabError } from '../engine';
import type { ExerciseDef } from './exercise';
import { backoffExercise } from './exercises/backoff';
import { bufferExercise } from './exercises/buffer';
import { coordinatorExercise } from './exercises/coordinator';
import { deadlinesExercise } from './exercises/deadlines';
import { ledgerExercise } from './exercises/ledger';
import { reserveInventoryExercise } from './exercises/reserveInventory';
import { tasksExercise } from './exercises/tasks';
import type { ExerciseInfo } from './types';

/** Every exercise, in the lesson's order (ids are a contract: the CLI, the page and the links use them). */
export const EXERCISES: readonly ExerciseDef[] = [
  coordinatorExercise,
  deadlinesExercise,
  ledgerExercise,
  reserveInventoryExercise,
  tasksExercise,
  bufferExercise,
  backoffExercise,
];

export function findExercise(id: string): ExerciseDef {
  const found = EXERCISES.find((exercise) => exercise.id === id);
  if (found === undefined)
    throw new LabError(
      'LAB051',
      `no exercise ${JSON.stringify(id)}; the exercises are ${EXERCISES.map((exercise) => exercise.id).join(', ')}`,
    );
  return found;
}

export function exerciseInfo(def: ExerciseDef): ExerciseInfo {
  return { id: def.id, title: def.title, summary: def.summary, exports: def.exports, statements: def.statements };
}
