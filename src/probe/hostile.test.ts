import { afterAll, describe, expect, it } from 'vitest';
import { ProbeFailure, runProbe, type ProbeOptions } from './run';
import { startHostileHttp, writeMany, type HostileServer } from './testing/hostile';

/**
 * The probe against servers that attack it (issue 37): each started here on 127.0.0.1 or as a tiny
 * stdio script, bounded in time and always stopped. Each case must end in a catalogued LAB error
 * or a correct verdict, within the probe's budget, with no stack trace and no process left.
 */
const quick = { times: { cancelAfterMs: 100, observeMs: 100, idleTimeoutMs: 500, maxTimeoutMs: 2_000 }, bounds: { budgetMs: 20_000, answerTimeoutMs: 10_000, startupTimeoutMs: 10_000 } };

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function hostile(handler: Parameters<typeof startHostileHttp>[0]): Promise<string> {
  const server = await startHostileHttp(handler);
  servers.push(server);
  return server.url;
}

async function failure(options: ProbeOptions): Promise<ProbeFailure> {
  try {
    await runProbe(options);
  } catch (error) {
    if (error instanceof ProbeFailure) return error;
    throw error;
  }
  throw new Error('the probe did not fail');
}

describe.concurrent('lab probe against hostile servers', () => {
  it('an SSE event that never ends counts against the per-message bound: LAB045, not a buffer without limit', async () => {
    // 4 MiB of one `data:` line and no blank line: the bound is 1 MiB.
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      writeMany(res, 4 << 20, () => res.end('\n\n'));
    });
    const started = performance.now();
    const f = await failure({ ...quick, transport: 'http', target: url, tool: 'work', arguments: {} });
    expect(f.error.code).toBe('LAB045');
    expect(f.error.message).toContain('without ending');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('the bytes of an unended SSE event count against the total bound as they arrive', async () => {
    // Many short data lines, one event that never ends: each line is small, the event and the total are not.
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = `data: ${'b'.repeat(1000)}\n`;
      let n = 4_000;
      const go = (): void => {
        while (n-- > 0 && !res.destroyed) if (!res.write(line)) return void res.once('drain', go);
      };
      go();
    });
    const f = await failure({ ...quick, bounds: { ...quick.bounds, bytesMax: 512 * 1024 }, transport: 'http', target: url, tool: 'work', arguments: {} });
    expect(f.error.code).toBe('LAB045');
    expect(f.error.message).toContain('more than 524288 bytes');
  });
});
