// Proves every stylesheet closes each block it opens, outside comments and strings. CSS forgives an
// unclosed block by nesting everything after it inside (one left open in app.css
// silently turns off every rule after it, whole panels' included).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** The line of each `{` left open at the end, and of each `}` with nothing to close. */
function unbalanced(css: string): { open: number[]; stray: number[] } {
  const open: number[] = [];
  const stray: number[] = [];
  let line = 1;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === '\n') line++;
    else if (ch === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      const stop = end < 0 ? css.length : end + 2;
      line += css.slice(i, stop).split('\n').length - 1;
      i = stop - 1;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < css.length && css[j] !== ch) j += css[j] === '\\' ? 2 : 1;
      i = j;
    } else if (ch === '{') open.push(line);
    else if (ch === '}') {
      if (open.pop() === undefined) stray.push(line);
    }
  }
  return { open, stray };
}

describe('stylesheets', () => {
  const files = stylesheets('src');
  it('finds the stylesheets', () => {
    expect(files).toContain(join('src', 'ui', 'app.css'));
  });
  for (const file of files) {
    it(`${file} closes every block it opens`, () => {
      expect(unbalanced(readFileSync(file, 'utf8'))).toEqual({ open: [], stray: [] });
    });
  }
  it('the check sees an unclosed block and a stray brace', () => {
    expect(unbalanced('a {\n  color: red;\n\nb { color: blue; }\n')).toEqual({ open: [1], stray: [] });
    expect(unbalanced('a { content: "}"; }\n}\n/* { */')).toEqual({ open: [], stray: [2] });
  });
});
