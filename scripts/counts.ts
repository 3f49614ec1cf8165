// The counts a refactor of the lab is judged by, each printed with the rule it checks, so a change can
// say "before N, after M" and a reviewer can run the same count. Read from the TypeScript syntax trees
// (and, for switches, the type checker), not from text, so a string or a comment never counts as code.
//
//   npx tsx scripts/counts.ts            prints every count
//   npx tsx scripts/counts.ts --check    also exits 1 when a count that must be zero is not
//
// "Outside tests" leaves out *.test.ts(x) and src/testing/ (the golden and test helpers).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `default:` clauses over a closed union that are not an exhaustiveness check, each read and kept on
 * purpose. Keyed by file and the switch's subject (not the line, which moves); a default over a closed
 * union that is not listed here counts as new.
 */
const REVIEWED_DEFAULTS: readonly { file: string; subject: string; reason: string }[] = [
  {
    file: 'src/worker/workerClient.ts',
    subject: 'data.type',
    reason:
      'every type the cases do not name is not a report: a part or an answer, which `settle` takes, where `data satisfies Settling` makes a new type that is neither fail to compile',
  },
];

const rel = (path: string) => relative(ROOT, path).split('\\').join('/');
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith('src/testing/');

function program(): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => readFileSync(path, 'utf8'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const roots = parsed.fileNames.filter((file) => rel(file).startsWith('src/'));
  return ts.createProgram(roots, parsed.options);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const lineOf = (source: ts.SourceFile, node: ts.Node) =>
  source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

/** A union of literals (or one literal, a boolean, an enum): every value is named in the type. */
function isClosed(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.every(
    (part) =>
      (part.flags &
        (ts.TypeFlags.Literal |
          ts.TypeFlags.BooleanLiteral |
          ts.TypeFlags.EnumLiteral |
          ts.TypeFlags.Undefined |
          ts.TypeFlags.Null)) !==
      0,
  );
}

/** A default that only proves the cases complete: `unreachable(x)` or a value assigned to `never`. */
function isExhaustivenessCheck(clause: ts.DefaultClause, source: ts.SourceFile): boolean {
  const text = clause.statements.map((statement) => statement.getText(source)).join('\n');
  return /\bunreachable\(/.test(text) || /:\s*never\s*=/.test(text);
}

interface Row {
  where: string;
  detail: string;
}

function count(): CountResult[] {
  const prog = program();
  const checker = prog.getTypeChecker();
  const casts = new Map<string, number>();
  const defaults = { exhaustive: [] as Row[], reviewed: [] as Row[], open: 0, unreviewed: [] as Row[] };
  const lets: Row[] = [];
  const selections: (Row & { file: string; name: string })[] = [];
  const issues: Row[] = [];
  const counted = new Set<ts.Node>();

  for (const source of prog.getSourceFiles()) {
    const file = rel(source.fileName);
    if (!file.startsWith('src/') || source.isDeclarationFile) continue;
    const text = source.getFullText();

    // `issue #` in a comment, tests included: a comment says why in the present tense, not which ticket.
    ts.forEachChild(source, function scan(node) {
      for (const range of [
        ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
      ]) {
        const comment = text.slice(range.pos, range.end);
        if (/issue\s*#/i.test(comment)) {
          const where = `${file}:${source.getLineAndCharacterOfPosition(range.pos).line + 1}`;
          if (!issues.some((row) => row.where === where))
            issues.push({ where, detail: comment.split('\n')[0]?.trim().slice(0, 90) ?? '' });
        }
      }
      node.forEachChild(scan);
    });

    if (isTest(file)) continue;

    // Module-level `let` in the page: state outside a store.
    if (file.startsWith('src/store/') || file.startsWith('src/ui/')) {
      for (const statement of source.statements) {
        if (ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.Let) !== 0) {
          lets.push({
            where: `${file}:${lineOf(source, statement)}`,
            detail: statement.declarationList.declarations.map((d) => d.name.getText(source)).join(', '),
          });
        }
      }
    }

    walk(source, (node) => {
      // `x as unknown as T`: a cast the checker cannot see through.
      if (
        ts.isAsExpression(node) &&
        ts.isAsExpression(node.expression) &&
        node.expression.type.kind === ts.SyntaxKind.UnknownKeyword
      ) {
        casts.set(file, (casts.get(file) ?? 0) + 1);
      }

      // `default:` over a closed union.
      if (ts.isSwitchStatement(node)) {
        const clause = node.caseBlock.clauses.find(ts.isDefaultClause);
        if (clause === undefined) return;
        const subject = node.expression.getText(source);
        const row = { where: `${file}:${lineOf(source, clause)}`, detail: `switch (${subject})` };
        if (!isClosed(checker.getTypeAtLocation(node.expression))) defaults.open += 1;
        else if (isExhaustivenessCheck(clause, source)) defaults.exhaustive.push(row);
        else {
          const reviewed = REVIEWED_DEFAULTS.find((entry) => entry.file === file && entry.subject === subject);
          if (reviewed === undefined) defaults.unreviewed.push(row);
          else defaults.reviewed.push({ ...row, detail: `${row.detail}: ${reviewed.reason}` });
        }
      }

      // A declaration of a run: a type or schema that names two or more of the run's dimensions as its own
      // fields, picks them by name from another (`Pick`, `Omit`, `v.pick`), or a type alias derived from
      // one that holds scenario, transport and seed.
      const memberNames = (members: ts.NodeArray<ts.Node>) =>
        members.flatMap((m) => {
          const name = (m as ts.NamedDeclaration).name;
          if (name !== undefined) return [name.getText(source)];
          // `...v.pick(RunSelectionSchema, ['scenario']).entries` in a schema's shape.
          return ts.isSpreadAssignment(m) ? pickedNames(m.expression) : [];
        });
      const dimensions = (names: readonly string[]) => RUN_DIMENSIONS.filter((name) => names.includes(name));
      const isRun = (names: readonly string[]) => {
        const named = dimensions(names);
        return named.length >= 2 && named.some((name) => name !== 'scenario' && name !== 'settings');
      };
      const add = (what: string) =>
        selections.push({
          where: `${file}:${lineOf(source, node)}`,
          detail: what,
          file,
          name: what.replace(/^(interface|type|schema) /, '').replace(/ \(.*\)$/, ''),
        });
      if (
        (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) &&
        isRun(memberNames(node.members)) &&
        // A literal inside a derived alias already counted (`Pick<…> & { seed: number }`) is part of that one.
        !(ts.isTypeLiteralNode(node) && ancestors(node).some((up) => counted.has(up)))
      ) {
        add(ts.isInterfaceDeclaration(node) ? `interface ${node.name.text}` : `type ${declarationName(node, source)}`);
        return;
      }
      // Derived: a type alias that selects from another type (`Pick`, `Omit`, `Partial`), or an interface that
      // `extends` one, whose properties, its own and those it takes, are a run's. A plain alias of one
      // declaration (`type X = Y`, a schema's `v.InferOutput`) names it again without restating it.
      const selects = (text: string) => /\b(Omit|Pick|Partial)</.test(text);
      if (
        ((ts.isTypeAliasDeclaration(node) && !ts.isTypeLiteralNode(node.type) && selects(node.type.getText(source))) ||
          (ts.isInterfaceDeclaration(node) && (node.heritageClauses ?? []).length > 0)) &&
        isRun(
          checker
            .getTypeAtLocation(node.name)
            .getProperties()
            .map((p) => p.name),
        )
      ) {
        add(`${ts.isInterfaceDeclaration(node) ? 'interface' : 'type'} ${node.name.text} (derived)`);
        counted.add(node);
        return;
      }
      if (ts.isTypeAliasDeclaration(node) && !ts.isTypeLiteralNode(node.type)) return;
      if (ts.isCallExpression(node) && /(^|\.)(object|pick)$/.test(node.expression.getText(source))) {
        // A pick inside another schema's shape (`...v.pick(…).entries`, `v.partial(v.pick(…))`) is counted with that schema.
        if (ts.isPropertyAccessExpression(node.parent) || ts.isCallExpression(node.parent)) return;
        const shape = node.arguments[0];
        const names = /(^|\.)pick$/.test(node.expression.getText(source))
          ? pickedNames(node)
          : shape !== undefined && ts.isObjectLiteralExpression(shape)
            ? memberNames(shape.properties)
            : [];
        if (!isRun(names)) return;
        const type =
          shape !== undefined && ts.isObjectLiteralExpression(shape)
            ? shape.properties.find((p) => p.name?.getText(source) === 'type')
            : undefined;
        const literal =
          type !== undefined && ts.isPropertyAssignment(type)
            ? /literal\('([^']+)'\)/.exec(type.initializer.getText(source))?.[1]
            : undefined;
        add(`schema ${declarationName(node, source)}${literal === undefined ? '' : ` (type '${literal}')`}`);
      }
    });
  }

  const castRows = [...casts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, n]) => ({ where: file, detail: String(n) }));
  const castTotal = [...casts.values()].reduce((sum, n) => sum + n, 0);
  return [
    {
      title: '`as unknown as` outside tests in src/',
      rule: 'a double cast hides a type the checker could otherwise check; each one wants a type guard, a schema or a generic instead',
      rows: castRows,
      mustBeZero: false,
      summary: `${castTotal} in ${casts.size} files`,
    },
    {
      title: '`default:` over a closed union, not an exhaustiveness check',
      rule: 'a default over a union of literals swallows the next member silently; name every case and end with unreachable(x) / `const _: never = x`, or review it here with a reason',
      rows: [
        ...defaults.unreviewed.map((row) => ({ ...row, detail: `${row.detail}  NEW, not reviewed` })),
        ...defaults.reviewed.map((row) => ({ ...row, detail: `${row.detail}  (reviewed)` })),
      ],
      mustBeZero: true,
      summary: `${defaults.unreviewed.length} new, ${defaults.reviewed.length} reviewed; beside them ${defaults.exhaustive.length} exhaustiveness checks and ${defaults.open} defaults over open types (string, number)`,
    },
    {
      title: 'module-level `let` in src/store and src/ui',
      rule: 'page state lives in a store (zustand), where a test can create it fresh; a module `let` outlives every store and every test',
      rows: lets,
      mustBeZero: false,
    },
    runDeclarations(selections),
    {
      title: '`issue #` in comments in src/',
      rule: 'comments say why in the present tense; the ticket that found a defect is history, not a reason',
      rows: issues,
      mustBeZero: true,
    },
  ];
}

