import * as v from 'valibot';

/**
 * A fast yes to valibot's question "does this value pass this schema?", for the messages the page
 * reads from its workers: a long run's parts carry 20,000 events, and valibot answers by building a
 * checked copy of every object it walks (a new object per event, per message, per field holder),
 * which made the check and its garbage the largest share of the page's work while the worker laid
 * the run out. `passes(schema)` walks the schema once and gives a predicate that reads the value
 * and builds nothing.
 *
 * It only ever says yes when valibot would: every schema or action it does not model exactly (a
 * record, a strict object, a lazy schema, a default, a `check` on a copy…) is asked of valibot
 * itself, for that value. A no is not an explanation: the caller asks valibot again for its issues,
 * so a refused message is refused with the same words as before.
 */
export type Predicate = (value: unknown) => boolean;

type Node = v.GenericSchema & {
  type: string;
  pipe?: ReadonlyArray<{ kind: string; type: string; requirement?: unknown }>;
  entries?: Record<string, Node>;
  item?: Node;
  items?: readonly Node[];
  options?: readonly unknown[];
  wrapped?: Node;
  default?: unknown;
  fallback?: unknown;
  literal?: unknown;
  key?: string;
  check?: (value: unknown) => boolean;
};

const compiled = new WeakMap<object, Predicate>();

/** The predicate of `schema`: true only when valibot accepts the value (see the module's note). */
export function passes(schema: v.GenericSchema): Predicate {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  // A schema met again while it is being compiled (none of the lab's is recursive) reads the table late.
  let predicate: Predicate = (value) => (compiled.get(schema) ?? valibotSays(schema))(value);
  compiled.set(schema, predicate);
  predicate = compile(schema as Node);
  compiled.set(schema, predicate);
  return predicate;
}

/** valibot's own answer, for what the fast predicate does not model. */
function valibotSays(schema: v.GenericSchema): Predicate {
  return (value) => v.safeParse(schema, value, { abortEarly: true }).success;
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish']);

function compile(schema: Node): Predicate {
  if (schema.async) return valibotSays(schema);
  if (schema.pipe !== undefined) return compilePipe(schema);
  switch (schema.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && !Number.isNaN(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'unknown':
      return () => true;
    case 'literal': {
      const literal = schema.literal;
      return (value) => value === literal;
    }
    case 'picklist': {
      const options = schema.options as readonly unknown[];
      return (value) => options.includes(value);
    }
    case 'custom': {
      const check = schema.check as (value: unknown) => boolean;
      return (value) => Boolean(check(value));
    }
    case 'nullable':
    case 'optional':
    case 'nullish':
      return compileWrapped(schema);
    case 'array': {
      const item = passes(schema.item as Node);
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
        return true;
      };
    }
    case 'tuple': {
      const items = (schema.items as Node[]).map((item) => passes(item));
      return (value) => Array.isArray(value) && items.every((item, i) => item(value[i]));
    }
    case 'object':
      return compileObject(schema);
    case 'variant':
      return compileVariant(schema);
    case 'union': {
      const options = (schema.options as Node[]).map((option) => passes(option));
      return (value) => options.some((option) => option(value));
    }
    default:
      return valibotSays(schema);
  }
}

/** optional, nullable, nullish without a default: the empty value passes, anything else is the wrapped schema's. */
function compileWrapped(schema: Node): Predicate {
  if (schema.default !== undefined) return valibotSays(schema);
  const wrapped = passes(schema.wrapped as Node);
  const empty =
    schema.type === 'optional'
      ? (value: unknown) => value === undefined
      : schema.type === 'nullable'
        ? (value: unknown) => value === null
        : (value: unknown) => value === null || value === undefined;
  return (value) => empty(value) || wrapped(value);
}

/** valibot's object: each entry present is checked; an absent one passes only when optional (or with a fallback); other keys are ignored. */
function compileObject(schema: Node): Predicate {
  const entries = Object.entries(schema.entries as Record<string, Node>);
  for (const [, entry] of entries)
    if (OPTIONAL.has(entry.type) && entry.default !== undefined) return valibotSays(schema);
  const keys = entries.map(([key]) => key);
  const checks = entries.map(([, entry]) => passes(entry));
  const absentPasses = entries.map(([, entry]) => entry.fallback !== undefined || OPTIONAL.has(entry.type));
  return (value) => {
    if (!value || typeof value !== 'object') return false;
    const input = value as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      // One look-up for a field that is there (an undefined one may still be present: valibot checks it then).
      const field = input[key];
      if (field !== undefined || key in input) {
        if (!(checks[i] as Predicate)(field)) return false;
      } else if (!absentPasses[i]) return false;
    }
    return true;
  };
}

/** valibot's variant: some option whose discriminator passes passes as a whole. Nested variants are valibot's. */
function compileVariant(schema: Node): Predicate {
  const key = schema.key as string;
  const options = schema.options as Node[];
  if (options.some((option) => option.type !== 'object' || option.pipe !== undefined)) return valibotSays(schema);
  const byOption = options.map((option) => {
    const discriminator = (option.entries as Record<string, Node>)[key] as Node;
    return {
      discriminator: passes(discriminator),
      absentPasses: OPTIONAL.has(discriminator.type),
      whole: passes(option),
    };
  });
  return (value) => {
    if (!value || typeof value !== 'object') return false;
    const input = value as Record<string, unknown>;
    const present = key in input;
    const discriminator = input[key];
    for (const option of byOption)
      if ((present ? option.discriminator(discriminator) : option.absentPasses) && option.whole(value)) return true;
    return false;
  };
}

/** The validations valibot runs on a value once its schema passed, as predicates; null: one not modelled here. */
const ACTIONS: Record<string, (requirement: unknown) => Predicate> = {
  min_value: (min) => (value) => (value as number) >= (min as number),
  max_value: (max) => (value) => (value as number) <= (max as number),
  min_length: (min) => (value) => !((value as { length: number }).length < (min as number)),
  max_length: (max) => (value) => !((value as { length: number }).length > (max as number)),
  safe_integer: (is) => (value) => Boolean((is as Predicate)(value)),
  integer: (is) => (value) => Boolean((is as Predicate)(value)),
  finite: (is) => (value) => Boolean((is as Predicate)(value)),
  regex: (pattern) => (value) => (pattern as RegExp).test(value as string),
};

/**
 * A schema with a pipe: its base, then each validation in turn. A transformation is the identity
 * that names the engine's type (schemas.ts `check`), so it changes nothing when nothing is checked
 * after it; anything else in a pipe is valibot's.
 */
function compilePipe(schema: Node): Predicate {
  const [base, ...actions] = schema.pipe as NonNullable<Node['pipe']>;
  const checks: Predicate[] = [];
  let transformed = false;
  for (const action of actions) {
    if (action.kind === 'metadata') continue;
    if (action.kind === 'transformation' && action.type === 'transform') {
      transformed = true;
      continue;
    }
    const make = ACTIONS[action.type];
    if (action.kind !== 'validation' || make === undefined || transformed) return valibotSays(schema);
    checks.push(make(action.requirement));
  }
  const first = passes(base as unknown as Node);
  return (value) => first(value) && checks.every((check) => check(value));
}
