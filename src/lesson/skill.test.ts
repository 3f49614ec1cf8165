// Proves the reviewer skill folder is the same bytes on every build and equals the committed
// copy in docs/skill/, that SKILL.md names every rule `review` can emit with its requirements (docs/requirements.md) and every
// failure card, that its field table is the reviewer's schema, and that its worked examples are `review`'s output.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import safe from './examples/safe-charge.json' with { type: 'json' };
import unsafe from './examples/unsafe-charge.json' with { type: 'json' };
import { failureCards } from './failureCards';
import { reviewInputSchema } from './reviewInputSchema';
import { formatReview, review, type Review } from './reviewer';
import { flowChecks, reviewRules, type Condition } from './reviewRules';
import { buildSkill, inputGuide, requirementSummaries, schemaPaths, SKILL_NAME } from './skill';

const DOCS = resolve(import.meta.dirname, '../../docs/skill');
const REGENERATE = 'regenerate it with: npm run lab -- skill --out docs/skill --force';

function committed(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(DOCS, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(DOCS);
  return files;
}

const skill = buildSkill();
const skillMd = skill.find((f) => f.path === `${SKILL_NAME}/SKILL.md`)?.contents ?? '';

/** Inputs that set each field to each of its values, one at a time, on both examples. */
function variedInputs(): unknown[] {
  const values: Record<string, unknown[]> = {
    '/operation/mutates': [true, false],
    '/operation/idempotencyKey': [true, false],
    '/operation/remoteEffect': [true, false],
    '/operation/annotations': [{ idempotentHint: true }, { readOnlyHint: true }, { readOnlyHint: false }],
    '/operation/atomicKeyCheck': [false],
    '/operation/fingerprint': [false],
    '/operation/defensiveCopies': [false],
    '/transport': ['stdio', 'http'],
    '/cancellation': ['notifications/cancelled', 'close-stream', 'post-notification'],
    '/timeouts/idleMs': [1, 5000],
    '/timeouts/maxMs': [null, 1, 9000],
    '/timeouts/progressResetsMax': [true],
    '/retry/automatic': [true, false],
    '/retry/sameKey': [false],
    '/retry/attemptsMax': [0, 3],
    '/retry/backoff': ['none', 'exponential', 'full-jitter'],
    '/queue/policy': ['coalesce-drop-oldest', 'unbounded', 'drop-newest'],
    '/queue/capacityEvents': [0, 1, 2],
    '/queue/reserveForFinal': [true, false],
    '/ledger': ['shared-durable', 'per-replica', 'in-memory', 'none'],
    '/proxy': [{ bufferingDisabled: false }],
    '/recovery/newRequestId': [false],
    '/recovery/lastEventId': [true],
    '/recovery/refetch': [[]],
    '/recovery/replayUnsafeMutations': [true],
    '/recovery/pollTasksUntilTerminal': [false],
  };
  const inputs: unknown[] = [];
  for (const base of [safe, unsafe]) {
    for (const [pointer, choices] of Object.entries(values)) {
      for (const value of choices) {
        const copy = structuredClone(base) as unknown as Record<string, unknown>;
        const keys = pointer.split('/').slice(1);
        const last = keys.pop() as string;
        const parent = keys.reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, copy);
        parent[last] = value;
        inputs.push(copy);
      }
    }
  }
  return inputs;
}

