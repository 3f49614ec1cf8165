import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

async function lab(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

const solutions = new URL('../exercise/solutions/', import.meta.url);

describe('lab exercise', () => {
  it('lists the exercises with their statements, and prints a starter', async () => {
    const listed = await lab(['exercise', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^buffer\s+The bounded SSE buffer/m);
    expect(listed.out).toContain('final-never-dropped');
    const starter = await lab(['exercise', 'starter', 'buffer']);
    expect(starter.code).toBe(0);
    expect(starter.out).toContain('export function createBuffer(capacity)');
  });

  it('exits 0 when every statement holds, 3 when one is broken (naming it and its ordering), 2 on a syntax error', async () => {
    const good = await lab(['exercise', 'check', 'buffer', '--file', new URL('buffer.js', solutions).pathname]);
    expect(good.code).toBe(0);
    expect(good.out).toContain('every statement holds');
    const bad = await lab([
      'exercise',
      'check',
      'buffer',
      '--file',
      new URL('buffer-evicts-final.js', solutions).pathname,
      '--json',
    ]);
    expect(bad.code).toBe(3);
    const report = JSON.parse(bad.out) as {
      statements: { id: string; holds: boolean; failing?: { schedule: string } }[];
    };
    expect(report.statements.filter((statement) => !statement.holds).map((statement) => statement.id)).toEqual([
      'final-never-dropped',
    ]);
    expect(typeof report.statements.find((statement) => !statement.holds)?.failing?.schedule).toBe('string');
    const dir = mkdtempSync(join(tmpdir(), 'lab-exercise-'));
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, 'export function createBuffer(capacity) {\n  return { offer( {\n}');
    const syntax = await lab(['exercise', 'check', 'buffer', '--file', broken]);
    expect(syntax.code).toBe(2);
    expect(syntax.out).toMatch(/syntax error \(line 3, column \d+\)/);
  }, 120_000);

  it('grades a folder into one table, a row per file and a column per statement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-exercise-dir-'));
    copyFileSync(new URL('buffer.js', solutions), join(dir, 'alice.js'));
    copyFileSync(new URL('buffer-evicts-final.js', solutions), join(dir, 'bob.js'));
    writeFileSync(join(dir, 'carol.js'), 'export function nothing() {}');
    const table = await lab(['exercise', 'check', 'buffer', '--dir', dir]);
    expect(table.code).toBe(3);
    const [header, ...rows] = table.out.trim().split('\n');
    expect(header).toBe(
      'file,passed,within-capacity,final-never-dropped,coalesce-adjacent,refuse-only-when-full-of-finals,drop-marked,runs-to-end,orderings,error',
    );
    expect(rows[0]).toMatch(/^alice\.js,true,holds,holds,holds,holds,holds,holds,\d+,$/);
    expect(rows[1]).toMatch(/^bob\.js,false,holds,broken,holds,holds,holds,holds,\d+,$/);
    expect(rows[2]).toContain('carol.js,false,error');
    expect(rows[2]).toContain('createBuffer');
  }, 120_000);

  it('refuses bad usage with exit 2: no file, two sources, an unknown exercise', async () => {
    expect((await lab(['exercise', 'check', 'buffer'])).code).toBe(2);
    expect((await lab(['exercise', 'check', 'buffer', '--file', 'a.js', '--dir', '.'])).code).toBe(2);
    const generator = await lab(['exercise', 'check', 'ledger', '--cmd', 'python3 nothing.py']);
    expect(generator.code).toBe(2);
    expect(generator.err).toContain('--cmd is not available for ledger');
    const unknown = await lab(['exercise', 'starter', 'no-such']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('no exercise "no-such"');
  });
});
