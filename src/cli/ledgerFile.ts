import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { hostname } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { LabError } from '../engine';

/**
 * The `--ledger FILE` of the command line, made safe against crashes and against other runs (LG-7).
 * A run takes an exclusive lock on the file for its whole length (read, run, save), so two
 * runs on one file take turns instead of each writing back what it read; the save writes a temporary
 * file in the same folder, fsyncs it, renames it over the ledger and fsyncs the folder, so a crash at any
 * moment leaves either the old or the new ledger. Every problem with the path is found before the run.
 */

export interface LedgerFileOptions {
  /** How long to wait for another run's lock before giving up with LAB013. */
  waitMs?: number;
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  staleMs?: number;
}

/** Default wait for another run on the same file; overridable for tests with LAB_LEDGER_WAIT_MS. */
export const LEDGER_WAIT_MS = 5 * 60_000;

export interface LockedLedgerFile {
  readonly path: string;
  /** The file's bytes as read under the lock; null when the file does not exist yet. */
  readonly bytes: Uint8Array | null;
  /** Replaces the file atomically with `bytes` (tmp + fsync + rename + fsync of the folder). */
  save(bytes: Uint8Array): void;
  release(): Promise<void>;
}

const unusable = (path: string, problem: string, todo: string) =>
  new LabError('LAB012', `${path} ${problem}; ${todo}. Nothing was read or written`);

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The longest ledger name: the file system allows 255 bytes, and FILE.lock needs 5 more. */
export const LEDGER_NAME_BYTES_MAX = 255 - '.lock'.length;

