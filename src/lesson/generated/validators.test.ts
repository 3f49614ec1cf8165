// Proves the committed standalone validators are exactly what the schemas compile to today (so they
// cannot drift), that they need no code generation at run time, and that they judge input as ajv does.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { generateValidators, VALIDATORS_PATH } from '../../../scripts/build-validators';
import { reviewInputSchema } from '../reviewInputSchema';
import { validateReviewInput } from './validators.js';
import unsafeCharge from '../examples/unsafe-charge.json';

describe('generated validators', () => {
  it('match a fresh compile of the schemas (run npm run validators after changing one)', () => {
    expect(readFileSync(VALIDATORS_PATH, 'utf8')).toBe(generateValidators());
  });

  it('contain no require(), eval or Function constructor', () => {
    const text = readFileSync(VALIDATORS_PATH, 'utf8');
    expect(text).not.toMatch(/\brequire\(|\beval\(|\bFunction\(/);
  });

  it('accept and reject the same inputs, with the same errors, as ajv compiling at run time', () => {
    const runtime = new Ajv2020({ allErrors: true, strict: true }).compile(reviewInputSchema);
    const inputs: unknown[] = [
      unsafeCharge,
      {},
      null,
      { ...unsafeCharge, transport: 'smoke-signals', extra: 1 },
      { ...unsafeCharge, operation: { name: '', mutates: 'yes' } },
      { ...unsafeCharge, timeouts: { idleMs: 0, maxMs: 1.5 } },
      { ...unsafeCharge, operation: { ...unsafeCharge.operation, name: '😀' } },
    ];
    for (const input of inputs) {
      expect(validateReviewInput(input)).toBe(runtime(input));
      expect(validateReviewInput.errors ?? null).toEqual(runtime.errors ?? null);
    }
  });
});
