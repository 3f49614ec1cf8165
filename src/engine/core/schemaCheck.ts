import type { Database } from 'sql.js';
import { LabError } from './errors';
import type { SqlJsStatic as SqlModule } from 'sql.js';

/**
 * An imported ledger is data, not code. SQLite files carry code: triggers and views run
 * inside the statements that touch their tables, so a file with one extra trigger could charge twice,
 * rewrite amounts or recurse forever inside the lab's own transaction. A file is accepted only if its
 * schema is exactly the lab's (same tables and indexes, same definitions, no trigger, no view), it
 * passes PRAGMA integrity_check, and its rows have the types the lab writes (JSON where JSON is kept).
 * Reading sqlite_master and the pragmas runs none of the file's code.
 */

interface SchemaObject {
  type: string;
  name: string;
  table: string;
  sql: string | null;
}

const normalize = (sql: string | null) => (sql === null ? null : sql.replace(/\s+/g, ' ').trim());

function objects(db: Database): SchemaObject[] {
  const rows = db.exec('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')[0]?.values ?? [];
  return rows.map(([type, name, table, sql]) => ({
    type: String(type),
    name: String(name),
    table: String(table),
    sql: sql === null ? null : String(sql),
  }));
}

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}

interface Reference {
  objects: Map<string, SchemaObject>;
  columns: Map<string, Column[]>;
}

const references = new WeakMap<SqlModule, Map<string, Reference>>();

/** The lab's own schema, made by running its CREATE statements on an empty database (once per sql.js and schema). */
function reference(sql: SqlModule, schema: readonly string[]): Reference {
  const key = schema.join(';\n');
  let bySchema = references.get(sql);
  if (bySchema === undefined) references.set(sql, (bySchema = new Map()));
  const known = bySchema.get(key);
  if (known !== undefined) return known;
  const db = new sql.Database();
  try {
    for (const statement of schema) db.exec(statement);
    const all = objects(db);
    const columns = new Map<string, Column[]>();
    for (const object of all) {
      if (object.type !== 'table' || object.name.startsWith('sqlite_')) continue;
      const info = db.exec(`PRAGMA table_info(${JSON.stringify(object.name)})`)[0]?.values ?? [];
      columns.set(
        object.name,
        info.map(([, name, type, notNull, , pk]) => ({
          name: String(name),
          type: String(type).toUpperCase(),
          notNull: notNull === 1,
          primaryKey: Number(pk) > 0,
        })),
      );
    }
    const made: Reference = {
      objects: new Map(all.map((object) => [`${object.type} ${object.name}`, object])),
      columns,
    };
    bySchema.set(key, made);
    return made;
  } finally {
    db.close();
  }
}

const outOfRange = (problem: string) =>
  new LabError(
    'LAB010',
    `${problem}; the lab refuses the file rather than round the number. The file and the current ledger are unchanged`,
  );

const refuse = (problem: string) =>
  new LabError(
    'LAB010',
    `${problem}, so it is not a lab ledger (a ledger is data: it may hold no triggers, views or changed tables); the file and the current ledger are unchanged`,
  );

/**
 * The largest integer a ledger may hold. The lab reads SQLite's 64-bit integers as JavaScript numbers,
 * exact only up to 2^53 − 1; the 2^32 below that leave room for every row and count a run can add
 * (a run has at most 10,000,000 events), so an id or a count never silently rounds and never
 * overflows into a REAL. A file holding more is refused when it is opened.
 */
export const LEDGER_INTEGER_MAX = Number.MAX_SAFE_INTEGER - 2 ** 32;

interface TypeCheck {
  column: string;
  bad: string;
  problem: string;
  range: boolean;
}

