import { create } from 'zustand';
import type { CheckReport, ComponentCall, FailingRun } from '../exercise/types';
import type { ToolResponse } from '../worker/protocol';
import type { ToolsClient } from '../worker/toolsClient';
import type { Load } from './panelsStore';

/**
 * The Exercises tab: which exercise is open, the student's code for each (kept in the browser, so a
 * reload loses nothing), the last Check's report, and the failing ordering opened from it. The tools
 * worker of the tab's own (QuickJS loads there) grades and replays; the page computes nothing itself.
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

export interface ExerciseState {
  exercises: Load<ExerciseListing[]>;
  selected: string | null;
  /** The student's code, per exercise, once read from storage (absent: not read yet). */
  code: Record<string, string>;
  check: Load<CheckReport>;
  /** The code the report is about (the editor may have moved on since). */
  checkedCode: string | null;
  progress: { done: number; total: number } | null;
  opened: OpenedOrdering | null;
  /** Why an uploaded file was not taken (the editor keeps its code). */
  uploadError: string | null;
  /** The code a Reset replaced, for its Undo; null once undone or edited on. */
  beforeReset: string | null;
  /** Bumped when the editor should put its cursor on the report's error line. */
  revealError: number;
  /** Checks settled (answered or failed) since the page loaded: a new report is told apart from the last. */
  checksSettled: number;

  load(): Promise<void>;
  select(id: string): Promise<void>;
  setCode(code: string): void;
  runCheck(): Promise<void>;
  stopCheck(): void;
  openFailing(statement: string): Promise<void>;
  /** Replays the ordering in which the student's code failed (the report's error's `where`). */
  openWhere(): Promise<void>;
  closeFailing(): void;
  upload(file: { name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> }): Promise<void>;
  resetToStarter(): void;
  undoReset(): void;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Why a file is not a student's module, or its text. */
export function readStudentFile(
  name: string,
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; problem: string } {
  if (bytes.length > CODE_CHARS_MAX * 4)
    return {
      ok: false,
      problem: `${name} is ${bytes.length.toLocaleString('en-US')} bytes: a module here is at most ${CODE_CHARS_MAX.toLocaleString('en-US')} characters`,
    };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      ok: false,
      problem: `${name} is not a text file (it is not UTF-8): upload the .js file you downloaded or wrote`,
    };
  }
  if (text.includes('\u0000'))
    return {
      ok: false,
      problem: `${name} is not a text file (it holds NUL bytes): upload the .js file you downloaded or wrote`,
    };
  if (text.length > CODE_CHARS_MAX)
    return {
      ok: false,
      problem: `${name} has ${text.length.toLocaleString('en-US')} characters: a module here is at most ${CODE_CHARS_MAX.toLocaleString('en-US')}`,
    };
  if (text.trim() === '') return { ok: false, problem: `${name} is empty` };
  return { ok: true, text: text.replace(/^\uFEFF/, '') };
}

