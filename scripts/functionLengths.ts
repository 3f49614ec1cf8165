/**
 * Lists every function in src/ (declarations, methods, accessors, constructors, arrow functions and
 * function expressions, from the line it starts on to the line it ends on) longer than LENGTH_MAX lines,
 * and exits 1 when one of them is not a declared exception: a declarative table or template, whose
 * length is its data, not steps a reader must hold together (docs/architecture.md, "Function length").
 *
 *   npx tsx scripts/functionLengths.ts          # or: npm run lint:length
 *   npx tsx scripts/functionLengths.ts --all    # every function over the limit, exceptions included
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export const LENGTH_MAX = 100;

/**
 * Functions allowed to run past LENGTH_MAX, by file and name, each with the reason. Keep it short: an
 * entry is a table or a template (one row or paragraph per item, nothing shared between them).
 */
export const EXCEPTIONS: readonly { file: string; name: string; reason: string }[] = [
  {
    file: 'src/lesson/skill.ts',
    name: 'skillMarkdown',
    reason: 'a template: the SKILL.md text with its few interpolations, one paragraph after another',
  },
];

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found.sort();
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** A function's name, or the name it is given: `const f = () => …`, `f: () => …`, `create((set) => …)`. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(file);
  }
  const inner = ts.isCallExpression(parent)
    ? `(argument of ${parent.expression.getText(file).slice(0, 40)})`
    : '(anonymous)';
  const outer = enclosingFunction(node);
  return outer ? `${nameOf(outer, file)} > ${inner}` : inner;
}

function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let up = node.parent; up; up = up.parent) if (isFunction(up)) return up;
  return undefined;
}

export function longFunctions(root: string, max = LENGTH_MAX): LongFunction[] {
  const long: LongFunction[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(path, 'utf8');
    const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node): void => {
      if (isFunction(node) && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > max) {
          long.push({
            file: relative(root, path).split(sep).join('/'),
            name: nameOf(node, file),
            line: start + 1,
            lines,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return long.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

export function isExcepted(fn: LongFunction): boolean {
  return EXCEPTIONS.some((e) => e.file === fn.file && e.name === fn.name);
}

function main(): void {
  const all = process.argv.includes('--all');
  const long = longFunctions(process.cwd());
  const offending = long.filter((fn) => !isExcepted(fn));
  const excepted = long.filter(isExcepted);
  const row = (fn: LongFunction) => `  ${String(fn.lines).padStart(4)} lines  ${fn.file}:${fn.line}  ${fn.name}`;
  if (offending.length > 0) {
    console.log(
      `${offending.length} function(s) over ${LENGTH_MAX} lines (split them, or declare a table in EXCEPTIONS):`,
    );
    for (const fn of offending) console.log(row(fn));
  } else {
    console.log(`No function over ${LENGTH_MAX} lines outside the declared exceptions.`);
  }
  if (all || offending.length > 0) {
    console.log(`${excepted.length} declared exception(s) (scripts/functionLengths.ts, docs/architecture.md):`);
    for (const fn of excepted) console.log(row(fn));
  }
  const stale = EXCEPTIONS.filter((e) => !excepted.some((fn) => fn.file === e.file && fn.name === e.name));
  for (const e of stale)
    console.log(`Stale exception (no longer over ${LENGTH_MAX} lines, remove it): ${e.file} ${e.name}`);
  process.exitCode = offending.length > 0 || stale.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
