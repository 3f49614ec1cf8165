import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LabError } from '../engine';

/**
 * What the command line writes, made safe: text that came from input is printed with its
 * control characters escaped, so a file cannot retitle the terminal, clear it or forge lines; a closed
 * pipe (`| head`) ends the command quietly; and a folder of files (`evidence --out`, `skill --out`) is
 * checked before anything is computed, written into a new temporary folder beside the target and
 * renamed into place, never through a symbolic link, and never over someone's files without --force.
 * Every refusal is LAB014 naming the folder and what to do; nothing is written then.
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

/** Text of many lines, each escaped: the line breaks stay, every other control character is shown as an escape. */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeControl).join('\n');
}

/**
 * A value as JSON for the terminal: JSON.stringify already escapes C0 controls inside strings; every
 * other character `escapeControl` would change (DEL, C1, the line separators, the bidi marks) is
 * written as a JSON escape (`\u0085`), never as `\x85`, which JSON does not allow. The text keeps
 * only line breaks between its lines, so `escapeLines` passes it unchanged and JSON.parse of the
 * output gives back exactly the strings that went in.
 */
export function jsonForTerminal(value: unknown, indent = 2, compactFromDepth = Infinity): string {
  const text =
    compactFromDepth === Infinity
      ? JSON.stringify(value, null, indent)
      : layeredJson(value, indent, 0, compactFromDepth);
  return text.replace(CONTROL, (c) => (c === '\n' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * JSON indented down to `compactFromDepth` levels and compact below: each event of a transcript on a
 * line of its own, and no value of a server's choosing multiplied by indentation (16 MiB of `{}` sixty
 * levels deep, indented, is more than a gigabyte). Parses to what JSON.stringify's would.
 */
function layeredJson(value: unknown, indent: number, depth: number, compactFromDepth: number): string {
  if (
    depth >= compactFromDepth ||
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return JSON.stringify(value) ?? 'null';
  const inner = ' '.repeat(indent * (depth + 1));
  const outer = ' '.repeat(indent * depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item: unknown) => `${inner}${layeredJson(item, indent, depth + 1, compactFromDepth)}`).join(',\n')}\n${outer}]`;
  }
  const entries = Object.entries(value).filter(
    ([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol',
  );
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${layeredJson(item, indent, depth + 1, compactFromDepth)}`).join(',\n')}\n${outer}}`;
}

/** Every string in a value (keys included), escaped: for results that carry input's text to the terminal. */
export function escapeDeep<T>(value: T): T {
  if (typeof value === 'string') return escapeControl(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeDeep(item)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeControl(k), escapeDeep(v)])) as T;
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
  /** Relative, '/'-separated, no '.' or '..' segments and no hidden names. */
  path: string;
  contents: string | Uint8Array;
}

const refuse = (out: string, problem: string, todo: string) =>
  new LabError('LAB014', `${out === '' ? '""' : escapeControl(out)} ${problem}; ${todo}. Nothing was written`);

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path should be; the ancestor check names it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return null;
    throw error;
  }
}

/** The nearest folder on the way up from `path` that exists (what a recursive mkdir starts from). */
function existingAncestor(path: string): { path: string; stats: Stats } {
  let at = resolve(path);
  for (;;) {
    const stats = lstatOrNull(at) === null ? null : statSync(at);
    if (stats !== null) return { path: at, stats };
    const up = dirname(at);
    if (up === at) throw new Error(`no folder of ${path} exists`);
    at = up;
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

function checkRelative(path: string): void {
  const segments = path.split('/');
  if (path.includes('\\') || segments.some((s) => s === '' || s.startsWith('.')))
    throw new Error(`output file name ${path} is not a plain relative path`);
}

/**
 * Checks `out` before anything is computed: a missing folder is fine (it and its missing parents are
 * created), an empty one too; a file, a symbolic link, a read-only folder, or a folder with files
 * (without --force) is refused with LAB014.
 */
export function checkOutputFolder(out: string, force: boolean): void {
  if (out.trim() === '') throw refuse(out, 'is not a folder name', 'give --out a folder, e.g. --out out/');
  try {
    checkExisting(out, force);
  } catch (error) {
    if (error instanceof LabError) throw error;
    throw refuse(
      out,
      `cannot be inspected (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check the path and its permissions',
    );
  }
}

