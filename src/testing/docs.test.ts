// Proves the README and the pages of docs/ hold what a newcomer relies on: the two commands are the ones
// the project runs (the test command is what CI runs), every `npm run` and `lab` command they show
// exists, every example command of the README and docs/cli.md runs and exits 0, the Node version they
// ask for is one every installed package accepts, every relative link and anchor resolves, they cite no
// document the repository lacks, and every requirement id the page or the CLI can print is defined in
// docs/requirements.md.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, renderDocsPage } from '../../scripts/docsPage';
import { lab } from '../cli/captured';
import {
  requirementDocLink as requirementLink,
  requirementPageLink as pageRequirementLink,
  REQUIREMENTS_DOC,
} from '../lesson/requirements';

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

/** The CLI's answer to one command line, run once per test file however many tests ask (verify takes seconds). */
const answers = new Map<string, ReturnType<typeof lab>>();
const labOnce = (...argv: string[]) => {
  const key = JSON.stringify(argv);
  if (!answers.has(key)) answers.set(key, lab(...argv));
  return answers.get(key) as ReturnType<typeof lab>;
};

/** A command line split as a POSIX shell splits words: spaces separate, quotes group (no expansion). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/**
 * The example `npm run lab -- …` lines of a page's ```sh blocks, as the argv after `--` (a line ending in
 * `\` continued, the `# comment` dropped). Lines with a redirection (`> file`) are left out: they run a
 * command an example before them already shows.
 */
function labExamples(path: string): string[][] {
  const blocks = [...read(path).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npm run lab -- ') && !/[<>]/.test(line))
    .map((line) => shellWords(line.slice('npm run lab -- '.length)));
}

/**
 * Examples this file does not run, each because it takes more than a few seconds, and the test that runs
 * the same command (that file is checked to hold the command's words).
 */
const RUN_ELSEWHERE: Array<{ command: string; words: string[]; test: string }> = [
  { command: 'evidence', words: ["'evidence'", "'--out'"], test: 'src/cli/main.test.ts' },
  { command: 'exercise', words: ["'exercise', 'check', 'buffer', '--file'"], test: 'src/cli/exercise.test.ts' },
  { command: 'probe', words: ['server-everything', "'--tool'"], test: 'src/probe/probe.test.ts' },
];

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

  it('asks for the Node version package.json declares, and every package npm installs accepts it but those it names', () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    const asked = /You need Node (\d+\.\d+) or newer/.exec(readme)?.[1];
    expect(pkg.engines.node).toBe(`>=${asked}`);
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return path !== '' && range !== undefined && !nodeSatisfies(`${asked}.0`, range);
      })
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    // npm install warns EBADENGINE for each: the README names them, and says why that is harmless.
    expect(refusing).toEqual(['@sparticuz/chromium']);
    for (const name of refusing) expect(readme).toContain(`\`EBADENGINE\` for \`${name}\``);
  });

  it('fits on a few screens', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('the example commands of the README and docs/cli.md', () => {
  const examples = ['README.md', 'docs/cli.md'].flatMap((path) => labExamples(path).map((argv) => ({ path, argv })));

  it('are found: the pages show a dozen or more, of most commands', () => {
    expect(examples.length).toBeGreaterThan(25);
    expect(new Set(examples.map((e) => e.argv[0])).size).toBeGreaterThan(9);
  });

  it('each runs and exits 0, writing where an example writes into a fresh folder instead', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'lab-docs-'));
    try {
      let ran = 0;
      for (const { path, argv } of examples) {
        if (RUN_ELSEWHERE.some((r) => r.command === argv[0])) continue;
        // --out DIR and --ledger FILE would write into the checkout: the same command, into a scratch folder.
        const args = argv.map((word, i) =>
          argv[i - 1] === '--out' || argv[i - 1] === '--ledger'
            ? join(scratch, `${ran}-${word.replace(/\W/g, '_')}`)
            : word,
        );
        const writes = args.some((word, i) => args[i - 1] === '--out' || args[i - 1] === '--ledger');
        const { code, out, err } = await (writes ? lab(...args) : labOnce(...args));
        expect({ code, err: err.slice(0, 300) }, `${path}: npm run lab -- ${argv.join(' ')}`).toEqual({
          code: 0,
          err: '',
        });
        expect(out.length, `${path}: npm run lab -- ${argv.join(' ')} printed nothing`).toBeGreaterThan(0);
        if (argv.includes('--json')) expect(() => JSON.parse(out) as unknown).not.toThrow();
        ran += 1;
      }
      expect(ran).toBeGreaterThan(20);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('those left to another test are run there, and are examples the pages show', () => {
    for (const { command, words, test } of RUN_ELSEWHERE) {
      expect(
        examples.some((e) => e.argv[0] === command),
        `${command} is no longer an example: drop it from RUN_ELSEWHERE`,
      ).toBe(true);
      for (const word of words) expect(read(test), `${test} runs ${command}`).toContain(word);
    }
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
    const list = (await labOnce('list')).out;
    const verify = (await labOnce('verify')).out;
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

/**
 * Whether a Node version (x.y.z) is in an npm `engines.node` range, for the forms package-lock.json holds:
 * alternatives joined by `||`, each a list of comparators (`>=`, `>`, `<=`, `<`, `^`, `~`, `=`, or a
 * partial version such as `20` or `6.*`, which means that major or minor line).
 */
function nodeSatisfies(version: string, range: string): boolean {
  const parse = (text: string) => text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : null));
  const [v0 = 0, v1 = 0, v2 = 0] = parse(version).map((n) => n ?? 0);
  const v = [v0, v1, v2];
  const compare = (other: number[]) => {
    for (let i = 0; i < 3; i += 1) if ((v[i] ?? 0) !== (other[i] ?? 0)) return (v[i] ?? 0) - (other[i] ?? 0);
    return 0;
  };
  const holds = (comparator: string): boolean => {
    const match = /^(>=|<=|>|<|\^|~|=)?v?([\d.x*]+)$/.exec(comparator);
    if (match === null) throw new Error(`engines range not understood: ${comparator} (in ${range})`);
    const op = match[1] ?? '';
    const parts = parse(match[2] as string);
    const given = parts.findIndex((p) => p === null);
    const known = (given === -1 ? parts : parts.slice(0, given)) as number[];
    const low = [known[0] ?? 0, known[1] ?? 0, known[2] ?? 0];
    const cmp = compare(low);
    if (op === '>=') return cmp >= 0;
    if (op === '>') return cmp > 0;
    if (op === '<=') return cmp <= 0;
    if (op === '<') return cmp < 0;
    // ^ keeps the major (or the minor under 1.0), ~ the minor; a partial version keeps what it names.
    const kept = op === '^' ? (low[0] === 0 ? 2 : 1) : op === '~' ? Math.min(known.length, 2) : known.length;
    return cmp >= 0 && v.slice(0, kept).every((n, i) => n === low[i]);
  };
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .every(holds),
  );
}
