// Proves the reviewer is bounded: a huge input is refused by size before it is read, JSON nested
// 100,000 deep gets a field error instead of a stack overflow, and a file of a million wrong-typed items reports
// the first 100 errors and the count of the rest — through the CLI too.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { REVIEW_DEPTH_MAX, REVIEW_ERRORS_MAX, REVIEW_INPUT_CHARS_MAX, jsonDepth, reviewText } from './reviewLimits';

const example = readFileSync('src/lesson/examples/unsafe-charge.json', 'utf8');

async function lab(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('review limits', () => {
  it('jsonDepth ignores brackets inside strings', () => {
    expect(jsonDepth('{"a":"[[[{{{","b":[1,[2]]}')).toBe(3);
  });

  it('JSON nested 100,000 deep is a field error, not a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const result = reviewText(deep);
    expect(result).toMatchObject({
      ok: false,
      errors: [{ field: '/', message: expect.stringContaining(`more than ${REVIEW_DEPTH_MAX} levels`) }],
    });
  });

  it('many wrong-typed items report the first 100 errors and a count', () => {
    const input = JSON.parse(example);
    input.recovery.refetch = Array.from({ length: 50_000 }, () => 0);
    const result = reviewText(JSON.stringify(input));
    if (result.ok) throw new Error('expected errors');
    expect(result.errors).toHaveLength(REVIEW_ERRORS_MAX);
    expect(result.errorsTotal).toBe(50_000);
  });

  it('an input over the size bound is refused unread', () => {
    expect(reviewText(' '.repeat(REVIEW_INPUT_CHARS_MAX + 1))).toMatchObject({
      ok: false,
      errors: [{ field: '/', message: expect.stringMatching(/more than the reviewer reads/) }],
    });
  });

  it('the CLI prints at most 100 error lines and the count; a huge file is LAB015', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-review-cap-'));
    const input = JSON.parse(example);
    input.recovery.refetch = Array.from({ length: 100_000 }, () => 0);
    writeFileSync(join(dir, 'many.json'), JSON.stringify(input));
    const many = await lab('review', join(dir, 'many.json'));
    expect(many.code).toBe(1);
    expect(many.err.split('\n').filter((line) => line.startsWith('  /')).length).toBe(REVIEW_ERRORS_MAX);
    expect(many.err).toMatch(/… and 99,900 more errors/);
    writeFileSync(join(dir, 'huge.json'), `[${'0,'.repeat(REVIEW_INPUT_CHARS_MAX)}0]`);
    expect(await lab('review', join(dir, 'huge.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB015 .*huge.json is \d+ bytes/),
    });
    writeFileSync(join(dir, 'deep.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(await lab('review', join(dir, 'deep.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/\/: nests arrays and objects more than 64 levels/),
    });
  });
});