/**
 * `skill --out DIR` writes into DIR/<skill>/, so DIR may hold other skills; but DIR itself must not be a
 * symbolic link, as `evidence --out` may not: the files would land wherever the link points.
 */
export function checkParentFolder(out: string): void {
  if (out.trim() === '') throw refuse(out, 'is not a folder name', 'give --out a folder, e.g. --out out/');
  let stats: Stats | null;
  try {
    stats = lstatOrNull(out);
  } catch (error) {
    throw refuse(
      out,
      `cannot be inspected (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check the path and its permissions',
    );
  }
  if (stats?.isSymbolicLink() === true)
    throw refuse(out, 'is a symbolic link', 'give the real folder, or another path');
}

function checkExisting(out: string, force: boolean): void {
  const stats = lstatOrNull(out);
  if (stats !== null) {
    if (stats.isSymbolicLink()) throw refuse(out, 'is a symbolic link', 'give the real folder, or another path');
    if (!stats.isDirectory()) throw refuse(out, 'is a file, not a folder', 'pick a folder name');
    if ((stats.mode & 0o222) === 0)
      throw refuse(out, 'is a folder the lab cannot write (read-only)', 'make it writable or pick another folder');
    const entries = readdirSync(out);
    if (entries.length > 0 && !force)
      throw refuse(
        out,
        `is not empty (${entries.slice(0, 3).map(escapeControl).join(', ')}${entries.length > 3 ? ', …' : ''})`,
        "pick an empty or new folder, or pass --force to replace the lab's files there (others are kept)",
      );
  }
  const ancestor = existingAncestor(dirname(resolve(out)));
  if (!ancestor.stats.isDirectory())
    throw refuse(out, `is under ${ancestor.path}, which is a file`, 'pick another path');
  if ((ancestor.stats.mode & 0o222) === 0)
    throw refuse(
      out,
      `is under ${ancestor.path}, a folder the lab cannot write (read-only)`,
      'make it writable or pick another path',
    );
}

/**
 * Writes `files` as the folder `out`: into a new temporary folder beside it first, then renamed into
 * place when `out` is new or empty; with --force into a folder that has other entries, each of the
 * lab's top-level entries is moved aside and replaced by rename (which never follows a symlink
 * there), and every other entry stays.
 */
export function writeOutputFolder(out: string, files: readonly OutputFile[], force: boolean): void {
  checkOutputFolder(out, force);
  for (const file of files) checkRelative(file.path);
  const parent = dirname(resolve(out));
  let staging: string;
  try {
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(resolve(out))}.lab-`));
  } catch (error) {
    throw refuse(
      out,
      `cannot be created in ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check the folder and try again',
    );
  }
  try {
    const tree = join(staging, 'tree');
    mkdirSync(tree);
    for (const file of files) {
      mkdirSync(dirname(join(tree, file.path)), { recursive: true });
      writeNew(join(tree, file.path), file.contents);
    }
    const existing = lstatOrNull(out);
    if (existing === null) renameSync(tree, out);
    else if (readdirSync(out).length === 0) {
      rmdirSync(out);
      renameSync(tree, out);
    } else {
      const replaced = join(staging, 'replaced');
      mkdirSync(replaced);
      for (const name of [...new Set(files.map((f) => f.path.split('/')[0] as string))]) {
        if (lstatOrNull(join(out, name)) !== null) renameSync(join(out, name), join(replaced, name));
        renameSync(join(tree, name), join(out, name));
      }
    }
  } catch (error) {
    // Put back whatever was moved aside and not yet replaced, so a failed --force loses nothing.
    const replaced = join(staging, 'replaced');
    for (const name of lstatOrNull(replaced) === null ? [] : readdirSync(replaced)) {
      if (lstatOrNull(join(out, name)) === null) renameSync(join(replaced, name), join(out, name));
    }
    if (error instanceof LabError) throw error;
    throw refuse(
      out,
      `could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check the folder and try again',
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