/**
 * The declarations of a run that must exist, by file and name (not the line, which moves), each with the
 * reason: a record of the run something came from (a transcript, an exploration's answer, a failing run),
 * the one description and its judged form, the engine's run, and the schemas of what crosses the wire.
 * Every other one is a place a new run dimension is added by hand, to be removed. An entry that no longer
 * names a declaration fails `--check`.
 */
const REVIEWED_RUN_DECLARATIONS: readonly { file: string; name: string; reason: string }[] = [
  {
    file: 'src/engine/core/model.ts',
    name: 'ResolvedRun',
    reason: 'the engine’s one run, judged: what every model and the kit (Sim) take their dimensions from',
  },
  {
    file: 'src/engine/core/model.ts',
    name: 'RunOptions',
    reason:
      'the run as asked of the engine (runScenario): ResolvedRun’s dimensions made optional, settings unjudged, an ordering as choices',
  },
  {
    file: 'src/engine/explore/explorationRun.ts',
    name: 'ExplorationRun',
    reason:
      'the run whose orderings are explored: RunOptions less the ordering (Omit, so a new dimension reaches it), its parts a factory made afresh per ordering',
  },
  {
    file: 'src/engine/explorer.ts',
    name: 'ExploreOptions',
    reason:
      'what to explore: an ExplorationRun it extends (no dimension restated) and how to explore it (bound, merging, reduction)',
  },
  {
    file: 'src/engine/transcript.ts',
    name: 'TranscriptOfKind',
    reason: 'a transcript records the run it came from, so it replays (a contract: `lab run --json`)',
  },
  {
    file: 'src/engine/lanes.ts',
    name: 'TranscriptWithLanes',
    reason: 'a transcript (the record of its run) with the lanes its diagram is drawn in',
  },
  {
    file: 'src/engine/shrink.ts',
    name: 'ShortestOrdering',
    reason: 'records the ordering and faults that break an invariant soonest (a contract: `lab explore --json`)',
  },
  {
    file: 'src/engine/explorer.ts',
    name: 'ExploreResult',
    reason: 'records the run an exploration explored (a contract: `lab explore --json`)',
  },
  {
    file: 'src/exercise/types.ts',
    name: 'FailingRun',
    reason: 'records the run a student’s code failed in, enough to replay it (a contract of the Check answer)',
  },
  {
    file: 'src/exercise/exercise.ts',
    name: 'ExerciseRun',
    reason:
      'a row of an exercise’s table: the scenario, transport and settings it explores (seed and ordering are the explorer’s, faults none)',
  },
  {
    file: 'src/probe/run.ts',
    name: 'ProbeTranscript',
    reason: 'records the probe run against a real server (a contract: its fields are extended, never renamed)',
  },
  {
    file: 'src/sdk/sdkHarness.ts',
    name: 'TsSdkRunOptions',
    reason:
      'the part of RunOptions (Pick) an SDK lane can honour: no ordering and no faults, which the SDK orders and meets itself',
  },
  {
    file: 'src/lesson/failureCards.ts',
    name: 'RunLink',
    reason:
      'a link to a run of the lab (a failure card’s runs; a verification statement’s Evidence extends it): the scenario and what differs from its defaults',
  },
  {
    file: 'src/lesson/verification.ts',
    name: 'Evidence',
    reason:
      'the moment that shows a verification statement: a RunLink it extends, on its transport, at its event (a contract of the verify answer)',
  },
  {
    file: 'src/runs/runSpec.ts',
    name: 'RunSpec',
    reason: 'the one description of a run every edge (flags, link, Compare, the worker’s request) is read into',
  },
  {
    file: 'src/runs/runSpec.ts',
    name: 'RunSelection',
    reason:
      'RunSpec itself with its values typed and parsed and transport and seed settled: the page’s selection (only those two are restated, to make them required)',
  },
  {
    file: 'src/runs/runSpec.ts',
    name: 'ResolvedRunSpec',
    reason: 'the one description judged against its scenario, once',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'RunSelectionSchema',
    reason: 'the schema of the run request as it crosses the wire to the worker',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'transcriptOf',
    reason: 'the schema of a transcript (the record of its run) as it crosses the wire',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'checkedProbeTranscript',
    reason: 'the schema of a probe transcript (the record of a probe run) as it crosses the wire',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'checkedExploreResult',
    reason: 'the schema of an exploration’s answer (which records its run) as it crosses the wire',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'runLink',
    reason:
      'the schema of RunLink (a failure card’s run, reviewed above) as it crosses the wire, its fields picked from RunSelectionSchema',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'ExploredRunSchema',
    reason:
      'the part of RunSelectionSchema (v.pick) an exploration and a panel take: the model’s seeded run, so no implementation or ordering, and the page sends no faults (`lab explore --fault` does)',
  },
  {
    file: 'src/worker/link.ts',
    name: 'LinkView',
    reason:
      'a shared link as read once (worker/link.ts, by the page and by the worker opening it early): its run as text for the worker’s one judge (resolve), beside its ordering and faults parsed (typed from RunSelection) and the page’s view',
  },
  {
    file: 'src/store/run/state.ts',
    name: 'SelectionChange',
    reason:
      'what a control changes: RunSelection less the scenario, ordering and faults (Omit, so a new dimension reaches it), made partial, and the ledger choice',
  },
  {
    file: 'src/worker/schemas.ts',
    name: 'FailingRunSchema',
    reason: 'the schema of FailingRun (the record of a failing run) as it crosses the wire',
  },
];