/** Whether a file or folder may be written: by its permission bits (root ignores them, the lab does not) and by access(2). */
function writable(path: string, stats: Stats): boolean {
  if ((stats.mode & 0o222) === 0) return false;
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Checks, before anything runs, that `path` can hold a ledger: LAB012 names the path and what to do. */
export function checkLedgerPath(path: string): void {
  if (path.trim() === '')
    throw unusable('""', 'is not a file name', 'give --ledger the path of a SQLite file, e.g. --ledger lab.sqlite');
  const nameBytes = Buffer.byteLength(basename(resolve(path)));
  if (nameBytes > LEDGER_NAME_BYTES_MAX)
    throw unusable(
      path,
      `has a name of ${nameBytes} bytes; the lab keeps FILE.lock beside it, so the name may have at most ${LEDGER_NAME_BYTES_MAX}`,
      'pick a shorter name',
    );
  try {
    checkPathParts(path);
  } catch (error) {
    if (error instanceof LabError) throw error;
    throw unusable(
      path,
      `cannot be inspected (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check the path and its folders',
    );
  }
}

function checkPathParts(path: string): void {
  const folder = dirname(resolve(path));
  const folderLink = lstatOrNull(folder);
  if (folderLink?.isSymbolicLink() === true && statOrNull(folder) === null)
    throw unusable(
      path,
      `is in ${folder}, a symbolic link to nothing`,
      'create the folder it points to or pick another path',
    );
  const folderStats = folderLink === null ? null : statSync(folder);
  if (folderStats === null)
    throw unusable(
      path,
      `is in a folder that does not exist (${folder})`,
      'create the folder first or pick another path',
    );
  if (!folderStats.isDirectory())
    throw unusable(path, `is inside ${folder}, which is not a folder`, 'pick a path inside a folder');
  const stats = lstatOrNull(path);
  if (stats !== null) {
    if (stats.isDirectory())
      throw unusable(
        path,
        'is a folder, not a file',
        'give a file name inside it, e.g. --ledger ' + join(path, 'lab.sqlite'),
      );
    if (stats.isSymbolicLink()) throw unusable(path, 'is a symbolic link', 'give the path of the file itself');
    if (!stats.isFile()) throw unusable(path, 'is not a regular file', 'give the path of a SQLite file');
    if (!writable(path, stats))
      throw unusable(path, 'is read-only', 'make it writable (chmod u+w) or pick another file');
  }
  if (!writable(folder, folderStats))
    throw unusable(
      path,
      `is in a folder the lab cannot write (${folder})`,
      'make the folder writable or pick another path',
    );
}

/**
 * A save's temporary name is short whatever the ledger's name (a hash of it): the ledger's own name plus
 * a suffix could pass the file system's name limit. `.NAME.lab-` is what earlier versions used.
 */
const tmpPrefix = (path: string) => `.lab-${createHash('sha256').update(basename(path)).digest('hex').slice(0, 16)}-`;
const oldTmpPrefix = (path: string) => `.${basename(path)}.lab-`;

/** Temporary files a killed save left behind; only the lock holder may remove them. */
function removeLeftovers(path: string): void {
  const folder = dirname(resolve(path));
  const prefixes = [tmpPrefix(path), oldTmpPrefix(path)];
  for (const name of readdirSync(folder)) {
    if (prefixes.some((prefix) => name.startsWith(prefix)) && name.endsWith('.tmp')) unlinkSync(join(folder, name));
  }
}

/** Writes `bytes` to `path` so that a crash leaves the old file or the new one, never a mix. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const folder = dirname(resolve(path));
  const tmp = join(folder, `${tmpPrefix(path)}${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const existing = lstatOrNull(path);
  let fd: number | null = null;
  try {
    // O_EXCL|O_NOFOLLOW: the temporary name is new, and a symlink planted under it is never followed.
    fd = openSync(
      tmp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      existing?.isFile() ? existing.mode & 0o777 : 0o644,
    );
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new LabError('LAB012', `${path} could not be saved (${code}); the ledger file there is unchanged`);
  }
  // The rename is durable only once the folder's entry is on disk.
  const dirFd = openSync(folder, constants.O_RDONLY);
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * A run is synchronous, so the lock's mtime cannot be refreshed while it computes: staleness by mtime
 * is only the fallback (another host). On this host a lock whose owner process is gone is stale at once.
 */
const STALE_MS = 10 * 60_000;
const OWNER = 'owner.json';
/** A lock folder without its owner file for this long was left by a process killed while taking it. */
const OWNERLESS_STALE_MS = 5_000;

interface Owner {
  pid: number;
  host: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Breaks the lock if the process that holds it is dead (SIGKILL, power loss): the folder is renamed
 * away first (atomic: of two waiters only one succeeds), then removed. True when the lock was broken.
 */
function breakIfOwnerDead(lockDir: string): boolean {
  let owner: Owner | null;
  try {
    owner = JSON.parse(readFileSync(join(lockDir, OWNER), 'utf8')) as Owner;
  } catch {
    owner = null;
  }
  if (owner === null) {
    const stats = lstatOrNull(lockDir);
    if (stats === null) return true; // released meanwhile: try again at once
    if (Date.now() - stats.mtimeMs < OWNERLESS_STALE_MS) return false;
  } else if (owner.host !== hostname() || processAlive(owner.pid)) {
    return false;
  }
  // A short name of its own: the ledger's name plus a suffix could pass the file system's name limit.
  const away = join(dirname(lockDir), `.lab-stale-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    renameSync(lockDir, away);
  } catch (error) {
    // Gone: another waiter broke it first. Anything else (EPERM: another user's lock in a sticky folder,
    // an append-only folder) would fail the same way on every try, so waiting cannot help.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    const who =
      owner === null
        ? 'a run that is gone (killed while taking it, or unable to remove it)'
        : `process ${owner.pid}, which is gone`;
    throw new LabError(
      'LAB012',
      `${lockDir} is left by ${who}, and the lab cannot remove it (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was read or written. Remove ${lockDir} as its owner, or make the folder let the lab remove files`,
    );
  }
  try {
    rmSync(away, { recursive: true, force: true });
  } catch {
    // The lock is broken once renamed; what its folder held is removed when the folder allows it.
  }
  return true;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Checks the path, takes the file's lock (waiting while another run holds it), then reads the file.
 * The lock is a folder `FILE.lock` (proper-lockfile): atomic to create, and taken over once stale.
 */
export async function openLedgerFile(path: string, options: LedgerFileOptions = {}): Promise<LockedLedgerFile> {
  checkLedgerPath(path);
  const waitMs = options.waitMs ?? (Number(process.env.LAB_LEDGER_WAIT_MS) || LEDGER_WAIT_MS);
  const staleMs = options.staleMs ?? STALE_MS;
  const started = Date.now();
  const lockDir = `${path}.lock`;
  let release: () => Promise<void>;
  for (let attempt = 0; ; attempt++) {
    try {
      // realpath: false: the ledger may not exist yet. onCompromised: the run goes on; its save is still atomic.
      const unlock = await lock(path, {
        realpath: false,
        lockfilePath: lockDir,
        stale: staleMs,
        update: staleMs / 2,
        retries: 0,
        onCompromised: () => undefined,
      });
      const ownerFile = join(lockDir, OWNER);
      writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner));
      release = async () => {
        try {
          rmSync(ownerFile, { force: true });
          await unlock();
        } catch (error) {
          // The owner's name goes back in, so the next run knows at once that this lock's owner is gone.
          try {
            writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner));
          } catch {
            // the lock folder refuses it too: the next run waits for the ownerless lock to age instead
          }
          throw new LabError(
            'LAB012',
            `${lockDir} could not be removed after the run (${(error as NodeJS.ErrnoException).code ?? String(error)}): the folder lets the lab create files but not remove them (append-only?). Remove ${lockDir} by hand once it does; until then every run on ${path} stops here`,
          );
        }
      };
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED')
        throw unusable(path, `could not be locked (${code ?? String(error)})`, 'check the folder is writable');
      const waitedMs = Date.now() - started;
      if (breakIfOwnerDead(lockDir) && waitedMs < waitMs) continue;
      if (waitedMs >= waitMs) {
        throw new LabError(
          'LAB013',
          `${path} is in use by another run (lock ${path}.lock) and stayed locked for ${Math.round(waitMs / 1000)} s; nothing was read or written. Wait for that run, or remove ${path}.lock if no run is using the file`,
        );
      }
      await sleep(Math.min(500, 25 * 2 ** Math.min(attempt, 4)) + Math.floor(Math.random() * 25));
    }
  }
  try {
    removeLeftovers(path);
    const bytes = lstatOrNull(path) === null ? null : new Uint8Array(readFileSync(path));
    return { path, bytes, save: (saved) => writeFileAtomic(path, saved), release: () => release() };
  } catch (error) {
    await release();
    if (error instanceof LabError) throw error;
    throw unusable(
      path,
      `could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'check its permissions',
    );
  }
}
