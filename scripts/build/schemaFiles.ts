/**
 * `npm run schema`: writes the shipped JSON Schemas from the one definition of the config and of the
 * run result (src/shared/schema/), and the driver enum of the `dbprobe.targets` setting in
 * package.json from the driver catalog (src/drivers/catalog.ts), so an editor flags
 * `"driver": "postgres"` as the CLI does. `--check` only says whether the files are current
 * (test/unit/schema.test.ts checks the same).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';
import { configSchema } from '../../src/shared/schema/planSchema';
import {
  fanOutFiguresSchema,
  loadLevelFiguresSchema,
  scheduleModelFiguresSchema,
  startFiguresSchema,
} from '../../src/shared/schema/loadResultSchema';
import { resultPlanSchema } from '../../src/shared/schema/resultPlanSchema';
import {
  clientWatchSchema,
  environmentSchema,
  measurementSchema,
  runResultSchema,
  sampleSchema,
  targetInfoSchema,
} from '../../src/shared/schema/resultSchema';
import { histogramSchema, latencyStatsSchema } from '../../src/shared/schema/statsSchema';

const ROOT = path.resolve(__dirname, '..', '..');
export const CONFIG_SCHEMA_FILE = path.join(ROOT, 'schema', 'dbprobe.schema.json');
export const RESULT_SCHEMA_FILE = path.join(ROOT, 'schema', 'run-result.schema.json');
const MANIFEST = path.join(ROOT, 'package.json');

type Json = Record<string, unknown>;

/** Draft-07: what VS Code's JSON language service and the tests' Ajv read without options. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  return unwrapped(z.toJSONSchema(schema, { target: 'draft-7', io, reused: 'inline' })) as Json;
}

/** `{"allOf": [{"$ref": ...}]}` with nothing beside it says no more than the `$ref`: the file says that. */
function unwrapped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapped);
  if (typeof node !== 'object' || node === null) return node;
  const { allOf, ...rest } = node as Json;
  if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(rest).length === 0)
    return unwrapped(allOf[0]);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, unwrapped(value)]));
}

/** dbprobe.json's schema: the config's definition, with the catalog's description of each driver. */
export function configJsonSchema(catalog = DRIVER_CATALOG): Json {
  const generated = jsonSchema(configSchema(catalog.map((info) => info.id)), 'input');
  const targets = (generated.properties as Record<string, Json>).targets!;
  const driver = ((targets.items as Json).properties as Record<string, Json>).driver!;
  // VS Code shows these beside each completion; other editors ignore the keyword.
  driver.enumDescriptions = catalog.map((info) => info.description);
  return {
    $schema: generated.$schema,
    $id: 'https://unpkg.com/dbprobe/schema/dbprobe.schema.json',
    title: 'DB Latency Probe config (dbprobe.json)',
    description:
      'Targets to probe and how. Connection strings never appear here: use env:VAR (CLI, CI, runner) or secret:NAME (VS Code secret storage).',
    ...withoutKey(generated, '$schema'),
  };
}

/**
 * The parts a result repeats, named once under `definitions` (the JSON Schema would otherwise spell
 * the statistics out at each of their dozens of places). Named here, for the file only.
 */
const RESULT_PARTS: [z.core.$ZodType, string][] = [
  [latencyStatsSchema, 'stats'],
  [histogramSchema, 'histogram'],
  [sampleSchema, 'sample'],
  [measurementSchema, 'measurement'],
  [startFiguresSchema, 'starts'],
  [loadLevelFiguresSchema, 'loadLevel'],
  [scheduleModelFiguresSchema, 'scheduleModel'],
  [fanOutFiguresSchema, 'fanOut'],
  [environmentSchema, 'environment'],
  [resultPlanSchema, 'plan'],
  [targetInfoSchema, 'target'],
  [clientWatchSchema, 'client'],
];

/** A saved result's schema: the result's definition, as the engine writes it. */
export function resultJsonSchema(): Json {
  for (const [part, id] of RESULT_PARTS)
    if (!z.globalRegistry.has(part)) z.globalRegistry.add(part, { ...z.globalRegistry.get(part), id });
  const generated = jsonSchema(runResultSchema, 'output');
  return {
    $schema: generated.$schema,
    $id: 'https://unpkg.com/dbprobe/schema/run-result.schema.json',
    title: 'DB Latency Probe run result (dbprobe.run/v1)',
    description:
      'One run: what was measured, how, where, and the encoded histograms that let runs merge exactly. All latencies are integer microseconds unless named otherwise.',
    ...withoutKey(generated, '$schema'),
  };
}

/** The extension manifest with the `dbprobe.targets` setting's driver enum from the catalog. */
export function manifestWithCatalog(manifest: Json, catalog = DRIVER_CATALOG): Json {
  const next = structuredClone(manifest) as {
    contributes: {
      configuration: { properties: Record<string, { items: { properties: { driver: Json } } }> };
    };
  };
  next.contributes.configuration.properties['dbprobe.targets']!.items.properties.driver.enum = catalog.map(
    (info) => info.id,
  );
  return next as unknown as Json;
}

function withoutKey(value: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

async function formatted(file: string, value: unknown): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(value, null, 2), { ...options, filepath: file });
}

/** Each shipped file and what it should hold. */
export function schemaFiles(): [string, () => unknown][] {
  return [
    [CONFIG_SCHEMA_FILE, () => configJsonSchema()],
    [RESULT_SCHEMA_FILE, () => resultJsonSchema()],
    [MANIFEST, () => manifestWithCatalog(JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Json)],
  ];
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, generate] of schemaFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    const next = await formatted(file, generate());
    if (next === text) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) fs.writeFileSync(file, next);
  }
  if (check && stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')}: out of date with the definitions in src/shared/schema/ or the driver catalog: run \`npm run schema\`\n`,
    );
    process.exit(1);
  }
  process.stderr.write(stale.length > 0 ? `rewrote ${stale.join(', ')}\n` : 'schema files are current\n');
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
