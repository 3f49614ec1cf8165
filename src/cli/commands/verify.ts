import { checkFailureModes } from '../../lesson/failureModes';
import { runCommand } from '../../lesson/failureCards';
import { requirementDocLink, REQUIREMENTS_DOC } from '../../lesson/requirements';
import { verify as verifyAll } from '../../lesson/verification';
import { hostRunner, reportingRunner, terminalWriter, type Command } from './shared';

/** `verify`: every verified requirement computed from the scenarios' transcripts, then every failure mode beside its fix (exit 1 if one fails). */
export const verify: Command = async (_args, io) => {
  const reporting = reportingRunner(await hostRunner(), 'verify', terminalWriter());
  const runner = reporting.runner;
  const results = verifyAll(runner);
  io.out(
    `${results.map((r) => `${r.holds ? 'ok  ' : 'FAIL'} ${r.id} ${r.statement} (${requirementDocLink(r.id)})\n       from ${r.scope}${r.holds ? '' : `\n       ${r.problems.join('\n       ')}`}`).join('\n')}\n`,
  );
  // Every failure mode runs, next to its fix.
  const modes = checkFailureModes(runner);
  io.out(
    `\nfailure modes, each shown by one run and fixed by another (${REQUIREMENTS_DOC}#failure-modes-each-runnable-next-to-its-fix):\n`,
  );
  for (const mode of modes) {
    const ok = mode.failureShown && mode.fixShown;
    io.out(
      `${ok ? 'ok  ' : 'FAIL'} ${mode.failure}\n       failure: ${runCommand(mode.failureRun)} — ${mode.failureDetail}\n       fix:     ${runCommand(mode.fixRun)} — ${mode.fixDetail}\n`,
    );
  }
  reporting.done();
  return results.every((r) => r.holds) && modes.every((m) => m.failureShown && m.fixShown) ? 0 : 1;
};
