import type { BindParams, Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { assert } from './assert';
import { LabError } from './errors';
import type { RequestId } from './jsonrpc';
import type { EventBase, Unstamped } from './transcript';
import { checkLedgerSchema } from './schemaCheck';

/**
 * Real SQLite through sql.js, with two independent connections to one ledger file.
 *
 * The ledger file is the main database of a `holder` connection that runs no statements of its own.
 * Each working connection is a separate `SQL.Database()` that ATTACHes the holder's file as `ledger`,
 * so SQLite's own lock table arbitrates between them: `BEGIN IMMEDIATE` on one connection fails with
 * SQLITE_BUSY while the other holds its write transaction, and a commit is visible to the other at
 * once. No JavaScript mutex stands in for that lock. sql.js is loaded by the host (Node or the Web
 * Worker) and injected, so this module stays synchronous and free of I/O.
 */
export type SqlModule = SqlJsStatic;
export type Row = Record<string, SqlValue>;
/** What the host gives a run that keeps state in SQLite: sql.js (loaded by Node or the worker) and, optionally, a file. */
export interface SqliteHost {
  readonly sql: SqlModule;
  /** Bytes of a saved ledger to open (a new empty ledger when null). */
  readonly bytes?: Uint8Array | null;
  /** Receives the ledger file's bytes at the end of the run. */
  readonly save?: (bytes: Uint8Array) => void;
  /**
   * Where a run's new empty ledger comes from and goes back to: the explorer's, which runs one
   * ordering after another, each on a new empty ledger (see `LedgerRecycler`). Without it every new
   * ledger is opened and closed for real.
   */
  readonly recycle?: LedgerRecycler;
}

export type StatementParams = readonly (string | number | null)[];

export type StatementResult = { ok: true; rows: Row[]; changes: number } | { ok: false; code: string; message: string };

/** Marks a file as this lab's ledger, so an import of some other SQLite file is refused. */
export const LEDGER_FORMAT = 'mcp-reliability-lab/ledger@1';

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS lab_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS idempotency_keys (
     key TEXT PRIMARY KEY,
     operation TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     result_json TEXT NOT NULL,
     request_id TEXT NOT NULL,
     connection TEXT NOT NULL,
     committed_at_ms INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS effects (
     effect_id INTEGER PRIMARY KEY AUTOINCREMENT,
     operation TEXT NOT NULL,
     subject TEXT NOT NULL,
     amount INTEGER NOT NULL,
     tenant TEXT,
     request_id TEXT NOT NULL,
     connection TEXT NOT NULL,
     at_ms INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS executions (operation TEXT PRIMARY KEY, count INTEGER NOT NULL)`,
  // Durable tasks (docs/requirements.md#durable-tasks-tk): a task outlives the request and the connection that created it.
  `CREATE TABLE IF NOT EXISTS tasks (
     task_id TEXT PRIMARY KEY,
     status TEXT NOT NULL,
     created_at_ms INTEGER NOT NULL,
     last_updated_at_ms INTEGER NOT NULL,
     ttl_ms INTEGER NOT NULL,
     poll_interval_ms INTEGER NOT NULL,
     cancel_requested INTEGER NOT NULL DEFAULT 0,
     result_json TEXT
   )`,
];

function errorCode(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : null;
  if (code !== null) return { code, message };
  if (/locked|busy/i.test(message)) return { code: 'SQLITE_BUSY', message };
  if (/constraint/i.test(message)) return { code: 'SQLITE_CONSTRAINT', message };
  if (/not a database|malformed|corrupt/i.test(message)) return { code: 'SQLITE_CORRUPT', message };
  return { code: 'SQLITE_ERROR', message };
}

/** A statement prepared once per connection, with its result columns' names (known from the SQL alone). */
interface Prepared {
  readonly statement: Statement;
  readonly columns: readonly string[];
  /** The ledger tables the statement may write (`tablesTouched`). */
  readonly touches: Touches;
}

function rowOf(columns: readonly string[], values: SqlValue[]): Row {
  const row: Row = {};
  for (let i = 0; i < columns.length; i += 1) row[columns[i] as string] = values[i] ?? null;
  return row;
}

const OPENS_TRANSACTION = /^\s*(BEGIN|SAVEPOINT)\b/i;
const ENDS_TRANSACTION = /^\s*(COMMIT|END|ROLLBACK)(\s+TRANSACTION)?\s*;?\s*$/i;
/** The table `LedgerConnection.settle` writes to zero SQLite's change count: in the connection's temporary schema, named as no ledger table is. */
const RECYCLE_TABLE = 'lab_recycle_changes';
const SETTLE_CREATE = `CREATE TEMP TABLE ${RECYCLE_TABLE} (unused)`;
const SETTLE_DELETE = `DELETE FROM temp.${RECYCLE_TABLE} WHERE 0`;

/** One working connection: prepared statements cached by SQL text, results as plain rows. */
export class LedgerConnection {
  private readonly statements = new Map<string, Prepared>();
  private closed = false;
  /**
   * Whether a transaction may be open: set by every BEGIN or SAVEPOINT that succeeded, cleared by a
   * COMMIT, END or ROLLBACK of the whole transaction that succeeded (a transaction opens no other way,
   * so false means none is open; true may be wrong only the safe way, when SQLite ended one itself).
   */
  private mayHoldTransaction = false;
  /** Whether `settle` made its table. */
  private settled = false;

  constructor(
    readonly name: string,
    private readonly db: Database,
    /** Where the connection notes the ledger tables its statements may have written (its file's). */
    private readonly written: WrittenTables = new WrittenTables(),
  ) {}

  /**
   * Runs one statement to completion. A cached statement is left reset with its bindings cleared after
   * every run (sql.js's reset clears them), so one without parameters is stepped as it is, and rows are
   * built from the column names read once at prepare time: the same rows `getAsObject` returns.
   */
  run(sql: string, params: StatementParams = []): StatementResult {
    assert(!this.closed, () => `connection ${this.name} is closed`);
    let prepared = this.statements.get(sql);
    // sql.js reports a failed step (SQLITE_BUSY, the race's everyday answer) by throwing an Error, whose
    // stack trace V8 captures at once, through every frame of the run: most of the failed statement's
    // time. The catch below keeps only the code and message, so the trace is not taken.
    const traceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      if (prepared === undefined) {
        const statement = this.db.prepare(sql);
        // `settle`'s own statements write only the connection's temporary table.
        const touches = sql === SETTLE_CREATE || sql === SETTLE_DELETE ? [] : tablesTouched(sql);
        prepared = { statement, columns: statement.getColumnNames(), touches };
        this.statements.set(sql, prepared);
      }
      const { statement, columns } = prepared;
      this.written.note(prepared.touches);
      if (params.length > 0) statement.bind(params as BindParams);
      const rows: Row[] = [];
      while (statement.step()) rows.push(rowOf(columns, statement.get()));
      statement.reset();
      if (OPENS_TRANSACTION.test(sql)) this.mayHoldTransaction = true;
      else if (ENDS_TRANSACTION.test(sql)) this.mayHoldTransaction = false;
      return { ok: true, rows, changes: this.db.getRowsModified() };
    } catch (error) {
      prepared?.statement.reset();
      return { ok: false, ...errorCode(error) };
    } finally {
      Error.stackTraceLimit = traceLimit;
    }
  }

  /** The sql.js database behind this connection: what the ledger benchmark's raw baseline drives directly. */
  get database(): Database {
    assert(!this.closed, () => `connection ${this.name} is closed`);
    // Whatever runs on it, unseen: every table counts as written.
    this.written.note(null);
    return this.db;
  }

  /**
   * Leaves the connection as a new one would be for a ledger given back to its recycler (after every
   * connection's `rollback`): `changes` (SQLite's count of the last INSERT, UPDATE or DELETE, which
   * every statement's result carries) at 0. False when it cannot, and the ledger is closed for real.
   */
  settle(): boolean {
    if (this.closed) return false;
    // No INSERT, UPDATE or DELETE changed a row since the last that left the count at 0 (or none ran).
    if (this.db.getRowsModified() === 0) return true;
    // A statement on a table of the connection's own temporary schema: the ledger file is not touched
    // (a statement on it costs a lock and a hot-journal check in sql.js's file system, thirty times this).
    if (!this.settled && !this.run(SETTLE_CREATE).ok) return false;
    this.settled = true;
    return this.run(SETTLE_DELETE).ok && this.db.getRowsModified() === 0;
  }

  /** Ends the transaction the connection may hold (a run the explorer stopped part-way may hold one). */
  rollback(): void {
    if (!this.closed && this.mayHoldTransaction) this.run('ROLLBACK');
  }

  close(): void {
    if (this.closed) return;
    for (const { statement } of this.statements.values()) statement.free();
    this.statements.clear();
    this.db.close();
    this.closed = true;
  }
}

/** The file name sql.js keeps on a database object but leaves out of its types. */
function filenameOf(database: Database): unknown {
  return 'filename' in database ? database.filename : undefined;
}

/** Per sql.js module, the bytes of a new empty ledger (`LedgerFile.empty`). */
const EMPTY_LEDGERS = new WeakMap<SqlModule, Uint8Array>();

/** The ledger file and the connections attached to it. */
export class LedgerFile {
  private holder: Database;
  private readonly sql: SqlModule;
  private readonly connections: LedgerConnection[] = [];
  /** The recycler this new empty ledger goes back to on `close`; null once its bytes were exported (sql.js reopens the holder then). */
  private recycler: LedgerRecycler | null = null;
  /** With a recycler: the connections already handed out since the ledger was taken (the others wait for `connect`). */
  private readonly lent = new Set<LedgerConnection>();
  /** The holder's statements, prepared once (`holderStatement`). */
  private readonly holderStatements = new Map<string, Statement>();
  /** The tables the statements of the holder and of every connection may have written since the ledger was new (`emptyAgain`). */
  private readonly written = new WrittenTables();
  /** Whether the empty journal and WAL files beside the ledger file were made (`quieten`). */
  private quiet = false;

  private constructor(sql: SqlModule, holder: Database) {
    this.sql = sql;
    this.holder = holder;
  }

  /**
   * Opens a ledger from saved bytes (or a new empty one). Bytes that are not a SQLite database, or a
   * SQLite database that is not a lab ledger, are refused with LAB010 and nothing is changed. A new
   * empty one comes from `recycle` when given.
   */
  static open(sql: SqlModule, bytes: Uint8Array | null, recycle?: LedgerRecycler): LedgerFile {
    if (bytes !== null) return LedgerFile.build(sql, bytes);
    if (recycle === undefined) return LedgerFile.empty(sql);
    const file = recycle.take(sql) ?? LedgerFile.empty(sql);
    file.recycler = recycle;
    return file;
  }

  /**
   * For the recycler: the ledger's connections left as new ones (`LedgerConnection.settle`); false
   * when one could not be, and the ledger must be closed for real.
   */
  settle(): boolean {
    this.lent.clear();
    this.recycler = null;
    for (const connection of this.connections) connection.rollback();
    return this.connections.every((connection) => connection.settle());
  }

  /**
   * A new empty ledger: a copy of the file `build` made once for this sql.js (schema and format row
   * in place), opened with the holder's pragmas. Creating the schema is most of opening a ledger, and
   * the explorer opens one per ordering; the copy is the very file a new build leaves, page for page,
   * so every statement after it runs on the same bytes.
   */
  private static empty(sql: SqlModule): LedgerFile {
    let template = EMPTY_LEDGERS.get(sql);
    if (template === undefined) {
      const built = LedgerFile.build(sql, null);
      template = built.export();
      built.close();
      EMPTY_LEDGERS.set(sql, template);
    }
    const holder = new sql.Database(template);
    holder.exec('PRAGMA trusted_schema=OFF');
    holder.exec('PRAGMA journal_mode=MEMORY');
    return new LedgerFile(sql, holder);
  }

  private static build(sql: SqlModule, bytes: Uint8Array | null): LedgerFile {
    let holder: Database;
    try {
      holder = bytes === null ? new sql.Database() : new sql.Database(bytes);
      holder.exec('PRAGMA trusted_schema=OFF');
      holder.exec('PRAGMA journal_mode=MEMORY');
    } catch (error) {
      throw new LabError(
        'LAB010',
        `the file is not a SQLite database (${errorCode(error).message}); the current ledger is unchanged`,
      );
    }
    try {
      const tables =
        holder.exec(`SELECT name FROM sqlite_master WHERE type = 'table'`)[0]?.values.map((row) => String(row[0])) ??
        [];
      if (bytes !== null && !tables.includes('lab_meta')) {
        throw new LabError(
          'LAB010',
          `the SQLite file has no lab_meta table, so it is not a ${LEDGER_FORMAT} ledger (tables: ${tables.join(', ') || 'none'}); the current ledger is unchanged`,
        );
      }
      // Before any statement of the lab touches it: a file's triggers and views would run inside them.
      if (bytes !== null) checkLedgerSchema(sql, holder, SCHEMA);
      // Every connection ATTACHes this file, and SQLite attaches only files of its own text encoding.
      const encoding = String(holder.exec('PRAGMA encoding')[0]?.values[0]?.[0]);
      if (encoding !== 'UTF-8')
        throw new LabError(
          'LAB010',
          `the ledger stores its text as ${encoding}; the lab's ledgers are UTF-8 (a file the lab made never differs). The file and the current ledger are unchanged`,
        );
      for (const statement of SCHEMA) holder.exec(statement);
      const format = holder.exec(`SELECT value FROM lab_meta WHERE name = 'format'`)[0]?.values[0]?.[0];
      if (format === undefined) holder.exec(`INSERT INTO lab_meta (name, value) VALUES ('format', '${LEDGER_FORMAT}')`);
      else if (format !== LEDGER_FORMAT)
        throw new LabError(
          'LAB010',
          `the ledger's format is ${String(format)}, expected ${LEDGER_FORMAT}; the current ledger is unchanged`,
        );
    } catch (error) {
      holder.close();
      if (error instanceof LabError) throw error;
      throw new LabError(
        'LAB010',
        `the file could not be read as a ledger (${errorCode(error).message}); the current ledger is unchanged`,
      );
    }
    return new LedgerFile(sql, holder);
  }

  /** A new, independent connection to this ledger file (attached as `ledger`). */
  connect(name: string): LedgerConnection {
    if (this.recycler !== null) {
      // A recycled ledger keeps the connections its last run made: one of that name not yet lent is as good as new.
      const kept = this.connections.find((connection) => connection.name === name && !this.lent.has(connection));
      if (kept !== undefined) {
        this.lent.add(kept);
        return kept;
      }
    }
    const db = new this.sql.Database();
    db.exec('PRAGMA trusted_schema=OFF');
    // The connection's own main database is its alone and holds nothing, but every BEGIN IMMEDIATE
    // opens a write transaction on it too, and locking a file afresh looks for its hot journal and WAL
    // in sql.js's file system first. Held once taken, its lock is never taken again.
    db.exec('PRAGMA main.locking_mode=EXCLUSIVE');
    const filename = filenameOf(this.holder);
    assert(typeof filename === 'string' && filename.length > 0, 'sql.js exposes the holder database filename');
    db.exec(`ATTACH '/${filename}' AS ledger`);
    db.exec('PRAGMA ledger.journal_mode=MEMORY');
    // The file lives in sql.js's in-memory file system and reaches disk only through export():
    // an fsync there is a no-op that still crosses into JavaScript on every commit.
    db.exec('PRAGMA ledger.synchronous=OFF');
    const connection = new LedgerConnection(name, db, this.written);
    this.connections.push(connection);
    this.lent.add(connection);
    return connection;
  }

  /**
   * For the recycler: the rows made those of a new empty ledger (`WrittenTables.emptying`), the schema untouched;
   * false when SQLite refused (the ledger is then closed for real).
   */
  emptyAgain(): boolean {
    try {
      for (const sql of this.written.emptying()) this.holderStatement(sql).run();
      this.written.clear();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The holder's statement of this SQL, prepared once and kept while the holder is open (a recycled
   * ledger runs the same few every run; parsing one costs as much as running it). Past
   * `HOLDER_STATEMENTS_MAX` (a host reading tables of its own choosing) they are prepared each time.
   */
  private holderStatement(sql: string): Statement {
    const kept = this.holderStatements.get(sql);
    if (kept !== undefined) return kept;
    const statement = this.holder.prepare(sql);
    if (this.holderStatements.size < HOLDER_STATEMENTS_MAX) this.holderStatements.set(sql, statement);
    return statement;
  }

  /**
   * For the recycler: makes the ledger's journal and WAL files (`<file>-journal`, `<file>-wal`) exist,
   * empty, in sql.js's file system. A connection looks for both before every statement it runs outside
   * a transaction (a hot journal to roll back, a WAL to open), and sql.js answers a look-up of a missing
   * file by throwing inside its file system: a third of a short statement's time. SQLite counts a file
   * of 0 bytes as no file for both (the unix VFS's access check), and in the ledger's MEMORY journal
   * mode nothing ever writes to either, so every statement reads and writes what it did. SQL cannot
   * remove the two files again (a ledger closed for real leaves them, some 300 bytes each), so a sql.js
   * module gets them for at most `QUIET_LEDGERS_MAX` ledgers: the recycler's long-lived ones.
   */
  quieten(): void {
    if (this.quiet) return;
    const made = QUIET_LEDGERS.get(this.sql) ?? 0;
    if (made >= QUIET_LEDGERS_MAX) return;
    this.quiet = true;
    QUIET_LEDGERS.set(this.sql, made + 1);
    const filename = filenameOf(this.holder);
    assert(typeof filename === 'string' && filename.length > 0, 'sql.js exposes the holder database filename');
    for (const suffix of ['journal', 'wal']) {
      // Attaching a file creates it (empty: nothing is written to it), and detaching leaves it there.
      this.holder.exec(`ATTACH '/${filename}-${suffix}' AS lab_quiet`);
      this.holder.exec('DETACH lab_quiet');
    }
  }

  /** A standard SQLite database file (the sqlite3 shell opens it). Connections must be idle. */
  export(): Uint8Array {
    // sql.js closes and reopens the holder to read its file: it is not the one the recycler would reset.
    this.recycler = null;
    // sql.js frees every statement of a database it exports.
    this.holderStatements.clear();
    return this.holder.export();
  }

  /**
   * Reads rows through the holder (a run's outcome, the UI's table view, tests), never during a
   * transaction: one statement, its rows as `exec` gives them.
   */
  query(sql: string, params: StatementParams = []): Row[] {
    this.written.note(tablesTouched(sql));
    const statement = this.holderStatement(sql);
    const kept = this.holderStatements.get(sql) === statement;
    try {
      if (params.length > 0) statement.bind(params as BindParams);
      const rows: Row[] = [];
      let columns: string[] | null = null;
      while (statement.step()) {
        columns ??= statement.getColumnNames();
        rows.push(rowOf(columns, statement.get()));
      }
      return rows;
    } finally {
      if (kept) statement.reset();
      else statement.free();
    }
  }

  close(): void {
    if (this.recycler !== null && this.recycler.give(this, this.sql)) return;
    for (const connection of this.connections) connection.close();
    this.connections.length = 0;
    for (const statement of this.holderStatements.values()) statement.free();
    this.holderStatements.clear();
    this.holder.close();
  }
}

