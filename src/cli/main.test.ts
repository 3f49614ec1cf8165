// Proves the command line lists and runs scenarios A–D on both transports, prints JSON that equals the engine's transcript, and refuses bad arguments with a clear message and a non-zero exit.
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { runScenarioById } from '../scenarios/index';

function lab(...argv: string[]) {
  let out = '';
  let err = '';
  const code = main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('npm run lab', () => {
  it('list names every scenario', () => {
    const { code, out } = lab('list');
    expect(code).toBe(0);
    for (const id of ['A', 'B', 'C', 'D']) expect(out).toMatch(new RegExp(`^${id} `, 'm'));
  });

  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`run ${id} --transport ${transport} --json prints the transcript`, () => {
        const { code, out } = lab('run', id, '--transport', transport, '--json');
        expect(code).toBe(0);
        expect(out).toBe(`${JSON.stringify(runScenarioById(id, { transport }), null, 2)}\n`);
      });
    }
  }

  it('run prints a readable timeline with the seed and settings first and the outcome last', () => {
    const { code, out } = lab('run', 'C', '--seed', '7', '--set', 'latencyMs=3');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[1]).toBe('transport=stdio seed=7 protocol=2026-07-28');
    expect(lines[2]).toMatch(/^settings .*latencyMs=3 /);
    expect(out).toMatch(/terminal state\s+timeout-max \(at 2000 ms\)/);
    expect(out).toMatch(/reproduce: npm run lab -- run C --transport stdio --seed 7/);
  });

  it('--set parses booleans, enums and none', () => {
    const { code, out } = lab('run', 'D', '--set', 'httpCancel=post-notification', '--set', 'progressToken=false', '--set', 'cancelAtMs=none', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out).settings).toMatchObject({ httpCancel: 'post-notification', progressToken: false, cancelAtMs: null });
  });

  const bad: Array<[string[], number, RegExp]> = [
    [['run', 'Z'], 1, /LAB001.*"Z" is not a scenario; known: A, B, C, D/],
    [['run', 'A', '--transport', 'tcp'], 1, /LAB002/],
    [['run', 'A', '--seed', '4.5'], 1, /LAB003/],
    [['run', 'A', '--seed=99999999999'], 1, /LAB003/],
    [['run', 'A', '--set', 'latencyMs=fast'], 1, /LAB005.*latencyMs/],
    [['run', 'A', '--set', 'nope=1'], 1, /LAB004.*nope/],
    [['run', 'A', '--set', 'latencyMs'], 2, /--set takes key=value/],
    [['run'], 2, /exactly one scenario/],
    [['run', 'A', '--frobnicate'], 2, /frobnicate/],
    [['launch'], 2, /unknown command "launch"/],
  ];
  for (const [argv, exitCode, message] of bad) {
    it(`refuses: lab ${argv.join(' ')}`, () => {
      const { code, out, err } = lab(...argv);
      expect(code).toBe(exitCode);
      expect(out).toBe('');
      expect(err).toMatch(message);
    });
  }
});
