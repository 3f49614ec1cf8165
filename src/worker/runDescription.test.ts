// Proves the lab has one run description: the command line's flags, the page's link, Compare's run specs
// and the worker's run request are judged by one resolve, so a refusal reads the same wherever the run
// was written, a run spec round-trips through its text with an ordering and faults, and the page's link
// reads a Compare run spec as long as the parser accepts it.
import { describe, expect, it } from 'vitest';
import { lab } from '../cli/captured';
import {
  formatRunSpec,
  parseRunSpec,
  resolveRunParams,
  resolveRunSpec,
  RUN_SPEC_CHARS_MAX,
  type RunSpecProblem,
} from '../runs/runSpec';
import { findScenario, scenarios } from '../scenarios/index';
import { readLink } from '../store/url';
import { answerToolRequest } from './toolsHost';
import { createLabHost } from './host';
import { memoryLedgerStorage } from './ledgerStorage';
import type { LabResponse } from './protocol';
import initSqlJs from 'sql.js';

const host = () => createLabHost({ sql: () => initSqlJs(), storage: memoryLedgerStorage() });

/** The message after `LABnnn <catalogue name>: `, as each surface prints or answers it. */
const detail = (text: string): string => text.replace(/^[\s\S]*?LAB\d{3} [^:]+: /, '').trim();