/** Per sql.js module, how many ledgers `LedgerFile.quieten` made their journal and WAL files for. */
const QUIET_LEDGERS = new WeakMap<SqlModule, number>();
/** Most ledgers a sql.js module makes empty journal and WAL files for (`LedgerFile.quieten`). */
const QUIET_LEDGERS_MAX = 64;

/** Most holder statements a ledger keeps prepared (`LedgerFile.holderStatement`). */
const HOLDER_STATEMENTS_MAX = 32;

/** Ledgers a recycler keeps: a run uses one (a replica's own memory, two). */
const RECYCLED_MAX = 4;

/** The tables of `SCHEMA`, by name: what a recycled ledger empties. */
const SCHEMA_TABLES = SCHEMA.map((statement) => /CREATE TABLE IF NOT EXISTS (\w+)/.exec(statement)?.[1] as string);

/** The tables of `SCHEMA` with an AUTOINCREMENT key: an insert into one writes its counter in `sqlite_sequence` too. */
const COUNTED_TABLES = SCHEMA.filter((statement) => /\bAUTOINCREMENT\b/i.test(statement)).map(
  (statement) => /CREATE TABLE IF NOT EXISTS (\w+)/.exec(statement)?.[1] as string,
);

/** The first words of the statements that write no table but those they name (any other may write anything: `tablesTouched`). */
const NAMING_VERBS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'BEGIN',
  'COMMIT',
  'END',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
]);

