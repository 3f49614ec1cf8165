// Proves the lint rule that keeps src/engine deterministic exists and fires: ambient time, timers and Math.random are errors there, and allowed elsewhere.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('no ambient time or randomness in src/engine', () => {
  const offenders = [
    'export const a = Date.now();',
    'export const b = performance.now();',
    'export const c = Math.random();',
    'setTimeout(() => undefined, 1);',
    'setInterval(() => undefined, 1);',
    'export const d = new Date();',
    "import { create } from 'zustand'; export const e = create;",
  ];
  for (const code of offenders) {
    it(`flags: ${code}`, async () => {
      expect((await ruleIds(code, 'src/engine/fixture.ts')).length).toBeGreaterThan(0);
    });
  }

  it('allows the same code outside the engine', async () => {
    expect(await ruleIds('export const a = Date.now();', 'src/ui/fixture.ts')).toEqual([]);
  });

  it('allows the virtual clock', async () => {
    expect(await ruleIds('export const now = (s: { nowMs: number }) => s.nowMs;', 'src/engine/fixture.ts')).toEqual([]);
  });
});

describe('the engine has one front door', () => {
  for (const file of [
    'src/cli/fixture.ts',
    'src/lesson/fixture.ts',
    'src/runs/fixture.ts',
    'src/worker/fixture.ts',
    'src/testing/fixture.ts',
    'src/scenarios/fixture.ts',
  ]) {
    it(`${file}: a file inside src/engine is refused, src/engine/index.ts is allowed`, async () => {
      const from = file.startsWith('src/') ? '../engine' : './src/engine';
      expect(
        await ruleIds(`import { BinaryHeap } from '${from}/core/heap'; export const a = BinaryHeap;`, file),
      ).toEqual(['no-restricted-imports']);
      expect(await ruleIds(`import { BinaryHeap } from '${from}'; export const a = BinaryHeap;`, file)).toEqual([]);
    });
  }
});

describe("the page takes the engine's types from its front door, and never its code", () => {
  for (const [file, from] of [
    ['src/ui/components/fixture.tsx', '../../engine'],
    ['src/store/fixture.ts', '../engine'],
  ] as const) {
    it(`${file}: import type from ${from} is allowed, a value import from it and any file inside src/engine are refused`, async () => {
      expect(
        await ruleIds(`import type { Transcript } from '${from}'; export const a: Transcript[] = [];`, file),
      ).toEqual([]);
      expect(await ruleIds(`import { TRANSPORTS } from '${from}'; export const a = TRANSPORTS;`, file)).toEqual([
        'no-restricted-imports',
      ]);
      expect(
        await ruleIds(`import type { LabEvent } from '${from}/transcript'; export const a: LabEvent[] = [];`, file),
      ).toEqual(['no-restricted-imports']);
    });
  }
});

describe('no arrow runs back up the layers', () => {
  // Each arrow once ran the wrong way (or would close a circle); the rule must refuse it at the file that would write it.
  const refused: Array<[file: string, from: string]> = [
    ['src/engine/compare.ts', '../diagram/geometry/layout'],
    ['src/engine/compare.ts', '../runs/runSpec'],
    ['src/engine/compare.ts', '../lesson/verification'],
    ['src/engine/compare.ts', '../sdk/version'],
    ['src/engine/compare.ts', '../probe/run'],
    ['src/engine/core/model.ts', '../predict'],
    ['src/engine/core/model.ts', '../mcp/protocol'],
    ['src/engine/explore/driver.ts', '../scenario'],
    ['src/engine/explore/driver.ts', '../explorer'],
    ['src/engine/recording/types.ts', '../transcript'],
    ['src/engine/mcp/stream.ts', '../models/request-race/types'],
    ['src/engine/models/herd/herd.ts', '../../scenario'],
    ['src/sdk/sdkHarness.ts', '../runs/runSpec'],
    ['src/sdk/sdkHarness.ts', '../lesson/verification'],
    ['src/probe/connection.ts', '../lesson/verification'],
    ['src/probe/connection.ts', '../runs/runSpec'],
    ['src/sdk/sdkHarness.ts', '../worker/protocol'],
    ['src/probe/connection.ts', '../cli/safeOutput'],
  ];
  for (const [file, from] of refused) {
    it(`${file} may not import ${from}`, async () => {
      expect(await ruleIds(`import * as x from '${from}'; export const a = x;`, file)).toEqual([
        'no-restricted-imports',
      ]);
    });
  }

  const allowed: Array<[file: string, from: string]> = [
    ['src/engine/compare.ts', './lanes'],
    ['src/engine/explore/driver.ts', '../core/assert'],
    ['src/engine/models/herd/herd.ts', '../../mcp/protocol'],
    ['src/engine/models/reconnect/settings.ts', '../herd/backoff'],
    ['src/runs/runSpec.ts', '../sdk/refusal'],
    ['src/cli/probeCommand.ts', '../probe/run'],
    ['src/worker/schemas.ts', '../engine/core/jsonrpc'],
    ['src/store/panelsStore.ts', '../engine/settingsSpecs'],
    ['src/store/recording.ts', '../engine/core/recordingLimits'],
  ];
  for (const [file, from] of allowed) {
    it(`${file} may import ${from}`, async () => {
      expect(await ruleIds(`import * as x from '${from}'; export const a = x;`, file)).toEqual([]);
    });
  }
});