describe('one run description', () => {
  it('refuses ts-sdk on a scenario that is not a request race with one wording, from the command line, the worker, the link and Compare', async () => {
    const cli = await lab('run', 'buffer-overload', '--impl', 'ts-sdk');
    expect(cli.code).toBe(1);
    const worker = (await host().handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'buffer-overload',
      transport: 'http',
      seed: 1,
      settings: {},
      ledger: 'fresh',
      impl: 'ts-sdk',
    })) as LabResponse;
    const link = (await host().handleMessage({
      type: 'resolve',
      requestId: 2,
      params: { scenario: 'buffer-overload', impl: 'ts-sdk' },
    })) as LabResponse;
    const compare = await answerToolRequest(
      { type: 'compare', requestId: 3, runs: ['C', 'buffer-overload:impl=ts-sdk'] },
      () => initSqlJs(),
    ).then(
      () => 'ran',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const compareCli = await lab('compare', 'C', 'buffer-overload:impl=ts-sdk');
    if (worker.type !== 'error' || link.type !== 'resolved')
      throw new Error(`unexpected answers ${worker.type} ${link.type}`);
    const wordings = new Set([
      detail(cli.err),
      detail(worker.message),
      detail(link.problems[0]?.message ?? ''),
      detail(compareCli.err),
      detail(compare),
    ]);
    expect([...wordings]).toEqual([
      'ts-sdk runs the request races (A–D); buffer-overload is a buffer scenario. Nothing was run',
    ]);
    expect(worker.code).toBe('LAB025');
    expect(link.problems).toMatchObject([{ param: 'impl', code: 'LAB025' }]);
  });

  it('judges a link leniently, in the order the page lists its problems, and keeps the defaults of what it refuses', () => {
    const problems: RunSpecProblem[] = [];
    const fallback = scenarios[0];
    const run = resolveRunParams(
      { scenario: 'Z', transport: 'tcp', seed: 'x', impl: 'fast', workMs: 'a lot' },
      findScenario,
      { problems, fallback },
    );
    expect(problems.map((p) => [p.param, p.code])).toEqual([
      ['scenario', 'LAB001'],
      ['transport', 'LAB002'],
      ['seed', 'LAB003'],
      ['impl', 'LAB025'],
      ['workMs', 'LAB005'],
    ]);
    expect(run).toMatchObject({
      scenario: fallback,
      transport: fallback?.defaultTransport,
      seed: 1,
      impl: 'model',
      settings: {},
    });
  });

  it('throws the first refusal when strict: the command line, Compare and the worker run nothing', () => {
    expect(() => resolveRunParams({ scenario: 'C', latencyMs: '-1' }, findScenario)).toThrow(/^LAB005/);
    expect(() => resolveRunParams({ scenario: 'C', nope: '1' }, findScenario)).toThrow(
      /^LAB004 .*"nope" is not a setting of scenario C/,
    );
    expect(() => resolveRunParams({ scenario: 'C', schedule: 'x9' }, findScenario)).toThrow(/^LAB022/);
    expect(() => resolveRunParams({ scenario: 'C', faults: 'drop' }, findScenario)).toThrow(/^LAB023/);
    expect(() => resolveRunParams({ scenario: 'C', impl: 'ts-sdk', faults: 'drop:7' }, findScenario)).toThrow(
      /^LAB025 .*faults apply to the lab's model/,
    );
    expect(() => resolveRunParams({ scenario: 'C', impl: 'ts-sdk', requestId: '7' }, findScenario)).toThrow(
      /^LAB025 .*requestId cannot be set with ts-sdk/,
    );
    // The page keeps the settings the SDK decides for the model; its link does not refuse ts-sdk for them.
    expect(
      resolveRunParams({ scenario: 'C', impl: 'ts-sdk', requestId: '7' }, findScenario, {
        problems: [],
        keepSdkDecidedSettings: true,
      }),
    ).toMatchObject({ impl: 'ts-sdk', settings: { requestId: 7 } });
  });

  it("judges the worker's typed settings as values, by the same checks as text, with nothing written as text between", async () => {
    const typed = { latencyJitterMs: 150, cancelAtMs: null };
    expect(resolveRunParams({ scenario: 'C', seed: '2' }, findScenario, { settings: typed })).toEqual(
      resolveRunParams({ scenario: 'C', seed: '2', latencyJitterMs: '150', cancelAtMs: 'none' }, findScenario),
    );
    // A value of the wrong type is refused as the value it is, not as its text: `true` is no integer.
    expect(() => resolveRunParams({ scenario: 'C' }, findScenario, { settings: { latencyMs: true } })).toThrow(
      /^LAB005 .*latencyMs=true is not an integer/,
    );
    expect(() => resolveRunParams({ scenario: 'C' }, findScenario, { settings: { nope: 1 } })).toThrow(
      /^LAB004 .*"nope" is not a setting of scenario C/,
    );
    // The worker's run request reaches the same judge: its refusal names the typed value.
    const answer = (await host().handleMessage({
      type: 'run',
      requestId: 1,
      scenario: 'C',
      transport: 'stdio',
      seed: 1,
      settings: { latencyMs: -1 },
      ledger: 'fresh',
    })) as LabResponse;
    expect(answer.type === 'error' ? answer.message : answer.type).toMatch(/LAB005 .*latencyMs=-1 is not an integer/);
  });

  it('writes an ordering and faults in a run spec and reads them back', () => {
    const text = 'A:transport=http,seed=3,latencyJitterMs=300,schedule=j0.j10,faults=drop:7+delay:9:300';
    const spec = parseRunSpec(text);
    expect(spec).toMatchObject({
      scenario: 'A',
      transport: 'http',
      seed: 3,
      settings: { latencyJitterMs: '300' },
      schedule: 'j0.j10',
      faults: 'drop:7,delay:9:300',
    });
    expect(formatRunSpec(spec)).toBe(text);
    expect(resolveRunSpec(spec, findScenario)).toMatchObject({
      transport: 'http',
      seed: 3,
      settings: { latencyJitterMs: 300 },
      // Past the edge the ordering and the faults are parsed values.
      schedule: [
        { kind: 'j', value: 0 },
        { kind: 'j', value: 10 },
      ],
      faults: [
        { kind: 'drop', seq: 7 },
        { kind: 'delay', seq: 9, ms: 300 },
      ],
    });
  });

  it('the page reads a Compare run spec as long as the parser accepts, and no longer', () => {
    const long = `C:${Array.from({ length: 60 }, () => 'latencyMs=5').join(',')}`;
    expect(long.length).toBeGreaterThan(200);
    expect(long.length).toBeLessThan(RUN_SPEC_CHARS_MAX);
    expect(readLink(`?runA=${encodeURIComponent(long)}`)?.view?.runA).toBe(long);
    const tooLong = `C:${'x'.repeat(RUN_SPEC_CHARS_MAX)}`;
    expect(readLink(`?runA=${tooLong}`)?.view?.runA).toHaveLength(RUN_SPEC_CHARS_MAX + 1);
  });
});