/** The ledger tables a statement may write, or null for any: see `tablesTouched`. */
type Touches = readonly string[] | null;

/**
 * The ledger tables a statement may write, read off its SQL text: every table of the schema it names
 * (whether it reads or writes it), with `sqlite_sequence` beside a table that counts its ids; null (any
 * table) for a statement that does not begin with SELECT, INSERT, UPDATE, DELETE or a transaction's
 * BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT or RELEASE. Those write only tables they name: a ledger has no
 * trigger, view or foreign key that would write another (the schema is the lab's; `trusted_schema` is
 * off), and SQLite itself writes only an AUTOINCREMENT counter. A name found inside other text (a
 * string, a longer name) counts too: only ever one table too many.
 */
function tablesTouched(sql: string): Touches {
  const text = sql.trimStart();
  const verb = /^\w+/.exec(text)?.[0]?.toUpperCase() ?? '';
  if (!NAMING_VERBS.has(verb)) return null;
  const lower = text.toLowerCase();
  const named = SCHEMA_TABLES.filter((table) => lower.includes(table));
  if (COUNTED_TABLES.some((table) => named.includes(table)) || lower.includes('sqlite_sequence'))
    named.push('sqlite_sequence');
  return named;
}

/**
 * The tables the statements on one ledger may have written since it was new: what `emptyAgain` empties
 * (a table none wrote is as a new ledger has it already, and emptying it is a statement for nothing).
 */
