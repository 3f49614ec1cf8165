// Types of the standalone validators that scripts/build-validators.ts writes to validators.js.
import type { ErrorObject } from 'ajv';

export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export declare const validateReviewInput: StandaloneValidator;
