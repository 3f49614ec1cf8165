import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildEvidence } from '../../lesson/evidence';
import { buildSkill, SKILL_NAME } from '../../lesson/skill';
import { checkOutputFolder, checkParentFolder, escapeControl, writeOutputFolder } from '../safeOutput';
import { loadSqlJs } from '../sqlite';
import { hostRunner, reportingRunner, terminalWriter, UsageError, type Command } from './shared';

/** `--out DIR [--force]`, the flags of the commands that write a folder. */
function outFlags(args: string[], command: string): { out: string; force: boolean } {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { out: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  if (values.out === undefined) throw new UsageError(`${command} needs --out DIR`);
  return { out: values.out, force: values.force };
}

/** `evidence --out DIR`: the lab's evidence (JSON, README.md, the reviewer skill); same lab, same bytes. */
export const evidence: Command = async (args, io) => {
  const { out, force } = outFlags(args, 'evidence');
  // Checked before the evidence is computed, and again when it is written.
  checkOutputFolder(out, force);
  const reporting = reportingRunner(await hostRunner(), 'evidence', terminalWriter());
  const files = buildEvidence(reporting.runner, await loadSqlJs());
  reporting.done();
  writeOutputFolder(out, files, force);
  io.out(`${files.map((f) => `${escapeControl(join(out, f.path))}  ${f.description}`).join('\n')}\n`);
  return 0;
};

/** `skill --out DIR`: the reviewer as a skill folder, DIR/<skill name>/. */
export const skill: Command = async (args, io) => {
  const { out, force } = outFlags(args, 'skill');
  // The target is the skill's own folder, so DIR may hold other skills.
  checkParentFolder(out);
  const folder = join(out, SKILL_NAME);
  checkOutputFolder(folder, force);
  const files = buildSkill().map((f) => ({ ...f, path: f.path.slice(SKILL_NAME.length + 1) }));
  writeOutputFolder(folder, files, force);
  io.out(`${files.map((f) => `${escapeControl(join(folder, f.path))}  ${f.description}`).join('\n')}\n`);
  return 0;
};
