/**
 * Catalogued user-facing errors (xyflow's numbered errorMessages habit). Each says what was wrong
 * with the input and what was kept intact; the CLI prints them, the UI shows them, tests match codes.
 */
export const errorCatalog = {
  LAB001: 'unknown scenario',
  LAB002: 'unknown transport',
  LAB003: 'invalid seed',
  LAB004: 'unknown setting',
  LAB005: 'invalid setting value',
  LAB006: 'run exceeded its event bound',
  LAB007: 'settings contradict each other',
  LAB008: 'malformed worker message',
  LAB010: 'not a lab ledger file',
  LAB011: 'SQLite is not loaded',
  LAB012: 'ledger file cannot be used',
  LAB013: 'ledger file is in use by another run',
  LAB014: 'output folder cannot be used',
  LAB015: 'review input too large',
  LAB016: 'run exceeded its wall-clock budget',
  LAB020: 'run exceeded its transcript bound',
  LAB021: 'a request was left without an answer',
  LAB022: 'schedule does not fit this run',
  LAB023: 'fault does not fit this run',
  LAB024: 'malformed run spec',
  LAB025: 'implementation does not apply',
  LAB026: 'SDK run did not settle',
  LAB027: 'input did not end in time',
  LAB040: 'probe cannot reach the server',
  LAB041: 'probed server process failed or exited',
  LAB042: 'probed server did not answer in time',
  LAB043: 'probed endpoint does not speak MCP',
  LAB044: 'probed server sent invalid JSON',
  LAB045: 'probed server exceeded the probe bounds',
  LAB046: 'probed tool is unknown',
  LAB047: 'invalid probe arguments',
  LAB049: 'not a probe transcript',
  /** A student's component (the graded exercises) answered something the run cannot follow. */
  LAB050: 'exercise component broke its interface',
  LAB051: 'unknown exercise',
  /** Never thrown: a refused push is part of the run (BF-5). Kept so the code never means anything else. */
  LAB101: 'bounded buffer cannot keep a final response',
  LAB102: 'reconnect run exceeded its bound',
} as const;

export type LabErrorCode = keyof typeof errorCatalog;

export class LabError extends Error {
  override name = 'LabError';
  readonly code: LabErrorCode;
  /** The message after the catalogue's words: what was wrong and what was kept. */
  readonly detail: string;

  constructor(code: LabErrorCode, detail: string) {
    super(`${code} ${errorCatalog[code]}: ${detail}`);
    this.code = code;
    this.detail = detail;
  }
}