/** For each column of `table` that the lab writes with one type, an SQL condition true on a row whose value is not of that type, or an integer out of range. */
function typeChecks(columns: Column[]): TypeCheck[] {
  return columns.flatMap((column): TypeCheck[] => {
    const quoted = JSON.stringify(column.name);
    const range: TypeCheck[] =
      column.type === 'INTEGER'
        ? [
            {
              column: column.name,
              bad: `typeof(${quoted}) = 'integer' AND (${quoted} > ${LEDGER_INTEGER_MAX} OR ${quoted} < -${LEDGER_INTEGER_MAX})`,
              problem: `an integer beyond ±${LEDGER_INTEGER_MAX}, which the lab cannot carry exactly`,
              range: true,
            },
          ]
        : [];
    const allowed = column.type === 'INTEGER' ? ['integer'] : column.type === 'TEXT' ? ['text'] : [];
    if (allowed.length === 0 || (column.primaryKey && column.type === 'INTEGER')) return range;
    const nullable = !column.notNull && !column.primaryKey;
    const typeBad = `typeof(${quoted}) NOT IN (${[...allowed, ...(nullable ? ['null'] : [])].map((t) => `'${t}'`).join(', ')})`;
    // Every JSON the lab keeps is a tool's result, which the protocol carries as structuredContent: an object.
    const jsonBad = column.name.endsWith('_json')
      ? ` OR (${quoted} IS NOT NULL AND (json_valid(${quoted}) = 0 OR json_type(${quoted}) <> 'object'))`
      : '';
    return [
      {
        column: column.name,
        bad: `${typeBad}${jsonBad}`,
        problem: `the lab never writes (wrong type${column.name.endsWith('_json') ? ', or not a JSON object' : ''})`,
        range: false,
      },
      ...range,
    ];
  });
}

/**
 * One scan of `table` that counts, column by column, the rows breaking its type check (a 200,000-row
 * ledger is read once per table, not once per column).
 */
function typeScan(table: string, checks: readonly { bad: string }[]): string {
  return `SELECT ${checks.map((check) => `coalesce(sum(CASE WHEN ${check.bad} THEN 1 ELSE 0 END), 0)`).join(', ')} FROM ${JSON.stringify(table)}`;
}

/**
 * Refuses (LAB010) a saved ledger that is not exactly the lab's schema, fails integrity_check, or holds
 * rows of the wrong type. `db` must be freshly opened from the file's bytes, before any lab statement.
 */
export function checkLedgerSchema(sql: SqlModule, db: Database, schema: readonly string[]): void {
  db.exec('PRAGMA trusted_schema=OFF');
  const expected = reference(sql, schema);
  const actual = objects(db);
  for (const object of actual) {
    const known = expected.objects.get(`${object.type} ${object.name}`);
    if (object.type === 'trigger' || object.type === 'view')
      throw refuse(`the file has a ${object.type} ${object.name} (on ${object.table})`);
    if (known === undefined)
      throw refuse(`the file has a ${object.type} ${object.name} that the lab's schema does not have`);
    if (known.table !== object.table || normalize(known.sql) !== normalize(object.sql))
      throw refuse(`the file's ${object.type} ${object.name} is not defined as the lab defines it`);
  }
  const present = new Set(actual.map((object) => `${object.type} ${object.name}`));
  const missing = [...expected.objects.keys()].filter((key) => !present.has(key));
  if (missing.length > 0) throw refuse(`the file lacks the lab's ${missing.join(', ')}`);

  const integrity = (db.exec('PRAGMA integrity_check(5)')[0]?.values ?? []).map((row) => String(row[0]));
  if (integrity.length !== 1 || integrity[0] !== 'ok')
    throw refuse(`the file fails PRAGMA integrity_check (${integrity.join('; ')})`);

  for (const [table, columns] of expected.columns) {
    const checks = typeChecks(columns);
    if (checks.length === 0) continue;
    const counts = db.exec(typeScan(table, checks))[0]?.values[0] ?? [];
    checks.forEach((check, i) => {
      const bad = Number(counts[i] ?? 0);
      if (bad > 0)
        throw (check.range ? outOfRange : refuse)(`${bad} row(s) of ${table} have a ${check.column} ${check.problem}`);
    });
  }
  // AUTOINCREMENT's counter gives the next effect_id: past the limit, the id the lab reports would not be the one stored.
  if (present.has('table sqlite_sequence')) {
    const high = db.exec(
      `SELECT name, CAST(seq AS TEXT) FROM sqlite_sequence WHERE typeof(seq) <> 'integer' OR seq > ${LEDGER_INTEGER_MAX} OR seq < 0 LIMIT 1`,
    )[0]?.values[0];
    if (high !== undefined)
      throw outOfRange(
        `the file's sqlite_sequence gives ${String(high[0])} its next id after ${String(high[1])}, beyond ${LEDGER_INTEGER_MAX}, which the lab cannot carry exactly`,
      );
  }
}
