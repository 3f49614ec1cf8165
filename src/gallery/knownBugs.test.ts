import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { runProbe } from '../probe/run';
import { SERVER_EVERYTHING as SERVER_EVERYTHING_JS } from '../probe/testing/servers';
import { findKnownBug, KNOWN_BUGS, type KnownBug } from './knownBugs';
import { runKnownBug } from './runKnownBug';
import { resolveRunParams } from '../runs/runSpec';
import { findScenario } from '../scenarios/index';

/**
 * The gallery holds each entry to its bug on the installed package: every test runs the real package
 * (an SDK on the virtual clock, or server-everything through the probe) and asserts the defect the
 * entry shows. When an upgrade fixes one, its test fails with "fixed in <version>? update the gallery",
 * and the entry must say so instead of showing a bug that is gone.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const readFixture = (path: string): Uint8Array => readFileSync(`${root}${path}`);
const bug = (id: string): KnownBug => {
  const found = findKnownBug(id);
  if (found === undefined) throw new Error(`no known bug ${id}`);
  return found;
};
const installed = (name: string): string =>
  (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
const fixedIn = (b: KnownBug): string =>
  `fixed in ${b.packages.map((p) => `${p.name} ${installed(p.name)}`).join(' / ')}? update the gallery (${b.id})`;

describe('the known-bugs gallery, on the installed packages', () => {
  it('lists the five contracted ids, each on the version installed and pinned', () => {
    expect(KNOWN_BUGS.map((b) => b.id)).toEqual([
      'bug-max-timeout-without-progress',
      'bug-reset-without-onprogress',
      'bug-cancel-request-id-0',
      'bug-reconnect-without-jitter',
      'bug-work-after-cancel',
    ]);
    const pinned = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const b of KNOWN_BUGS) {
      for (const p of b.packages) {
        expect(installed(p.name), `${b.id}: ${p.name}`).toBe(p.version);
        expect(pinned.dependencies[p.name] ?? pinned.devDependencies[p.name], `${b.id}: ${p.name} pinned exactly`).toBe(
          p.version,
        );
      }
    }
  });

  it("the two SDK runs the gallery adds are judged where every run is: request 0 only as a resumed HTTP session, the herd only with the SDK's own waits", () => {
    expect(
      resolveRunParams({ scenario: 'A', impl: 'ts-sdk', transport: 'http', requestId: '0' }, findScenario),
    ).toMatchObject({ impl: 'ts-sdk', settings: { requestId: 0 } });
    expect(() =>
      resolveRunParams({ scenario: 'A', impl: 'ts-sdk', transport: 'stdio', requestId: '0' }, findScenario),
    ).toThrow(/^LAB025 .*requestId cannot be set with ts-sdk/);
    expect(() =>
      resolveRunParams({ scenario: 'A', impl: 'ts-sdk', transport: 'http', requestId: '7' }, findScenario),
    ).toThrow(/^LAB025 .*requestId cannot be set with ts-sdk/);
    expect(() =>
      resolveRunParams({ scenario: 'A', impl: 'ts-sdk-v2', transport: 'http', requestId: '0' }, findScenario),
    ).toThrow(/^LAB025 .*requestId cannot be set with ts-sdk-v2/);
    expect(resolveRunParams({ scenario: 'herd', impl: 'ts-sdk-v2', capMs: '30000' }, findScenario)).toMatchObject({
      impl: 'ts-sdk-v2',
    });
    expect(() => resolveRunParams({ scenario: 'herd', impl: 'ts-sdk', baseMs: '250' }, findScenario)).toThrow(
      /^LAB025 .*baseMs cannot be set with ts-sdk on the herd/,
    );
    expect(() => resolveRunParams({ scenario: 'buffer-overload', impl: 'ts-sdk' }, findScenario)).toThrow(
      /^LAB025 .*ts-sdk runs the request races/,
    );
  });

  it('quotes the installed source at the lines it cites', () => {
    for (const b of KNOWN_BUGS) {
      for (const cite of b.source) {
        const lines = readFileSync(`${root}node_modules/${cite.file}`, 'utf8').split('\n');
        const ranges = cite.lines.split(',').map((r) => r.trim().split('-').map(Number));
        const text = ranges
          .map(([from = 0, to = from]) => lines.slice(from - 1, to).join(' '))
          .join(' ')
          .replace(/\s+/g, ' ');
        // Each quoted piece of code (between backticks) is on the cited lines, spaces aside.
        const quoted = [...cite.says.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ' '));
        for (const code of quoted)
          expect(text, `${b.id}: ${cite.file}:${cite.lines} holds \`${code}\``).toContain(code);
      }
    }
  });

  it(
    'bug-max-timeout-without-progress: both SDK lines run past the maximum until the request timeout',
    { timeout: 120_000 },
    async () => {
      const b = bug('bug-max-timeout-without-progress');
      const result = await runKnownBug(b, { readFixture });
      expect(result.finding.shown, `${fixedIn(b)}\n${result.finding.evidence.join('\n')}`).toBe(true);
      const [model, v1, v2] = result.runs.map((r) => r.transcript);
      for (const t of [v1, v2])
        expect(t?.kind === 'request-race' && t.outcome.clientOutcome, fixedIn(b)).toBe('timeout-idle');
      expect(model?.kind === 'request-race' && [model.outcome.clientOutcome, model.outcome.clientOutcomeAtMs]).toEqual([
        'timeout-max',
        2000,
      ]);
    },
  );

  it(
    'bug-reset-without-onprogress: resetTimeoutOnProgress without onprogress sends no token, and the idle timeout fires under steady work',
    { timeout: 120_000 },
    async () => {
      const b = bug('bug-reset-without-onprogress');
      const result = await runKnownBug(b, { readFixture });
      expect(result.finding.shown, `${fixedIn(b)}\n${result.finding.evidence.join('\n')}`).toBe(true);
      for (const r of result.runs.filter((x) => x.role === 'buggy')) {
        expect(
          r.transcript.kind === 'request-race' && [
            r.transcript.outcome.clientOutcome,
            r.transcript.outcome.clientOutcomeAtMs,
          ],
          fixedIn(b),
        ).toEqual(['timeout-idle', 500]);
      }
    },
  );

  it(
    'bug-cancel-request-id-0: 1.x ignores the cancellation of request 0 and answers; v2 accepts it',
    { timeout: 120_000 },
    async () => {
      const b = bug('bug-cancel-request-id-0');
      const result = await runKnownBug(b, { readFixture });
      expect(result.finding.shown, `${fixedIn(b)}\n${result.finding.evidence.join('\n')}`).toBe(true);
      const v1 = result.runs.find((r) => r.role === 'buggy')?.transcript;
      const v2 = result.runs.find((r) => r.role === 'fixed')?.transcript;
      expect(
        v1?.kind === 'request-race' && [v1.outcome.requestId, v1.outcome.terminalState, v1.outcome.finalResponse],
        fixedIn(b),
      ).toEqual([0, 'completed', true]);
      // v2 is the fixed line: its tool call is request 0 too, and the cancellation is accepted.
      expect(
        v2?.kind === 'request-race' && [v2.outcome.requestId, v2.outcome.terminalState, v2.outcome.finalResponse],
      ).toEqual([0, 'cancelled', false]);
    },
  );

  it(
    'bug-reconnect-without-jitter: both SDK lines wait min(1000 × 1.5ⁿ, 30000) with no random term, and the herd moves in lockstep',
    { timeout: 300_000 },
    async () => {
      const b = bug('bug-reconnect-without-jitter');
      const result = await runKnownBug(b, { readFixture });
      expect(result.finding.shown, `${fixedIn(b)}\n${result.finding.evidence.join('\n')}`).toBe(true);
      expect(result.delays).toEqual({
        'ts-sdk': [1000, 1500, 2250, 3375, 5062.5, 7593.75, 11390.625, 17085.9375],
        'ts-sdk-v2': [1000, 1500, 2250, 3375, 5062.5, 7593.75, 11390.625, 17085.9375],
      });
      const [model, sdk] = result.runs.map((r) => r.transcript);
      expect(sdk?.kind === 'herd' && sdk.outcome.peakAttemptsPerWindow).toBe(10_000);
      expect(model?.kind === 'herd' && model.outcome.peakAttemptsPerWindow).toBeLessThan(2_000);
    },
  );

  it(
    'bug-work-after-cancel: server-everything, probed now, still sends progress after it accepted notifications/cancelled',
    { timeout: 60_000 },
    async () => {
      const b = bug('bug-work-after-cancel');
      const node = [process.execPath, SERVER_EVERYTHING_JS, 'stdio'].map((w) => JSON.stringify(w)).join(' ');
      const t = await runProbe({
        transport: 'stdio',
        target: node,
        tool: 'trigger-long-running-operation',
        arguments: { duration: 2, steps: 4 },
        times: { cancelAfterMs: 700, observeMs: 1_600, idleTimeoutMs: 1_500, maxTimeoutMs: 10_000 },
        bounds: { budgetMs: 40_000 },
      });
      const tool = readFileSync(`${root}node_modules/${b.source[0]?.file ?? ''}`, 'utf8');
      expect(tool.includes('signal'), `${fixedIn(b)}: the tool now reads a signal`).toBe(false);
      const verdict = t.verdicts.find(
        (v) => v.probe === 'cancel-during-work' && v.check === 'work stops after the cancellation',
      );
      expect(verdict?.result, `${fixedIn(b)}: ${verdict?.detail ?? 'no verdict'}`).toBe('broken');
      // The committed recording the page and the CLI show says the same.
      const result = await runKnownBug(b, { readFixture });
      expect(result.finding.shown, result.finding.evidence.join('\n')).toBe(true);
    },
  );

  it(
    'lab run <bug id> prints the package, the upstream reference, the spec quote, the workaround and the timeline (exit 0)',
    { timeout: 120_000 },
    async () => {
      let out = '';
      const code = await main(['run', 'bug-work-after-cancel'], {
        out: (text: string) => (out += text),
        err: () => undefined,
      });
      expect(code).toBe(0);
      expect(out).toContain('package     @modelcontextprotocol/server-everything 2026.8.31');
      expect(out).toContain('upstream    modelcontextprotocol/servers#1124');
      expect(out).toMatch(
        /spec {8}2025-11-25 basic\/utilities\/cancellation, SHOULD: Receivers of cancellation notifications SHOULD/,
      );
      expect(out).toContain('workaround  In your own tools, check');
      expect(out).toMatch(/server → client: notifications\/progress/);
      let listed = '';
      await main(['list'], { out: (text: string) => (listed += text), err: () => undefined });
      expect(listed).toContain('Known bugs');
      for (const b of KNOWN_BUGS) expect(listed).toContain(b.id);
    },
  );
});
