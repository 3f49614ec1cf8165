// Proves that every place the lab cites its idempotency requirements (LG, LG-P) says the key is an
// application contract, not part of MCP: 2026-07-28 defines no idempotency key, only the idempotentHint
// tool annotation. The scenarios that cite an LG id, the requirements page, every document that names one,
// the reviewer skill's summaries, the probe's lessons and the exercises' starters.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_IS_APPLICATION_CONTRACT } from '../engine';
import { scenarios } from '../scenarios/index';
import { requirementSummaries } from './skill';

const LG = /\bLG-P?\d+\b/;

describe('the idempotency key is an application contract wherever an LG requirement is cited', () => {
  it('every scenario citing an LG id says so in its summary', () => {
    const citing = scenarios.filter((s) => s.requirements.some((id) => LG.test(id)));
    expect(citing.length).toBeGreaterThan(10);
    for (const scenario of citing) expect(scenario.summary, scenario.id).toContain(KEY_IS_APPLICATION_CONTRACT);
  });

  it('every document of docs/ and the README that names an LG id says so, and the requirements page in both LG sections', () => {
    const docs = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? docs(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
      );
    const citing = ['README.md', ...docs('docs')].filter((path) => LG.test(readFileSync(path, 'utf8')));
    expect(citing).toContain('docs/requirements.md');
    for (const path of citing) expect(readFileSync(path, 'utf8'), path).toMatch(/application contract/);
    const requirements = readFileSync('docs/requirements.md', 'utf8');
    for (const heading of ['## Idempotency ledger (LG)', '## The practice lab: `reserve_inventory` (LG-P)']) {
      const section = requirements.split(heading)[1]?.split('\n### ')[0] ?? '';
      expect(section, heading).toContain(KEY_IS_APPLICATION_CONTRACT);
    }
  });

  it("the reviewer skill's summary of each LG id, the probe's LG lessons and the exercises' starters say so", () => {
    const lg = Object.entries(requirementSummaries).filter(([id]) => LG.test(id));
    expect(lg.length).toBeGreaterThan(5);
    for (const [id, text] of lg) expect(text, id).toMatch(/application contract/);
    const probe = readFileSync('src/probe/idempotency.ts', 'utf8');
    expect(probe).toMatch(/text: `\$\{text\} — \$\{KEY_IS_APPLICATION_CONTRACT\}`/);
    for (const file of ['src/exercise/exercises/ledger.ts', 'src/exercise/exercises/reserveInventory.ts'])
      expect(readFileSync(file, 'utf8'), file).toMatch(/STARTER = `[^`]*application contract, not part of MCP/);
  });
});
