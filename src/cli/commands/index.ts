import { exerciseCommand } from '../exercise';
import { probeCommand } from '../probeCommand';
import { compare } from './compare';
import { explore } from './explore';
import { evidence, skill } from './folders';
import { list } from './list';
import { retries } from './retries';
import { review } from './review';
import { run } from './run';
import { settings } from './settings';
import type { Command } from './shared';
import { verify } from './verify';

/**
 * The CLI's commands by name, each a small module of its own (`npm run lab -- <name> …`). A new
 * command is a file here and a row in this table, and its lines in usage.ts.
 */
export const COMMANDS: Readonly<Record<string, Command>> = {
  list,
  run,
  explore,
  compare,
  settings,
  retries,
  verify,
  evidence,
  review,
  skill,
  probe: probeCommand,
  exercise: exerciseCommand,
};