class WrittenTables {
  private readonly tables = new Set<string>();
  /**
   * Whether any other statement ran on the ledger (or a host took a connection's database): it may have
   * left what writes tables unnamed (a TEMP trigger outlives the run), so from then on every table counts.
   */
  private all = false;

  note(touches: Touches): void {
    if (touches === null) this.all = true;
    else for (const table of touches) this.tables.add(table);
  }

  /** The tables were emptied: none is written now. */
  clear(): void {
    this.tables.clear();
  }

  /**
   * What makes the rows those of a new empty ledger (`LedgerFile.build`), in one transaction of the
   * holder's: every written table of the schema emptied, the AUTOINCREMENT counters gone (an effect's id
   * starts at 1 again, as in a new file), and the format row back; none when nothing was written.
   */
  emptying(): readonly string[] {
    const emptied = [...SCHEMA_TABLES, 'sqlite_sequence'].filter((table) => this.all || this.tables.has(table));
    if (emptied.length === 0) return [];
    return [
      'BEGIN',
      ...emptied.map((table) => `DELETE FROM ${table}`),
      ...(emptied.includes('lab_meta')
        ? [`INSERT INTO lab_meta (name, value) VALUES ('format', '${LEDGER_FORMAT}')`]
        : []),
      'COMMIT',
    ];
  }
}

