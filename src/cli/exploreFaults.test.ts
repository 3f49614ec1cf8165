// Proves `lab explore --fault`: it explores with the faults, reports per broken invariant the smallest
// fault set that still breaks it (delta debugging) and the shortest ordering with it, and the replay
// line it prints runs as printed and breaks that invariant at that event; the same command prints the
// same bytes every time.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { findScenario } from '../scenarios/index';
import { checkTranscript, explore, parseFaults, runScenario } from '../engine';

const ARGS = ['explore', 'C', '--set', 'latencyJitterMs=20', '--fault', 'delay:3:30', '--fault', 'duplicate:11'];

describe('npm run lab -- explore --fault', () => {
  it('keeps only the fault that breaks the invariant, and its replay line reproduces the break', async () => {
    const { code, out } = await lab(...ARGS);
    expect(code).toBe(0);
    // Every ordering ran with both faults: the violation's replay line carries them.
    expect(out).toMatch(
      /replay: npm run lab -- run C --transport stdio --set latencyJitterMs=20 --fault delay:3:30 --fault duplicate:11 --schedule /,
    );
    const shortest =
      /^ {2}progress-increasing at event (\d+) \(\d+ ms\), with the fault duplicate:11 \(the smallest set of the given ones that still breaks it\): .*\n {4}replay: npm run lab -- (run .*)$/m.exec(
        out,
      );
    expect(shortest, out).not.toBeNull();
    const [, step, line] = shortest as RegExpExecArray;
    expect(line).not.toContain('delay:3:30');
    const replayed = await lab(...(line as string).split(' '), '--json');
    expect(replayed.code, line).toBe(0);
    const transcript = JSON.parse(replayed.out) as ReturnType<typeof runScenario>;
    expect(transcript.faults).toBe('duplicate:11');
    expect(
      checkTranscript(transcript).some(
        (found) => found.invariant === 'progress-increasing' && found.step === Number(step),
      ),
    ).toBe(true);
  });

  it('the same command prints the same bytes, text and JSON', async () => {
    expect((await lab(...ARGS)).out).toBe((await lab(...ARGS)).out);
    const json = await lab(...ARGS, '--json');
    expect(json.out).toBe((await lab(...ARGS, '--json')).out);
    const result = JSON.parse(json.out) as { shortest: { invariant: string; faults: string }[] };
    expect(result.shortest.map(({ invariant, faults }) => ({ invariant, faults }))).toEqual([
      { invariant: 'progress-increasing', faults: 'duplicate:11' },
    ]);
  });

  it('the smallest set is one that breaks it while each smaller one explored does not', () => {
    const scenario = findScenario('C');
    const settings = { latencyJitterMs: 20 };
    const broken = (faults: string) =>
      explore(scenario, { settings, faults: parseFaults(faults) }).violations.some(
        (v) => v.invariant === 'progress-increasing',
      );
    expect(broken('duplicate:11')).toBe(true);
    expect(broken('delay:3:30')).toBe(false);
    expect(broken('')).toBe(false);
  });

  it('refuses a malformed fault before exploring (LAB023)', async () => {
    const bad = await lab('explore', 'C', '--fault', 'lose:3');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/LAB023/);
  });
});
