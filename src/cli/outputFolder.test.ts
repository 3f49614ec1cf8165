// Proves `skill --out` and `evidence --out` write folders the same careful way: the skill folder
// is buildSkill's bytes; a bad path gets a catalogued LAB014 and nothing written; a folder with files is
// refused without --force; --force replaces only the lab's entries and never follows a symlink out.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSkill, SKILL_NAME } from '../lesson/skill';
import { lab } from './captured';

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const skillBytes = () => Object.fromEntries(buildSkill().map((f) => [f.path, f.contents]));

describe('skill --out DIR', () => {
  it('writes DIR/mcp-reliability-reviewer/ with buildSkill’s bytes, creating missing folders', async () => {
    const dir = join(tmp('lab-skill-'), 'agents', 'skills');
    const r = await lab('skill', '--out', dir);
    expect(r).toMatchObject({ code: 0, err: '' });
    const expected = skillBytes();
    for (const [path, contents] of Object.entries(expected))
      expect(readFileSync(join(dir, path), 'utf8')).toBe(contents);
    expect(readdirSync(join(dir, SKILL_NAME)).sort()).toEqual(['SKILL.md', 'examples', 'review-input.schema.json']);
    expect(readdirSync(dir)).toEqual([SKILL_NAME]);
  });

  it('sits beside other skills in DIR, refuses its own folder with files unless --force, and --force keeps others', async () => {
    const dir = tmp('lab-skill-force-');
    mkdirSync(join(dir, 'other-skill'));
    writeFileSync(join(dir, 'other-skill', 'SKILL.md'), 'mine');
    expect((await lab('skill', '--out', dir)).code).toBe(0);
    writeFileSync(join(dir, SKILL_NAME, 'SKILL.md'), 'edited');
    const refused = await lab('skill', '--out', dir);
    expect(refused).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /LAB014 output folder cannot be used: .*mcp-reliability-reviewer is not empty .*--force/,
      ),
    });
    expect(readFileSync(join(dir, SKILL_NAME, 'SKILL.md'), 'utf8')).toBe('edited');
    expect((await lab('skill', '--out', dir, '--force')).code).toBe(0);
    expect(readFileSync(join(dir, SKILL_NAME, 'SKILL.md'), 'utf8')).toBe(skillBytes()[`${SKILL_NAME}/SKILL.md`]);
    expect(readFileSync(join(dir, 'other-skill', 'SKILL.md'), 'utf8')).toBe('mine');
  });

  it('--force never follows a symlink: a linked SKILL.md is replaced, its target untouched; a linked skill folder is refused', async () => {
    const dir = tmp('lab-skill-sym-');
    const folder = join(dir, SKILL_NAME);
    mkdirSync(folder);
    writeFileSync(join(dir, 'victim.txt'), 'do not touch');
    symlinkSync('../victim.txt', join(folder, 'SKILL.md'));
    writeFileSync(join(folder, 'notes.txt'), 'mine');
    expect((await lab('skill', '--out', dir, '--force')).code).toBe(0);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('do not touch');
    expect(lstatSync(join(folder, 'SKILL.md')).isFile()).toBe(true);
    expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).toBe('mine');

    const linked = tmp('lab-skill-linkdir-');
    const elsewhere = tmp('lab-skill-elsewhere-');
    symlinkSync(elsewhere, join(linked, SKILL_NAME));
    const r = await lab('skill', '--out', linked, '--force');
    expect(r).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*mcp-reliability-reviewer is a symbolic link/),
    });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('DIR itself a symbolic link to a folder is refused, as evidence --out refuses it', async () => {
    const dir = tmp('lab-skill-outlink-');
    const target = tmp('lab-skill-target-');
    symlinkSync(target, join(dir, 'LINK'));
    const r = await lab('skill', '--out', join(dir, 'LINK'));
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(/LAB014 .*LINK is a symbolic link; give the real folder/),
    });
    expect(readdirSync(target)).toEqual([]);
    expect(await lab('evidence', '--out', join(dir, 'LINK'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*LINK is a symbolic link/),
    });
  });

  it('bad paths get LAB014 naming the path, never a stack trace, and nothing is written', async () => {
    expect(await lab('skill', '--out', '')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*"" is not a folder name/),
    });
    const file = join(tmp('lab-skill-file-'), 'file.txt');
    writeFileSync(file, 'mine');
    expect(await lab('skill', '--out', file)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*file.txt, which is a file/),
    });
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const locked = tmp('lab-skill-ro-');
    chmodSync(locked, 0o555);
    expect(await lab('skill', '--out', locked)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*cannot write \(read-only\)/),
    });
    expect(readdirSync(locked)).toEqual([]);
    expect(await lab('skill')).toMatchObject({ code: 2, err: expect.stringMatching(/skill needs --out DIR/) });
  });
});

describe('evidence --out DIR', () => {
  it('holds the skill folder, and a second export into the same folder needs --force', async () => {
    const dir = tmp('lab-evidence-skill-');
    expect((await lab('evidence', '--out', dir)).code).toBe(0);
    expect(readFileSync(join(dir, SKILL_NAME, 'SKILL.md'), 'utf8')).toBe(skillBytes()[`${SKILL_NAME}/SKILL.md`]);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(await lab('evidence', '--out', dir)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*is not empty/),
    });
    expect((await lab('evidence', '--out', dir, '--force')).code).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
