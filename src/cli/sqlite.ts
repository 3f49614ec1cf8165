import initSqlJs from 'sql.js';
import type { SqlModule } from '../engine';

/** Loads sql.js (SQLite compiled to WASM) under Node, once. The engine gets it injected. */
let loading: Promise<SqlModule> | null = null;
export function loadSqlJs(): Promise<SqlModule> {
  loading ??= initSqlJs();
  return loading;
}