type CountResult = {
  title: string;
  rule: string;
  rows: Row[];
  mustBeZero: boolean;
  summary?: string;
  /** Rows that fail `--check` whatever `mustBeZero` says (a reviewed entry that names nothing any more). */
  stale?: Row[];
};

function runDeclarations(found: readonly (Row & { file: string; name: string })[]): CountResult {
  const reasonOf = (row: { file: string; name: string }) =>
    REVIEWED_RUN_DECLARATIONS.find((entry) => entry.file === row.file && entry.name === row.name)?.reason;
  const reviewed = found.filter((row) => reasonOf(row) !== undefined);
  const toRemove = found.filter((row) => reasonOf(row) === undefined);
  const stale = REVIEWED_RUN_DECLARATIONS.filter(
    (entry) => !found.some((row) => row.file === entry.file && row.name === entry.name),
  ).map((entry) => ({
    where: entry.file,
    detail: `${entry.name}  STALE: reviewed in scripts/counts.ts but no longer declared here; remove the entry`,
  }));
  return {
    title: 'declarations of a run',
    rule: 'a run is scenario, transport, seed, settings, ordering and faults, described once (RunSpec), judged once (ResolvedRunSpec) and run as one engine value (ResolvedRun); each further type or schema naming two or more of them, selecting them from another (Pick, Omit, Partial, v.pick) or extending one, is a place a new run dimension must be added by hand, unless it is reviewed as one that must exist (REVIEWED_RUN_DECLARATIONS)',
    rows: [
      ...toRemove.map((row) => ({ where: row.where, detail: `${row.detail}  to remove` })),
      ...reviewed.map((row) => ({ where: row.where, detail: `${row.detail}  must exist: ${reasonOf(row)}` })),
      ...stale,
    ],
    mustBeZero: false,
    summary: `${found.length}: ${reviewed.length} must exist (reviewed), ${toRemove.length} to remove${stale.length === 0 ? '' : `; ${stale.length} reviewed entries stale`}`,
    stale,
  };
}

