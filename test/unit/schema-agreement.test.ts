/**
 * The config and the result are defined once (src/shared/schema/): the shipped JSON Schemas, the
 * types and the runtime checks agree on every field. Here: the definition's fields and the shipped
 * schema's properties are the same at every level, a field the schema does not know is refused at
 * run time, and (at compile time) the types read from the definition are the ones the code uses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as z from 'zod/mini';
import configSchemaFile from '../../schema/dbprobe.schema.json';
import resultSchemaFile from '../../schema/run-result.schema.json';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { runResultProblem } from '../../src/core/validate/validateRunResult';
import { DRIVER_IDS } from '../../src/drivers/catalog';
import type { PlanSpec, TargetSpec } from '../../src/shared/plan';
import type { ResultPlan, RunResult } from '../../src/shared/result';
import { configSchema, type planSchema } from '../../src/shared/schema/planSchema';
import { runResultSchema } from '../../src/shared/schema/resultSchema';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { runPlan } from '../../src/core/engine';

type Side = 'input' | 'output';

/** Every field path of a definition (`targets[].tls.caFile`), as the given side of a parse sees it. */
function definitionPaths(schema: z.core.$ZodType, side: Side, at = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => definitionPaths(def[key] as z.core.$ZodType, side, at);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return inner('innerType');
    // A transform's result is no schema: the input side is what a file holds.
    case 'pipe':
      return side === 'input' || (def.out as z.core.$ZodType)._zod.def.type === 'transform'
        ? inner('in')
        : inner('out');
    case 'object':
      return Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, field]) => [
        `${at}.${key}`,
        ...definitionPaths(field, side, `${at}.${key}`),
      ]);
    case 'array':
      return definitionPaths(def.element as z.core.$ZodType, side, `${at}[]`);
    case 'record':
      return definitionPaths(def.valueType as z.core.$ZodType, side, `${at}{}`);
    case 'union':
      return [...new Set((def.options as z.core.$ZodType[]).flatMap((o) => definitionPaths(o, side, at)))];
    default:
      return [];
  }
}

type Json = Record<string, unknown>;

/** Every property path of a JSON Schema, following its `$ref`s into `definitions`. */
function schemaPaths(node: Json, root: Json, at = ''): string[] {
  const ref = node.$ref as string | undefined;
  if (ref) return schemaPaths((root.definitions as Record<string, Json>)[ref.split('/').pop()!]!, root, at);
  const paths: string[] = [];
  for (const [key, value] of Object.entries((node.properties as Record<string, Json> | undefined) ?? {}))
    paths.push(`${at}.${key}`, ...schemaPaths(value, root, `${at}.${key}`));
  if (node.items) paths.push(...schemaPaths(node.items as Json, root, `${at}[]`));
  if (typeof node.additionalProperties === 'object' && node.type === 'object' && !node.properties)
    paths.push(...schemaPaths(node.additionalProperties as Json, root, `${at}{}`));
  for (const option of [
    ...((node.anyOf as Json[]) ?? []),
    ...((node.oneOf as Json[]) ?? []),
    ...((node.allOf as Json[]) ?? []),
  ])
    paths.push(...schemaPaths(option, root, at));
  return [...new Set(paths)];
}

const sorted = (paths: string[]) => [...new Set(paths)].sort();

test('dbprobe.schema.json has exactly the fields of the config definition, at every level', () => {
  const fields = sorted(definitionPaths(configSchema(DRIVER_IDS), 'input'));
  assert.ok(fields.includes('.targets[].cold.neon.apiUrl') && fields.includes('.load.latencyStat'));
  assert.deepEqual(sorted(schemaPaths(configSchemaFile as Json, configSchemaFile as Json)), fields);
});

test('run-result.schema.json has exactly the fields of the result definition, at every level', () => {
  const fields = sorted(definitionPaths(runResultSchema, 'output'));
  assert.ok(
    fields.includes('.measurements[].samples.values[].wire.alpn') && fields.includes('.plan.fanOut.dealt'),
  );
  assert.deepEqual(sorted(schemaPaths(resultSchemaFile as Json, resultSchemaFile as Json)), fields);
});

test('a field the definition does not have is refused at run time, in a plan and in a result', async () => {
  const one = { name: 'a', driver: 'pg', connection: 'env:A' };
  for (const [config, path] of [
    [{ targets: [one], iterationz: 5 }, ''],
    [{ targets: [{ ...one, qurey: 'SELECT 2' }] }, 'targets[0] ("a")'],
    [{ targets: [one], load: { levls: [1] } }, 'load'],
    [{ targets: [{ ...one, cold: { mode: 'command', command: ['x'], idle: 5 } }] }, 'targets[0] ("a").cold'],
  ] as const) {
    const checked = validatePlan(config, ['pg']);
    assert.ok(!checked.ok, JSON.stringify(config));
    assert.equal(checked.issues[0]?.path, path);
    assert.match(checked.issues[0]!.message, /^unknown field "\w+"; allowed: /);
  }
  const clock = new FakeClock();
  const registry = fakeRegistry([fakeDriver('a', clock, { queryUs: [100] }, new FakeDriverStats())]);
  const result = await runPlan(plan([target('a')], { iterations: 3, warmup: 0 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
  });
  const saved = JSON.parse(JSON.stringify(result)) as RunResult;
  assert.equal(runResultProblem(saved), undefined);
  const extra = structuredClone(saved) as unknown as { measurements: Record<string, unknown>[] };
  extra.measurements[0]!.p42Us = 5;
  assert.match(runResultProblem(extra) ?? '', /^measurements\[0\]: unknown field "p42Us"/);
});

/** True only when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// The types the code uses are the definition's: a field removed there is removed here, and the code
// that reads it stops compiling. The result's plan is the plan less its targets and stop rule.
const typesAgree: [
  Same<PlanSpec, z.output<ReturnType<typeof planSchema>>>,
  Same<TargetSpec, PlanSpec['targets'][number]>,
  Same<RunResult, z.output<typeof runResultSchema>>,
  Same<ResultPlan, Omit<PlanSpec, 'targets' | 'maxConsecutiveErrors'>>,
] = [true, true, true, true];

test('the types the code uses are the definition’s (checked when this file compiles)', () => {
  assert.deepEqual(typesAgree, [true, true, true, true]);
});

/** Objects of the definition that take fields they do not name (none: each is strict). */
function looseObjects(schema: z.core.$ZodType, at = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string, path = at) => looseObjects(def[key] as z.core.$ZodType, path);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return inner('innerType');
    case 'pipe':
      return inner('in');
    case 'object':
      return [
        ...(def.catchall === undefined || (def.catchall as z.core.$ZodType)._zod.def.type !== 'never'
          ? [at || '(top)']
          : []),
        ...Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, field]) =>
          looseObjects(field, `${at}.${key}`),
        ),
      ];
    case 'array':
      return inner('element', `${at}[]`);
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap((option) => looseObjects(option, at));
    default:
      return [];
  }
}

test('every object of both definitions is strict, as the shipped schemas say (additionalProperties: false)', () => {
  assert.deepEqual(looseObjects(configSchema(DRIVER_IDS)), []);
  assert.deepEqual(looseObjects(runResultSchema), []);
});