/**
 * New empty ledgers for a host that runs one ordering after another, each on a new empty ledger (the
 * explorer). Opening one is a holder database, a connection per party that ATTACHes it, and each
 * statement prepared again: most of a short run. A ledger given back here is made new instead: its
 * connections left without a transaction and with SQLite's change count at 0, and its rows made those
 * of a new empty ledger by SQLite itself (`WrittenTables.emptying`, through the holder, so the connections
 * attached to it see the new rows at their next statement, as they would see another process's
 * commit). What a run reads from it is then what it reads from a new one: the same tables, the same
 * rows (a rowid or an AUTOINCREMENT id starts at 1 in an empty table, as in a new file), the same
 * results. Only the file's pages differ (the emptied ones on its free list), which no statement of the
 * lab reads; a ledger whose bytes a run exported is closed for real instead. The schema is not
 * touched, so the statements each connection prepared stay valid: copying a new file over it (SQLite's
 * backup API) moves the schema cookie, and every statement of the next run was prepared again. Only
 * the lab's own statements may run on a recycled ledger: state other SQL can leave on a connection (a
 * TEMP table, a pragma, a table of its own) would outlive the run, so the explorer does not recycle
 * for a student's parts. `dispose` shelves what it keeps for the next recycler.
 */
export class LedgerRecycler {
  private readonly idle: LedgerFile[] = [];
  /** The sql.js the kept ledgers were opened with. */
  private sql: SqlModule | null = null;

