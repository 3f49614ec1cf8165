import type { StateCreator } from 'zustand/vanilla';
import type { CheckReport, ComponentCall, FailingRun } from '../../exercise/types';
import type { ToolResponse } from '../../worker/protocol';
import type { ToolsClient } from '../../worker/toolsClient';
import type { Load } from '../panelSlices/state';

/**
 * The Exercises tab's state, one slice per concern, each in a file of its own beside this one: which
 * exercise is open (catalogue.ts), the student's code for each, kept in the browser so a reload loses
 * nothing (code.ts), the last Check's report (check.ts), and the failing ordering opened from it
 * (failing.ts). The tools worker of the tab's own (QuickJS loads there) grades and replays; the page
 * computes nothing itself.
 */

/** One exercise as the worker lists it: the registry's info and the starter the editor begins from. */
export type ExerciseListing = Extract<ToolResponse, { type: 'exercise-list' }>['exercises'][number];
/** A replayed failing ordering: its transcript (null when the run could not go on) and why not. */
export type ExerciseRun = Omit<Extract<ToolResponse, { type: 'exercise-transcript' }>, 'type' | 'requestId'>;

/** Where the student's code is kept between visits (IndexedDB in the page, a map in tests). */
export interface CodeStorage {
  load(key: string): Promise<string | null>;
  save(key: string, value: string): Promise<void>;
}

/** The most a student's file may hold (the worker refuses more; an upload says so first). */
export const CODE_CHARS_MAX = 200_000;
/** The storage key of the exercise last opened, and of each exercise's code. */
export const SELECTED_KEY = 'selected';
export const codeKey = (exercise: string): string => `code:${exercise}`;

/** How long a Check may run before its worker is replaced (the sandbox bounds each call long before). */
export const CHECK_BUDGET_MS = 180_000;

export interface OpenedOrdering {
  statement: string;
  failing: FailingRun;
  calls: readonly ComponentCall[];
  explanation: string;
  run: Load<ExerciseRun>;
}

/** The exercises the worker lists and which one is open. */
export interface CatalogueSlice {
  exercises: Load<ExerciseListing[]>;
  selected: string | null;
  load(): Promise<void>;
  select(id: string): Promise<void>;
}

/** The student's code, its upload, and Reset with its Undo. */
export interface CodeSlice {
  /** The student's code, per exercise, once read from storage (absent: not read yet). */
  code: Record<string, string>;
  /** Why an uploaded file was not taken (the editor keeps its code). */
  uploadError: string | null;
  /** The code a Reset replaced, for its Undo; null once undone or edited on. */
  beforeReset: string | null;
  setCode(code: string): void;
  upload(file: { name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> }): Promise<void>;
  resetToStarter(): void;
  undoReset(): void;
}

/** The last Check and its report. */
export interface CheckSlice {
  check: Load<CheckReport>;
  /** The code the report is about (the editor may have moved on since). */
  checkedCode: string | null;
  progress: { done: number; total: number } | null;
  /** Bumped when the editor should put its cursor on the report's error line. */
  revealError: number;
  /** Checks settled (answered or failed) since the page loaded: a new report is told apart from the last. */
  checksSettled: number;
  /** The check under way, counted: a newer one (or a switch of exercise) leaves its answer unread. */
  checkRequest: number;
  runCheck(): Promise<void>;
  stopCheck(): void;
}

/** The failing ordering opened from the report, replayed. */
export interface FailingSlice {
  opened: OpenedOrdering | null;
  /** The replay under way, counted: a newer one (or a close, a Check, a switch of exercise) leaves its answer unread. */
  replayRequest: number;
  openFailing(statement: string): Promise<void>;
  /** Replays the ordering in which the student's code failed (the report's error's `where`). */
  openWhere(): Promise<void>;
  closeFailing(): void;
}

export type ExerciseState = CatalogueSlice & CodeSlice & CheckSlice & FailingSlice;

/** What the slices are built over: the tab's tools worker and where the code is kept. Neither is page state. */
export interface ExerciseSliceDeps {
  client: ToolsClient;
  storage: CodeStorage;
}

export type ExerciseSlice<T> = (deps: ExerciseSliceDeps) => StateCreator<ExerciseState, [], [], T>;

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The exercise `id` as listed, or null when it is not (or the list has not arrived). */
export function listing(state: Pick<ExerciseState, 'exercises'>, id: string | null): ExerciseListing | null {
  const load = state.exercises;
  return id === null || load.status !== 'done' ? null : (load.value.find((exercise) => exercise.id === id) ?? null);
}

/** Keeps the code of exercise `id` (a storage failure loses nothing on screen). */
export function keep(deps: ExerciseSliceDeps, id: string, code: string): void {
  deps.storage.save(codeKey(id), code).catch(() => undefined);
}
