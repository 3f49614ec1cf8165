import { CODE_CHARS_MAX, keep, listing, message, type CodeSlice, type ExerciseSlice } from './state';

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

/** The student's code for the open exercise: typed, uploaded, or reset to the starter (with an Undo); every change is kept. */
export const createCodeSlice: ExerciseSlice<CodeSlice> = (deps) => (set, get) => ({
  code: {},
  uploadError: null,
  beforeReset: null,

  setCode(code) {
    const id = get().selected;
    if (id === null || get().code[id] === code) return;
    set({ code: { ...get().code, [id]: code }, uploadError: null, beforeReset: null });
    keep(deps, id, code);
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
    keep(deps, id, read.text);
  },

  resetToStarter() {
    const id = get().selected;
    const exercise = listing(get(), id);
    if (id === null || exercise === null) return;
    const before = get().code[id] ?? null;
    if (before === exercise.starter) return;
    set({ code: { ...get().code, [id]: exercise.starter }, beforeReset: before, uploadError: null });
    keep(deps, id, exercise.starter);
  },

  undoReset() {
    const id = get().selected;
    const before = get().beforeReset;
    if (id === null || before === null) return;
    set({ code: { ...get().code, [id]: before }, beforeReset: null });
    keep(deps, id, before);
  },
});