  /** A kept ledger, made new (this recycler's, or one an earlier recycler shelved); null when none is kept for this sql.js. */
  take(sql: SqlModule): LedgerFile | null {
    if (this.sql !== null && this.sql !== sql) return null;
    return this.idle.pop() ?? SHELVES.get(sql)?.pop() ?? null;
  }

  /** Takes a closed ledger back, made new; false when it cannot (then the caller closes it). */
  give(file: LedgerFile, sql: SqlModule): boolean {
    if (this.idle.length >= RECYCLED_MAX) return false;
    this.sql ??= sql;
    if (this.sql !== sql || !file.settle() || !file.emptyAgain()) return false;
    file.quieten();
    this.idle.push(file);
    return true;
  }

  /**
   * Shelves the ledgers kept, new and empty, for the next recycler of this sql.js (the next
   * exploration's first runs then open none, and their journal and WAL files, `LedgerFile.quieten`,
   * are made once per shelved ledger, not per exploration); past `RECYCLED_MAX` on the shelf, closes them.
   */
  dispose(): void {
    const sql = this.sql;
    const shelf = sql === null ? undefined : (SHELVES.get(sql) ?? []);
    if (sql !== null && shelf !== undefined) SHELVES.set(sql, shelf);
    for (const file of this.idle.splice(0)) {
      if (shelf !== undefined && shelf.length < RECYCLED_MAX) shelf.push(file);
      else file.close();
    }
    this.sql = null;
  }
}

