import { scenarios } from '../../scenarios/index';
import { KNOWN_BUGS } from '../../gallery/knownBugs';
import type { Command } from './shared';

/** `list`: the scenarios with the requirements each demonstrates, then the known bugs. */
export const list: Command = async (_args, io) => {
  io.out(`${listText()}\n`);
  return 0;
};

function listText(): string {
  const width = Math.max(...scenarios.map((s) => s.id.length), ...KNOWN_BUGS.map((b) => b.id.length));
  const scenarioLines = scenarios
    .map(
      (s) =>
        `${s.id.padEnd(width)}  ${s.title}\n${' '.repeat(width + 2)}${s.topic}; default transport ${s.defaultTransport}; demonstrates ${s.requirements.join(', ')}`,
    )
    .join('\n');
  const bugLines = KNOWN_BUGS.map(
    (b) =>
      `${b.id.padEnd(width)}  ${b.title}\n${' '.repeat(width + 2)}${b.packages.map((p) => `${p.name} ${p.version}`).join(', ')}; upstream ${b.upstream[0]?.ref ?? 'none on record'}`,
  ).join('\n');
  return `${scenarioLines}\n\nKnown bugs (real packages, run with lab run <id>):\n${bugLines}`;
}
