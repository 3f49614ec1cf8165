import { constants, closeSync, fsyncSync, lstatSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LabError } from '../engine';

/**
 * What the command line writes, made safe (issue #14): text that came from input is printed with its
 * control characters escaped, so a file cannot retitle the terminal, clear it or forge lines; an output
 * folder is written into a new temporary folder and renamed, never through a symlink and never over
 * someone's files without --force; a closed pipe (`| head`) ends the command quietly.
 */

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidi embedding/override/isolate marks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Every string in a value (keys included), escaped: for results that carry input's text to the terminal. */
export function escapeDeep<T>(value: T): T {
  if (typeof value === 'string') return escapeControl(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeDeep(item)) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeControl(k), escapeDeep(v)])) as T;
  return value;
}

/** A reader closed our stdout (`lab run … --json | head`): stop writing and exit as if done, without a stack trace. */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

export interface OutputFile {
  path: string;
  contents: string | Uint8Array;
}

const refuse = (out: string, problem: string, todo: string) => new LabError('LAB014', `${escapeControl(out)} ${problem}; ${todo}. Nothing was written`);

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes one new file: O_EXCL|O_NOFOLLOW, so nothing already there (a symlink least of all) is ever opened. */
function writeNew(path: string, contents: string | Uint8Array): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    const bytes = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Checks `out` before anything is computed: LAB014 names the folder and what to do. */
export function checkOutputFolder(out: string, force: boolean): void {
  if (out.trim() === '') throw refuse('""', 'is not a folder name', 'give --out a folder, e.g. --out evidence/');
  const parent = dirname(resolve(out));
  const parentStats = lstatOrNull(parent) === null ? null : statSync(parent);
  if (parentStats === null || !parentStats.isDirectory()) throw refuse(out, `is in ${parent}, which is not an existing folder`, 'create it first or pick another path');
  const stats = lstatOrNull(out);
  if (stats !== null) {
    if (stats.isSymbolicLink()) throw refuse(out, 'is a symbolic link', 'give the real folder');
    if (!stats.isDirectory()) throw refuse(out, 'is a file, not a folder', 'pick a folder name');
    if ((stats.mode & 0o222) === 0) throw refuse(out, 'is a folder the lab cannot write (read-only)', 'make it writable or pick another folder');
    const entries = readdirSync(out);
    if (entries.length > 0 && !force) throw refuse(out, `is not empty (${entries.slice(0, 3).map(escapeControl).join(', ')}${entries.length > 3 ? ', …' : ''})`, 'pick an empty or new folder, or pass --force to replace the lab\'s files there (others are kept)');
  }
  if ((parentStats.mode & 0o222) === 0) throw refuse(out, `is in ${parent}, a folder the lab cannot write (read-only)`, 'make it writable or pick another path');
}

/**
 * Writes `files` as the folder `out`: into a new temporary folder beside it first, then renamed into
 * place (a new or empty `out`), or, with --force into a folder that has other files, each file renamed
 * over its own name: rename replaces a symlink there instead of following it, and other files stay.
 */
export function writeOutputFolder(out: string, files: readonly OutputFile[], force: boolean): void {
  checkOutputFolder(out, force);
  const parent = dirname(resolve(out));
  let staging: string;
  try {
    staging = mkdtempSync(join(parent, `.${basename(resolve(out))}.lab-`));
  } catch (error) {
    throw refuse(out, `is in ${parent}, a folder the lab cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'make it writable or pick another path');
  }
  try {
    for (const file of files) {
      if (file.path.includes('/') || file.path.startsWith('.')) throw new Error(`evidence file name ${file.path} is not a plain name`);
      writeNew(join(staging, file.path), file.contents);
    }
    const existing = lstatOrNull(out);
    if (existing === null) renameSync(staging, out);
    else if (readdirSync(out).length === 0) {
      rmdirSync(out);
      renameSync(staging, out);
    } else {
      for (const file of files) renameSync(join(staging, file.path), join(out, file.path));
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (error instanceof LabError) throw error;
    throw refuse(out, `could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'check the folder and try again');
  }
}
