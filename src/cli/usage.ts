import { DEFAULT_EXPLORE_BOUND } from '../engine';
import { SKILL_NAME } from '../lesson/skill';
import { EXT_TASKS_VERSION, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from '../sdk/version';
import { EXERCISE_HELP, EXERCISE_USAGE } from './exercise';
import { PROBE_HELP, PROBE_USAGE } from './probeCommand';

/** The command-line runner over the same engine the worker runs: `npm run lab -- <command>`. */
export const USAGE = `usage:
  npm run lab -- list
  npm run lab -- run <scenario> [--impl model|ts-sdk|ts-sdk-v2|ext-tasks] [--transport stdio|http] [--seed N] [--set key=value ...] [--schedule S] [--fault F ...] [--json] [--ledger FILE] [--budget-ms N]
  npm run lab -- explore <scenario> [--transport stdio|http] [--seed N] [--set key=value ...] [--bound N] [--no-reduction] [--fault F ...] [--json]
  npm run lab -- compare <runA> <runB> [<runC>] [--json] [--budget-ms N]
  npm run lab -- settings [scenario]
  npm run lab -- retries
  npm run lab -- verify
  npm run lab -- evidence --out DIR [--force]
  npm run lab -- review FILE.json
  npm run lab -- skill --out DIR [--force]
${PROBE_USAGE}
${EXERCISE_USAGE}

  list       the scenarios, with the requirement ids each demonstrates (defined in docs/requirements.md),
             then the known bugs: defects of real MCP packages, each run on the package with lab run <bug id>
  run        run one scenario and print its transcript (a readable timeline; the JSON with --json)
             --ledger FILE (ledger and task scenarios): open the SQLite ledger in FILE, or create it, and save it back
             --budget-ms N: stop the run after N ms of wall-clock time (default 60000)
             --impl ts-sdk (A–D): run the real @modelcontextprotocol/sdk ${TS_SDK_VERSION} Client and Server on the virtual clock
               instead of the lab's spec model (--impl model, the default); it speaks protocol ${TS_SDK_PROTOCOL_VERSION}
             --impl ext-tasks (task-…): the tasks extension's own package, @modelcontextprotocol/ext-tasks ${EXT_TASKS_VERSION},
               as the client of the task scenarios (docs/ext-tasks.md)
             --schedule S: replay exactly the ordering S that explore printed (same transcript every time)
             --fault F: inject a fault on the message whose event has seq SEQ: drop:SEQ, delay:SEQ:MS,
             duplicate:SEQ, stream-drop:SEQ or crash:SEQ (ledger: the server crashes after COMMIT, before
             response SEQ leaves, and restarts from its SQLite file); the transcript records them
             (--schedule and --fault apply to the lab's model, not to --impl ts-sdk)
  explore    run the scenario in every ordering the network allows (same-instant choices, every order of
             arrivals the latency range permits, each channel FIFO), check the invariants after every step,
             and print the orderings, the distinct endings and any violation with a schedule that replays it
             --bound N: visit at most N states (default ${DEFAULT_EXPLORE_BOUND}); a cut exploration says "complete": false
             --no-reduction: run every order of independent same-instant events too (the partial-order
             reduction off: same endings and violations, more states); --seed N: the runs' seed
             --fault F: explore with the faults of run --fault; per broken invariant, the smallest set of them that
             still breaks it (delta debugging) and the shortest ordering with it, each with its replay line
  compare    two runs side by side: the facts of both (differences marked *) and the first event where they part
             a run is <scenario>[:key=value,…] with keys impl (model|ts-sdk|ts-sdk-v2|ext-tasks), transport (stdio|http), seed and any setting:
               npm run lab -- compare C C:impl=ts-sdk            the spec model against the real SDK
               npm run lab -- compare D D:transport=stdio        Streamable HTTP against stdio
               npm run lab -- compare C:seed=1,latencyJitterMs=20 C:seed=2,latencyJitterMs=20
  verify     VF-1 … VF-12 and RC-7, RC-8, RC-9, BF-5, LG-P5, each computed from the scenarios' transcripts (exit 1 if one fails)
  evidence   write the lab's evidence (JSON + README.md + the reviewer skill) into DIR; same lab, same bytes
             DIR must be new or empty; --force replaces the lab's files in a folder that holds others
  review     the reliability reviewer: race table, retry class, idempotency boundary, flow control, failure cards
  skill      write the reviewer as a skill folder, DIR/${SKILL_NAME}/ (SKILL.md, input schema, two worked examples)
             --out folders must be new or empty; --force replaces the lab's files in a folder that holds others
${PROBE_HELP}
${EXERCISE_HELP}
  retries    the retry classification of every exposed operation (RT)
  settings   the settings --set accepts (for one scenario, or all), with their ranges`;
