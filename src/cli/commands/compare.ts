import { parseArgs } from 'node:util';
import { compareMany, compareRuns, COMPARED_RUNS_MAX, PROTOCOL_VERSION, type Transcript } from '../../engine';
import { runResolved } from '../../runs/runs';
import { formatRunSpec, parseRunSpec, resolveRunSpec } from '../../runs/runSpec';
import { findScenario } from '../../scenarios/index';
import { commandBudget, RUN_BUDGET_MS } from '../runBudget';
import { jsonForTerminal } from '../safeOutput';
import { loadSqlJs } from '../sqlite';
import { budgetMs, UsageError, type Command } from './shared';

export const compare: Command = async (args, io) => {
  io.out(`${await compareText(args)}\n`);
  return 0;
};

/** `compare <runA> <runB> [<runC>]`: the runs' facts, the differing ones marked, and where their events first part (each pair, for three). */
async function compareText(args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean', default: false }, 'budget-ms': { type: 'string' } },
  });
  if (positionals.length < 2 || positionals.length > COMPARED_RUNS_MAX)
    throw new UsageError(`compare takes two or three runs, got ${positionals.length}`);
  const limitMs = budgetMs(values['budget-ms'], RUN_BUDGET_MS);
  const specs = positionals.map((text) => parseRunSpec(text));
  // Both are checked before either runs: a typo in the second costs no run of the first.
  const runs = specs.map((spec) => resolveRunSpec(spec, findScenario));
  const sql = await loadSqlJs();
  const budget = commandBudget(limitMs);
  const transcripts: Transcript[] = [];
  for (const run of runs) {
    const trace = budget.trace();
    transcripts.push(await runResolved(run, { ledger: { sql }, onStep: (atMs) => trace.pop(atMs, 0) }));
  }
  const names = specs.map((spec) => formatRunSpec(spec));
  const tick = (events: number) => budget.check(`while comparing (${events} events compared)`);
  if (transcripts.length === 3) return compareThree(names, transcripts, values.json === true, tick);
  const [a, b] = transcripts as [Transcript, Transcript];
  const result = compareRuns(a, b, { tick });
  if (values.json) return jsonForTerminal({ runs: names, ...result });
  // Two columns while they fit; a fact too long for a column is written on two lines of its own.
  const COLUMN_MAX = 50;
  const width = Math.max(...result.facts.map((f) => f.name.length));
  const fits = (f: { a: string; b: string }) => f.a.length <= COLUMN_MAX && f.b.length <= COLUMN_MAX;
  const column = Math.max(
    ...result.facts.filter(fits).map((f) => f.a.length),
    Math.min(names[0]?.length ?? 0, COLUMN_MAX),
  );
  const lines = [`  ${''.padEnd(width)}   ${(names[0] ?? '').padEnd(column)}   ${names[1] ?? ''}`];
  for (const fact of result.facts) {
    const mark = fact.differs ? '*' : ' ';
    if (fits(fact)) lines.push(`${mark} ${fact.name.padEnd(width)}   ${fact.a.padEnd(column)}   ${fact.b}`);
    else lines.push(`${mark} ${fact.name}`, `    ${names[0]}: ${fact.a}`, `    ${names[1]}: ${fact.b}`);
  }
  lines.push('');
  if (result.divergence === null) {
    lines.push('the runs do not part: every compared event matches');
  } else {
    const d = result.divergence;
    lines.push(`first event where they part, at ${d.atMs} ms:`);
    lines.push(`  ${names[0]}: ${d.a === null ? 'nothing else at that instant' : `event ${d.indexA}: ${d.a}`}`);
    lines.push(`  ${names[1]}: ${d.b === null ? 'nothing else at that instant' : `event ${d.indexB}: ${d.b}`}`);
  }
  lines.push(`(${result.note})`);
  const sdk = transcripts.find((t) => t.sdk !== undefined)?.sdk;
  if (sdk !== undefined)
    lines.push(
      `(${sdk.package} ${sdk.version} speaks protocol ${sdk.negotiatedProtocolVersion}; the lab's model speaks ${PROTOCOL_VERSION})`,
    );
  return lines.join('\n');
}

/** Three runs (the model, SDK 1.x, v2): their facts in three columns, and where each pair first parts. */
function compareThree(
  names: readonly string[],
  transcripts: readonly Transcript[],
  json: boolean,
  tick: (events: number) => void,
): string {
  const result = compareMany(transcripts, { tick });
  if (json) return jsonForTerminal({ runs: names, ...result });
  // Numbered, not lettered: a letter would read as scenario A–D.
  const label = (index: number) => `run ${index + 1}`;
  const lines = names.map((name, index) => `  ${label(index)}: ${name}`);
  lines.push('');
  for (const fact of result.facts) {
    lines.push(`${fact.differs ? '*' : ' '} ${fact.name}`);
    fact.values.forEach((value, index) => lines.push(`    ${label(index)}  ${value}`));
  }
  lines.push('');
  for (const pair of result.pairs) {
    const [x, y] = [label(pair.a), label(pair.b)];
    const d = pair.divergence;
    if (d === null) {
      lines.push(`${x} and ${y} do not part: every compared event matches`);
      continue;
    }
    lines.push(`${x} and ${y} first part at ${d.atMs} ms:`);
    lines.push(`  ${x}: ${d.a === null ? 'nothing else at that instant' : `event ${d.indexA}: ${d.a}`}`);
    lines.push(`  ${y}: ${d.b === null ? 'nothing else at that instant' : `event ${d.indexB}: ${d.b}`}`);
  }
  lines.push('');
  for (const t of transcripts)
    if (t.sdk !== undefined)
      lines.push(
        `(${t.sdk.package} ${t.sdk.version} speaks protocol ${t.sdk.negotiatedProtocolVersion}; the lab's model speaks ${PROTOCOL_VERSION})`,
      );
  return lines.join('\n');
}
