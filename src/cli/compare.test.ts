// Proves `lab run --impl ts-sdk` and `lab compare`: the SDK run prints the real SDK's transcript with its version, revision and invariants; compare prints both runs' facts, marks the differing ones and names the first event where the runs part; bad run specs are refused before anything runs.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { formatRunSpec, parseRunSpec } from '../runs/runSpec';

describe('npm run lab -- run --impl ts-sdk', () => {
  it('prints the real SDK’s timeline, says which SDK and revision ran, lists the invariants and how to reproduce it', async () => {
    const { code, out } = await lab(
      'run',
      'C',
      '--impl',
      'ts-sdk',
      '--set',
      'latencyMs=0',
      '--set',
      'progressEveryMs=333',
    );
    expect(code).toBe(0);
    expect(out).toMatch(/^implementation=ts-sdk: the real @modelcontextprotocol\/sdk 1\.32\.2 .*protocol 2025-11-25/m);
    expect(out).toMatch(/initialize #0 \(offers protocol 2025-11-25\)/);
    expect(out).toMatch(/client outcome\s+timeout-max \(at 2331 ms\)/);
    expect(out).toMatch(/^2498 ms {2}client → server: notifications\/cancelled requestId=1/m);
    expect(out).toMatch(/BROKEN RC-1\/RC-2 maximum deadline/);
    expect(out).toMatch(/holds {2}RC-8 one terminal state/);
    expect(out).toMatch(
      /reproduce: npm run lab -- run C --impl ts-sdk --transport stdio --seed 1 --set latencyMs=0 --set progressEveryMs=333$/m,
    );
  });

  it('--json carries implementation and the SDK version; a non-race scenario or an SDK-decided setting is refused', async () => {
    const { code, out } = await lab('run', 'D', '--impl', 'ts-sdk', '--json');
    expect(code).toBe(0);
    const t = JSON.parse(out) as {
      implementation: string;
      sdk: { version: string; negotiatedProtocolVersion: string };
    };
    expect(t.implementation).toBe('ts-sdk');
    expect(t.sdk).toMatchObject({ version: '1.32.2', negotiatedProtocolVersion: '2025-11-25' });
    const refused = await lab('run', 'ledger-race-keyed', '--impl', 'ts-sdk');
    expect([refused.code, refused.err]).toEqual([1, expect.stringMatching(/LAB025/)]);
    const decided = await lab('run', 'D', '--impl', 'ts-sdk', '--set', 'requestId=7');
    expect([decided.code, decided.err]).toEqual([1, expect.stringMatching(/LAB025 .*requestId/)]);
    const bad = await lab('run', 'D', '--impl', 'sdk');
    expect(bad.code).toBe(2);
  });
});

describe('npm run lab -- compare', () => {
  it('the spec model against the real SDK on C: both facts, differences marked, the first parting at 2000 ms', async () => {
    const { code, out } = await lab('compare', 'C', 'C:impl=ts-sdk');
    expect(code).toBe(0);
    expect(out).toMatch(/^\* client outcome\s+timeout-max at 2000 ms\s+timeout-max at 2010 ms$/m);
    expect(out).toMatch(/^ {2}final response\s+none\s+none$/m);
    expect(out).toMatch(/^\* protocol\s+2026-07-28\s+2025-11-25$/m);
    expect(out).toMatch(
      /first event where they part, at 2000 ms:\n {2}C: event \d+: 2000 ms {2}client state waiting → abandoned/,
    );
    expect(out).toMatch(/C:impl=ts-sdk: nothing else at that instant/);
  });

  it('stdio against Streamable HTTP of the same run parts at the first message; a run against itself never parts', async () => {
    const transports = await lab('compare', 'D', 'D:transport=stdio');
    expect(transports.out).toMatch(
      /first event where they part, at 0 ms:\n {2}D: event 1: 0 ms {2}client → server: tools\/call #41 on POST #41/,
    );
    const same = await lab('compare', 'A:seed=3', 'A:seed=3');
    expect(same.out).toMatch(/the runs do not part/);
    expect(same.out).not.toMatch(/^\*/m);
  });

  it('--json gives the runs, the facts and the divergence', async () => {
    const { code, out } = await lab('compare', 'B', 'B:impl=ts-sdk,transport=http', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as {
      runs: string[];
      facts: Array<{ name: string; differs: boolean }>;
      divergence: { atMs: number } | null;
    };
    expect(result.runs).toEqual(['B', 'B:impl=ts-sdk,transport=http']);
    expect(result.facts.find((f) => f.name === 'cancellation signal')?.differs).toBe(false);
    expect(result.divergence).not.toBeNull();
  });

  it('refuses a malformed run spec or an unknown setting before running anything', async () => {
    for (const [spec, code] of [
      ['C:impl=fast', 'LAB024'],
      ['C:latencyMs', 'LAB024'],
      ['C:seed=1,seed=2', 'LAB024'],
      ['C:nope=1', 'LAB004'],
      ['Z', 'LAB001'],
      ['C:transport=ws', 'LAB002'],
    ] as const) {
      const result = await lab('compare', 'C', spec);
      expect(result.code, spec).toBe(1);
      expect(result.err, spec).toMatch(new RegExp(code));
    }
    expect((await lab('compare', 'C')).code).toBe(2);
  });
});

describe('run specs', () => {
  it('read back what they write', () => {
    for (const text of ['C', 'C:impl=ts-sdk', 'C:impl=ts-sdk,transport=http,seed=2,latencyMs=0,cancelAtMs=none'])
      expect(formatRunSpec(parseRunSpec(text))).toBe(text);
    expect(parseRunSpec('D:seed=4,transport=stdio')).toEqual({
      scenario: 'D',
      impl: 'model',
      transport: 'stdio',
      seed: 4,
      settings: {},
    });
  });
});

describe('npm run lab -- run --impl ts-sdk-v2, and compare with three runs', () => {
  it('runs the v2 packages, naming the revision they negotiated (the lab’s own)', async () => {
    const { code, out } = await lab('run', 'D', '--impl', 'ts-sdk-v2');
    expect(code).toBe(0);
    expect(out).toMatch(
      /^implementation=ts-sdk-v2: the real @modelcontextprotocol\/client \+ server 2\.4\.0 .*protocol 2026-07-28, the lab's own/m,
    );
    expect(out).toMatch(/^150 ms {2}client closes the response stream of #0/m);
    expect(out).toMatch(/reproduce: npm run lab -- run D --impl ts-sdk-v2 --transport http --seed 1$/m);
  });

  it('compare takes three runs: the model, SDK 1.x and v2, their facts in three columns and where each pair parts', async () => {
    const { code, out } = await lab('compare', 'D', 'D:impl=ts-sdk', 'D:impl=ts-sdk-v2');
    expect(code).toBe(0);
    // The runs are numbered: a letter would read as one of the scenarios A–D.
    expect(out).toMatch(/^ {2}run 1: D\n {2}run 2: D:impl=ts-sdk\n {2}run 3: D:impl=ts-sdk-v2$/m);
    expect(out).toMatch(
      /^\* cancellation signal\n {4}run 1 {2}stream-close\n {4}run 2 {2}notifications\/cancelled\n {4}run 3 {2}stream-close$/m,
    );
    expect(out).toMatch(/^run 1 and run 2 first part at 150 ms:\n {2}run 1: /m);
    expect(out).toMatch(/^run 1 and run 3 first part at 5 ms:/m);
    expect(out).toMatch(/^run 2 and run 3 first part at \d+ ms:/m);
    expect(out).not.toMatch(/^ {4}[ABC] {2}|^[ABC] and [ABC] /m);
    const json = await lab('compare', 'D', 'D:impl=ts-sdk', 'D:impl=ts-sdk-v2', '--json');
    const parsed = JSON.parse(json.out) as { runs: string[]; pairs: Array<{ a: number; b: number }> };
    expect(parsed.runs).toEqual(['D', 'D:impl=ts-sdk', 'D:impl=ts-sdk-v2']);
    expect(parsed.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    const four = await lab('compare', 'A', 'B', 'C', 'D');
    expect(four.code).toBe(2);
  });
});