/** What a run is made of: each further declaration naming them is a place a new dimension is added by hand. */
const RUN_DIMENSIONS = ['scenario', 'transport', 'seed', 'settings', 'schedule', 'faults'] as const;

/** The names a `v.pick(schema, ['a', 'b'])` (possibly inside `v.partial(…)`, `.entries`) picks. */
function pickedNames(node: ts.Node): string[] {
  const names: string[] = [];
  walk(node, (inner) => {
    if (
      ts.isCallExpression(inner) &&
      /(^|\.)pick$/.test(inner.expression.getText()) &&
      inner.arguments[1] !== undefined
    ) {
      const list = inner.arguments[1];
      if (ts.isArrayLiteralExpression(list))
        for (const item of list.elements) if (ts.isStringLiteral(item)) names.push(item.text);
    }
  });
  return names;
}

function ancestors(node: ts.Node): ts.Node[] {
  const found: ts.Node[] = [];
  for (let at = node.parent as ts.Node | undefined; at !== undefined; at = at.parent) found.push(at);
  return found;
}

/** The name a node is declared under: its variable, type alias, property or interface member. */
function declarationName(node: ts.Node, source: ts.SourceFile): string {
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if (
      ts.isVariableDeclaration(at) ||
      ts.isTypeAliasDeclaration(at) ||
      ts.isPropertyAssignment(at) ||
      ts.isPropertySignature(at) ||
      ts.isPropertyDeclaration(at)
    )
      return at.name.getText(source);
    if (ts.isInterfaceDeclaration(at) || ts.isFunctionDeclaration(at))
      return `in ${at.name?.getText(source) ?? '(anonymous)'}`;
  }
  return '(inline)';
}

const check = process.argv.includes('--check');
let failed = false;
for (const { title, rule, rows, mustBeZero, summary, stale } of count()) {
  const flagged = mustBeZero ? rows.filter((row) => !row.detail.endsWith('(reviewed)')).length : rows.length;
  console.log(`${title}: ${summary ?? rows.length}`);
  console.log(`  rule: ${rule}`);
  for (const row of rows) console.log(`  ${row.where}  ${row.detail}`);
  console.log('');
  if ((mustBeZero && flagged > 0) || (stale?.length ?? 0) > 0) failed = true;
}
if (check && failed) process.exit(1);
