// Proves the README and the pages of docs/ hold what a newcomer relies on: the two commands are the ones
// the project runs (the test command is what CI runs), every `npm run` and `lab` command they show
// exists, every relative link and anchor resolves, they cite no document the repository lacks, and
// every requirement id the page or the CLI can print is defined in docs/requirements.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, renderDocsPage } from '../../scripts/docsPage';
import { lab } from '../cli/captured';
import {
  requirementDocLink as requirementLink,
  requirementPageLink as pageRequirementLink,
  REQUIREMENTS_DOC,
} from '../lab/requirements';

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), '..', '..'));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** README.md and every Markdown page under docs/ (the generated skill folder included). */
function documents(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', ...under('docs')];
}

/** Markdown without its fenced code blocks (links and prose only). */
const prose = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** The requirement ids a text names (RC-1, LG-P10, VF-12 …). */
const ID = /\b(?:RC|LG|RT|TK|BF|RV|VF|AR)-P?\d+\b/g;

/** Every non-test source file under src/, where the page's and the CLI's words come from. */
function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the README', () => {
  const readme = read('README.md');

  it('gives the two commands, and its test command is exactly what CI runs', () => {
    expect(readme).toMatch(/^npm install && npm start\s+#/m);
    expect(readme).toMatch(/^npm test\s+#/m);
    expect(read('.ci/run')).toMatch(/^npm test$/m);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toBeDefined();
    // npm start serves without trying to open a browser (`--open=false` read "false" as an address).
    expect(scripts.start).toBe('vite --no-open');
  });

  it('fits on a few screens', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('README.md and docs/', () => {
  it('every `npm run X` they show is a script of package.json, and every `npm run lab -- C` a command the CLI knows', async () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const usage = (await lab('help')).out;
    const commands = new Set(['help', ...[...usage.matchAll(/^ {2}npm run lab -- (\w+)/gm)].map((m) => m[1])]);
    expect(commands.size).toBeGreaterThan(8);
    let seen = 0;
    for (const path of documents()) {
      for (const match of read(path).matchAll(/npm run ([\w:]+)(?: -- (\w+))?/g)) {
        seen += 1;
        expect(Object.keys(scripts), `${path}: npm run ${match[1]}`).toContain(match[1]);
        if (match[1] === 'lab' && match[2] !== undefined)
          expect([...commands], `${path}: npm run lab -- ${match[2]}`).toContain(match[2]);
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('every relative link resolves to a file of the repository, and every anchor to a heading there', () => {
    let checked = 0;
    for (const path of documents()) {
      for (const match of prose(read(path)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? path : normalize(join(dirname(path), file));
        expect(relative(ROOT, join(ROOT, resolved)).startsWith('..'), `${path}: ${target} leaves the repository`).toBe(
          false,
        );
        expect(existsSync(join(ROOT, resolved)), `${path}: ${target} (${resolved}) does not exist`).toBe(true);
        if (anchor !== undefined) {
          expect(statSync(join(ROOT, resolved)).isFile(), `${path}: ${target}`).toBe(true);
          expect([...headingAnchors(read(resolved))], `${path}: ${target} names no heading of ${resolved}`).toContain(
            anchor,
          );
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('what their examples write in a checkout (--out DIR, --ledger FILE) is ignored by git', () => {
    const ignored = read('.gitignore')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    const written = new Set<string>();
    for (const path of documents()) {
      for (const match of read(path).matchAll(/npm run lab -- \S+ [^\n#]*?--(?:out|ledger) ([\w./-]+)/g)) {
        const target = match[1] as string;
        // A folder the docs name as a placeholder, or one outside the checkout, is the reader's own.
        if (/^(DIR|FILE)\b/.test(target) || target.startsWith('/') || target.startsWith('docs/')) continue;
        written.add(target.split('/')[0] as string);
      }
    }
    expect([...written].sort()).toEqual(['.claude', 'evidence', 'lab.sqlite']);
    for (const top of written)
      expect(
        ignored.some((line) => line.replace(/^\/|\/$/g, '') === top),
        `${top} is written by an example but not in .gitignore`,
      ).toBe(true);
  });

  it('cite no document the repository does not hold and no issue number', () => {
    for (const path of documents()) {
      const text = read(path);
      expect(text, path).not.toMatch(/\bSPEC\b/);
      expect(text, path).not.toMatch(/\b(?:issues?|PR|pull request) #?\d+/i);
    }
  });
});

describe('docs/requirements.md', () => {
  const catalogue = read(REQUIREMENTS_DOC);
  const defined = new Set([...catalogue.matchAll(/^### ((?:RC|LG|RT|TK|BF|RV|VF|AR)-P?\d+)$/gm)].map((m) => m[1]));

  it('defines every requirement id the source of the page and the CLI names', () => {
    const named = new Map<string, string>();
    for (const path of sourceFiles())
      for (const id of read(path).match(ID) ?? []) if (!named.has(id)) named.set(id, path);
    expect(named.size).toBeGreaterThan(50);
    for (const [id, path] of named)
      expect(defined.has(id), `${id} (named in ${path}) is not defined in ${REQUIREMENTS_DOC}`).toBe(true);
  });

  it('defines every id `list` and `verify` print, each with the scenario that shows it, and verify links each one', async () => {
    const list = (await lab('list')).out;
    const verify = (await lab('verify')).out;
    const printed = new Set([...list.matchAll(ID), ...verify.matchAll(ID)].map((m) => m[0]));
    expect(printed.size).toBeGreaterThan(40);
    for (const id of printed) {
      expect(defined.has(id), `${id} is printed but not defined`).toBe(true);
      const entry = catalogue.split(`### ${id}\n`)[1]?.split('\n### ')[0] ?? '';
      expect(entry, `${id} names no scenario that shows it`).toMatch(/\*\*Shown by:\*\* `/);
    }
    for (const line of verify.split('\n').filter((l) => /^(ok {2}|FAIL) /.test(l) && !l.includes('failure:'))) {
      const id = /^(?:ok {2}|FAIL) ((?:RC|LG|RT|TK|BF|RV|VF)-P?\d+) /.exec(line)?.[1];
      if (id === undefined) continue;
      expect(line, id).toContain(`(${requirementLink(id)})`);
      expect([...headingAnchors(catalogue)]).toContain(requirementLink(id).split('#')[1]);
    }
  });

  it('the page links each id to its heading in the requirements page the build serves', () => {
    const html = renderDocsPage(catalogue, 'requirements.md', null);
    for (const id of defined) {
      const anchor = pageRequirementLink(id as string).split('#')[1] as string;
      expect(pageRequirementLink(id as string)).toMatch(/^requirements\.html#/);
      expect(html, id).toContain(`id="${anchor}"`);
    }
  });
});