/** Per sql.js module, the new empty ledgers disposed recyclers left (`LedgerRecycler.dispose`). */
const SHELVES = new WeakMap<SqlModule, LedgerFile[]>();

/** What the page shows of a ledger file: its rows, table by table (read-only). */
export interface LedgerSnapshot {
  idempotencyKeys: Row[];
  effects: Row[];
  executions: Row[];
  bytes: number;
}

/** Opens saved bytes (LAB010 if they are not a lab ledger), reads every table, and closes again. */
export function ledgerSnapshot(sql: SqlModule, bytes: Uint8Array | null): LedgerSnapshot {
  const file = LedgerFile.open(sql, bytes);
  try {
    return {
      idempotencyKeys: file.query(
        'SELECT key, operation, fingerprint, result_json, request_id, connection, committed_at_ms FROM idempotency_keys ORDER BY committed_at_ms, key',
      ),
      effects: file.query(
        'SELECT effect_id, operation, subject, amount, tenant, request_id, connection, at_ms FROM effects ORDER BY effect_id',
      ),
      executions: file.query('SELECT operation, count FROM executions ORDER BY operation'),
      bytes: bytes?.length ?? 0,
    };
  } finally {
    file.close();
  }
}

/** One SQL statement as a connection ran it: the SQL, its parameters, and its result or error. */
export interface SqlEvent extends EventBase {
  kind: 'sql';
  connection: string;
  requestId: RequestId;
  sql: string;
  params: (string | number | null)[];
  purpose: string;
  ok: boolean;
  rows?: Record<string, string | number | null>[];
  changes?: number;
  error?: { code: string; message: string };
}

/** The transcript line for one statement a connection ran: the SQL, its parameters, its rows or error. */
export function sqlEvent(
  connection: string,
  requestId: RequestId,
  sql: string,
  params: StatementParams,
  purpose: string,
  result: StatementResult,
): Unstamped<SqlEvent> {
  return {
    kind: 'sql',
    connection,
    requestId,
    sql,
    params: [...params],
    purpose,
    ok: result.ok,
    ...(result.ok
      ? { rows: result.rows as Record<string, string | number | null>[], changes: result.changes }
      : { error: { code: result.code, message: result.message } }),
  };
}