export function createExerciseStore(client: ToolsClient, storage: CodeStorage) {
  return create<ExerciseState>()((set, get) => {
    const listing = (id: string | null): ExerciseListing | null => {
      const load = get().exercises;
      return id === null || load.status !== 'done' ? null : (load.value.find((exercise) => exercise.id === id) ?? null);
    };
    const keep = (id: string, code: string) => {
      storage.save(codeKey(id), code).catch(() => undefined);
    };
    /** A check under way: a newer one (or a switch of exercise) leaves its answer unread. */
    let checking = 0;
    let replaying = 0;
    /** Replays one ordering with the code that was checked, and opens it in the diagram. */
    const replay = async (opened: Omit<OpenedOrdering, 'run'>) => {
      const id = get().selected;
      const code = get().checkedCode;
      if (id === null || code === null) return;
      const { failing } = opened;
      const current = ++replaying;
      set({ opened: { ...opened, run: { status: 'loading', value: null } } });
      try {
        const { schedule, scenario, transport, settings } = failing;
        const answer = await client.call(
          {
            type: 'exercise-run',
            exercise: id,
            code,
            run: { scenario, transport, settings: { ...settings }, schedule },
          },
          { budget: { ms: CHECK_BUDGET_MS, what: 'replay of the failing ordering' } },
        );
        if (current !== replaying) return;
        set({
          opened: {
            ...opened,
            run: {
              status: 'done',
              value: {
                transcript: answer.transcript,
                wording: answer.wording,
                calls: answer.calls,
                failure: answer.failure,
              },
            },
          },
        });
      } catch (error) {
        if (current !== replaying) return;
        set({ opened: { ...opened, run: { status: 'error', message: message(error), value: null } } });
      }
    };
    return {
      exercises: { status: 'idle' },
      selected: null,
      code: {},
      check: { status: 'idle' },
      checkedCode: null,
      progress: null,
      opened: null,
      uploadError: null,
      beforeReset: null,
      revealError: 0,
      checksSettled: 0,

      async load() {
        if (get().exercises.status === 'loading' || get().exercises.status === 'done') return;
        set({ exercises: { status: 'loading', value: null } });
        try {
          const answer = await client.call({ type: 'exercises' });
          set({ exercises: { status: 'done', value: answer.exercises } });
        } catch (error) {
          set({ exercises: { status: 'error', message: message(error), value: null } });
          return;
        }
        const remembered = await storage.load(SELECTED_KEY).catch(() => null);
        const first = listing(remembered)?.id ?? (get().exercises as { value: ExerciseListing[] }).value[0]?.id ?? null;
        if (first !== null && get().selected === null) await get().select(first);
      },

      async select(id) {
        const exercise = listing(id);
        if (exercise === null) return;
        // A Check of the exercise left behind is of no use any more: its worker is ended, not waited for.
        if (get().check.status === 'loading') client.stop?.();
        checking += 1;
        replaying += 1;
        set({
          selected: id,
          check: { status: 'idle' },
          checkedCode: null,
          progress: null,
          opened: null,
          uploadError: null,
          beforeReset: null,
        });
        storage.save(SELECTED_KEY, id).catch(() => undefined);
        if (get().code[id] !== undefined) return;
        const stored = await storage.load(codeKey(id)).catch(() => null);
        // Typed while storage answered: what was typed stays.
        if (get().code[id] !== undefined) return;
        set({ code: { ...get().code, [id]: stored ?? exercise.starter } });
      },

      setCode(code) {
        const id = get().selected;
        if (id === null || get().code[id] === code) return;
        set({ code: { ...get().code, [id]: code }, uploadError: null, beforeReset: null });
        keep(id, code);
      },

      async runCheck() {
        const id = get().selected;
        const code = id === null ? undefined : get().code[id];
        if (id === null || code === undefined || get().check.status === 'loading') return;
        const current = ++checking;
        replaying += 1;
        set({ check: { status: 'loading', value: null }, checkedCode: code, progress: null, opened: null });
        try {
          const answer = await client.call(
            { type: 'exercise-check', exercise: id, code },
            {
              verifyProgress: (progress) =>
                current === checking && set({ progress: { done: progress.runsDone, total: progress.runsTotal } }),
              budget: { ms: CHECK_BUDGET_MS, what: 'check', after: '; your code is kept' },
            },
          );
          if (current !== checking) return;
          set({
            check: { status: 'done', value: answer.report },
            progress: null,
            checksSettled: get().checksSettled + 1,
            revealError: answer.report.error?.line === undefined ? get().revealError : get().revealError + 1,
          });
        } catch (error) {
          if (current !== checking) return;
          set({
            check: { status: 'error', message: message(error), value: null },
            progress: null,
            checksSettled: get().checksSettled + 1,
          });
        }
      },

      stopCheck() {
        if (get().check.status !== 'loading') return;
        client.stop?.();
      },

      async openFailing(statement) {
        const check = get().check;
        if (check.status !== 'done') return;
        const result = check.value.statements.find((candidate) => candidate.id === statement);
        const failing = result?.failing;
        if (result === undefined || failing === undefined) return;
        await replay({ statement, failing, calls: result.calls ?? [], explanation: result.explanation ?? '' });
      },

      async openWhere() {
        const check = get().check;
        const error = check.status === 'done' ? check.value.error : undefined;
        if (error?.where === undefined) return;
        // The calls are the replay's own (the report keeps none for a failure of the code).
        await replay({
          statement: `your code failed (${error.kind})`,
          failing: error.where,
          calls: [],
          explanation: error.message,
        });
      },
      closeFailing() {
        replaying += 1;
        set({ opened: null });
      },

      async upload(file) {
        const id = get().selected;
        if (id === null) return;
        let bytes: Uint8Array;
        try {
          bytes = new Uint8Array(await file.arrayBuffer());
        } catch (error) {
          set({ uploadError: `${file.name} could not be read (${message(error)}); your code is unchanged.` });
          return;
        }
        const read = readStudentFile(file.name, bytes);
        if (!read.ok) {
          set({ uploadError: `${read.problem}. Your code is unchanged.` });
          return;
        }
        set({ code: { ...get().code, [id]: read.text }, uploadError: null, beforeReset: null });
        keep(id, read.text);
      },

      resetToStarter() {
        const id = get().selected;
        const exercise = listing(id);
        if (id === null || exercise === null) return;
        const before = get().code[id] ?? null;
        if (before === exercise.starter) return;
        set({ code: { ...get().code, [id]: exercise.starter }, beforeReset: before, uploadError: null });
        keep(id, exercise.starter);
      },

      undoReset() {
        const id = get().selected;
        const before = get().beforeReset;
        if (id === null || before === null) return;
        set({ code: { ...get().code, [id]: before }, beforeReset: null });
        keep(id, before);
      },
    };
  });
}

export type ExerciseStore = ReturnType<typeof createExerciseStore>;
