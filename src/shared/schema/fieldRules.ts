/**
 * The building blocks the config and result definitions share: numbers with their range, one of a
 * list, and the sentence a refusal says. Each rule carries its own message, so the definition that
 * types a field and writes its JSON Schema also says, in the house's words, what is wrong with it.
 */
import * as z from 'zod/mini';

/** Where a secret lives: `env:VAR` or `secret:NAME`, never the secret itself. */
export const REFERENCE_PATTERN = /^(env|secret):[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * A field with the sentence an editor shows beside it (the shipped JSON Schema's `description`):
 * written where the field is defined, so the help cannot drift from the rule.
 */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

/** A value as quoted in a problem: JSON, cut at 60 characters. */
export function short(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A message that quotes the value it refuses. */
function quoting(text: string): (issue: { input?: unknown }) => string {
  return (issue) => `${text} (got ${short(issue.input)})`;
}

/**
 * A whole number from `min` to `max`, both included. Not `z.int()`: its refusal stops every later
 * rule of the plan, and a config is fixed in one pass only if all of them speak; the JSON Schema
 * still says "integer".
 */
export function wholeIn(min: number, max: number) {
  const error = quoting(`must be a whole number from ${min} to ${max}`);
  return z
    .number({ error })
    .check(
      z.refine(Number.isInteger, { error }),
      z.gte(min, { error }),
      z.lte(max, { error }),
      z.meta({ type: 'integer' }),
    );
}

/** A number above `min` (a rate, a duration), up to `max` included. */
export function numberAbove(min: number, max: number) {
  const error = quoting(`must be a number above ${min} up to ${max}`);
  return z.number({ error }).check(z.gt(min, { error }), z.lte(max, { error }));
}

/** A number from `min` to `max`, both included (a share, a wall-clock time). */
export function numberFrom(min: number, max: number) {
  const error = quoting(`must be a number from ${min} to ${max}`);
  return z.number({ error }).check(z.gte(min, { error }), z.lte(max, { error }));
}

/** One of a list of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: quoting(`must be one of: ${values.join(', ')}`) });
}

/** The message of an object field given something else: what it looks like. */
export function objectLike(example: string) {
  return (issue: { code?: string }) =>
    issue.code === 'invalid_type' ? `must be an object like ${example}` : undefined;
}

export const trueOrFalse = (hint = '') => z.boolean({ error: `must be true or false${hint}` });

/**
 * The sentence for a problem whose field set no message of its own: a field that is not allowed, a
 * value of the wrong type, a list too long. Given to every parse (`{ error: issueText }`).
 */
export function issueText(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'unrecognized_keys': {
      const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
      const allowed = Object.keys(shape ?? {}).filter((key) => !key.startsWith('$'));
      return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}; allowed: ${allowed.join(', ')}`;
    }
    case 'invalid_type':
      return issue.expected === 'never'
        ? 'must be left out here'
        : `must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`} (got ${short(issue.input)})`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])} (got ${short(issue.input)})`
        : `must be one of: ${issue.values.join(', ')} (got ${short(issue.input)})`;
    case 'too_small':
      return `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
    case 'too_big':
      return `must have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
    default:
      return undefined;
  }
}

const TYPE_WORDS: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  boolean: 'true or false',
  number: 'a number',
  int: 'a whole number',
};
