// Holds the v2 table (TS_SDK_V2_TABLE) to the real packages: each row's runs show on SDK 1.x, on v2 and on the model what the row says; each cited source line still holds its text; each wire detail a row names is checked here; and the table covers A–D on both transports.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MessageEvent, Transcript } from '../engine';
import { TS_SDK_V2_TABLE } from './tsSdkV2Table';
import { parseRunSpec } from '../runs/runSpec';
import { runSpecified } from '../runs/runs';
import { race, shown } from './shownOutcome.testkit';
import { runTsSdkV2Scenario } from './tsSdkV2Race';

const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (m: MessageEvent): string => ('method' in m.message ? m.message.method : 'response');

/** The wire details rows name, each a check against a real run. */
const checks: Record<NonNullable<(typeof TS_SDK_V2_TABLE)[number]['check']>, () => Promise<void>> = {
  async handshake() {
    for (const transport of ['stdio', 'http'] as const) {
      const v2 = await runTsSdkV2Scenario(race('A'), { transport });
      expect(messages(v2).slice(0, 3).map(method)).toEqual(['server/discover', 'response', 'tools/call']);
      const v1 = await runSpecified({ ...parseRunSpec(`A:transport=${transport}`), impl: 'ts-sdk' });
      expect(messages(v1).slice(0, 4).map(method)).toEqual([
        'initialize',
        'response',
        'notifications/initialized',
        'tools/call',
      ]);
    }
  },
  async 'server-era'() {
    const { Server } = await import('@modelcontextprotocol/server');
    const plain = new Server({ name: 'plain', version: '0' }, { capabilities: { tools: {} } });
    const modern = new Server(
      { name: 'modern', version: '0' },
      { capabilities: { tools: {} }, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] },
    );
    const handles = (server: object): boolean =>
      (server as { _requestHandlers: Map<string, unknown> })._requestHandlers.has('server/discover');
    expect(handles(plain)).toBe(false);
    expect(handles(modern)).toBe(true);
  },
  async 'response-deferred'() {
    const v2 = await runTsSdkV2Scenario(race('D'), { transport: 'http' });
    expect(v2.events.find((e) => e.kind === 'stream-opened')?.atMs).toBe(105);
    const model = await runSpecified(parseRunSpec('D'));
    expect(model.events.find((e) => e.kind === 'stream-opened')?.atMs).toBe(5);
    // No progress before the result: one JSON response, no stream.
    const quiet = await runTsSdkV2Scenario(race('B'), {
      transport: 'http',
      settings: { serverSendsProgress: false, cancelAtMs: null },
    });
    expect(quiet.events.some((e) => e.kind === 'stream-opened')).toBe(false);
    expect(
      messages(quiet).find((m) => m.from === 'server' && 'result' in m.message && m.message.id === 0)?.channel,
    ).toBe('JSON #0');
  },
  async 'sse-headers'() {
    const v2 = await runTsSdkV2Scenario(race('D'), { transport: 'http' });
    const opened = v2.events.find((e) => e.kind === 'stream-opened');
    expect(opened?.kind === 'stream-opened' ? opened.headers : null).toEqual({
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'content-type': 'text/event-stream',
      'x-accel-buffering': 'no',
    });
    const model = await runSpecified(parseRunSpec('D'));
    const modelOpened = model.events.find((e) => e.kind === 'stream-opened');
    expect(modelOpened?.kind === 'stream-opened' ? modelOpened.headers : null).toEqual({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
  },
  async 'post-headers'() {
    const v2 = await runTsSdkV2Scenario(race('D'), { transport: 'http' });
    expect(v2.sdk?.postHeaders).toEqual([
      {
        channel: 'POST #0',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-method': 'tools/call',
          'mcp-name': 'generate_report',
          'mcp-protocol-version': '2026-07-28',
        },
      },
    ]);
    // The model's POST carries the same headers (HTTP header names are case-insensitive).
    const model = await runSpecified(parseRunSpec('D:transport=http'));
    const post = messages(model).find((m) => m.from === 'client' && method(m) === 'tools/call');
    const lower = Object.fromEntries(Object.entries(post?.headers ?? {}).map(([k, value]) => [k.toLowerCase(), value]));
    expect(lower).toEqual(v2.sdk?.postHeaders?.[0]?.headers);
  },
  async 'request-numbering'() {
    const v2 = await runTsSdkV2Scenario(race('A'));
    expect(messages(v2).find((m) => method(m) === 'tools/call')?.message).toMatchObject({
      id: 0,
      params: { _meta: { progressToken: 0 } },
    });
    const v1 = await runSpecified({ ...parseRunSpec('A'), impl: 'ts-sdk' });
    expect(messages(v1).find((m) => method(m) === 'tools/call')?.message).toMatchObject({
      id: 1,
      params: { _meta: { progressToken: 1 } },
    });
    const model = await runSpecified(parseRunSpec('A'));
    expect(messages(model).find((m) => method(m) === 'tools/call')?.message).toMatchObject({
      id: 41,
      params: { _meta: { progressToken: 'progress-41' } },
    });
  },
};

describe('the v2 table', () => {
  it('covers A–D on both transports, and every row says what made it', () => {
    const covered = new Set(
      TS_SDK_V2_TABLE.flatMap((row) =>
        row.runs.map((r) => {
          const spec = parseRunSpec(r.run);
          return `${spec.scenario}.${spec.transport ?? race(spec.scenario).defaultTransport}`;
        }),
      ),
    );
    for (const id of ['A', 'B', 'C', 'D'])
      for (const transport of ['stdio', 'http']) expect(covered).toContain(`${id}.${transport}`);
    for (const row of TS_SDK_V2_TABLE) {
      if (row.cause === 'revision') expect(row.revision?.['2025-11-25'] && row.revision['2026-07-28']).toBeTruthy();
      else expect(row.source.length).toBeGreaterThan(0);
      expect(row.runs.length > 0 || row.check !== undefined).toBe(true);
    }
  });

  const sources = TS_SDK_V2_TABLE.flatMap((row) => row.source.map((line) => ({ behaviour: row.behaviour, ...line })));
  it.each(sources)('$file:$line still says what the row cites', ({ file, line, text }) => {
    const lines = readFileSync(`node_modules/@modelcontextprotocol/${file}`, 'utf8').split('\n');
    expect(lines[line - 1]).toContain(text);
  });

  for (const row of TS_SDK_V2_TABLE) {
    for (const run of row.runs) {
      it(`${run.run}: ${row.behaviour.slice(0, 90)}…`, async () => {
        const spec = parseRunSpec(run.run);
        expect(shown(await runSpecified({ ...spec, impl: 'ts-sdk-v2' }))).toEqual(run.v2);
        expect(shown(await runSpecified({ ...spec, impl: 'ts-sdk' }))).toEqual(run.v1);
        expect(shown(await runSpecified({ ...spec, impl: 'model' }))).toEqual(run.model);
        // The pairs the row says differ do, and the others agree.
        const differs = row.differs === 'none' ? [] : row.differs;
        expect(differs.includes('v1-v2')).toBe(JSON.stringify(run.v1) !== JSON.stringify(run.v2));
        expect(differs.includes('model-v2')).toBe(JSON.stringify(run.model) !== JSON.stringify(run.v2));
      });
    }
    if (row.check !== undefined) it(`${row.check}: ${row.behaviour.slice(0, 90)}…`, checks[row.check]);
  }
});