const reviewed = (input: unknown): Review => {
  const result = review(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.review;
};

describe('the skill folder', () => {
  it('is byte-identical on every build and equal to the committed docs/skill/ copy', () => {
    expect(JSON.stringify(buildSkill())).toBe(JSON.stringify(skill));
    const expected = Object.fromEntries(skill.map((f) => [f.path, f.contents]));
    expect(Object.keys(committed()).sort(), REGENERATE).toEqual(Object.keys(expected).sort());
    for (const [path, contents] of Object.entries(committed()))
      expect(contents, `${path} drifted; ${REGENERATE}`).toBe(expected[path]);
  });

  it('opens SKILL.md with a front matter of name and description', () => {
    expect(skillMd).toMatch(/^---\nname: mcp-reliability-reviewer\ndescription: [^\n]{40,600}\n---\n\n# /);
  });
});

describe('SKILL.md says what lab review checks', () => {
  const emitted = new Map<string, readonly string[]>();
  for (const input of variedInputs()) {
    const r = reviewed(input);
    for (const flag of r.flags) emitted.set(flag.rule, flag.requirements);
    for (const check of r.flowControl) emitted.set(check.id, check.requirements);
  }

  it('every rule and flow-control check of the table is emitted by review for some input', () => {
    expect([...emitted.keys()].sort()).toEqual(
      [...reviewRules.map((r) => r.id), ...flowChecks.map((c) => c.id)].sort(),
    );
  });

  it('every rule id review emits is in SKILL.md with its requirements (docs/requirements.md), and each requirement is summarised', () => {
    for (const [id, requirements] of emitted) {
      expect(skillMd).toContain(`**\`${id}\`** (${requirements.join(', ')})`);
      for (const requirement of requirements) {
        expect(requirementSummaries[requirement], requirement).toBeDefined();
        expect(skillMd).toContain(`- **${requirement}** ${requirementSummaries[requirement]}`);
      }
    }
  });

  it('every rule’s message, condition values and by-hand check are in SKILL.md', () => {
    for (const rule of reviewRules) {
      if (rule.reason !== null) expect(skillMd).toContain(`“${rule.reason}”`);
      expect(skillMd).toContain(rule.byHand);
      expect(skillMd).toContain(`${rule.severity.toUpperCase()} on \`${rule.field}\``);
    }
  });

  it('every failure card is in SKILL.md with its symptom and correct response', () => {
    for (const card of Object.values(failureCards))
      expect(skillMd).toContain(`| ${card.failure} | ${card.symptom} | ${card.correctResponse} |`);
  });

  it('every field a rule tests or quotes is a field of the schema, and the field table is the schema', () => {
    const { all } = schemaPaths();
    const paths = reviewRules.flatMap((r) => r.when.flatMap((c: Condition) => ('path' in c ? [c.path] : [])));
    const quoted = reviewRules.flatMap((r) =>
      [...(r.reason ?? '').matchAll(/\{(\/[^}]*)\}/g)].map((m) => m[1] as string),
    );
    for (const path of [...paths, ...quoted, ...reviewRules.map((r) => r.field)])
      expect(
        all.some((p) => p === path || p.startsWith(`${path}/`) || path.startsWith(`${p}/`)),
        path,
      ).toBe(true);
    expect(inputGuide.map((g) => g.path)).toEqual(all);
    for (const g of inputGuide) expect(skillMd).toContain(`| \`${g.path}\``);
  });

  it('ships the reviewer’s own schema, with descriptions added and nothing else changed', () => {
    const shipped = JSON.parse(
      skill.find((f) => f.path.endsWith('review-input.schema.json'))?.contents ?? '{}',
    ) as Record<string, unknown>;
    const strip = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(strip);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => k !== 'description')
          .map(([k, v]) => [k, strip(v)]),
      );
    };
    const { $schema, title, ...rest } = shipped;
    expect([$schema, title]).toEqual(['https://json-schema.org/draft/2020-12/schema', 'MCP reliability review input']);
    expect(strip(rest)).toEqual(JSON.parse(JSON.stringify(reviewInputSchema)));
  });
});

describe('the worked examples', () => {
  for (const [name, input] of [
    ['safe-charge', safe],
    ['unsafe-charge', unsafe],
  ] as const) {
    it(`${name}: the input is the lab’s example and the output is what review prints for it`, () => {
      const file = (suffix: string) =>
        skill.find((f) => f.path === `${SKILL_NAME}/examples/${name}${suffix}`)?.contents;
      expect(JSON.parse(file('.json') ?? 'null')).toEqual(input);
      const printed = formatReview(review(JSON.parse(file('.json') ?? 'null')));
      expect(file('.review.txt')).toBe(`${printed}\n`);
      expect(skillMd).toContain(`\`\`\`text\n${printed}\n\`\`\``);
    });
  }

  it('one is safe and one is not', () => {
    expect(reviewed(safe).flags.filter((f) => f.severity === 'unsafe')).toEqual([]);
    expect(reviewed(unsafe).flags.filter((f) => f.severity === 'unsafe').length).toBeGreaterThan(10);
  });
});
