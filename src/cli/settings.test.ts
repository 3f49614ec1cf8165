// Proves `settings <id>` lists that one scenario's settings with its defaults, and that every column of
// the table starts at the same offset on every row, whatever the longest range or default.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { findScenario } from '../scenarios/index';
import { settingsSpecFor } from '../engine';

/** The offsets at which each row's cells start, from the cells the caller knows. */
function cellStarts(line: string, cells: readonly string[]): number[] {
  const starts: number[] = [];
  let from = 0;
  for (const cell of cells) {
    const at = line.indexOf(cell, from);
    starts.push(at);
    from = at + cell.length;
  }
  return starts;
}

describe('npm run lab -- settings', () => {
  it('settings ledger-race-keyed names that scenario alone and aligns its columns', async () => {
    const { code, out } = await lab('settings', 'ledger-race-keyed');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^settings of ledger-race-keyed \(/);
    // No other scenario's id is named.
    expect(out).not.toMatch(/ledger-keyed-retry|inventory-race/);
    const scenario = findScenario('ledger-race-keyed');
    const spec = settingsSpecFor(scenario);
    const rows = lines.slice(2);
    expect(rows.map((row) => row.trim().split(/\s+/)[0])).toEqual(Object.keys(spec));
    // Cells are separated by at least two spaces; a cell itself holds single spaces at most.
    const starts = rows.map((row) => {
      const cells = row.trim().split(/ {2,}/);
      expect(cells).toHaveLength(4);
      return cellStarts(row, cells);
    });
    for (const column of [0, 1, 2, 3]) expect(new Set(starts.map((s) => s[column])).size).toBe(1);
    // The row a wide range would push out of line.
    expect(rows.find((row) => row.includes('operation'))).toMatch(
      /charge_account\|reserve_inventory {2,}charge_account {2,}The mutating tool\./,
    );
  });

  it('settings without an id lists each model once, naming the scenarios that share it', async () => {
    const { code, out } = await lab('settings');
    expect(code).toBe(0);
    expect(out).toMatch(/^settings of A, B, C, D, cancel-ignored \(request-race\):$/m);
    expect(out.match(/^settings of .*ledger-race-keyed.*$/gm)).toHaveLength(1);
  });
});
